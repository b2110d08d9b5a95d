package samegoogle_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	ggopacket "github.com/google/gopacket"
	glayers "github.com/google/gopacket/layers"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/rocelayers"
)

// capture is the frames of one pcap file of the repository's testdata,
// or the link type 242 records made from the IPoIB packets of one.
type capture struct {
	name   string
	native bool // ERF InfiniBand records, reduced to the packet from the LRH
	ipoib  bool // link type 242 records
	frames [][]byte
	// The layer its frames start with, Google's and the fork's, for the
	// golden MADs; zero for the captures (see starts).
	gfirst ggopacket.LayerType
	ffirst gopacket.LayerType
}

// starts returns the layer type the frames of c start with, Google's and
// the fork's.
func (c capture) starts() (ggopacket.LayerType, gopacket.LayerType) {
	switch {
	case c.gfirst != 0:
		return c.gfirst, c.ffirst
	case c.native:
		return googlelayers.LayerTypeLRH, rocelayers.LayerTypeLRH
	case c.ipoib:
		return googlelayers.LayerTypeIPoIBLinkHeader, rocelayers.LayerTypeIPoIBLinkHeader
	}
	return ggopacket.LayerType(glayers.LayerTypeEthernet), gopacket.LayerType(layers.LayerTypeEthernet)
}

// linkTypeERF is LINKTYPE_ERF (197); a record starts with a 16-byte ERF
// header (type 21 is InfiniBand) and its extension headers, if any.
const linkTypeERF = 197

// captures reads every capture and golden file of the repository's testdata, and adds
// the link type 242 records of the IPoIB packets among them.
func captures(t testing.TB) []capture {
	cs := pcaps(t)
	for _, c := range cs {
		if c.native {
			cs = append(cs, linkRecords(c))
		}
	}
	return append(append(cs, goldenMADs(t)...), tagged(t))
}

// tagged is RoCEv2 frames behind VLAN tags of TPID 0x8100, 0x88a8 and
// 0x9100 in several orders, up to roce.MaxVLANs, built with roce.Frame.
func tagged(t testing.TB) capture {
	t.Helper()
	c := capture{name: "tagged frames"}
	for i, st := range [][]uint16{{0x9100}, {0x9100, 0x8100}, {0x88a8, 0x8100, 0x8100}, {0x8100, 0x88a8, 0x9100, 0x8100},
		{0x9100, 0x9100, 0x88a8, 0x88a8, 0x8100, 0x8100, 0x8100, 0x8100}} {
		f := roce.Frame{Encap: ib.RoCEv2IPv4, NumVLANs: len(st)}
		f.GRH.SGID, f.GRH.DGID = [16]byte{10: 0xff, 11: 0xff, 12: 10, 15: 1}, [16]byte{10: 0xff, 11: 0xff, 12: 10, 15: 2}
		for j, tpid := range st {
			f.VLANs[j] = roce.VLAN{TPID: tpid, PCP: uint8(j), ID: uint16(10*i + j + 1)}
		}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpRCRDMAWriteOnly, PKey: 0xffff, DestQP: 0x12, PSN: uint32(i)}
		f.Packet.RETH = ib.RETH{VA: 0x1000, RKey: 7, DMALen: 4}
		f.Packet.Payload = []byte{1, 2, 3, 4}
		b, err := f.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		c.frames = append(c.frames, b)
	}
	return c
}

