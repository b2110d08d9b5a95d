package roce_test

// Golden frames: one table-driven spec frame for every opcode ib knows
// (RC, UC, RD, UD, XRC and the RoCEv2 CNP), on RoCEv1, RoCEv2/IPv4 and
// RoCEv2/IPv6, each untagged and behind an 802.1Q tag. The frames are
// committed as pcap files under testdata/golden (see its README.md); run
//
//	go test -run TestGolden -update
//
// to rewrite them after a deliberate change of the spec.
//
// The expected values below do not come from the encoder under test: the
// headers each opcode carries are written out from the fact sheet
// (wire-format.md §3), the IPv4 header checksum, the UDP source port
// derived from the flow label and the ICRC are recomputed here by
// independent code (the ICRC by the zlib method of icrc-vectors.md).

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden pcap files under testdata/golden from the spec")

const goldenDir = "testdata/golden"

// goldenFiles is one pcap file per encapsulation, in the order of
// ib.Encapsulation.
var goldenFiles = []struct {
	enc  ib.Encapsulation
	file string
}{
	{ib.RoCEv1, "rocev1.pcap"},
	{ib.RoCEv2IPv4, "rocev2_ipv4.pcap"},
	{ib.RoCEv2IPv6, "rocev2_ipv6.pcap"},
}

// payloadKind is what may follow an opcode's headers.
type payloadKind int

const (
	payAny   payloadKind = iota // zero or more bytes
	payNone                     // nothing
	payEight                    // exactly 8 bytes (ATOMIC WRITE)
	payCNP                      // the 16 reserved bytes of a CNP
)

// opSpec is the fact sheet's description of one opcode.
type opSpec struct {
	op      ib.Opcode
	headers []ib.Header
	payload payloadKind
}

// factSheetOpcodes writes out wire-format.md §3 (IBTA Vol 1 Table 38 with
// the IBTA 1.5 FLUSH and ATOMIC WRITE codes, XRCETH first on XRC
// requests, and the CNP 0x81), independently of ib's own opcode table.
func factSheetOpcodes() []opSpec {
	const (
		RDETH  = ib.HeaderRDETH
		DETH   = ib.HeaderDETH
		XRCETH = ib.HeaderXRCETH
		RETH   = ib.HeaderRETH
		Atomic = ib.HeaderAtomicETH
		AckETH = ib.HeaderAtomicAckETH
		AETH   = ib.HeaderAETH
		ImmDt  = ib.HeaderImmDt
		IETH   = ib.HeaderIETH
		FETH   = ib.HeaderFETH
	)
	// The RC/UC form of each operation.
	base := map[uint8][]ib.Header{
		0x00: nil, 0x01: nil, 0x02: nil, 0x03: {ImmDt}, 0x04: nil, 0x05: {ImmDt},
		0x06: {RETH}, 0x07: nil, 0x08: nil, 0x09: {ImmDt}, 0x0A: {RETH}, 0x0B: {RETH, ImmDt},
		0x0C: {RETH}, 0x0D: {AETH}, 0x0E: nil, 0x0F: {AETH}, 0x10: {AETH}, 0x11: {AETH},
		0x12: {AETH, AckETH}, 0x13: {Atomic}, 0x14: {Atomic}, 0x15: nil,
		0x16: {IETH}, 0x17: {IETH}, 0x1C: {FETH, RETH}, 0x1D: {RETH},
	}
	response := func(op uint8) bool { return op >= 0x0D && op <= 0x12 }
	payload := func(op uint8) payloadKind {
		switch op {
		case 0x0C, 0x11, 0x12, 0x13, 0x14, 0x15, 0x1C:
			return payNone
		case 0x1D:
			return payEight
		}
		return payAny
	}
	cat := func(hs ...[]ib.Header) []ib.Header {
		var out []ib.Header
		for _, h := range hs {
			out = append(out, h...)
		}
		return out
	}
	var ops []opSpec
	add := func(prefix, op uint8, hs []ib.Header) {
		ops = append(ops, opSpec{ib.Opcode(prefix | op), hs, payload(op)})
	}
	rng := func(lo, hi uint8, extra ...uint8) []uint8 {
		var s []uint8
		for o := lo; o <= hi; o++ {
			s = append(s, o)
		}
		return append(s, extra...)
	}
	for _, op := range rng(0x00, 0x14, 0x16, 0x17, 0x1C, 0x1D) { // RC
		add(0x00, op, base[op])
	}
	for _, op := range rng(0x00, 0x0B) { // UC
		add(0x20, op, base[op])
	}
	for _, op := range rng(0x00, 0x15, 0x1C, 0x1D) { // RD: RDETH, DETH on requests
		if response(op) {
			add(0x40, op, cat([]ib.Header{RDETH}, base[op]))
		} else {
			add(0x40, op, cat([]ib.Header{RDETH, DETH}, base[op]))
		}
	}
	add(0x60, 0x04, []ib.Header{DETH})        // UD SEND Only
	add(0x60, 0x05, []ib.Header{DETH, ImmDt}) // UD SEND Only with Immediate
	ops = append(ops, opSpec{ib.OpCNP, nil, payCNP})
	for _, op := range rng(0x00, 0x14, 0x16, 0x17) { // XRC: XRCETH on requests
		if response(op) {
			add(0xA0, op, base[op])
		} else {
			add(0xA0, op, cat([]ib.Header{XRCETH}, base[op]))
		}
	}
	return ops
}

// goldenHeaderLen is the size of each extended header (wire-format.md §2).
var goldenHeaderLen = map[ib.Header]int{
	ib.HeaderRDETH: 4, ib.HeaderDETH: 8, ib.HeaderXRCETH: 4, ib.HeaderRETH: 16,
	ib.HeaderAtomicETH: 28, ib.HeaderAtomicAckETH: 8, ib.HeaderAETH: 4,
	ib.HeaderImmDt: 4, ib.HeaderIETH: 4, ib.HeaderFETH: 4,
}

// goldenHeaderLayer is the gopacket layer type of each extended header.
var goldenHeaderLayer = map[ib.Header]gopacket.LayerType{
	ib.HeaderRDETH: googlelayers.LayerTypeRDETH, ib.HeaderDETH: googlelayers.LayerTypeDETH,
	ib.HeaderXRCETH: googlelayers.LayerTypeXRCETH, ib.HeaderRETH: googlelayers.LayerTypeRETH,
	ib.HeaderAtomicETH: googlelayers.LayerTypeAtomicETH, ib.HeaderAtomicAckETH: googlelayers.LayerTypeAtomicAckETH,
	ib.HeaderAETH: googlelayers.LayerTypeAETH, ib.HeaderImmDt: googlelayers.LayerTypeImmDt,
	ib.HeaderIETH: googlelayers.LayerTypeIETH, ib.HeaderFETH: googlelayers.LayerTypeFETH,
}

// aethSyndromes covers ACKs (credit codes 0, 10, 31), RNR NAKs (timer
// codes 0, 14, 31) and every defined NAK code.
var aethSyndromes = []uint8{0x1F, 0x00, 0x0A, 0x20, 0x2E, 0x3F, 0x60, 0x61, 0x62, 0x63, 0x64}

// goldenRand is a small deterministic generator (splitmix64).
type goldenRand uint64

func (r *goldenRand) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *goldenRand) bit() bool   { return r.next()&1 != 0 }
func (r *goldenRand) u24() uint32 { return uint32(r.next()%0xffffff) + 1 }   // never 0
func (r *goldenRand) u32() uint32 { return uint32(r.next()%0xffffffff) + 1 } // never 0
func (r *goldenRand) u64() uint64 { return r.next()%0xffffffffffffffff + 1 } // never 0
func (r *goldenRand) fill(b []byte) {
	for i := range b {
		b[i] = byte(r.next())
	}
}
func (r *goldenRand) below(n int) int { return int(r.next() % uint64(n)) }

