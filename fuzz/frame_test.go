package fuzz

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
)

// fzFrameSeeds adds every Ethernet frame of testdata whose encapsulation
// is enc, and the other frames after them (not RoCE, or other
// encapsulations: mutations cross over).
func fzFrameSeeds(f *testing.F, enc ib.Encapsulation) {
	var rest [][]byte
	for _, b := range fzSeeds(f) {
		if l, ok := fzLayout(b); ok && l.Enc == enc {
			f.Add(b)
		} else {
			rest = append(rest, b)
		}
	}
	for _, b := range rest {
		f.Add(b)
	}
}

// FuzzRoCEv1Frame, FuzzRoCEv2IPv4Frame and FuzzRoCEv2IPv6Frame run
// fzFrame; they differ in their seeds.
func FuzzRoCEv1Frame(f *testing.F) {
	fzFrameSeeds(f, ib.RoCEv1)
	f.Fuzz(fzFrame)
}

func FuzzRoCEv2IPv4Frame(f *testing.F) {
	fzFrameSeeds(f, ib.RoCEv2IPv4)
	f.Fuzz(fzFrame)
}

func FuzzRoCEv2IPv6Frame(f *testing.F) {
	fzFrameSeeds(f, ib.RoCEv2IPv6)
	f.Fuzz(fzFrame)
}

// fzFrameCmp compares decoded frames; Raw is compared apart.
var fzFrameCmp = []cmp.Option{fzIgnore, cmpopts.IgnoreFields(roce.Frame{}, "Raw"), cmpopts.EquateEmpty()}