// TestTagsToBTH checks that the fork's NewPacket and parser go through
// VLAN tags of every TPID, 0x9100 included, to the BTH, as
// roce.Frame.Decode does.
func TestTagsToBTH(t *testing.T) {
	var l rocelayers.Layers
	p := l.ParserFrom(gopacket.LayerType(layers.LayerTypeEthernet))
	var decoded []gopacket.LayerType
	for i, b := range tagged(t).frames {
		var f roce.Frame
		if err := f.Decode(b); err != nil {
			t.Fatal(err)
		}
		pk := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
		bth, ok := pk.Layer(rocelayers.LayerTypeBTH).(*rocelayers.BTH)
		if !ok || bth.PSN != uint32(i) {
			t.Fatalf("frame %d: NewPacket %v", i, pk)
		}
		tags := 0
		for _, l := range pk.Layers() {
			if l.LayerType() == layers.LayerTypeDot1Q {
				tags++
			}
		}
		if err := p.DecodeLayers(b, &decoded); err != nil || tags != f.NumVLANs || !slices.Contains(decoded, rocelayers.LayerTypeBTH) {
			t.Fatalf("frame %d: %d tags of %d, parser %v %v", i, tags, f.NumVLANs, decoded, err)
		}
	}
}

// linkRecords returns the IPoIB packets of the native capture c as link
// type 242 records: a received packet's (the 40 bytes are its GRH, with
// the sender's QP of its DETH) when it has a GRH, else a sent packet's
// (the 40 bytes end with the destination QP and the source GID).
func linkRecords(c capture) capture {
	out := capture{name: c.name + " as link type 242", ipoib: true}
	for _, data := range c.frames {
		p := ggopacket.NewPacket(data, googlelayers.LayerTypeLRH, ggopacket.Default)
		h, ok := p.Layer(googlelayers.LayerTypeIPoIB).(*googlelayers.IPoIB)
		if !ok {
			continue
		}
		var lh ipoib.LinkHeader
		bth := p.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
		if g, ok := p.Layer(googlelayers.LayerTypeGRH).(*googlelayers.GRH); ok {
			lh = ipoib.LinkHeader{IPVer: g.IPVer, TClass: g.TClass, FlowLabel: g.FlowLabel, SGID: g.SGID, DGID: g.DGID}
			if d, ok := p.Layer(googlelayers.LayerTypeDETH).(*googlelayers.DETH); ok {
				lh.SrcQP = d.SrcQP
			}
		} else {
			var a ipoib.HWAddr
			binary.BigEndian.PutUint32(a[:], 0x80<<24|bth.DestQP)
			a[4], a[5], a[19] = 0xfe, 0x80, byte(bth.DestQP) // a link-local GID
			lh.SetDstAddr(a)
		}
		rec, err := lh.AppendTo(nil)
		if err != nil {
			panic(err)
		}
		out.frames = append(out.frames, append(append(rec, h.Contents...), h.Payload...))
	}
	return out
}

// pcaps reads every capture and golden file of the repository's testdata.
func pcaps(t testing.TB) []capture {
	t.Helper()
	names, err := filepath.Glob("../../../testdata/*/*.pcap")
	if err != nil || len(names) == 0 {
		t.Fatalf("no captures (%v)", err)
	}
	var cs []capture
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := pcapgo.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := capture{name: filepath.Base(name), native: r.LinkType() == linkTypeERF}
		for {
			data, _, err := r.ReadPacketData()
			if err != nil {
				break
			}
			if c.native {
				data = erfRecord(t, data)
			}
			c.frames = append(c.frames, data)
		}
		f.Close()
		cs = append(cs, c)
	}
	return cs
}

// erfRecord returns the InfiniBand packet of an ERF record: after the
// header (and its extension headers, 8 bytes each, while the top bit of
// the type says one follows), up to the wire length at offset 14.
func erfRecord(t testing.TB, rec []byte) []byte {
	off, typ := 16, rec[8]
	for more := typ&0x80 != 0; more; off += 8 {
		more = rec[off]&0x80 != 0
	}
	if typ&0x7f != 21 {
		t.Fatalf("ERF type %d is not InfiniBand", typ)
	}
	return rec[off:][:binary.BigEndian.Uint16(rec[14:])]
}

// anyUnexported lets cmp compare the headers' unexported fields too (the
// BTH's header list, an extended header's kind and BTH).
var anyUnexported = cmp.Exporter(func(reflect.Type) bool { return true })