// goldenCase is one spec frame.
type goldenCase struct {
	name    string
	op      opSpec
	index   int // position of the opcode in factSheetOpcodes
	enc     ib.Encapsulation
	tagged  bool
	spec    roce.Frame // the input to AppendTo
	payload []byte
}

// goldenCases returns the spec frames of one encapsulation in file order:
// opcodes ascending, each untagged then tagged.
func goldenCases(enc ib.Encapsulation) []goldenCase {
	var cs []goldenCase
	for i, op := range factSheetOpcodes() {
		for _, tagged := range []bool{false, true} {
			cs = append(cs, makeCase(i, op, enc, tagged))
		}
	}
	return cs
}

func makeCase(i int, o opSpec, enc ib.Encapsulation, tagged bool) goldenCase {
	k := 2 * (int(enc) - 1) // variant 0..5
	if tagged {
		k++
	}
	r := goldenRand(uint64(o.op)<<8 | uint64(k))
	c := goldenCase{op: o, index: i, enc: enc, tagged: tagged}
	c.name = fmt.Sprintf("%s/%s(0x%02x)/untagged", enc, o.op, uint8(o.op))
	if tagged {
		c.name = strings.Replace(c.name, "untagged", "vlan", 1)
	}
	f := &c.spec
	f.Dst = [6]byte{0x02, 0x52, 0x4f, byte(o.op), byte(k), 0x01}
	f.Src = [6]byte{0x02, 0x52, 0x4f, byte(o.op), byte(k), 0x02}
	if tagged {
		f.NumVLANs = 1
		f.VLANs[0] = roce.VLAN{TPID: 0x8100, PCP: uint8(1 + (i+k)%7), DEI: i%7 == 3, ID: uint16(1 + r.below(4094))}
	}
	f.Encap = enc
	f.GRH.TClass = byte(r.next())
	f.GRH.HopLmt = byte(1 + r.below(255))
	switch enc {
	case ib.RoCEv1:
		f.GRH.FlowLabel = r.u24() & 0xfffff
		f.GRH.SGID = [16]byte{0: 0xfe, 1: 0x80}
		f.GRH.DGID = f.GRH.SGID
		r.fill(f.GRH.SGID[8:])
		r.fill(f.GRH.DGID[8:])
	case ib.RoCEv2IPv4:
		f.GRH.SGID = [16]byte{10: 0xff, 11: 0xff, 12: 10}
		f.GRH.DGID = [16]byte{10: 0xff, 11: 0xff, 12: 192, 13: 168}
		r.fill(f.GRH.SGID[13:])
		r.fill(f.GRH.DGID[14:])
		f.IPv4ID = uint16(r.next())
		if i%4 != 0 {
			f.IPv4Flags = 0x4000 // DF, as rxe sends
		}
		f.SrcPort = 0xc000 | uint16(r.next())&0x3fff
		f.UDPChecksum = i%3 == 0
	case ib.RoCEv2IPv6:
		f.GRH.FlowLabel = r.u24() & 0xfffff
		f.GRH.SGID = [16]byte{0: 0xfd, 1: 0x12, 2: 0x34, 3: 0x56}
		f.GRH.DGID = [16]byte{0: 0xfd, 1: 0x12, 2: 0x34, 3: 0x56}
		r.fill(f.GRH.SGID[8:])
		r.fill(f.GRH.DGID[8:])
		if tagged {
			f.SrcPort = 0xc000 | uint16(r.next())&0x3fff
		} // untagged: AppendTo derives it from the flow label
		f.UDPChecksum = i%5 != 0
	}

	b := &f.Packet.BTH
	b.OpCode = o.op
	b.SE, b.MigReq, b.AckReq = r.bit(), r.bit(), r.bit()
	b.PKey = 0x8000 | uint16(r.next())
	if i%6 == 0 {
		b.PKey = 0xffff
	}
	b.FECN = (i+k)%5 == 1
	b.BECN = (i+k)%7 == 2
	b.DestQP = r.u24()
	b.PSN = r.u24()
	if o.op == ib.OpCNP {
		b.SE, b.MigReq, b.AckReq, b.FECN, b.BECN, b.PSN = false, false, false, false, true, 0
	}

	p := &f.Packet
	n := 0
	switch o.payload {
	case payAny:
		n = (i + 3*k) % 8
		if (i+k)%5 == 0 {
			n += 64
		}
	case payEight:
		n = 8
	case payCNP:
		n = 16
	}
	c.payload = make([]byte, n)
	if o.payload != payCNP {
		r.fill(c.payload)
	}
	p.Payload = c.payload
	for _, h := range o.headers {
		switch h {
		case ib.HeaderRDETH:
			p.RDETH.EECnxt = r.u24()
		case ib.HeaderDETH:
			p.DETH.QKey, p.DETH.SrcQP = r.u32(), r.u24()
			if i%5 == 0 {
				p.DETH.QKey = 0x80010000 // the GSI Q_Key
			}
		case ib.HeaderXRCETH:
			p.XRCETH.XRCSRQ = r.u24()
		case ib.HeaderRETH:
			p.RETH.VA, p.RETH.RKey, p.RETH.DMALen = r.u64(), r.u32(), uint32(n)
			if o.op&0x1f != 0x0A && o.op&0x1f != 0x0B && o.op&0x1f != 0x1D {
				p.RETH.DMALen = r.u32() >> 8 // multi-packet write, read or flush length
			}
		case ib.HeaderAtomicETH:
			p.AtomicETH.VA = r.u64() &^ 7
			p.AtomicETH.RKey, p.AtomicETH.SwapData, p.AtomicETH.CompareData = r.u32(), r.u64(), r.u64()
		case ib.HeaderAtomicAckETH:
			p.AtomicAckETH.OrigRemData = r.u64()
		case ib.HeaderAETH:
			p.AETH.Syndrome = aethSyndromes[(i+k)%len(aethSyndromes)]
			p.AETH.MSN = r.u24()
		case ib.HeaderImmDt:
			p.ImmDt.Data = r.u32()
		case ib.HeaderIETH:
			p.IETH.RKey = r.u32()
		case ib.HeaderFETH:
			p.FETH.SEL, p.FETH.PLT = uint8(i+k)%2, uint8(1+(i+k)%3)
		}
	}
	return c
}

// build encodes the spec frame with roce.Frame.AppendTo.
func (c *goldenCase) build(t testing.TB) []byte {
	t.Helper()
	f := c.spec // AppendTo fills derived fields; keep the spec as written
	b, err := f.AppendTo(nil)
	if err != nil {
		t.Fatalf("%s: AppendTo: %v", c.name, err)
	}
	return b
}

// netOffset is where the GRH or IP header starts.
func (c *goldenCase) netOffset() int { return 14 + 4*c.spec.NumVLANs }

// transportLen is the length from the BTH through the ICRC.
func (c *goldenCase) transportLen() int {
	n := 12 + len(c.payload) + goldenPadCnt(len(c.payload)) + 4
	for _, h := range c.op.headers {
		n += goldenHeaderLen[h]
	}
	return n
}

func goldenPadCnt(n int) int { return (4 - n%4) % 4 }

// expect returns the Frame that decoding the golden bytes g must give,
// with every derived field computed here.
func (c *goldenCase) expect(g []byte) roce.Frame {
	f := c.spec
	tl := c.transportLen()
	f.GRH.IPVer, f.GRH.NxtHdr, f.GRH.PayLen = 6, 0x1b, uint16(tl)
	if c.enc != ib.RoCEv1 {
		f.DstPort = 4791
		if f.SrcPort == 0 {
			fl := f.GRH.FlowLabel
			f.SrcPort = 0xc000 | uint16((fl&0x3fff)^(fl>>14))
		}
	}
	if c.enc == ib.RoCEv2IPv4 {
		f.IPv4Checksum = goldenIPv4Checksum(&f, tl)
	}
	pc := goldenPadCnt(len(c.payload))
	f.Packet.BTH.PadCnt = uint8(pc)
	f.Packet.BTH.Pad = make([]byte, pc)
	f.Packet.Payload = c.payload
	icrc := goldenRefICRC(c.enc, g[c.netOffset():len(g)-4])
	binary.LittleEndian.PutUint32(f.Packet.BTH.ICRC[:], icrc)
	f.Raw = g[c.netOffset():]
	return f
}

