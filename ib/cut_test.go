package ib

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// ibtaFields are the fields of each extended transport header, by their
// name in the Go struct, with the byte of the header each ends at, from
// the layouts of IBTA Vol 1 9.3 (docs/wire-format.md): a packet the
// capture cut inside a header has the fields that end at or before the
// cut, and the others zero.
var ibtaFields = map[Header][]struct {
	name string
	end  int
}{
	HeaderRDETH:        {{"Resv8", 1}, {"EECnxt", 4}},
	HeaderDETH:         {{"QKey", 4}, {"Resv8", 5}, {"SrcQP", 8}},
	HeaderXRCETH:       {{"Resv8", 1}, {"XRCSRQ", 4}},
	HeaderRETH:         {{"VA", 8}, {"RKey", 12}, {"DMALen", 16}},
	HeaderAtomicETH:    {{"VA", 8}, {"RKey", 12}, {"SwapData", 20}, {"CompareData", 28}},
	HeaderAtomicAckETH: {{"OrigRemData", 8}},
	HeaderAETH:         {{"Syndrome", 1}, {"MSN", 4}},
	HeaderImmDt:        {{"Data", 4}},
	HeaderIETH:         {{"RKey", 4}},
	HeaderFETH:         {{"Resv", 4}, {"SEL", 4}, {"PLT", 4}},
}

// fullPacket is a packet of opcode op with every field of every header
// it lists set to a value whose bytes are all non-zero.
func fullPacket(op Opcode) Packet {
	p := Packet{
		BTH:          BTH{OpCode: op, SE: true, PKey: 0xa1b2, DestQP: 0xc3d4e5, AckReq: true, PSN: 0x123456},
		RDETH:        RDETH{Resv8: 0x11, EECnxt: 0x223344},
		DETH:         DETH{QKey: 0x55667788, Resv8: 0x99, SrcQP: 0xaabbcc},
		XRCETH:       XRCETH{Resv8: 0xdd, XRCSRQ: 0xeeff11},
		RETH:         RETH{VA: 0x0102030405060708, RKey: 0x090a0b0c, DMALen: 0x0d0e0f10},
		AtomicETH:    AtomicETH{VA: 0x1112131415161718, RKey: 0x191a1b1c, SwapData: 0x1d1e1f2021222324, CompareData: 0x2526272829303132},
		AtomicAckETH: AtomicAckETH{OrigRemData: 0x3334353637383940},
		AETH:         AETH{Syndrome: 0x1f, MSN: 0x414243},
		ImmDt:        ImmDt{Data: 0x44454647},
		IETH:         IETH{RKey: 0x48494a4b},
		FETH:         FETH{Resv: 0x2345678, SEL: 1, PLT: 5},
	}
	switch op.Payload() {
	case PayloadAny:
		p.Payload = []byte{0x61, 0x62, 0x63, 0x64, 0x65}
	case PayloadExact8:
		p.Payload = []byte{1, 2, 3, 4, 5, 6, 7, 8}
	}
	return p
}

// ethValue returns the struct of header h in p.
func ethValue(p *Packet, h Header) reflect.Value {
	return reflect.ValueOf(p).Elem().FieldByName(h.String())
}

