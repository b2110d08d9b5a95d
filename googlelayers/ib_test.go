package googlelayers

// The contract of the InfiniBand layers, moved here with them from
// package ib: each layer decodes as its ib header does, tells its
// DecodeFeedback of a truncation, resets itself, keeps its link to the
// BTH of its Layers set, serializes the bytes it decoded, allocates
// nothing.

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/gopacket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/ib"
)

// contractCases gives each DecodingLayer of the package, from a Layers
// set (so that the extended headers keep their link to its BTH), and a
// whole input it decodes; every shorter input is truncated.
func contractCases(l *Layers) []struct {
	name string
	l    gopacket.DecodingLayer
	full []byte
} {
	l.DecodingLayers()
	ack := []byte{
		0x11, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, // BTH: RC Acknowledge
		0x1f, 0, 0, 1, // AETH
		9, 9, 9, 9, // ICRC
	}
	grh := append([]byte{
		0x60, 0, 0, 0, // IPVer 6
		0, 20, ib.NxtHdrBTH, 64, // PayLen 20
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, // SGID
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, // DGID
	}, ack...)
	lrh := append([]byte{
		0x20, ib.LNHIBALocal, 0, 5, // VL 2, LNH 2, DLID 5
		0, 7, 0, 1, // PktLen 7 words (28 bytes), SLID 1
	}, ack...)
	lrh = append(lrh, 0xab, 0xcd) // VCRC
	bytesOf := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(0xa0 + i)
		}
		return b
	}
	return []struct {
		name string
		l    gopacket.DecodingLayer
		full []byte
	}{
		{"BTH", &l.BTH, ack},
		{"GRH", &l.GRH, grh},
		{"LRH", &l.LRH, lrh},
		{"RDETH", &l.RDETH, bytesOf(ib.RDETHLen)},
		{"DETH", &l.DETH, bytesOf(ib.DETHLen)},
		{"XRCETH", &l.XRCETH, bytesOf(ib.XRCETHLen)},
		{"RETH", &l.RETH, bytesOf(ib.RETHLen)},
		{"AtomicETH", &l.AtomicETH, bytesOf(ib.AtomicETHLen)},
		{"AtomicAckETH", &l.AtomicAckETH, bytesOf(ib.AtomicAckETHLen)},
		{"AETH", &l.AETH, bytesOf(ib.AETHLen)},
		{"ImmDt", &l.ImmDt, bytesOf(ib.ImmDtLen)},
		{"IETH", &l.IETH, bytesOf(ib.IETHLen)},
		{"FETH", &l.FETH, bytesOf(ib.FETHLen)},
	}
}

// exportedZero reports the first exported field of the struct v points
// to (promoted fields of embedded structs included) that is not zero.
func exportedZero(v reflect.Value) (string, bool) {
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		f, sf := v.Field(i), v.Type().Field(i)
		if sf.Anonymous && f.Kind() == reflect.Struct {
			if name, ok := exportedZero(f.Addr()); !ok {
				return name, false
			}
			continue
		}
		if sf.IsExported() && !f.IsZero() {
			return sf.Name, false
		}
	}
	return "", true
}

// TestDecodeNilFeedback: every DecodeFromBytes takes a nil DecodeFeedback;
// every input shorter than a whole one is an error matching ErrTruncated
// and io.ErrUnexpectedEOF, without a panic, and leaves the receiver
// zeroed after a successful decode of another packet, its link to the
// BTH of its Layers kept.
func TestDecodeNilFeedback(t *testing.T) {
	var l Layers
	for _, c := range contractCases(&l) {
		t.Run(c.name, func(t *testing.T) {
			whole := len(c.full)
			switch c.name {
			case "GRH", "LRH":
				// A cut after the header is a capture's snap length,
				// not an error: the payload is what was captured.
				whole = ib.GRHLen
				if c.name == "LRH" {
					whole = ib.LRHLen
				}
				var df truncatedFeedback
				require.NoError(t, c.l.DecodeFromBytes(c.full[:len(c.full)-3], &df))
				assert.True(t, bool(df), "SetTruncated not called on a cut payload")
				assert.Equal(t, c.full[whole:len(c.full)-3], c.l.(gopacket.Layer).LayerPayload())
			}
			for n := range whole {
				require.NoError(t, c.l.DecodeFromBytes(c.full, nil))
				require.NotEmpty(t, c.l.(gopacket.Layer).LayerContents())
				var err error
				require.NotPanics(t, func() { err = c.l.DecodeFromBytes(c.full[:n], nil) }, "%d bytes", n)
				require.ErrorIs(t, err, ib.ErrTruncated, "%d bytes", n)
				require.ErrorIs(t, err, io.ErrUnexpectedEOF, "%d bytes", n)
				field, zero := exportedZero(reflect.ValueOf(c.l))
				require.True(t, zero, "%d bytes: %s kept from the previous decode", n, field)
			}
			// The feedback is told, when there is one.
			var df truncatedFeedback
			require.Error(t, c.l.DecodeFromBytes(c.full[:whole-1], &df))
			assert.True(t, bool(df), "SetTruncated not called")
		})
	}
	for _, e := range []*link{&l.RDETH.link, &l.DETH.link, &l.XRCETH.link, &l.RETH.link, &l.AtomicETH.link,
		&l.AtomicAckETH.link, &l.AETH.link, &l.ImmDt.link, &l.IETH.link, &l.FETH.link} {
		assert.Same(t, &l.BTH.BTH, e.bth, "a failed decode dropped the link to the BTH")
	}
}