// goldenIPv4Checksum builds the 20-byte IPv4 header the frame must carry and
// returns its RFC 791 checksum.
func goldenIPv4Checksum(f *roce.Frame, transportLen int) uint16 {
	var h [20]byte
	h[0], h[1] = 0x45, f.GRH.TClass
	binary.BigEndian.PutUint16(h[2:], uint16(20+8+transportLen))
	binary.BigEndian.PutUint16(h[4:], f.IPv4ID)
	binary.BigEndian.PutUint16(h[6:], f.IPv4Flags)
	h[8], h[9] = f.GRH.HopLmt, 17
	copy(h[12:16], f.GRH.SGID[12:])
	copy(h[16:20], f.GRH.DGID[12:])
	var s uint32
	for i := 0; i < 20; i += 2 {
		s += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

// goldenRefICRC is the ICRC by the zlib method of icrc-vectors.md: 8 bytes of
// 0xFF for the LRH, then the packet (network header through pad, without
// the ICRC) with the variant fields set to ones, through CRC-32 (IEEE).
func goldenRefICRC(enc ib.Encapsulation, pkt []byte) uint32 {
	b := append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, pkt...)
	m := b[8:]
	switch enc {
	case ib.RoCEv2IPv4:
		m[1], m[8], m[10], m[11] = 0xff, 0xff, 0xff, 0xff // TOS, TTL, checksum
		m[26], m[27] = 0xff, 0xff                         // UDP checksum
		m[32] = 0xff                                      // BTH FECN, BECN, Resv6a
	case ib.RoCEv2IPv6:
		m[0] |= 0x0f
		m[1], m[2], m[3], m[7] = 0xff, 0xff, 0xff, 0xff // TClass, FlowLabel, HopLmt
		m[46], m[47] = 0xff, 0xff
		m[52] = 0xff
	case ib.RoCEv1:
		m[0] |= 0x0f
		m[1], m[2], m[3], m[7] = 0xff, 0xff, 0xff, 0xff
		m[44] = 0xff
	}
	return crc32.ChecksumIEEE(b)
}

// frameOpts is how decoded Frames are compared: byte slices by content,
// the aliasing BaseLayer slices (checked separately) and unexported
// fields ignored.
var frameOpts = cmp.Options{
	cmpopts.EquateEmpty(),
	cmpopts.IgnoreFields(roce.Frame{}, "Raw", "WireLen"), // WireLen checked against the frame's length
	cmpopts.IgnoreUnexported(roce.Frame{}, ib.Packet{}, ib.BTH{}, ib.GRH{}, ib.RDETH{}, ib.DETH{}, ib.XRCETH{}, ib.RETH{}, ib.AtomicETH{},
		ib.AtomicAckETH{}, ib.AETH{}, ib.ImmDt{}, ib.IETH{}, ib.FETH{}),
}

// layerOpts compares single ib layers the gopacket paths decoded.
var layerOpts = cmp.Options{
	frameOpts,
	cmpopts.IgnoreFields(ib.BTH{}, "Pad"), // checked with the payload
}

func readGoldenPcap(t testing.TB, path string) [][]byte {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
	}
	defer fh.Close()
	r, err := pcapgo.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	if r.LinkType() != layers.LinkTypeEthernet {
		t.Fatalf("%s: link type %v", path, r.LinkType())
	}
	var out [][]byte
	for {
		data, ci, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if ci.CaptureLength != ci.Length {
			t.Fatalf("%s: frame %d truncated in the capture", path, len(out)+1)
		}
		out = append(out, data)
	}
}

// goldenFrames returns the committed golden frames of one encapsulation.
func goldenFrames(t testing.TB, file string) [][]byte {
	return readGoldenPcap(t, filepath.Join(goldenDir, file))
}

func TestGoldenSpecCoverage(t *testing.T) {
	ops := factSheetOpcodes()
	var known []ib.Opcode
	for o := 0; o < 256; o++ {
		if ib.Opcode(o).Known() {
			known = append(known, ib.Opcode(o))
		}
	}
	var want []ib.Opcode
	for _, o := range ops {
		want = append(want, o.op)
		if got := o.op.Headers(); got.Len() != len(o.headers) {
			t.Errorf("%v: ib lists headers %q, the fact sheet %v", o.op, got, o.headers)
		} else {
			for i, h := range o.headers {
				if got.At(i) != h {
					t.Errorf("%v: ib lists headers %q, the fact sheet %v", o.op, got, o.headers)
					break
				}
			}
		}
	}
	if d := cmp.Diff(want, known); d != "" {
		t.Errorf("opcodes ib.Opcode.Known accepts differ from the fact sheet (-sheet +ib):\n%s", d)
	}
	if len(ops) != 87 {
		t.Errorf("%d opcodes, want 87 (25 RC, 12 UC, 24 RD, 2 UD, 1 CNP, 23 XRC)", len(ops))
	}
	// Every PadCnt, every AETH kind and both FETH selectivity levels occur
	// on every encapsulation.
	for _, gf := range goldenFiles {
		pads := map[int]int{}
		aeth := map[ib.AckType]int{}
		nak := map[uint8]bool{}
		sel := map[uint8]bool{}
		for _, c := range goldenCases(gf.enc) {
			pads[goldenPadCnt(len(c.payload))]++
			if goldenHasHeader(c.op.headers, ib.HeaderAETH) {
				a := c.spec.Packet.AETH
				aeth[a.Type()]++
				if a.Type() == ib.Nak {
					nak[a.Value()] = true
				}
			}
			if goldenHasHeader(c.op.headers, ib.HeaderFETH) {
				sel[c.spec.Packet.FETH.SEL] = true
			}
		}
		if len(pads) != 4 || len(aeth) != 3 || len(nak) != 5 || len(sel) != 2 {
			t.Errorf("%v: PadCnt %v, AETH kinds %v, NAK codes %v, FETH SEL %v: want all", gf.enc, pads, aeth, nak, sel)
		}
	}
}

