package rocelayers_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	ggopacket "github.com/google/gopacket"
	glayers "github.com/google/gopacket/layers"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocelayers"
)

// capture is the frames of one pcap file of the repository's testdata.
type capture struct {
	name   string
	native bool // ERF InfiniBand records, reduced to the packet from the LRH
	frames [][]byte
}

// linkTypeERF is LINKTYPE_ERF (197); a record starts with a 16-byte ERF
// header (type 21 is InfiniBand) and its extension headers, if any.
const linkTypeERF = 197

// captures reads every capture and golden file of ../testdata.
func captures(t testing.TB) []capture {
	t.Helper()
	names, err := filepath.Glob("../testdata/*/*.pcap")
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

// core returns the header a layer of this module's packages is: the
// layer itself for a google/gopacket layer of ib or pfc, the embedded
// header for a rocelayers layer; nil for any other layer.
func core(l any) any {
	v := reflect.ValueOf(l)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	switch t := v.Elem().Type(); t.PkgPath() {
	case "github.com/roce-go/roce/ib", "github.com/roce-go/roce/pfc":
		return v.Elem().Interface()
	case "github.com/roce-go/roce/rocelayers":
		return v.Elem().Field(0).Interface()
	}
	return nil
}

// TestNewPacketSameAsGoogle decodes every frame of every capture with
// gopacket.NewPacket of both modules (the fork's also with gopacket.Lazy)
// and compares, layer by layer, the
// names of the layers and every field of each header of this module's
// packages.
func TestNewPacketSameAsGoogle(t *testing.T) {
	frames, headers := 0, 0
	for _, c := range captures(t) {
		gfirst, ffirst := ggopacket.LayerType(glayers.LayerTypeEthernet), gopacket.LayerType(layers.LayerTypeEthernet)
		if c.native {
			gfirst, ffirst = ib.LayerTypeLRH, rocelayers.LayerTypeLRH
		}
		for i, data := range c.frames {
			g := ggopacket.NewPacket(data, gfirst, ggopacket.Default).Layers()
			f := gopacket.NewPacket(data, ffirst, gopacket.Default).Layers()
			lazy := gopacket.NewPacket(data, ffirst, gopacket.Lazy).Layers()
			if len(g) != len(f) || len(lazy) != len(f) {
				t.Fatalf("%s frame %d: %d layers with Google's gopacket, %d with the fork (%d lazily)", c.name, i+1, len(g), len(f), len(lazy))
			}
			for j := range g {
				if gn, fn := g[j].LayerType().String(), f[j].LayerType().String(); gn != fn {
					t.Fatalf("%s frame %d layer %d: %s, fork %s", c.name, i+1, j, gn, fn)
				}
				gc, fc := core(g[j]), core(f[j])
				if gc == nil {
					continue
				}
				if d := cmp.Diff(gc, fc, anyUnexported); d != "" {
					t.Fatalf("%s frame %d layer %s (-google +fork):\n%s", c.name, i+1, g[j].LayerType(), d)
				}
				if d := cmp.Diff(gc, core(lazy[j]), anyUnexported); d != "" {
					t.Fatalf("%s frame %d layer %s (-google +fork, lazily):\n%s", c.name, i+1, g[j].LayerType(), d)
				}
				headers++
			}
			frames++
		}
	}
	t.Logf("%d frames, %d headers compared field by field", frames, headers)
	if frames < 8000 || headers < 8000 {
		t.Errorf("only %d frames and %d headers compared", frames, headers)
	}
}

// googleParser is the DecodingLayerParser of Google's gopacket this
// test compares with: roce.Layers and pfc.MACControl.
type googleParser struct {
	l   roce.Layers
	mac pfc.MACControl
	pay ggopacket.Payload
	p   *ggopacket.DecodingLayerParser
}

func newGoogleParser(native bool) *googleParser {
	g := &googleParser{}
	if native {
		g.p = ggopacket.NewDecodingLayerParser(ib.LayerTypeLRH, g.l.IB.DecodingLayers()...)
		return g
	}
	g.p = g.l.Parser()
	g.p.AddDecodingLayer(&g.mac)
	return g
}

// layer returns the google layer of g decoded as type t.
func (g *googleParser) layer(t ggopacket.LayerType) any {
	if t == pfc.LayerTypeMACControl {
		return &g.mac
	}
	for _, d := range g.l.IB.DecodingLayers() {
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
	for _, c := range captures(t) {
		g := newGoogleParser(c.native)
		var l rocelayers.Layers
		first := gopacket.LayerType(layers.LayerTypeEthernet)
		if c.native {
			first = rocelayers.LayerTypeLRH
		}
		p := l.ParserFrom(first)
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
	t.Logf("%d frames, %d headers compared field by field", frames, headers)
	if frames < 8000 || headers < 8000 {
		t.Errorf("only %d frames and %d headers compared", frames, headers)
	}
}