// fzFrame decodes an Ethernet frame with roce.Frame.Decode,
// gopacket.NewPacket and the roce.Layers parser, and checks the errors,
// the bounds, the agreement of the three paths, that VerifyFrame agrees
// with Frame.VerifyICRC, and that AppendTo of the decoded frame gives a
// frame that decodes to the same struct, verifies its own ICRC and is a
// fixed point of decode and encode.
func fzFrame(t *testing.T, data []byte) {
	b := fzExact(data)
	var f roce.Frame
	err := f.Decode(b)
	fzCheckErr(t, "Frame.Decode", err, fzFrameErrs...)
	verr := roce.VerifyFrame(b)
	fzCheckErr(t, "VerifyFrame", verr, append(fzFrameErrs, ib.ErrBadICRC)...)

	// gopacket.NewPacket.
	pk := gopacket.NewPacket(b, layers.LayerTypeEthernet, fzDecodeOptions)
	fzNoPanic(t, "NewPacket", pk)
	fzLayersWithin(t, b, "NewPacket", pk.Layers()...)
	if el := pk.ErrorLayer(); el != nil {
		fzIBErrOK(t, "NewPacket", el.Error())
	}
	// The Layers parser.
	var ls roce.Layers
	var decoded []gopacket.LayerType
	perr := ls.Parser().DecodeLayers(b, &decoded)
	fzIBErrOK(t, "Layers parser", perr)
	for _, lt := range decoded {
		if l := fzParserLayer(&ls, lt); l != nil {
			fzLayersWithin(t, b, "parser", l)
		}
	}
	if err != nil {
		return
	}

	// Bounds and lengths.
	fzWithin(t, b, f.Raw, "Frame.Raw")
	fzWithin(t, b, f.Packet.Payload, "Frame.Packet.Payload")
	fzWithin(t, b, f.Packet.BTH.Pad, "Frame.Packet.BTH.Pad")
	netLen := map[ib.Encapsulation]int{ib.RoCEv1: ib.GRHLen, ib.RoCEv2IPv4: 28, ib.RoCEv2IPv6: 48}[f.Encap]
	p := &f.Packet
	tl := ib.BTHLen + p.Headers().Size() + len(p.Payload) + len(p.BTH.Pad) + ib.ICRCLen
	if len(f.Raw) != netLen+tl || int(f.GRH.PayLen) != tl || fzOffset(b, f.Raw) != 14+4*f.NumVLANs {
		t.Fatalf("Raw %d bytes at %d, transport %d bytes, PayLen %d", len(f.Raw), fzOffset(b, f.Raw), tl, f.GRH.PayLen)
	}
	if fzOffset(b, p.Payload) >= 0 && fzOffset(b, p.Payload) != fzOffset(b, f.Raw)+netLen+ib.BTHLen+p.Headers().Size() {
		t.Fatalf("payload at %d", fzOffset(b, p.Payload))
	}
	if (verr == nil) != (f.VerifyICRC() == nil) {
		t.Fatalf("VerifyFrame %v, Frame.VerifyICRC %v", verr, f.VerifyICRC())
	}

	// The gopacket paths decode the same transport packet.
	if bth, ok := pk.Layer(ib.LayerTypeBTH).(*ib.BTH); !ok {
		t.Fatalf("Frame.Decode decoded %v; NewPacket has no BTH: %v", p.BTH.OpCode, pk)
	} else {
		fzSameBTH(t, "NewPacket", &p.BTH, bth)
	}
	if !slices.Contains(decoded, ib.LayerTypeBTH) {
		t.Fatalf("Frame.Decode decoded %v; the parser stopped at %v: %v", p.BTH.OpCode, decoded, perr)
	}
	fzSameBTH(t, "parser", &p.BTH, &ls.IB.BTH)

	// AppendTo of the decoded frame.
	in := f
	in.Packet.BTH.Pad = bytes.Clone(p.BTH.Pad)
	canonicalPad := !p.BTH.OpCode.Known() || int(p.BTH.PadCnt) == -len(p.Payload)&3
	out, aerr := f.AppendTo(nil)
	if aerr != nil {
		t.Fatalf("AppendTo of a decoded frame: %v", aerr)
	}
	out = fzExact(out)
	if len(out) != f.Len() {
		t.Fatalf("AppendTo wrote %d bytes, Len says %d", len(out), f.Len())
	}
	if err := roce.VerifyFrame(out); err != nil {
		t.Fatalf("an encoded frame fails its own ICRC: %v\n%x", err, out)
	}
	var g roce.Frame
	if err := g.Decode(out); err != nil {
		t.Fatalf("decode of AppendTo: %v\n%x", err, out)
	}
	if err := g.VerifyICRC(); err != nil {
		t.Fatalf("Frame.VerifyICRC of AppendTo: %v", err)
	}
	// AppendTo recomputes the fields it derives (lengths, PadCnt,
	// checksums, IPVer, NxtHdr, a zero source port) into f: what stays
	// must be what was decoded.
	fzSameInput(t, &in, &f)
	// It computes the ICRC too (verified above) but leaves f's as it was
	// received, which differs when that was wrong or covered bytes that
	// AppendTo writes in canonical form.
	if verr == nil && bytes.Equal(out[len(out)-len(f.Raw):], f.Raw) && g.Packet.BTH.ICRC != f.Packet.BTH.ICRC {
		t.Fatalf("a frame re-encoded byte for byte changed its ICRC")
	}
	f.Packet.BTH.ICRC = g.Packet.BTH.ICRC
	if !canonicalPad {
		if len(g.Packet.BTH.Pad) != int(g.Packet.BTH.PadCnt) || !bytes.Equal(g.Packet.BTH.Pad, make([]byte, len(g.Packet.BTH.Pad))) {
			t.Fatalf("re-encoded pad %x, PadCnt %d", g.Packet.BTH.Pad, g.Packet.BTH.PadCnt)
		}
		f.Packet.BTH.Pad, g.Packet.BTH.Pad = nil, nil
	}
	if d := fzDiff(f, g); d != "" {
		t.Fatalf("decode(AppendTo(f)) != f (-f +decoded):\n%s", d)
	}
	out2, err := g.AppendTo(nil)
	if err != nil || !bytes.Equal(out2, out) {
		t.Fatalf("AppendTo is not a fixed point (%v):\n%x\n%x", err, out2, out)
	}
}