type truncatedFeedback bool

func (f *truncatedFeedback) SetTruncated() { *f = true }

// frontBuffer is a Buffer that is not gopacket's: bytes grow at the front
// and the back of a plain slice.
type frontBuffer struct{ b []byte }

func (f *frontBuffer) Bytes() []byte { return f.b }

func (f *frontBuffer) PrependBytes(n int) ([]byte, error) {
	f.b = append(make([]byte, n), f.b...)
	return f.b[:n], nil
}

func (f *frontBuffer) AppendBytes(n int) ([]byte, error) {
	f.b = append(f.b, make([]byte, n)...)
	return f.b[len(f.b)-n:], nil
}

// coreDecode decodes data into the ib header that the layer d embeds,
// with ib's codec, and returns that header.
func coreDecode(d gopacket.DecodingLayer, data []byte) (h any, cut bool, err error) {
	switch l := d.(type) {
	case *LRH:
		_, cut, err = l.LRH.Split(data)
		return &l.LRH, cut, err
	case *GRH:
		_, cut, err = l.GRH.Split(data)
		return &l.GRH, cut, err
	case *BTH:
		_, err = l.BTH.Split(data, len(data))
		return &l.BTH, false, err
	}
	// An extended header: the ib header is the field after the link.
	f := reflect.ValueOf(d).Elem().Field(1).Addr().Interface()
	return f, false, f.(interface{ Decode([]byte) error }).Decode(data)
}

// ibPart returns the ib header the layer d embeds.
func ibPart(d gopacket.DecodingLayer) any {
	v := reflect.ValueOf(d).Elem()
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.Anonymous && f.Type.PkgPath() == "github.com/roce-go/roce/ib" {
			return v.Field(i).Addr().Interface()
		}
	}
	panic("no ib header in " + v.Type().String())
}

// truncation records whether a decoder told its feedback of a cut.
type truncation bool

func (t *truncation) SetTruncated() { *t = true }

// TestCoreIsDecodeFromBytes checks, for every header and every prefix of
// a packet of it, that ib's codec leaves the ib header as the layer's
// DecodeFromBytes does, fails alike, and reports as cut what
// DecodeFromBytes tells its feedback.
func TestCoreIsDecodeFromBytes(t *testing.T) {
	var viaCore, viaGopacket Layers
	a, b := contractCases(&viaCore), contractCases(&viaGopacket)
	for i := range a {
		for n := 0; n <= len(a[i].full); n++ {
			data := a[i].full[:n]
			core, cut, cerr := coreDecode(a[i].l, data)
			var told truncation
			gerr := b[i].l.DecodeFromBytes(data, &told)
			if !reflect.DeepEqual(core, ibPart(b[i].l)) || (cerr == nil) != (gerr == nil) ||
				bool(told) != (cut || errors.Is(cerr, ib.ErrTruncated)) {
				t.Fatalf("%s of %d bytes: core %+v %v (cut %v), DecodeFromBytes %+v %v (told %v)",
					a[i].name, n, a[i].l, cerr, cut, b[i].l, gerr, told)
			}
		}
	}
}