func goldenHasHeader(hs []ib.Header, h ib.Header) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// TestGoldenUpdate rewrites the golden files when -update is given.
func TestGoldenUpdate(t *testing.T) {
	if !*updateGolden {
		t.Skip("run with -update to rewrite testdata/golden")
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, gf := range goldenFiles {
		var frames [][]byte
		for _, c := range goldenCases(gf.enc) {
			frames = append(frames, c.build(t))
		}
		oracle.WritePcap(t, goldenDir, gf.file, frames)
		t.Logf("wrote %s: %d frames", filepath.Join(goldenDir, gf.file), len(frames))
	}
}

func TestGolden(t *testing.T) {
	total := 0
	for _, gf := range goldenFiles {
		cases := goldenCases(gf.enc)
		golden := goldenFrames(t, gf.file)
		if len(golden) != len(cases) {
			t.Fatalf("%s holds %d frames, the spec %d (run -update?)", gf.file, len(golden), len(cases))
		}
		for i := range cases {
			c := &cases[i]
			g := golden[i]
			t.Run(c.name, func(t *testing.T) {
				checkGoldenFrame(t, c, g)
			})
			total++
		}
	}
	t.Logf("%d golden frames checked", total)
	if total != 522 {
		t.Errorf("%d golden frames, want 522 (87 opcodes x 3 encapsulations x 2)", total)
	}
}

func checkGoldenFrame(t *testing.T, c *goldenCase, g []byte) {
	// 1. The encoder reproduces the committed bytes.
	if b := c.build(t); !bytes.Equal(b, g) {
		t.Errorf("AppendTo differs from the golden frame:\n got %x\nwant %x", b, g)
	}
	netOff := c.netOffset()
	if want := netOff + map[ib.Encapsulation]int{ib.RoCEv1: 40, ib.RoCEv2IPv4: 28, ib.RoCEv2IPv6: 48}[c.enc] + c.transportLen(); len(g) != want {
		t.Errorf("golden frame is %d bytes, want %d", len(g), want)
	}

	// 2. Frame.Decode gives the spec back; the ICRC verifies, and equals
	// the independently computed one.
	want := c.expect(g)
	var f roce.Frame
	if err := f.Decode(g); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if d := cmp.Diff(want, f, frameOpts); d != "" {
		t.Errorf("Decode differs from the spec (-want +got):\n%s", d)
	}
	if !bytes.Equal(f.Raw, g[netOff:]) {
		t.Errorf("Raw = %x, want the frame from offset %d", f.Raw, netOff)
	}
	if f.WireLen != len(g) || f.Truncated {
		t.Errorf("WireLen %d, Truncated %v; want %d, false", f.WireLen, f.Truncated, len(g))
	}
	if err := f.VerifyICRC(); err != nil {
		t.Errorf("VerifyICRC: %v", err)
	}
	if err := roce.VerifyFrame(g); err != nil {
		t.Errorf("VerifyFrame: %v", err)
	}
	if c.enc == ib.RoCEv2IPv4 && !goldenIPv4HeaderOK(g[netOff:netOff+20]) {
		t.Errorf("IPv4 header checksum does not verify")
	}
	if c.spec.UDPChecksum && !goldenUDPChecksumOK(c.enc, g[netOff:]) {
		t.Errorf("UDP checksum does not verify")
	}

	// 3. gopacket.NewPacket and the DecodingLayerParser give the expected
	// layers and values, and re-serialize to the golden bytes.
	wantTypes := c.layerTypes()
	p := gopacket.NewPacket(g, layers.LayerTypeEthernet, gopacket.Default)
	if el := p.ErrorLayer(); el != nil {
		t.Fatalf("NewPacket: %v", el.Error())
	}
	var gotTypes []gopacket.LayerType
	for _, l := range p.Layers() {
		gotTypes = append(gotTypes, l.LayerType())
	}
	if d := cmp.Diff(goldenTypeNames(wantTypes), goldenTypeNames(gotTypes)); d != "" {
		t.Errorf("NewPacket layers (-want +got):\n%s", d)
	}
	if err := googlelayers.VerifyPacket(p); err != nil {
		t.Errorf("VerifyPacket: %v", err)
	}
	checkOuterLayers(t, "NewPacket", c, &want, func(lt gopacket.LayerType) gopacket.Layer { return p.Layer(lt) })
	checkIBLayers(t, "NewPacket", c, &want, func(lt gopacket.LayerType) gopacket.Layer { return p.Layer(lt) })
	var sls []gopacket.SerializableLayer
	for _, l := range p.Layers() {
		sl, ok := l.(gopacket.SerializableLayer)
		if !ok {
			t.Fatalf("NewPacket: %v is not serializable", l.LayerType())
		}
		sls = append(sls, sl)
	}
	checkReserialize(t, "NewPacket", c, g, sls)

	var rl googlelayers.Layers
	parser := rl.Parser()
	var decoded []gopacket.LayerType
	if err := parser.DecodeLayers(g, &decoded); err != nil {
		t.Errorf("DecodingLayerParser: %v", err)
	}
	if d := cmp.Diff(goldenTypeNames(wantTypes), goldenTypeNames(decoded)); d != "" {
		t.Errorf("DecodingLayerParser layers (-want +got):\n%s", d)
	}
	byType := map[gopacket.LayerType]gopacket.Layer{
		layers.LayerTypeEthernet: &rl.Ethernet, layers.LayerTypeDot1Q: &rl.Dot1Q,
		layers.LayerTypeIPv4: &rl.IPv4, layers.LayerTypeIPv6: &rl.IPv6, layers.LayerTypeUDP: &rl.UDP,
		googlelayers.LayerTypeGRH: &rl.GRH, googlelayers.LayerTypeBTH: &rl.BTH, googlelayers.LayerTypeRDETH: &rl.RDETH,
		googlelayers.LayerTypeDETH: &rl.DETH, googlelayers.LayerTypeXRCETH: &rl.XRCETH, googlelayers.LayerTypeRETH: &rl.RETH,
		googlelayers.LayerTypeAtomicETH: &rl.AtomicETH, googlelayers.LayerTypeAtomicAckETH: &rl.AtomicAckETH,
		googlelayers.LayerTypeAETH: &rl.AETH, googlelayers.LayerTypeImmDt: &rl.ImmDt, googlelayers.LayerTypeIETH: &rl.IETH,
		googlelayers.LayerTypeFETH: &rl.FETH, gopacket.LayerTypePayload: &rl.Payload,
	}
	parsed := func(lt gopacket.LayerType) gopacket.Layer {
		for _, d := range decoded {
			if d == lt {
				return byType[lt]
			}
		}
		return nil
	}
	checkOuterLayers(t, "DecodingLayerParser", c, &want, parsed)
	checkIBLayers(t, "DecodingLayerParser", c, &want, parsed)
	sls = sls[:0]
	for _, lt := range decoded {
		sls = append(sls, byType[lt].(gopacket.SerializableLayer))
	}
	checkReserialize(t, "DecodingLayerParser", c, g, sls)
}

// layerTypes is the ordered list of layers the frame must decode to.
func (c *goldenCase) layerTypes() []gopacket.LayerType {
	lt := []gopacket.LayerType{layers.LayerTypeEthernet}
	if c.tagged {
		lt = append(lt, layers.LayerTypeDot1Q)
	}
	switch c.enc {
	case ib.RoCEv1:
		lt = append(lt, googlelayers.LayerTypeGRH)
	case ib.RoCEv2IPv4:
		lt = append(lt, layers.LayerTypeIPv4, layers.LayerTypeUDP)
	case ib.RoCEv2IPv6:
		lt = append(lt, layers.LayerTypeIPv6, layers.LayerTypeUDP)
	}
	lt = append(lt, googlelayers.LayerTypeBTH)
	for _, h := range c.op.headers {
		lt = append(lt, goldenHeaderLayer[h])
	}
	if len(c.payload) > 0 {
		lt = append(lt, gopacket.LayerTypePayload)
	}
	return lt
}

func goldenTypeNames(ts []gopacket.LayerType) []string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return s
}