// codecs are the codec packages whose headers the layers embed.
var codecs = map[string]bool{"github.com/roce-go/roce/ib": true, "github.com/roce-go/roce/pfc": true,
	"github.com/roce-go/roce/mad": true, "github.com/roce-go/roce/ipoib": true, "github.com/roce-go/roce/dcbx": true}

// core returns the header a layer of this module's packages is: the
// layer itself for a google/gopacket layer of a codec package, the
// embedded codec header for a layer of googlelayers or rocelayers; nil
// for any other layer.
func core(l any) any {
	v := reflect.ValueOf(l)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	switch t := v.Elem().Type(); {
	case codecs[t.PkgPath()]:
		return v.Elem().Interface()
	case t.PkgPath() == "github.com/roce-go/roce/rocelayers" || t.PkgPath() == "github.com/roce-go/roce/googlelayers":
		for i := range t.NumField() {
			if f := t.Field(i); f.Anonymous && codecs[f.Type.PkgPath()] {
				return v.Elem().Field(i).Interface()
			}
		}
	}
	return nil
}

// sameLayers compares the layer lists of one packet decoded with Google's
// gopacket (g) and the fork (f): the same layer types, each header of
// this module's packages with the same fields. The fork may end with one
// more Payload after a layer of its own (its ICMPv6Echo hands on the echo
// data, v1.1.19's keeps it): extra says so. It returns the headers
// compared.
func sameLayers(t *testing.T, where string, g []ggopacket.Layer, f []gopacket.Layer) (headers int, extra bool) {
	t.Helper()
	if len(f) == len(g)+1 && len(g) > 0 && core(g[len(g)-1]) == nil && f[len(g)].LayerType() == gopacket.LayerTypePayload {
		f, extra = f[:len(g)], true
	}
	if len(g) != len(f) {
		t.Fatalf("%s: %d layers with Google's gopacket, %d with the fork", where, len(g), len(f))
	}
	for j := range g {
		if gn, fn := g[j].LayerType().String(), f[j].LayerType().String(); gn != fn {
			t.Fatalf("%s layer %d: %s, fork %s", where, j, gn, fn)
		}
		gc, fc := core(g[j]), core(f[j])
		if gc == nil {
			continue
		}
		if d := cmp.Diff(gc, fc, anyUnexported); d != "" {
			t.Fatalf("%s layer %s (-google +fork):\n%s", where, g[j].LayerType(), d)
		}
		headers++
	}
	return headers, extra
}

// TestNewPacketSameAsGoogle decodes every frame of every capture with
// gopacket.NewPacket of both modules (the fork's also with gopacket.Lazy)
// and compares, layer by layer, the names of the layers and every field
// of each header of this module's packages (the MAD and IPoIB layers
// included).
func TestNewPacketSameAsGoogle(t *testing.T) {
	frames, headers, extras := 0, 0, 0
	count := map[string]int{}
	for _, c := range captures(t) {
		gfirst, ffirst := c.starts()
		for i, data := range c.frames {
			where := fmt.Sprintf("%s frame %d", c.name, i+1)
			g := ggopacket.NewPacket(data, gfirst, ggopacket.Default).Layers()
			n, extra := sameLayers(t, where, g, gopacket.NewPacket(data, ffirst, gopacket.Default).Layers())
			sameLayers(t, where+" (lazily)", g, gopacket.NewPacket(data, ffirst, gopacket.Lazy).Layers())
			for _, l := range g {
				count[l.LayerType().String()]++
			}
			if extra {
				extras++
			}
			headers += n
			frames++
		}
	}
	t.Logf("%d frames, %d headers compared field by field (%s); %d frames with the fork's extra Payload after ICMPv6Echo",
		frames, headers, tally(t, count, 30), extras)
	if frames < 8000 || headers < 8000 {
		t.Errorf("only %d frames and %d headers compared", frames, headers)
	}
}