// fzSameInput checks that AppendTo changed only derived fields of f.
func fzSameInput(t *testing.T, before, after *roce.Frame) {
	t.Helper()
	b := *before
	b.GRH.PayLen, b.GRH.IPVer, b.GRH.NxtHdr = after.GRH.PayLen, after.GRH.IPVer, after.GRH.NxtHdr
	b.IPv4Checksum, b.Packet.BTH.PadCnt = after.IPv4Checksum, after.Packet.BTH.PadCnt
	if b.SrcPort == 0 {
		b.SrcPort = after.SrcPort
	}
	if b.DstPort == 0 {
		b.DstPort = after.DstPort
	}
	if d := fzDiff(b, *after); d != "" {
		t.Fatalf("AppendTo changed fields it does not derive (-before +after):\n%s", d)
	}
}

// fzDiff compares two decoded frames, Raw aside: reflect.DeepEqual on
// copies with empty slices made nil first (fast), cmp.Diff to explain.
func fzDiff(a, b roce.Frame) string {
	norm := func(f *roce.Frame) {
		f.Raw = nil
		for _, s := range []*[]byte{&f.Packet.Payload, &f.Packet.BTH.Pad, &f.Packet.BTH.Contents, &f.Packet.BTH.Payload, &f.GRH.Contents, &f.GRH.Payload} {
			if len(*s) == 0 {
				*s = nil
			}
		}
	}
	norm(&a)
	norm(&b)
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return cmp.Diff(a, b, fzFrameCmp...)
}

// fzSameBTH compares a BTH decoded by a gopacket path with the one
// Frame.Decode gave.
func fzSameBTH(t *testing.T, what string, want, got *ib.BTH) {
	t.Helper()
	w := *want
	w.BaseLayer = got.BaseLayer
	if d := cmp.Diff(w, *got, fzIgnore, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%s BTH differs from Frame.Decode (-Frame +%s):\n%s", what, what, d)
	}
}

// fzParserLayer returns the layer of ls that the parser decoded as lt.
func fzParserLayer(ls *roce.Layers, lt gopacket.LayerType) gopacket.Layer {
	switch lt {
	case layers.LayerTypeEthernet:
		return &ls.Ethernet
	case layers.LayerTypeDot1Q:
		return &ls.Dot1Q
	case layers.LayerTypeIPv4:
		return &ls.IPv4
	case layers.LayerTypeIPv6:
		return &ls.IPv6
	case layers.LayerTypeUDP:
		return &ls.UDP
	case ib.LayerTypeLRH:
		return &ls.IB.LRH
	case ib.LayerTypeGRH:
		return &ls.IB.GRH
	case ib.LayerTypeBTH:
		return &ls.IB.BTH
	case gopacket.LayerTypePayload:
		return &ls.IB.Payload
	}
	for _, h := range fzHeaders {
		if h.LayerType() == lt {
			switch h {
			case ib.HeaderRDETH:
				return &ls.IB.RDETH
			case ib.HeaderDETH:
				return &ls.IB.DETH
			case ib.HeaderXRCETH:
				return &ls.IB.XRCETH
			case ib.HeaderRETH:
				return &ls.IB.RETH
			case ib.HeaderAtomicETH:
				return &ls.IB.AtomicETH
			case ib.HeaderAtomicAckETH:
				return &ls.IB.AtomicAckETH
			case ib.HeaderAETH:
				return &ls.IB.AETH
			case ib.HeaderImmDt:
				return &ls.IB.ImmDt
			case ib.HeaderIETH:
				return &ls.IB.IETH
			case ib.HeaderFETH:
				return &ls.IB.FETH
			}
		}
	}
	return nil
}