// checkOuterLayers compares the Ethernet, 802.1Q, IP and UDP layers a
// gopacket path decoded with the expected frame.
func checkOuterLayers(t *testing.T, path string, c *goldenCase, want *roce.Frame, layer func(gopacket.LayerType) gopacket.Layer) {
	t.Helper()
	type outer struct {
		Dst, Src         string
		VLAN             roce.VLAN
		TOS, TTL         uint8
		ID, Flags, Len   uint16
		FlowLabel        uint32
		SrcIP, DstIP     string
		SrcPort, DstPort uint16
		UDPLen           uint16
	}
	g := &want.GRH
	w := outer{Dst: net.HardwareAddr(want.Dst[:]).String(), Src: net.HardwareAddr(want.Src[:]).String(),
		TOS: g.TClass, TTL: g.HopLmt, FlowLabel: g.FlowLabel, SrcPort: want.SrcPort, DstPort: want.DstPort}
	var got outer
	if e, ok := layer(layers.LayerTypeEthernet).(*layers.Ethernet); ok {
		got.Dst, got.Src = e.DstMAC.String(), e.SrcMAC.String()
	}
	if c.tagged {
		w.VLAN = want.VLANs[0]
		if d, ok := layer(layers.LayerTypeDot1Q).(*layers.Dot1Q); ok {
			got.VLAN = roce.VLAN{TPID: 0x8100, PCP: d.Priority, DEI: d.DropEligible, ID: d.VLANIdentifier}
		}
	}
	switch c.enc {
	case ib.RoCEv1:
		w.TOS, w.TTL, w.FlowLabel, w.SrcPort, w.DstPort = 0, 0, 0, 0, 0
	case ib.RoCEv2IPv4:
		w.ID, w.Flags, w.Len = want.IPv4ID, want.IPv4Flags, 20+8+g.PayLen
		w.SrcIP = netip.AddrFrom16(g.SGID).Unmap().String()
		w.DstIP = netip.AddrFrom16(g.DGID).Unmap().String()
		if ip, ok := layer(layers.LayerTypeIPv4).(*layers.IPv4); ok {
			got.TOS, got.TTL, got.ID, got.Len = ip.TOS, ip.TTL, ip.Id, ip.Length
			got.Flags = uint16(ip.Flags)<<13 | ip.FragOffset
			got.SrcIP, got.DstIP = ip.SrcIP.String(), ip.DstIP.String()
		}
	case ib.RoCEv2IPv6:
		w.Len = 8 + g.PayLen
		w.SrcIP = netip.AddrFrom16(g.SGID).String()
		w.DstIP = netip.AddrFrom16(g.DGID).String()
		if ip, ok := layer(layers.LayerTypeIPv6).(*layers.IPv6); ok {
			got.TOS, got.TTL, got.FlowLabel, got.Len = ip.TrafficClass, ip.HopLimit, ip.FlowLabel, ip.Length
			got.SrcIP, got.DstIP = ip.SrcIP.String(), ip.DstIP.String()
		}
	}
	if c.enc != ib.RoCEv1 {
		w.UDPLen = 8 + g.PayLen
		var u *layers.UDP
		switch x := layer(layers.LayerTypeUDP).(type) {
		case *layers.UDP:
			u = x
		case *googlelayers.UDP:
			u = &x.UDP
		}
		if u != nil {
			got.SrcPort, got.DstPort, got.UDPLen = uint16(u.SrcPort), uint16(u.DstPort), u.Length
		}
	}
	if d := cmp.Diff(w, got); d != "" {
		t.Errorf("%s: outer layers (-want +got):\n%s", path, d)
	}
}

// ibHeaderOf returns the header of package ib that the googlelayers layer
// l embeds.
func ibHeaderOf(l gopacket.Layer) any {
	v := reflect.ValueOf(l).Elem()
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.Anonymous && f.Type.PkgPath() == "github.com/roce-go/roce/ib" {
			return v.Field(i).Addr().Interface()
		}
	}
	return l
}

// checkIBLayers compares the InfiniBand layers a gopacket path decoded
// with the expected frame.
func checkIBLayers(t *testing.T, path string, c *goldenCase, want *roce.Frame, layer func(gopacket.LayerType) gopacket.Layer) {
	t.Helper()
	eq := func(name string, want, got any) {
		t.Helper()
		if d := cmp.Diff(want, got, layerOpts); d != "" {
			t.Errorf("%s: %s (-want +got):\n%s", path, name, d)
		}
	}
	if c.enc == ib.RoCEv1 {
		if g, ok := layer(googlelayers.LayerTypeGRH).(*googlelayers.GRH); !ok {
			t.Errorf("%s: no GRH layer", path)
		} else {
			eq("GRH", &want.GRH, &g.GRH)
		}
	}
	bth, ok := layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
	if !ok {
		t.Fatalf("%s: no BTH layer", path)
	}
	eq("BTH", &want.Packet.BTH, &bth.BTH)
	if !bytes.Equal(bth.Pad, want.Packet.BTH.Pad) {
		t.Errorf("%s: BTH.Pad = %x, want %x", path, bth.Pad, want.Packet.BTH.Pad)
	}
	wp := &want.Packet
	for _, h := range c.op.headers {
		l := layer(goldenHeaderLayer[h])
		if l == nil {
			t.Errorf("%s: no %v layer", path, h)
			continue
		}
		var w any
		switch h {
		case ib.HeaderRDETH:
			w = &wp.RDETH
		case ib.HeaderDETH:
			w = &wp.DETH
		case ib.HeaderXRCETH:
			w = &wp.XRCETH
		case ib.HeaderRETH:
			w = &wp.RETH
		case ib.HeaderAtomicETH:
			w = &wp.AtomicETH
		case ib.HeaderAtomicAckETH:
			w = &wp.AtomicAckETH
		case ib.HeaderAETH:
			w = &wp.AETH
		case ib.HeaderImmDt:
			w = &wp.ImmDt
		case ib.HeaderIETH:
			w = &wp.IETH
		case ib.HeaderFETH:
			w = &wp.FETH
		}
		eq(h.String(), w, ibHeaderOf(l))
		if len(l.LayerContents()) != goldenHeaderLen[h] {
			t.Errorf("%s: %v contents are %d bytes", path, h, len(l.LayerContents()))
		}
	}
	var got []byte
	if l := layer(gopacket.LayerTypePayload); l != nil {
		got = l.LayerContents()
	}
	if !bytes.Equal(got, c.payload) {
		t.Errorf("%s: payload = %x, want %x", path, got, c.payload)
	}
}

