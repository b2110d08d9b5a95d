package fuzz

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
)

// fzFrameSeeds adds every Ethernet frame of testdata as a seed.
func fzFrameSeeds(f *testing.F) {
	for _, b := range fzSeeds(f) {
		f.Add(b)
	}
}

// The three frame targets take the same inputs and check different
// things:
//
//   - FuzzFrameDecode: any bytes through the four decoders of a frame
//     (Frame.Decode, VerifyFrame, gopacket.NewPacket, the Layers parser):
//     documented errors, slices within the input, lengths that add up,
//     and agreement of the paths on the transport packet.
//   - FuzzFrameRoundTrip: a frame Frame.Decode accepts passes
//     Frame.AppendTo's validation, and decode, encode, decode is a fixed
//     point that verifies its own ICRC.
//   - FuzzFrameBuild: the input fills the fields of a roce.Frame, not
//     its bytes, so field values the wire cannot carry reach AppendTo: a
//     frame AppendTo accepts decodes back to the values it was given; a
//     frame it refuses gets a *ib.FieldError wrapping a sentinel.

// FuzzFrameDecode checks the decoders of a whole Ethernet frame against
// each other.
func FuzzFrameDecode(f *testing.F) {
	fzFrameSeeds(f)
	f.Fuzz(fzFrameDecode)
}

// FuzzFrameRoundTrip checks Frame.AppendTo on decoded frames.
func FuzzFrameRoundTrip(f *testing.F) {
	fzFrameSeeds(f)
	f.Fuzz(fzFrameRoundTrip)
}

// fzFrameCmp compares decoded frames; Raw is compared apart.
var fzFrameCmp = []cmp.Option{fzIgnore, cmpopts.IgnoreFields(roce.Frame{}, "Raw"), cmpopts.EquateEmpty()}

// fzFrameDecode decodes an Ethernet frame with roce.Frame.Decode,
// roce.VerifyFrame, gopacket.NewPacket and the googlelayers.Layers parser, and
// checks the errors, the bounds, the lengths, the agreement of the three
// decoders on the BTH, and that VerifyFrame agrees with Frame.VerifyICRC.
func fzFrameDecode(t *testing.T, data []byte) {
	b := fzExact(data)
	var f roce.Frame
	err := f.Decode(b)
	fzCheckErr(t, "Frame.Decode", err, fzFrameErrs...)
	verr := roce.VerifyFrame(b)
	fzCheckErr(t, "VerifyFrame", verr, append(fzFrameErrs, ib.ErrBadICRC, ib.ErrUnchecked)...)

	// gopacket.NewPacket.
	pk := gopacket.NewPacket(b, layers.LayerTypeEthernet, fzDecodeOptions)
	fzNoPanic(t, "NewPacket", pk)
	fzLayersWithin(t, b, "NewPacket", pk.Layers()...)
	if el := pk.ErrorLayer(); el != nil {
		fzIBErrOK(t, "NewPacket", el.Error())
	}
	// The Layers parser.
	var ls googlelayers.Layers
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
	if f.Truncated {
		// Cut by the capture: Raw runs to the end of b, the lengths come
		// from the headers, the ICRC is unchecked.
		tl = f.WireLen - fzOffset(b, f.Raw) - netLen
		if len(f.Raw) != len(b)-fzOffset(b, f.Raw) || f.WireLen <= len(b) || !p.BTH.Truncated ||
			len(p.BTH.Pad) != 0 || p.BTH.ICRC != [4]byte{} {
			t.Fatalf("cut frame: Raw %d bytes, WireLen %d of %d bytes, BTH %+v", len(f.Raw), f.WireLen, len(b), p.BTH)
		}
		if !errors.Is(f.VerifyICRC(), ib.ErrUnchecked) || !errors.Is(verr, ib.ErrUnchecked) {
			t.Fatalf("cut frame: VerifyICRC %v, VerifyFrame %v, want ErrUnchecked", f.VerifyICRC(), verr)
		}
	} else if len(f.Raw) != netLen+tl || f.WireLen != fzOffset(b, f.Raw)+len(f.Raw) {
		t.Fatalf("Raw %d bytes, transport %d bytes, WireLen %d", len(f.Raw), tl, f.WireLen)
	}
	if int(f.GRH.PayLen) != tl || fzOffset(b, f.Raw) != 14+4*f.NumVLANs {
		t.Fatalf("Raw %d bytes at %d, transport %d bytes, PayLen %d", len(f.Raw), fzOffset(b, f.Raw), tl, f.GRH.PayLen)
	}
	if fzOffset(b, p.Payload) >= 0 && fzOffset(b, p.Payload) != fzOffset(b, f.Raw)+netLen+ib.BTHLen+p.Headers().Size() {
		t.Fatalf("payload at %d", fzOffset(b, p.Payload))
	}
	if (verr == nil) != (f.VerifyICRC() == nil) {
		t.Fatalf("VerifyFrame %v, Frame.VerifyICRC %v", verr, f.VerifyICRC())
	}

	// The gopacket paths decode the same transport packet.
	if bth, ok := pk.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH); !ok {
		t.Fatalf("Frame.Decode decoded %v; NewPacket has no BTH: %v", p.BTH.OpCode, pk)
	} else {
		fzSameBTH(t, "NewPacket", &p.BTH, &bth.BTH)
	}
	if !slices.Contains(decoded, googlelayers.LayerTypeBTH) {
		t.Fatalf("Frame.Decode decoded %v; the parser stopped at %v: %v", p.BTH.OpCode, decoded, perr)
	}
	fzSameBTH(t, "parser", &p.BTH, &ls.BTH.BTH)
}