// TestSerializeWithoutGopacket checks that Serialize, written through a
// Buffer that is not gopacket's, writes the bytes SerializeTo writes.
func TestSerializeWithoutGopacket(t *testing.T) {
	var l Layers
	cases := contractCases(&l)
	for _, c := range cases {
		if err := c.l.DecodeFromBytes(c.full, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		s := c.l.(interface {
			gopacket.SerializableLayer
			Serialize(ib.Buffer, ib.SerializeOptions) error
		})
		for _, fix := range []bool{false, true} {
			payload := c.l.(gopacket.Layer).LayerPayload()
			g := gopacket.NewSerializeBuffer()
			copy(must(g.AppendBytes(len(payload))), payload)
			gerr := s.SerializeTo(g, gopacket.SerializeOptions{FixLengths: fix})
			f := &frontBuffer{b: append([]byte(nil), payload...)}
			ferr := s.Serialize(f, ib.SerializeOptions{FixLengths: fix})
			if (gerr == nil) != (ferr == nil) || !bytes.Equal(g.Bytes(), f.b) {
				t.Errorf("%s (FixLengths %v): SerializeTo %v % x, Serialize %v % x", c.name, fix, gerr, g.Bytes(), ferr, f.b)
			}
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestCoreNoAllocs holds the allocation contract for the core: decoding
// every header without gopacket allocates nothing.
func TestCoreNoAllocs(t *testing.T) {
	var l Layers
	for _, c := range contractCases(&l) {
		if n := testing.AllocsPerRun(100, func() {
			if _, _, err := coreDecode(c.l, c.full); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations", c.name, n)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	var l Layers
	cases := contractCases(&l)
	buf := gopacket.NewSerializeBuffer()
	serialize := func(l gopacket.SerializableLayer, before int, opts gopacket.SerializeOptions) func() error {
		return func() error {
			if err := buf.Clear(); err != nil {
				return err
			}
			if b, err := buf.AppendBytes(before); err != nil {
				return err
			} else {
				clear(b)
			}
			return l.SerializeTo(buf, opts)
		}
	}
	fix := gopacket.SerializeOptions{FixLengths: true}
	rows := map[string]func() error{}
	for _, c := range cases {
		rows[c.name+".DecodeFromBytes"] = func() error { return c.l.DecodeFromBytes(c.full, gopacket.NilDecodeFeedback) }
		rows[c.name+".DecodeFromBytes (nil feedback)"] = func() error { return c.l.DecodeFromBytes(c.full, nil) }
	}
	// SerializeTo into a reused buffer, each with what must come before
	// it: the BTH its AETH, the GRH and LRH a transport packet.
	for _, c := range cases {
		if err := c.l.DecodeFromBytes(c.full, nil); err != nil {
			t.Fatal(err)
		}
	}
	rows["BTH.SerializeTo"] = serialize(&l.BTH, ib.AETHLen, fix)
	rows["GRH.SerializeTo"] = serialize(&l.GRH, 20, fix)
	rows["LRH.SerializeTo"] = serialize(&l.LRH, 20, fix)
	for _, c := range cases[3:] {
		rows[c.name+".SerializeTo"] = serialize(c.l.(gopacket.SerializableLayer), 0, gopacket.SerializeOptions{})
	}
	for name, fn := range rows {
		var err error
		n := testing.AllocsPerRun(100, func() {
			if e := fn(); e != nil {
				err = e
			}
		})
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}

// Each header, hand-encoded from the field layouts of docs/wire-format.md §1-4,
// decodes to its fields and serializes back to the same bytes.
func TestHeaderBytes(t *testing.T) {
	type layer interface {
		gopacket.DecodingLayer
		gopacket.SerializableLayer
	}
	for _, c := range []struct {
		name  string
		bytes []byte
		got   layer
		want  layer
	}{
		{"RDETH", []byte{
			0xa5,             // reserved, kept
			0x12, 0x34, 0x56, // EECnxt
		}, &RDETH{}, &RDETH{RDETH: ib.RDETH{Resv8: 0xa5, EECnxt: 0x123456}}},
		{"DETH", []byte{
			0x80, 0x01, 0x00, 0x00, // Q_Key (GSI)
			0x00,             // reserved
			0x00, 0x00, 0x01, // SrcQP
		}, &DETH{}, &DETH{DETH: ib.DETH{QKey: 0x80010000, SrcQP: 1}}},
		{"XRCETH", []byte{0x00, 0xab, 0xcd, 0xef}, &XRCETH{}, &XRCETH{XRCETH: ib.XRCETH{XRCSRQ: 0xabcdef}}},
		{"RETH", []byte{
			0x00, 0x00, 0x7f, 0xff, 0x12, 0x34, 0x50, 0x00, // VA
			0xde, 0xad, 0xbe, 0xef, // R_Key
			0x00, 0x00, 0x10, 0x00, // DMA Length 4096
		}, &RETH{}, &RETH{RETH: ib.RETH{VA: 0x7fff12345000, RKey: 0xdeadbeef, DMALen: 4096}}},
		{"AtomicETH", []byte{
			0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x08, // VA
			0x00, 0x00, 0x01, 0x02, // R_Key
			0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, // swap/add data at offset 12
			0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, // compare data at offset 20
		}, &AtomicETH{}, &AtomicETH{AtomicETH: ib.AtomicETH{VA: 0x10000008, RKey: 0x102, SwapData: 0x1122334455667788, CompareData: 0x99aabbccddeeff00}}},
		{"AtomicAckETH", []byte{0, 0, 0, 0, 0, 0, 0, 42}, &AtomicAckETH{}, &AtomicAckETH{AtomicAckETH: ib.AtomicAckETH{OrigRemData: 42}}},
		{"AETH", []byte{
			0x60,             // syndrome: NAK, PSN sequence error
			0x00, 0x00, 0x07, // MSN
		}, &AETH{}, &AETH{AETH: ib.AETH{Syndrome: 0x60, MSN: 7}}},
		{"ImmDt", []byte{0xca, 0xfe, 0xba, 0xbe}, &ImmDt{}, &ImmDt{ImmDt: ib.ImmDt{Data: 0xcafebabe}}},
		{"IETH", []byte{0x00, 0x00, 0x12, 0x34}, &IETH{}, &IETH{IETH: ib.IETH{RKey: 0x1234}}},
		{"FETH", []byte{
			0x00, 0x00, 0x00, // reserved
			0x13, // reserved bits 0, SEL 1 (bits 5..4), PLT 3 (bits 3..0)
		}, &FETH{}, &FETH{FETH: ib.FETH{SEL: 1, PLT: 3}}},
		{"LRH", []byte{
			0x20,       // VL 2, LVer 0
			0x03,       // SL 0, LNH 3 (GRH follows)
			0x00, 0x05, // DLID
			0x00, 0x0c, // PktLen 12 words
			0x00, 0x01, // SLID
			// 40 bytes follow: stand-in for the rest of the packet
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			0xab, 0xcd, // VCRC
		}, &LRH{}, &LRH{LRH: ib.LRH{VL: 2, LNH: 3, DLID: 5, PktLen: 12, SLID: 1, VCRC: 0xabcd}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.got.DecodeFromBytes(c.bytes, gopacket.NilDecodeFeedback); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(ibPart(c.want), ibPart(c.got)); d != "" {
				t.Fatalf("decode mismatch (-want +got):\n%s", d)
			}
			buf := gopacket.NewSerializeBuffer()
			if c.name == "LRH" {
				p, _ := buf.PrependBytes(40)
				clear(p)
			}
			if err := c.want.SerializeTo(buf, gopacket.SerializeOptions{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), c.bytes) {
				t.Fatalf("encode:\n got %x\nwant %x", buf.Bytes(), c.bytes)
			}
			if c.name == "LRH" {
				return
			}
			// Every shorter input is an ErrTruncated, also io.ErrUnexpectedEOF.
			for n := 0; n < len(c.bytes); n++ {
				err := c.got.DecodeFromBytes(c.bytes[:n], gopacket.NilDecodeFeedback)
				if !errors.Is(err, ib.ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("len %d: err = %v", n, err)
				}
				var e *ib.Error
				if !errors.As(err, &e) || e.Layer != c.name {
					t.Fatalf("len %d: error %v does not name the layer", n, err)
				}
			}
		})
	}
}

// TestBTHLayers: the gopacket layers walk the headers of the opcode.
func TestBTHLayers(t *testing.T) {
	b := []byte{
		0x0b,       // OpCode: RC RDMA WRITE Only with Immediate
		0xe2,       // SE 1, M 1, PadCnt 2, TVer 2
		0x80, 0x01, // P_Key
		0xc5,             // FECN 1, BECN 1, Resv6a 5
		0x00, 0x12, 0x34, // DestQP
		0x81,             // AckReq 1, Resv7 1
		0xab, 0xcd, 0xef, // PSN
		// RETH
		0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 7, 0, 0, 0, 2,
		// ImmDt
		0x01, 0x02, 0x03, 0x04,
		// payload, 2 bytes, then 2 pad bytes
		0xaa, 0xbb, 0x00, 0x00,
		// ICRC as received
		0x11, 0x22, 0x33, 0x44,
	}
	// The gopacket layers walk the opcode's headers.
	var l Layers
	parser := gopacket.NewDecodingLayerParser(LayerTypeBTH, l.DecodingLayers()...)
	var decoded []gopacket.LayerType
	if err := parser.DecodeLayers(b, &decoded); err != nil {
		t.Fatal(err)
	}
	wantTypes := []gopacket.LayerType{LayerTypeBTH, LayerTypeRETH, LayerTypeImmDt, gopacket.LayerTypePayload}
	if d := cmp.Diff(wantTypes, decoded); d != "" {
		t.Fatalf("layers (-want +got):\n%s", d)
	}
	if !bytes.Equal(l.Payload, []byte{0xaa, 0xbb}) || !bytes.Equal(l.BTH.Pad, []byte{0, 0}) || l.ImmDt.Data != 0x01020304 {
		t.Fatalf("parser: payload %x pad %x imm %x", []byte(l.Payload), l.BTH.Pad, l.ImmDt.Data)
	}
	pk := gopacket.NewPacket(b, LayerTypeBTH, gopacket.Default)
	var got []gopacket.LayerType
	for _, x := range pk.Layers() {
		got = append(got, x.LayerType())
	}
	if d := cmp.Diff(wantTypes, got); d != "" {
		t.Fatalf("NewPacket layers (-want +got):\n%s\n%v", d, pk)
	}
}

// serializable is what every header layer is, for the SerializeTo tests.
type serializable interface {
	gopacket.SerializableLayer
	gopacket.DecodingLayer
}

// TestSerializeToRefuses: every SerializeTo refuses a field that does not
// fit, writing nothing, with the error AppendTo would give.
func TestSerializeToRefuses(t *testing.T) {
	for _, c := range []struct {
		l   serializable
		msg string
	}{
		{&BTH{BTH: ib.BTH{OpCode: ib.OpRCSendOnly, DestQP: 1 << 24}}, "roce: BTH.DestQP 0x1000000 does not fit 24 bits"},
		{&BTH{BTH: ib.BTH{OpCode: ib.OpRCSendOnly, PadCnt: 4}}, "roce: BTH.PadCnt 0x4 does not fit 2 bits"},
		{&RDETH{RDETH: ib.RDETH{EECnxt: 1 << 24}}, "roce: RDETH.EECnxt 0x1000000 does not fit 24 bits"},
		{&DETH{DETH: ib.DETH{SrcQP: 1 << 24}}, "roce: DETH.SrcQP 0x1000000 does not fit 24 bits"},
		{&XRCETH{XRCETH: ib.XRCETH{XRCSRQ: 1 << 24}}, "roce: XRCETH.XRCSRQ 0x1000000 does not fit 24 bits"},
		{&AETH{AETH: ib.AETH{MSN: 1 << 24}}, "roce: AETH.MSN 0x1000000 does not fit 24 bits"},
		{&FETH{FETH: ib.FETH{SEL: 4}}, "roce: FETH.SEL 0x4 does not fit 2 bits"},
		{&GRH{GRH: ib.GRH{IPVer: 6, FlowLabel: 1 << 20}}, "roce: GRH.FlowLabel 0x100000 does not fit 20 bits"},
		{&GRH{GRH: ib.GRH{IPVer: 4}}, "roce: GRH.IPVer 0x4 is not 6"},
		{&LRH{LRH: ib.LRH{VL: 16}}, "roce: LRH.VL 0x10 does not fit 4 bits"},
		{&LRH{LRH: ib.LRH{LVer: 16}}, "roce: LRH.LVer 0x10 does not fit 4 bits"},
		{&LRH{LRH: ib.LRH{SL: 16}}, "roce: LRH.SL 0x10 does not fit 4 bits"},
		{&LRH{LRH: ib.LRH{Resv2: 4}}, "roce: LRH.Resv2 0x4 does not fit 2 bits"},
		{&LRH{LRH: ib.LRH{LNH: 4}}, "roce: LRH.LNH 0x4 does not fit 2 bits"},
		{&LRH{LRH: ib.LRH{Resv5: 32}}, "roce: LRH.Resv5 0x20 does not fit 5 bits"},
		{&LRH{LRH: ib.LRH{PktLen: 1 << 11}}, "roce: LRH.PktLen 0x800 does not fit 11 bits"},
	} {
		buf := gopacket.NewSerializeBuffer()
		err := c.l.SerializeTo(buf, gopacket.SerializeOptions{})
		assert.EqualError(t, err, c.msg, "%T", c.l)
		assert.Empty(t, buf.Bytes(), "%T wrote despite the error", c.l)
	}

	// The BTH applies the opcode's rules to what the layers before it
	// serialized: the extended headers and the payload.
	for _, c := range []struct {
		op      ib.Opcode
		after   int // bytes already in the buffer
		padCnt  uint8
		fix     bool
		wantErr error
	}{
		{ib.OpRCAcknowledge, ib.AETHLen, 0, true, nil},
		{ib.OpRCAcknowledge, ib.AETHLen + 4, 0, true, ib.ErrBadLength},
		{ib.OpRCAcknowledge, ib.AETHLen, 1, false, ib.ErrBadLength}, // a pad is a payload too
		{ib.OpRCAcknowledge, 2, 0, true, ib.ErrBadLength},           // AETH short
		{ib.OpRCAtomicWrite, ib.RETHLen + 8, 0, true, nil},
		{ib.OpRCAtomicWrite, ib.RETHLen + 9, 0, true, ib.ErrBadLength},
		{ib.OpRCSendOnly, 5, 0, true, nil},
		{ib.OpRCSendOnly, 5, 3, false, nil},
	} {
		buf := gopacket.NewSerializeBuffer()
		b, _ := buf.AppendBytes(c.after)
		clear(b)
		h := &BTH{BTH: ib.BTH{OpCode: c.op, PadCnt: c.padCnt}}
		err := h.SerializeTo(buf, gopacket.SerializeOptions{FixLengths: c.fix})
		if c.wantErr == nil {
			require.NoError(t, err, "%v after %d", c.op, c.after)
			var d BTH
			require.NoError(t, d.DecodeFromBytes(buf.Bytes(), nil), "%v: what SerializeTo wrote decodes", c.op)
			continue
		}
		require.ErrorIs(t, err, c.wantErr, "%v after %d", c.op, c.after)
		require.Len(t, buf.Bytes(), c.after, "%v wrote despite the error", c.op)
	}
}

func TestGRHSerializeFixLengths(t *testing.T) {
	buf := gopacket.NewSerializeBuffer()
	b, _ := buf.AppendBytes(20)
	clear(b)
	var h GRH // IPVer and NxtHdr left zero
	require.NoError(t, h.SerializeTo(buf, gopacket.SerializeOptions{FixLengths: true}))
	var d GRH
	require.NoError(t, d.DecodeFromBytes(buf.Bytes(), nil))
	assert.EqualValues(t, 6, d.IPVer)
	assert.EqualValues(t, ib.NxtHdrBTH, d.NxtHdr)
	assert.EqualValues(t, 20, d.PayLen)

	buf = gopacket.NewSerializeBuffer()
	_, _ = buf.AppendBytes(65536)
	err := h.SerializeTo(buf, gopacket.SerializeOptions{FixLengths: true})
	require.EqualError(t, err, "roce: GRH.PayLen 0x10000 does not fit 16 bits")
	require.Len(t, buf.Bytes(), 65536)

	require.ErrorIs(t, (&GRH{GRH: ib.GRH{IPVer: 6}}).Encode(make([]byte, ib.GRHLen-1)), ib.ErrBadLength)
	require.ErrorIs(t, (&GRH{}).Encode(make([]byte, ib.GRHLen)), ib.ErrBadVersion)
}

func TestLRHSerializeFixLengths(t *testing.T) {
	for _, c := range []struct {
		after int
		msg   string
	}{
		{40, ""},
		{42, "roce: LRH.PktLen 0x32 bytes is not a whole number of 4-byte words"},
		{2048*4 - ib.LRHLen, "roce: LRH.PktLen 0x800 does not fit 11 bits"},
		{2047*4 - ib.LRHLen, ""},
	} {
		buf := gopacket.NewSerializeBuffer()
		b, _ := buf.AppendBytes(c.after)
		clear(b)
		h := LRH{LRH: ib.LRH{LNH: ib.LNHIBALocal, VCRC: 0xabcd}}
		err := h.SerializeTo(buf, gopacket.SerializeOptions{FixLengths: true})
		if c.msg != "" {
			require.EqualError(t, err, c.msg)
			require.Len(t, buf.Bytes(), c.after)
			continue
		}
		require.NoError(t, err)
		var d LRH
		require.NoError(t, d.DecodeFromBytes(buf.Bytes(), nil))
		assert.Equal(t, (c.after+ib.LRHLen)/4, int(d.PktLen))
		assert.EqualValues(t, 0xabcd, d.VCRC)
	}
}