// checkReserialize clears every length, checksum and the ICRC in the
// decoded layers, serializes them with gopacket (FixLengths and
// ComputeChecksums), applies roce.FixICRC and compares with the golden
// frame.
//
// Two principled differences are allowed for. gopacket's UDP layer
// cannot serialize a zero checksum under ComputeChecksums (it needs a
// network layer and then computes one), so the layers up to UDP are
// serialized without ComputeChecksums when the frame has none, and the
// outer layers (IPv4 header checksum) always with it. And gopacket's
// Ethernet layer pads frames to the 60-byte minimum, which the golden
// frames, as a host sends them to its NIC, do not carry: the re-encoded
// frame must be the golden frame followed by zeros up to 60 bytes.
func checkReserialize(t *testing.T, path string, c *goldenCase, g []byte, sls []gopacket.SerializableLayer) {
	t.Helper()
	udpAt := -1
	var netLayer gopacket.NetworkLayer
	clearUDP := func(u *layers.UDP, i int) {
		u.Length, u.Checksum = 0, 0
		udpAt = i
		if c.spec.UDPChecksum {
			if err := u.SetNetworkLayerForChecksum(netLayer); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, l := range sls {
		switch x := l.(type) {
		case *layers.IPv4:
			x.Length, x.IHL, x.Checksum = 0, 0, 0
			netLayer = x
		case *layers.IPv6:
			x.Length = 0
			netLayer = x
		case *layers.UDP:
			clearUDP(x, i)
		case *googlelayers.UDP:
			clearUDP(&x.UDP, i)
		case *googlelayers.GRH:
			x.PayLen = 0
		case *googlelayers.BTH:
			x.PadCnt, x.ICRC = 0, [4]byte{}
		}
	}
	inner, outer := sls, []gopacket.SerializableLayer(nil)
	if udpAt >= 0 {
		inner, outer = sls[udpAt:], sls[:udpAt]
	}
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: c.enc == ib.RoCEv1 || c.spec.UDPChecksum}
	if err := gopacket.SerializeLayers(buf, opts, inner...); err != nil {
		t.Fatalf("%s: SerializeLayers: %v", path, err)
	}
	opts.ComputeChecksums = true
	for i := len(outer) - 1; i >= 0; i-- {
		if err := outer[i].SerializeTo(buf, opts); err != nil {
			t.Fatalf("%s: %v.SerializeTo: %v", path, outer[i].LayerType(), err)
		}
	}
	b := buf.Bytes()
	if err := roce.FixICRC(b); err != nil {
		t.Fatalf("%s: FixICRC: %v", path, err)
	}
	n := max(len(g), 60)
	if len(b) != n || !bytes.Equal(b[:len(g)], g) || !goldenAllZero(b[len(g):]) {
		t.Errorf("%s: SerializeLayers+FixICRC differs from the golden frame:\n got %x\nwant %x (+ zeros to 60 bytes)", path, b, g)
	}
	// The padded frame still decodes to the same packet.
	var f roce.Frame
	if err := f.Decode(b); err != nil {
		t.Errorf("%s: Decode of the padded frame: %v", path, err)
	} else if !bytes.Equal(f.Raw, g[c.netOffset():]) {
		t.Errorf("%s: padded frame: Raw = %x", path, f.Raw)
	}
}

func goldenAllZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func goldenOnesSum(b []byte, s uint32) uint32 {
	for len(b) >= 2 {
		s += uint32(binary.BigEndian.Uint16(b))
		b = b[2:]
	}
	if len(b) == 1 {
		s += uint32(b[0]) << 8
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return s
}

func goldenIPv4HeaderOK(h []byte) bool { return goldenOnesSum(h, 0) == 0xffff }

// goldenUDPChecksumOK verifies the UDP checksum over the pseudo-header; pkt
// starts at the IP header.
func goldenUDPChecksumOK(enc ib.Encapsulation, pkt []byte) bool {
	var ph []byte
	var udp []byte
	switch enc {
	case ib.RoCEv2IPv4:
		udp = pkt[20:]
		ph = append(ph, pkt[12:20]...)
	case ib.RoCEv2IPv6:
		udp = pkt[40:]
		ph = append(ph, pkt[8:40]...)
	default:
		return false
	}
	ph = append(ph, 0, 17)
	ph = binary.BigEndian.AppendUint16(ph, uint16(len(udp)))
	return goldenOnesSum(udp, goldenOnesSum(ph, 0)) == 0xffff
}

// ---------------------------------------------------------------------
// Hand-written vectors, independent of the encoder: V1-V5 are the worked
// vectors of icrc-vectors.md; H6-H9 were composed field by field for this
// test, their IPv4 checksums and ICRCs computed with the zlib method of
// icrc-vectors.md and, for the RoCEv2/IPv4 ones, confirmed by Scapy
// 2.5.0 (BTH.compute_icrc rebuilds the same four bytes).

type handVector struct {
	name   string
	hex    string // one field per line; '#' starts a comment
	want   roce.Frame
	types  []gopacket.LayerType
	icrc   uint32 // the ICRC value (sent least significant byte first)
	udpSum bool
}

func (v *handVector) bytes(t testing.TB) []byte {
	t.Helper()
	var s strings.Builder
	for _, line := range strings.Split(v.hex, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		s.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(s.String())
	if err != nil {
		t.Fatalf("%s: %v", v.name, err)
	}
	return b
}

func goldenGID4(a, b, c, d byte) [16]byte {
	return [16]byte{10: 0xff, 11: 0xff, 12: a, 13: b, 14: c, 15: d}
}

func goldenGID6(s string) [16]byte {
	var g [16]byte
	b, _ := hex.DecodeString(s)
	copy(g[:], b)
	return g
}

var roceMAC1 = [6]byte{2, 0, 0, 0, 0, 1}
var roceMAC2 = [6]byte{2, 0, 0, 0, 0, 2}
var handMACa = [6]byte{2, 0, 0, 0, 0, 0xaa}
var handMACb = [6]byte{2, 0, 0, 0, 0, 0xbb}

var rocePayload = []byte("RoCE test vec")

var (
	ltEth   = layers.LayerTypeEthernet
	ltDot1Q = layers.LayerTypeDot1Q
	ltIPv4  = layers.LayerTypeIPv4
	ltIPv6  = layers.LayerTypeIPv6
	ltUDP   = layers.LayerTypeUDP
	ltPay   = gopacket.LayerTypePayload
)

func handVectors() []handVector {
	sendOnlyBTH := ib.BTH{OpCode: 0x04, MigReq: true, PadCnt: 3, PKey: 0xffff, DestQP: 0x12, AckReq: true, PSN: 1,
		Pad: []byte{0, 0, 0}}
	v1 := handVector{
		name: "V1 RoCEv2/IPv4 RC SEND Only",
		hex: `
			020000000002 020000000001 0800 # Ethernet: dst, src, IPv4
			45        # version 4, IHL 5
			02        # TOS: DSCP 0, ECN ECT(0)
			003c      # total length 60
			1234      # identification
			4000      # flags DF, fragment offset 0
			40        # TTL 64
			11        # protocol UDP
			a527      # header checksum
			c0a80101  # source 192.168.1.1
			c0a80102  # destination 192.168.1.2
			c000      # UDP source port 49152
			12b7      # UDP destination port 4791
			0028      # UDP length 40
			0000      # UDP checksum: none
			04        # BTH opcode: RC SEND Only
			70        # SE 0, M 1, PadCnt 3, TVer 0
			ffff      # P_Key
			00        # FECN 0, BECN 0, Resv6a 0
			000012    # DestQP
			80        # AckReq 1, Resv7 0
			000001    # PSN
			526f4345207465737420766563 # payload "RoCE test vec"
			000000    # pad
			85bca00f  # ICRC 0x0FA0BC85, least significant byte first`,
		want: roce.Frame{Dst: roceMAC2, Src: roceMAC1, Encap: ib.RoCEv2IPv4,
			GRH:    ib.GRH{IPVer: 6, TClass: 0x02, PayLen: 32, NxtHdr: 0x1b, HopLmt: 64, SGID: goldenGID4(192, 168, 1, 1), DGID: goldenGID4(192, 168, 1, 2)},
			IPv4ID: 0x1234, IPv4Flags: 0x4000, IPv4Checksum: 0xa527, SrcPort: 49152, DstPort: 4791,
			Packet: ib.Packet{BTH: sendOnlyBTH, Payload: rocePayload}},
		types: []gopacket.LayerType{ltEth, ltIPv4, ltUDP, googlelayers.LayerTypeBTH, ltPay},
		icrc:  0x0FA0BC85,
	}
	v2 := handVector{
		name: "V2 RoCEv2/IPv6 RC SEND Only",
		hex: `
			020000000002 020000000001 86dd # Ethernet: dst, src, IPv6
			6 02 12345 # version 6, traffic class 0x02, flow label 0x12345
			0028      # payload length 40
			11        # next header UDP
			40        # hop limit 64
			fd000000000000000000000000000001 # source fd00::1
			fd000000000000000000000000000002 # destination fd00::2
			c000      # UDP source port 49152
			12b7      # UDP destination port 4791
			0028      # UDP length 40
			c683      # UDP checksum
			04 70 ffff 00 000012 80 000001 # BTH as in V1
			526f4345207465737420766563 000000 # payload, pad
			038b7b2d  # ICRC 0x2D7B8B03`,
		want: roce.Frame{Dst: roceMAC2, Src: roceMAC1, Encap: ib.RoCEv2IPv6,
			GRH:     ib.GRH{IPVer: 6, TClass: 0x02, FlowLabel: 0x12345, PayLen: 32, NxtHdr: 0x1b, HopLmt: 64, SGID: goldenGID6("fd000000000000000000000000000001"), DGID: goldenGID6("fd000000000000000000000000000002")},
			SrcPort: 49152, DstPort: 4791, UDPChecksum: true,
			Packet: ib.Packet{BTH: sendOnlyBTH, Payload: rocePayload}},
		types:  []gopacket.LayerType{ltEth, ltIPv6, ltUDP, googlelayers.LayerTypeBTH, ltPay},
		icrc:   0x2D7B8B03,
		udpSum: true,
	}
	v3 := handVector{
		name: "V3 RoCEv1 RC SEND Only",
		hex: `
			020000000002 020000000001 8915 # Ethernet: dst, src, RoCEv1
			6 00 00000 # GRH IPVer 6, TClass 0, FlowLabel 0
			0020      # PayLen 32
			1b        # NxtHdr: BTH
			40        # HopLmt 64
			fe800000000000000000000000000001 # SGID fe80::1
			fe800000000000000000000000000002 # DGID fe80::2
			04 70 ffff 00 000012 80 000001 # BTH as in V1
			526f4345207465737420766563 000000 # payload, pad
			b906246b  # ICRC 0x6B2406B9`,
		want: roce.Frame{Dst: roceMAC2, Src: roceMAC1, Encap: ib.RoCEv1,
			GRH:    ib.GRH{IPVer: 6, PayLen: 32, NxtHdr: 0x1b, HopLmt: 64, SGID: goldenGID6("fe800000000000000000000000000001"), DGID: goldenGID6("fe800000000000000000000000000002")},
			Packet: ib.Packet{BTH: sendOnlyBTH, Payload: rocePayload}},
		types: []gopacket.LayerType{ltEth, googlelayers.LayerTypeGRH, googlelayers.LayerTypeBTH, ltPay},
		icrc:  0x6B2406B9,
	}
	v4 := handVector{
		name: "V4 RoCEv2/IPv4 CNP",
		hex: `
			020000000001 020000000002 0800 # Ethernet: dst, src, IPv4
			45 c2     # version 4, IHL 5; TOS DSCP 48, ECT(0)
			003c 0000 4000 # total length 60, ID 0, DF
			40 11 b69b # TTL 64, UDP, header checksum
			c0a80102 c0a80101 # 192.168.1.2 -> 192.168.1.1
			c001 12b7 0028 0000 # UDP 49153 -> 4791, length 40, no checksum
			81        # BTH opcode: CNP
			00        # SE 0, M 0, PadCnt 0, TVer 0
			ffff      # P_Key
			40        # FECN 0, BECN 1
			000034    # DestQP
			00 000000 # AckReq 0, PSN 0
			00000000000000000000000000000000 # 16 reserved bytes
			0d07721e  # ICRC 0x1E72070D`,
		want: roce.Frame{Dst: roceMAC1, Src: roceMAC2, Encap: ib.RoCEv2IPv4,
			GRH:       ib.GRH{IPVer: 6, TClass: 0xc2, PayLen: 32, NxtHdr: 0x1b, HopLmt: 64, SGID: goldenGID4(192, 168, 1, 2), DGID: goldenGID4(192, 168, 1, 1)},
			IPv4Flags: 0x4000, IPv4Checksum: 0xb69b, SrcPort: 49153, DstPort: 4791,
			Packet: ib.Packet{BTH: ib.BTH{OpCode: ib.OpCNP, PKey: 0xffff, BECN: true, DestQP: 0x34}, Payload: make([]byte, 16)}},
		types: []gopacket.LayerType{ltEth, ltIPv4, ltUDP, googlelayers.LayerTypeBTH, ltPay},
		icrc:  0x1E72070D,
	}
	v5 := handVector{
		name: "V5 RoCEv2/IPv4 RC Acknowledge",
		hex: `
			020000000001 020000000002 0800 # Ethernet: dst, src, IPv4
			45 02 0030 0001 4000 # IHL 5, ECT(0), total length 48, ID 1, DF
			40 11 b766 # TTL 64, UDP, header checksum
			c0a80102 c0a80101 # 192.168.1.2 -> 192.168.1.1
			c000 12b7 001c 0000 # UDP 49152 -> 4791, length 28, no checksum
			11 00 ffff 00 000011 00 000001 # BTH: RC Acknowledge, DestQP 0x11, PSN 1
			1f        # AETH syndrome: ACK, credit code 31
			000005    # MSN 5
			aea7a67c  # ICRC 0x7CA6A7AE`,
		want: roce.Frame{Dst: roceMAC1, Src: roceMAC2, Encap: ib.RoCEv2IPv4,
			GRH:    ib.GRH{IPVer: 6, TClass: 0x02, PayLen: 20, NxtHdr: 0x1b, HopLmt: 64, SGID: goldenGID4(192, 168, 1, 2), DGID: goldenGID4(192, 168, 1, 1)},
			IPv4ID: 1, IPv4Flags: 0x4000, IPv4Checksum: 0xb766, SrcPort: 49152, DstPort: 4791,
			Packet: ib.Packet{BTH: ib.BTH{OpCode: 0x11, PKey: 0xffff, DestQP: 0x11, PSN: 1}, AETH: ib.AETH{Syndrome: 0x1f, MSN: 5}}},
		types: []gopacket.LayerType{ltEth, ltIPv4, ltUDP, googlelayers.LayerTypeBTH, googlelayers.LayerTypeAETH},
		icrc:  0x7CA6A7AE,
	}
	h6 := handVector{
		name: "H6 RoCEv2/IPv4 802.1Q RC RDMA WRITE Only",
		hex: `
			0200000000aa 0200000000bb # Ethernet dst, src
			8100      # TPID 802.1Q
			6064      # PCP 3, DEI 0, VID 100
			0800      # IPv4
			45        # version 4, IHL 5
			68        # TOS: DSCP 26, Not-ECT
			0044      # total length 68
			0102      # identification
			4000      # DF
			3f        # TTL 63
			11        # UDP
			263d      # header checksum
			0a000001 0a000002 # 10.0.0.1 -> 10.0.0.2
			d00d      # UDP source port 53261
			12b7      # UDP destination port 4791
			0030      # UDP length 48
			0000      # no checksum
			0a        # BTH opcode: RC RDMA WRITE Only
			30        # SE 0, M 0, PadCnt 3, TVer 0
			8001      # P_Key
			00        # FECN 0, BECN 0
			000123    # DestQP
			80        # AckReq 1
			00abcd    # PSN
			00007f0012345000 # RETH VA
			00a1b2c3  # RETH R_Key
			00000005  # RETH DMA length 5
			68656c6c6f # payload "hello"
			000000    # pad
			8d6b73c0  # ICRC 0xC0736B8D`,
		want: roce.Frame{Dst: handMACa, Src: handMACb, NumVLANs: 1, VLANs: [roce.MaxVLANs]roce.VLAN{{TPID: 0x8100, PCP: 3, ID: 100}},
			Encap:  ib.RoCEv2IPv4,
			GRH:    ib.GRH{IPVer: 6, TClass: 0x68, PayLen: 40, NxtHdr: 0x1b, HopLmt: 63, SGID: goldenGID4(10, 0, 0, 1), DGID: goldenGID4(10, 0, 0, 2)},
			IPv4ID: 0x0102, IPv4Flags: 0x4000, IPv4Checksum: 0x263d, SrcPort: 0xd00d, DstPort: 4791,
			Packet: ib.Packet{
				BTH:     ib.BTH{OpCode: 0x0a, PadCnt: 3, PKey: 0x8001, DestQP: 0x123, AckReq: true, PSN: 0xabcd, Pad: []byte{0, 0, 0}},
				RETH:    ib.RETH{VA: 0x00007f0012345000, RKey: 0x00a1b2c3, DMALen: 5},
				Payload: []byte("hello")}},
		types: []gopacket.LayerType{ltEth, ltDot1Q, ltIPv4, ltUDP, googlelayers.LayerTypeBTH, googlelayers.LayerTypeRETH, ltPay},
		icrc:  0xC0736B8D,
	}
	h7 := handVector{
		name: "H7 RoCEv2/IPv4 RC CmpSwap",
		hex: `
			0200000000aa 0200000000bb 0800 # Ethernet dst, src, IPv4
			45 00 0048 0203 4000 # IHL 5, TOS 0, total length 72, ID 0x0203, DF
			40 11 24a0 # TTL 64, UDP, header checksum
			0a000001 0a000002 # 10.0.0.1 -> 10.0.0.2
			c123 12b7 0034 0000 # UDP 49443 -> 4791, length 52, no checksum
			13        # BTH opcode: RC CmpSwap
			00        # SE 0, M 0, PadCnt 0, TVer 0
			ffff      # P_Key
			00        # FECN 0, BECN 0
			000456    # DestQP
			80        # AckReq 1
			000010    # PSN
			00007f00deadbe00 # AtomicETH VA
			11223344  # AtomicETH R_Key
			0102030405060708 # swap data
			1112131415161718 # compare data
			557c57a9  # ICRC 0xA9577C55`,
		want: roce.Frame{Dst: handMACa, Src: handMACb, Encap: ib.RoCEv2IPv4,
			GRH:    ib.GRH{IPVer: 6, PayLen: 44, NxtHdr: 0x1b, HopLmt: 64, SGID: goldenGID4(10, 0, 0, 1), DGID: goldenGID4(10, 0, 0, 2)},
			IPv4ID: 0x0203, IPv4Flags: 0x4000, IPv4Checksum: 0x24a0, SrcPort: 0xc123, DstPort: 4791,
			Packet: ib.Packet{
				BTH:       ib.BTH{OpCode: 0x13, PKey: 0xffff, DestQP: 0x456, AckReq: true, PSN: 0x10},
				AtomicETH: ib.AtomicETH{VA: 0x00007f00deadbe00, RKey: 0x11223344, SwapData: 0x0102030405060708, CompareData: 0x1112131415161718}}},
		types: []gopacket.LayerType{ltEth, ltIPv4, ltUDP, googlelayers.LayerTypeBTH, googlelayers.LayerTypeAtomicETH},
		icrc:  0xA9577C55,
	}
	h8 := handVector{
		name: "H8 RoCEv2/IPv4 UD SEND Only with Immediate",
		hex: `
			0200000000aa 0200000000bb 0800 # Ethernet dst, src, IPv4
			45 02 0044 0304 4000 # IHL 5, ECT(0), total length 68, ID 0x0304, DF
			40 11 a84f # TTL 64, UDP, header checksum
			c0a80701 c0a80702 # 192.168.7.1 -> 192.168.7.2
			c0de 12b7 0030 0000 # UDP 49374 -> 4791, length 48, no checksum
			65        # BTH opcode: UD SEND Only with Immediate
			b0        # SE 1, M 0, PadCnt 3, TVer 0
			ffff      # P_Key
			00        # FECN 0, BECN 0
			0000c5    # DestQP (not QP1, whose payloads tshark reads as MADs)
			00        # AckReq 0
			000777    # PSN
			11111111  # DETH Q_Key
			00        # DETH reserved
			000abc    # DETH SrcQP
			deadbeef  # immediate data
			55447061796c6f6164 # payload "UDpayload"
			000000    # pad
			fe76c632  # ICRC 0x32C676FE`,
		want: roce.Frame{Dst: handMACa, Src: handMACb, Encap: ib.RoCEv2IPv4,
			GRH:    ib.GRH{IPVer: 6, TClass: 0x02, PayLen: 40, NxtHdr: 0x1b, HopLmt: 64, SGID: goldenGID4(192, 168, 7, 1), DGID: goldenGID4(192, 168, 7, 2)},
			IPv4ID: 0x0304, IPv4Flags: 0x4000, IPv4Checksum: 0xa84f, SrcPort: 0xc0de, DstPort: 4791,
			Packet: ib.Packet{
				BTH:     ib.BTH{OpCode: 0x65, SE: true, PadCnt: 3, PKey: 0xffff, DestQP: 0xc5, PSN: 0x777, Pad: []byte{0, 0, 0}},
				DETH:    ib.DETH{QKey: 0x11111111, SrcQP: 0xabc},
				ImmDt:   ib.ImmDt{Data: 0xdeadbeef},
				Payload: []byte("UDpayload")}},
		types: []gopacket.LayerType{ltEth, ltIPv4, ltUDP, googlelayers.LayerTypeBTH, googlelayers.LayerTypeDETH, googlelayers.LayerTypeImmDt, ltPay},
		icrc:  0x32C676FE,
	}
	h9 := handVector{
		name: "H9 RoCEv1 802.1Q RC ATOMIC Acknowledge",
		hex: `
			0200000000aa 0200000000bb # Ethernet dst, src
			8100      # TPID 802.1Q
			a005      # PCP 5, DEI 0, VID 5
			8915      # RoCEv1
			6 2a 12345 # GRH IPVer 6, TClass 0x2A, FlowLabel 0x12345
			001c      # PayLen 28
			1b        # NxtHdr: BTH
			11        # HopLmt 17
			fe800000000000000000000000000001 # SGID fe80::1
			fe800000000000000000000000000002 # DGID fe80::2
			12        # BTH opcode: RC ATOMIC Acknowledge
			00        # SE 0, M 0, PadCnt 0, TVer 0
			7fff      # P_Key (limited member)
			c0        # FECN 1, BECN 1
			000789    # DestQP
			00        # AckReq 0
			00fedc    # PSN
			61        # AETH syndrome: NAK, Invalid Request
			000042    # MSN
			fedcba9876543210 # AtomicAckETH original remote data
			50cff624  # ICRC 0x24F6CF50`,
		want: roce.Frame{Dst: handMACa, Src: handMACb, NumVLANs: 1, VLANs: [roce.MaxVLANs]roce.VLAN{{TPID: 0x8100, PCP: 5, ID: 5}},
			Encap: ib.RoCEv1,
			GRH:   ib.GRH{IPVer: 6, TClass: 0x2a, FlowLabel: 0x12345, PayLen: 28, NxtHdr: 0x1b, HopLmt: 17, SGID: goldenGID6("fe800000000000000000000000000001"), DGID: goldenGID6("fe800000000000000000000000000002")},
			Packet: ib.Packet{
				BTH:          ib.BTH{OpCode: 0x12, PKey: 0x7fff, FECN: true, BECN: true, DestQP: 0x789, PSN: 0xfedc},
				AETH:         ib.AETH{Syndrome: 0x61, MSN: 0x42},
				AtomicAckETH: ib.AtomicAckETH{OrigRemData: 0xfedcba9876543210}}},
		types: []gopacket.LayerType{ltEth, ltDot1Q, googlelayers.LayerTypeGRH, googlelayers.LayerTypeBTH, googlelayers.LayerTypeAETH, googlelayers.LayerTypeAtomicAckETH},
		icrc:  0x24F6CF50,
	}
	vs := []handVector{v1, v2, v3, v4, v5, h6, h7, h8, h9}
	for i := range vs {
		binary.LittleEndian.PutUint32(vs[i].want.Packet.BTH.ICRC[:], vs[i].icrc)
	}
	return vs
}

func TestHandVectors(t *testing.T) {
	for _, v := range handVectors() {
		t.Run(v.name, func(t *testing.T) {
			b := v.bytes(t)
			var f roce.Frame
			if err := f.Decode(b); err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if d := cmp.Diff(v.want, f, frameOpts); d != "" {
				t.Errorf("Decode (-want +got):\n%s", d)
			}
			if err := f.VerifyICRC(); err != nil {
				t.Errorf("VerifyICRC: %v", err)
			}
			netOff := 14 + 4*v.want.NumVLANs
			if got := goldenRefICRC(v.want.Encap, b[netOff:len(b)-4]); got != v.icrc {
				t.Errorf("reference ICRC %#08x, vector says %#08x", got, v.icrc)
			}
			if v.want.Encap == ib.RoCEv2IPv4 && !goldenIPv4HeaderOK(b[netOff:netOff+20]) {
				t.Errorf("IPv4 header checksum does not verify")
			}
			if v.udpSum && !goldenUDPChecksumOK(v.want.Encap, b[netOff:]) {
				t.Errorf("UDP checksum does not verify")
			}
			// Re-encoding the decoded frame gives the vector back.
			e := f
			out, err := e.AppendTo(nil)
			if err != nil {
				t.Fatalf("AppendTo: %v", err)
			}
			if !bytes.Equal(out, b) {
				t.Errorf("AppendTo:\n got %x\nwant %x", out, b)
			}
			p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
			if el := p.ErrorLayer(); el != nil {
				t.Fatalf("NewPacket: %v", el.Error())
			}
			var got []gopacket.LayerType
			for _, l := range p.Layers() {
				got = append(got, l.LayerType())
			}
			if d := cmp.Diff(goldenTypeNames(v.types), goldenTypeNames(got)); d != "" {
				t.Errorf("NewPacket layers (-want +got):\n%s", d)
			}
		})
	}
}