// fzFrameRoundTrip checks that AppendTo accepts every frame Frame.Decode
// accepts (the decoded packet also passes ib.Packet.Validate), that the
// encoded frame verifies its own ICRC and decodes to the same struct, that
// AppendTo changed only the fields it derives, and that a second encode
// gives the same bytes.
func fzFrameRoundTrip(t *testing.T, data []byte) {
	b := fzExact(data)
	var f roce.Frame
	if f.Decode(b) != nil || f.Truncated { // a cut frame has no ICRC to write back
		return
	}
	verr := roce.VerifyFrame(b)
	p := &f.Packet
	require.NoError(t, p.Validate(), "ib.Packet.Validate of a decoded packet")

	in := f
	in.Packet.BTH.Pad = bytes.Clone(p.BTH.Pad)
	canonicalPad := !p.BTH.OpCode.Known() || int(p.BTH.PadCnt) == -len(p.Payload)&3
	out, err := f.AppendTo(nil)
	require.NoError(t, err, "AppendTo of a decoded frame")
	out = fzExact(out)
	require.Len(t, out, f.Len(), "AppendTo's output against Len")
	if err := roce.VerifyFrame(out); err != nil {
		t.Fatalf("an encoded frame fails its own ICRC: %v\n%x", err, out)
	}
	var g roce.Frame
	if err := g.Decode(out); err != nil {
		t.Fatalf("decode of AppendTo: %v\n%x", err, out)
	}
	require.NoError(t, g.VerifyICRC(), "Frame.VerifyICRC of AppendTo")
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
	// WireLen is the length written, which a non-canonical pad changes.
	require.Equal(t, len(out), g.WireLen, "WireLen of AppendTo's frame")
	f.WireLen = g.WireLen
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
	require.NoError(t, err, "AppendTo of the re-decoded frame")
	if !bytes.Equal(out2, out) {
		t.Fatalf("AppendTo is not a fixed point:\n%x\n%x", out2, out)
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
		for _, s := range []*[]byte{&f.Packet.Payload, &f.Packet.BTH.Pad} {
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
	w, g := *want, *got
	if w.Truncated || g.Truncated {
		// A cut packet has neither pad nor ICRC. Inside a
		// DecodingLayerParser the BTH knows only that some layer saw a cut
		// (an IPv4 Total Length beyond the capture, say), not whether its
		// own packet is whole: compare the header fields alone.
		w.Pad, w.ICRC, w.Truncated, g.Pad, g.ICRC, g.Truncated = nil, [4]byte{}, false, nil, [4]byte{}, false
	}
	got = &g
	if reflect.DeepEqual(w, g) { // cmp.Diff only to explain a difference: it is slow
		return
	}
	if d := cmp.Diff(w, *got, fzIgnore, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%s BTH differs from Frame.Decode (-Frame +%s):\n%s", what, what, d)
	}
}

// fzParserLayer returns the layer of ls that the parser decoded as lt.
func fzParserLayer(ls *googlelayers.Layers, lt gopacket.LayerType) gopacket.Layer {
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
	case googlelayers.LayerTypeLRH:
		return &ls.LRH
	case googlelayers.LayerTypeGRH:
		return &ls.GRH
	case googlelayers.LayerTypeBTH:
		return &ls.BTH
	case gopacket.LayerTypePayload:
		return &ls.Payload
	}
	for _, h := range fzHeaders {
		if googlelayers.HeaderLayerType(h) == lt {
			switch h {
			case ib.HeaderRDETH:
				return &ls.RDETH
			case ib.HeaderDETH:
				return &ls.DETH
			case ib.HeaderXRCETH:
				return &ls.XRCETH
			case ib.HeaderRETH:
				return &ls.RETH
			case ib.HeaderAtomicETH:
				return &ls.AtomicETH
			case ib.HeaderAtomicAckETH:
				return &ls.AtomicAckETH
			case ib.HeaderAETH:
				return &ls.AETH
			case ib.HeaderImmDt:
				return &ls.ImmDt
			case ib.HeaderIETH:
				return &ls.IETH
			case ib.HeaderFETH:
				return &ls.FETH
			}
		}
	}
	return nil
}