// Every packet of every opcode IBTA defines, cut after each of its bytes
// from the end of the BTH on, decodes with DecodeTruncated as the
// capture left it: the BTH as in the whole packet, each extended header
// the capture kept whole as in the whole packet, the one the cut falls
// in with the fields that end at or before the cut and the others zero,
// the headers after it zero, Captured saying how many bytes of each are
// there; the payload a prefix of the whole one's. A cut before the end
// of the BTH is ErrTruncated. BTH.Split decodes the same cuts.
func TestDecodeTruncatedInsideHeaders(t *testing.T) {
	cutsInside, want := 0, 0
	for o := range 256 {
		op := Opcode(o)
		if !op.Known() {
			continue
		}
		whole := fullPacket(op)
		b, err := whole.AppendTo(nil)
		if err != nil {
			t.Fatalf("%v: %v", op, err)
		}
		if err := whole.Decode(b); err != nil {
			t.Fatalf("%v: %v", op, err)
		}
		hs := op.Headers()
		hdrEnd := BTHLen + hs.Size()
		want += hs.Size()
		for n := 0; n <= len(b); n++ {
			cut := bytes.Clone(b[:n]) // exact capacity: a read past n faults
			var p Packet
			err := p.DecodeTruncated(cut, len(b))
			if n < BTHLen {
				if !errors.Is(err, ErrTruncated) {
					t.Fatalf("%v cut at %d: %v, want ErrTruncated", op, n, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%v cut at %d (headers end at %d): %v", op, n, hdrEnd, err)
			}
			if n < hdrEnd {
				cutsInside++
			}
			if p.BTH.Truncated != (n < len(b)) {
				t.Fatalf("%v cut at %d: Truncated %v", op, n, p.BTH.Truncated)
			}
			wb, pb := whole.BTH, p.BTH
			wb.Pad, wb.ICRC, pb.Pad, pb.ICRC = nil, [ICRCLen]byte{}, nil, [ICRCLen]byte{}
			if wb.OpCode != pb.OpCode || wb.PSN != pb.PSN || wb.DestQP != pb.DestQP || wb.PKey != pb.PKey || wb.SE != pb.SE || wb.AckReq != pb.AckReq {
				t.Fatalf("%v cut at %d: BTH %+v, want %+v", op, n, pb, wb)
			}
			off := BTHLen
			for i := range hs.Len() {
				h := hs.At(i)
				want := min(max(n-off, 0), h.Len())
				if got := p.Captured(h); got != want {
					t.Fatalf("%v cut at %d: Captured(%v) %d, want %d", op, n, h, got, want)
				}
				wv, pv := ethValue(&whole, h), ethValue(&p, h)
				for _, f := range ibtaFields[h] {
					w, g := wv.FieldByName(f.name), pv.FieldByName(f.name)
					if !w.IsValid() {
						t.Fatalf("%v has no field %s", h, f.name)
					}
					if w.IsZero() {
						t.Fatalf("%v.%s of the whole packet is zero: the test cannot tell", h, f.name)
					}
					if want >= f.end && !g.Equal(w) || want < f.end && !g.IsZero() {
						t.Fatalf("%v cut at %d (%d bytes of %v): %s = %v, whole %v", op, n, want, h, f.name, g, w)
					}
				}
				off += h.Len()
			}
			if !bytes.HasPrefix(whole.Payload, p.Payload) || n < hdrEnd && len(p.Payload) != 0 {
				t.Fatalf("%v cut at %d: payload %x, whole %x", op, n, p.Payload, whole.Payload)
			}
			var bth BTH
			if _, err := bth.Split(cut, len(b)); err != nil || bth.PSN != whole.BTH.PSN {
				t.Fatalf("%v cut at %d: BTH.Split: %v", op, n, err)
			}
		}
	}
	if cutsInside != want || want < 900 {
		t.Fatalf("%d cuts inside the extended headers, want %d", cutsInside, want)
	}
}

// A header the opcode does not list has nothing captured, and a packet
// that is not cut has every header whole, whatever its history.
func TestCapturedNotListed(t *testing.T) {
	p := fullPacket(OpRCRDMAWriteOnly)
	b, err := p.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	var q Packet
	if err := q.DecodeTruncated(b[:BTHLen+5], len(b)); err != nil {
		t.Fatal(err)
	}
	if q.Captured(HeaderAETH) != 0 || q.Captured(HeaderRETH) != 5 {
		t.Fatalf("Captured AETH %d, RETH %d", q.Captured(HeaderAETH), q.Captured(HeaderRETH))
	}
	if err := q.Decode(b); err != nil || q.Captured(HeaderRETH) != RETHLen {
		t.Fatalf("whole after cut: %v, Captured(RETH) %d", err, q.Captured(HeaderRETH))
	}
	built := Packet{BTH: BTH{OpCode: OpRCRDMAWriteOnly}}
	if built.Captured(HeaderRETH) != RETHLen {
		t.Fatalf("a built packet: Captured(RETH) %d", built.Captured(HeaderRETH))
	}
}

// decodeCut's buffer holds the extended headers of every opcode, and the
// field ends of each header's row agree with its size.
func TestHeadersFit(t *testing.T) {
	most := 0
	for o := range 256 {
		most = max(most, Opcode(o).Headers().Size())
	}
	if most != maxHeadersLen {
		t.Fatalf("the longest extended headers take %d bytes, maxHeadersLen is %d", most, maxHeadersLen)
	}
	for h := HeaderRDETH; h < numHeaders; h++ {
		if h.whole(h.Len()) != h.Len() || h.whole(h.Len()-1) == h.Len() {
			t.Fatalf("%v: fields end at %v, size %d", h, headerInfo[h].ends, h.Len())
		}
		for _, f := range ibtaFields[h] {
			if h.whole(f.end) != f.end {
				t.Fatalf("%v.%s ends at %d; the table's fields end at %v", h, f.name, f.end, headerInfo[h].ends)
			}
		}
	}
}