// tally lists how many MAD and IPoIB layers count holds, by layer name,
// and fails t when one is missing or IPoIB has fewer than ipoibs.
func tally(t *testing.T, count map[string]int, ipoibs int) string {
	t.Helper()
	var out []string
	for _, name := range []string{"MAD", "RMPP", "CM", "SA", "SMP", "SMPDirected", "PerfMgt", "IPoIB", "IPoIBLinkHeader"} {
		out = append(out, fmt.Sprintf("%d %s", count[name], name))
		if count[name] == 0 || name == "IPoIB" && count[name] < ipoibs {
			t.Errorf("%d %s layers compared", count[name], name)
		}
	}
	return strings.Join(out, ", ")
}

// googleParser is the DecodingLayerParser of Google's gopacket this
// test compares with: googlelayers.Layers (the MAD, MAC Control and
// IPoIB layers included).
type googleParser struct {
	l googlelayers.Layers
	p *ggopacket.DecodingLayerParser
}

// newGoogleParser returns googlelayers.Layers.ParserFrom(first).
func newGoogleParser(first ggopacket.LayerType) *googleParser {
	g := &googleParser{}
	g.p = g.l.ParserFrom(first)
	return g
}

// layer returns the google layer of g decoded as type t.
func (g *googleParser) layer(t ggopacket.LayerType) any {
	for _, d := range g.l.DecodingLayers() {
		if d.CanDecode().Contains(t) {
			return d
		}
	}
	return nil
}

// forkLayer returns the layer of l decoded as type t.
func forkLayer(l *rocelayers.Layers, t gopacket.LayerType) any {
	for _, d := range l.DecodingLayers() {
		if d.CanDecode().Contains(t) {
			return d
		}
	}
	return nil
}

// TestParserSameAsGoogle decodes every frame of every capture with a
// DecodingLayerParser of each module and compares the layer types
// decoded, the error (none or one), the truncation flag and every field
// of each header of this module's packages.
func TestParserSameAsGoogle(t *testing.T) {
	frames, headers := 0, 0
	count := map[string]int{}
	for _, c := range captures(t) {
		gfirst, ffirst := c.starts()
		g := newGoogleParser(gfirst)
		var l rocelayers.Layers
		p := l.ParserFrom(ffirst)
		var gd []ggopacket.LayerType
		var fd []gopacket.LayerType
		for i, data := range c.frames {
			gerr := g.p.DecodeLayers(data, &gd)
			ferr := p.DecodeLayers(data, &fd)
			// Truncated is compared where no layer failed: Google's IPv6
			// sets it before an ICMPv6 payload it cannot hand on.
			if (gerr == nil) != (ferr == nil) || gerr == nil && g.p.Truncated != p.Truncated || len(gd) != len(fd) {
				t.Fatalf("%s frame %d: Google %v %v (truncated %v), fork %v %v (truncated %v)",
					c.name, i+1, gd, gerr, g.p.Truncated, fd, ferr, p.Truncated)
			}
			for j := range gd {
				if gd[j].String() != fd[j].String() {
					t.Fatalf("%s frame %d: Google %v, fork %v", c.name, i+1, gd, fd)
				}
				count[gd[j].String()]++
				gc := core(g.layer(gd[j]))
				if gc == nil {
					continue
				}
				if d := cmp.Diff(gc, core(forkLayer(&l, fd[j])), anyUnexported); d != "" {
					t.Fatalf("%s frame %d layer %s (-google +fork):\n%s", c.name, i+1, gd[j], d)
				}
				headers++
			}
			frames++
		}
	}
	t.Logf("%d frames, %d headers compared field by field (%s)", frames, headers, tally(t, count, 15))
	if frames < 8000 || headers < 8000 {
		t.Errorf("only %d frames and %d headers compared", frames, headers)
	}
}
