package fuzz

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/gopacket"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
)

// fzIgnore compares the ib structs by their exported fields.
var fzIgnore = cmpopts.IgnoreUnexported(roce.Frame{}, ib.Packet{}, ib.BTH{}, ib.RDETH{}, ib.DETH{}, ib.XRCETH{}, ib.RETH{},
	ib.AtomicETH{}, ib.AtomicAckETH{}, ib.AETH{}, ib.ImmDt{}, ib.IETH{}, ib.FETH{},
	googlelayers.RDETH{}, googlelayers.DETH{}, googlelayers.XRCETH{}, googlelayers.RETH{}, googlelayers.AtomicETH{},
	googlelayers.AtomicAckETH{}, googlelayers.AETH{}, googlelayers.ImmDt{}, googlelayers.IETH{}, googlelayers.FETH{})

// fzTransport returns, for every RoCE frame of testdata, its transport
// packet (BTH through ICRC).
func fzTransport(tb testing.TB) [][]byte {
	var out [][]byte
	for _, b := range fzSeeds(tb) {
		if l, ok := fzLayout(b); ok {
			out = append(out, b[l.BTH:l.End])
		}
	}
	return out
}

// fzSerialize serializes ls without options and returns the bytes.
func fzSerialize(t *testing.T, what string, ls ...gopacket.SerializableLayer) []byte {
	t.Helper()
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, ls...); err != nil {
		t.Fatalf("%s: SerializeLayers: %v", what, err)
	}
	return buf.Bytes()
}

// FuzzBTH decodes a transport packet (BTH through ICRC) with
// ib.Packet.Decode, with the BTH layer's DecodeFromBytes and with
// gopacket.NewPacket from LayerTypeBTH, and checks that the three agree,
// stay within the input, account for every byte, and re-encode: the
// gopacket layers byte for byte, Packet.AppendTo to a packet that decodes
// to the same struct (and to the same bytes when the pad was canonical).
func FuzzBTH(f *testing.F) {
	for _, b := range fzTransport(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data)
		var p ib.Packet
		err := p.Decode(b)
		fzCheckErr(t, "Packet.Decode", err, fzPacketErrs...)

		var h googlelayers.BTH
		herr := h.DecodeFromBytes(b, gopacket.NilDecodeFeedback)
		fzCheckErr(t, "BTH.DecodeFromBytes", herr, fzPacketErrs...)
		if (err == nil) != (herr == nil) {
			t.Fatalf("Packet.Decode: %v, BTH.DecodeFromBytes: %v", err, herr)
		}

		pk := gopacket.NewPacket(b, googlelayers.LayerTypeBTH, fzDecodeOptions)
		fzNoPanic(t, "NewPacket", pk)
		if el := pk.ErrorLayer(); el != nil {
			fzCheckErr(t, "NewPacket", el.Error(), fzPacketErrs...)
		}
		fzLayersWithin(t, b, "NewPacket", pk.Layers()...)
		if err != nil {
			if pk.ErrorLayer() == nil {
				t.Fatalf("Packet.Decode: %v; NewPacket decoded %v", err, pk)
			}
			return
		}

		// Bounds: every byte is the BTH, a header, payload, pad or ICRC.
		fzWithin(t, b, p.Payload, "Packet.Payload")
		fzWithin(t, b, p.BTH.Pad, "Packet.BTH.Pad")
		if n := ib.BTHLen + p.Headers().Size() + len(p.Payload) + len(p.BTH.Pad) + ib.ICRCLen; n != len(b) {
			t.Fatalf("Packet accounts for %d bytes of %d", n, len(b))
		}
		if p.BTH.OpCode.Known() && len(p.BTH.Pad) != int(p.BTH.PadCnt) {
			t.Fatalf("pad of %d bytes, PadCnt %d", len(p.BTH.Pad), p.BTH.PadCnt)
		}
		if !bytes.Equal(p.BTH.ICRC[:], b[len(b)-4:]) {
			t.Fatalf("ICRC %x, input ends %x", p.BTH.ICRC, b[len(b)-4:])
		}
		fzWithin(t, b, h.Contents, "BTH.Contents")
		fzWithin(t, b, h.Payload, "BTH.Payload")
		fzWithin(t, b, h.Pad, "BTH.Pad")
		if len(h.Contents)+len(h.Payload)+len(h.Pad)+ib.ICRCLen != len(b) || len(h.Contents) != ib.BTHLen {
			t.Fatalf("BTH layer: contents %d, payload %d, pad %d of %d bytes", len(h.Contents), len(h.Payload), len(h.Pad), len(b))
		}
		if d := cmp.Diff(p.BTH, h.BTH, fzIgnore); d != "" {
			t.Fatalf("BTH layer and Packet.BTH differ (-Packet +layer):\n%s", d)
		}

		// The gopacket path: the same headers and payload, re-serialized
		// byte for byte.
		var sls []gopacket.SerializableLayer
		hs := p.Headers()
		if got := len(pk.Layers()); got < 1+hs.Len() {
			t.Fatalf("NewPacket: %d layers for %v", got, hs)
		}
		for i, l := range pk.Layers() {
			if i >= 1 && i <= hs.Len() && l.LayerType() != googlelayers.HeaderLayerType(hs.At(i-1)) {
				t.Fatalf("NewPacket layer %d is %v, want %v", i, l.LayerType(), hs.At(i-1))
			}
			sl, ok := l.(gopacket.SerializableLayer)
			if !ok {
				t.Fatalf("layer %v does not serialize", l.LayerType())
			}
			sls = append(sls, sl)
		}
		// The payload is what the last header leaves: a gopacket.Payload,
		// or the MAD layers of a UD SEND Only to QP 0 or 1.
		if len(pk.Layers()) > 1+hs.Len() && !bytes.Equal(pk.Layers()[hs.Len()].LayerPayload(), p.Payload) &&
			p.BTH.OpCode.Known() {
			t.Fatalf("NewPacket payload %x, Packet %x", pk.Layers()[hs.Len()].LayerPayload(), p.Payload)
		}
		if out := fzSerialize(t, "NewPacket layers", sls...); !bytes.Equal(out, b) {
			t.Fatalf("NewPacket layers serialize to\n%x\nwant\n%x", out, b)
		}

		// Packet.AppendTo: decode(encode(p)) == p.
		canonical := int(p.BTH.PadCnt) == -len(p.Payload)&3 || !p.BTH.OpCode.Known()
		out, err := p.AppendTo(nil)
		if err != nil {
			t.Fatalf("AppendTo refused a decoded packet: %v", err)
		}
		if len(out) != p.Len() {
			t.Fatalf("AppendTo wrote %d bytes, Len says %d", len(out), p.Len())
		}
		if canonical && !bytes.Equal(out, b) {
			t.Fatalf("AppendTo of a canonical packet\n%x\nwant\n%x", out, b)
		}
		var q ib.Packet
		if err := q.Decode(fzExact(out)); err != nil {
			t.Fatalf("decode of AppendTo: %v\n%x", err, out)
		}
		if !canonical {
			if len(q.BTH.Pad) != int(q.BTH.PadCnt) || !bytes.Equal(q.BTH.Pad, make([]byte, len(q.BTH.Pad))) {
				t.Fatalf("re-encoded pad %x, PadCnt %d", q.BTH.Pad, q.BTH.PadCnt)
			}
			p.BTH.Pad, q.BTH.Pad = nil, nil
		}
		if d := cmp.Diff(p, q, fzIgnore, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("decode(AppendTo(p)) != p (-p +decoded):\n%s", d)
		}
		if out2, err := q.AppendTo(nil); err != nil || !bytes.Equal(out2, out) {
			t.Fatalf("AppendTo is not a fixed point (%v):\n%x\n%x", err, out2, out)
		}
	})
}

// fzETH is one extended header layer.
type fzETH interface {
	gopacket.DecodingLayer
	gopacket.SerializableLayer
	gopacket.Layer
}

// fzHeaders lists the extended headers FuzzETH selects from.
var fzHeaders = []ib.Header{ib.HeaderRDETH, ib.HeaderDETH, ib.HeaderXRCETH, ib.HeaderRETH,
	ib.HeaderAtomicETH, ib.HeaderAtomicAckETH, ib.HeaderAETH, ib.HeaderImmDt, ib.HeaderIETH, ib.HeaderFETH}

func fzNewETH(h ib.Header) fzETH {
	switch h {
	case ib.HeaderRDETH:
		return &googlelayers.RDETH{}
	case ib.HeaderDETH:
		return &googlelayers.DETH{}
	case ib.HeaderXRCETH:
		return &googlelayers.XRCETH{}
	case ib.HeaderRETH:
		return &googlelayers.RETH{}
	case ib.HeaderAtomicETH:
		return &googlelayers.AtomicETH{}
	case ib.HeaderAtomicAckETH:
		return &googlelayers.AtomicAckETH{}
	case ib.HeaderAETH:
		return &googlelayers.AETH{}
	case ib.HeaderImmDt:
		return &googlelayers.ImmDt{}
	case ib.HeaderIETH:
		return &googlelayers.IETH{}
	}
	return &googlelayers.FETH{}
}

// FuzzETH decodes the input after its first byte as the extended header
// that byte selects (fzHeaders[data[0] % 10]), with DecodeFromBytes and
// with gopacket.NewPacket, and checks the split (the header's bytes, then
// the rest), the bounds, the error, the agreement of both paths and that
// SerializeTo gives back the header's bytes.
func FuzzETH(f *testing.F) {
	for _, b := range fzSeeds(f) {
		l, ok := fzLayout(b)
		if !ok || l.End-l.BTH < ib.BTHLen {
			continue
		}
		hs := ib.Opcode(b[l.BTH]).Headers()
		off := l.BTH + ib.BTHLen
		for i := 0; i < hs.Len(); i++ {
			for sel, h := range fzHeaders {
				if h == hs.At(i) && off <= l.End {
					f.Add(append([]byte{byte(sel)}, b[off:l.End]...))
				}
			}
			off += hs.At(i).Len()
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		h := fzHeaders[int(data[0])%len(fzHeaders)]
		b := fzExact(data[1:])
		e := fzNewETH(h)
		err := e.DecodeFromBytes(b, gopacket.NilDecodeFeedback)
		fzCheckErr(t, h.String(), err, ib.ErrTruncated)
		if (err != nil) != (len(b) < h.Len()) {
			t.Fatalf("%v: %d bytes: %v", h, len(b), err)
		}
		pk := gopacket.NewPacket(b, googlelayers.HeaderLayerType(h), fzDecodeOptions)
		fzNoPanic(t, "NewPacket", pk)
		fzLayersWithin(t, b, "NewPacket", pk.Layers()...)
		if err != nil {
			if pk.ErrorLayer() == nil {
				t.Fatalf("%v: NewPacket decoded what DecodeFromBytes refused", h)
			}
			fzCheckErr(t, "NewPacket", pk.ErrorLayer().Error(), ib.ErrTruncated)
			return
		}
		fzWithin(t, b, e.LayerContents(), "contents")
		fzWithin(t, b, e.LayerPayload(), "payload")
		if fzOffset(b, e.LayerContents()) != 0 || len(e.LayerContents()) != h.Len() ||
			len(e.LayerPayload()) != len(b)-h.Len() || (len(e.LayerPayload()) > 0 && fzOffset(b, e.LayerPayload()) != h.Len()) {
			t.Fatalf("%v: contents %d bytes, payload %d bytes of %d", h, len(e.LayerContents()), len(e.LayerPayload()), len(b))
		}
		if e.NextLayerType() != gopacket.LayerTypePayload && e.NextLayerType() != gopacket.LayerTypeZero {
			t.Fatalf("%v decoded alone: next layer %v", h, e.NextLayerType())
		}
		if out := fzSerialize(t, h.String(), e); !bytes.Equal(out, b[:h.Len()]) {
			t.Fatalf("%v: SerializeTo %x, want %x", h, out, b[:h.Len()])
		}
		l := pk.Layer(googlelayers.HeaderLayerType(h))
		if l == nil {
			t.Fatalf("NewPacket: no %v in %v", h, pk)
		}
		if d := cmp.Diff(e, l, fzIgnore); d != "" {
			t.Fatalf("%v: DecodeFromBytes and NewPacket differ:\n%s", h, d)
		}
	})
}

// FuzzGRH decodes a GRH and what follows it with DecodeFromBytes, Decode
// and gopacket.NewPacket (GRH, BTH, extended headers, payload), and
// checks the bounds (PayLen), the errors, and that SerializeTo and Encode
// give back the header's bytes.
func FuzzGRH(f *testing.F) {
	for _, b := range fzSeeds(f) {
		if l, ok := fzLayout(b); ok && l.Enc == ib.RoCEv1 {
			f.Add(b[l.Net:])
		}
	}
	f.Add(make([]byte, ib.GRHLen))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data)
		var h googlelayers.GRH
		err := h.DecodeFromBytes(b, gopacket.NilDecodeFeedback)
		fzCheckErr(t, "GRH", err, ib.ErrTruncated, ib.ErrBadVersion)
		var h2 ib.GRH
		err2 := h2.Decode(b)
		fzCheckErr(t, "GRH.Decode", err2, ib.ErrTruncated, ib.ErrBadVersion)
		if err2 != nil && err == nil {
			t.Fatalf("Decode: %v; DecodeFromBytes decoded", err2)
		}
		pk := gopacket.NewPacket(b, googlelayers.LayerTypeGRH, fzDecodeOptions)
		fzNoPanic(t, "NewPacket", pk)
		fzLayersWithin(t, b, "NewPacket", pk.Layers()...)
		if el := pk.ErrorLayer(); el != nil {
			fzCheckErr(t, "NewPacket", el.Error(), fzFrameErrs...)
		}
		if err != nil {
			return
		}
		fzWithin(t, b, h.Contents, "contents")
		fzWithin(t, b, h.Payload, "payload")
		if ib.GRHLen+int(h.PayLen) > len(b) {
			// Cut by the capture: the layer keeps what there is.
			if len(h.Contents) != ib.GRHLen || len(h.Payload) != len(b)-ib.GRHLen {
				t.Fatalf("cut: contents %d, payload %d, PayLen %d of %d bytes", len(h.Contents), len(h.Payload), h.PayLen, len(b))
			}
			return
		}
		if len(h.Contents) != ib.GRHLen || len(h.Payload) != int(h.PayLen) {
			t.Fatalf("contents %d, payload %d, PayLen %d of %d bytes", len(h.Contents), len(h.Payload), h.PayLen, len(b))
		}
		if d := cmp.Diff(h.GRH, h2); d != "" {
			t.Fatalf("Decode and DecodeFromBytes differ:\n%s", d)
		}
		if out := fzSerialize(t, "GRH", &h, gopacket.Payload(h.Payload)); !bytes.Equal(out, b[:ib.GRHLen+int(h.PayLen)]) {
			t.Fatalf("SerializeTo\n%x\nwant\n%x", out, b[:ib.GRHLen+int(h.PayLen)])
		}
		enc := make([]byte, ib.GRHLen)
		h.Encode(enc)
		if !bytes.Equal(enc, b[:ib.GRHLen]) {
			t.Fatalf("Encode %x, want %x", enc, b[:ib.GRHLen])
		}
		if g, ok := pk.Layer(googlelayers.LayerTypeGRH).(*googlelayers.GRH); !ok || cmp.Diff(&h, g) != "" {
			t.Fatalf("NewPacket GRH %v, want %v", pk.Layer(googlelayers.LayerTypeGRH), &h)
		}
	})
}

// fzERFHeaderLen is the ERF record header in front of each frame of the
// native InfiniBand capture (type 21, no extension headers).
const fzERFHeaderLen = 16

// FuzzLRH decodes a native InfiniBand packet from its LRH with
// DecodeFromBytes and gopacket.NewPacket (LRH, GRH, BTH, ...), and checks
// the bounds (PktLen), the VCRC, the errors and that SerializeTo gives
// back the header and the VCRC.
func FuzzLRH(f *testing.F) {
	frames, _ := fzLoad(f)
	for _, c := range frames {
		if c.linkType == 197 && len(c.data) > fzERFHeaderLen {
			f.Add(c.data[fzERFHeaderLen:])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data)
		var h googlelayers.LRH
		err := h.DecodeFromBytes(b, gopacket.NilDecodeFeedback)
		fzCheckErr(t, "LRH", err, ib.ErrTruncated, ib.ErrBadLength)
		pk := gopacket.NewPacket(b, googlelayers.LayerTypeLRH, fzDecodeOptions)
		fzNoPanic(t, "NewPacket", pk)
		fzLayersWithin(t, b, "NewPacket", pk.Layers()...)
		if el := pk.ErrorLayer(); el != nil {
			fzIBErrOK(t, "NewPacket", el.Error())
		}
		if err != nil {
			return
		}
		end := 4 * int(h.PktLen)
		fzWithin(t, b, h.Contents, "contents")
		fzWithin(t, b, h.Payload, "payload")
		if end > len(b) {
			// Cut by the capture: the layer keeps what there is.
			if len(h.Contents) != ib.LRHLen || ib.LRHLen+len(h.Payload) != len(b) {
				t.Fatalf("cut: contents %d, payload %d, PktLen %d of %d bytes", len(h.Contents), len(h.Payload), h.PktLen, len(b))
			}
			return
		}
		if len(h.Contents) != ib.LRHLen || ib.LRHLen+len(h.Payload) != end {
			t.Fatalf("contents %d, payload %d, PktLen %d of %d bytes", len(h.Contents), len(h.Payload), h.PktLen, len(b))
		}
		var vcrc uint16
		if len(b) >= end+2 {
			vcrc = binary.BigEndian.Uint16(b[end:])
		}
		if h.VCRC != vcrc {
			t.Fatalf("VCRC %#x, want %#x", h.VCRC, vcrc)
		}
		out := fzSerialize(t, "LRH", &h, gopacket.Payload(h.Payload))
		if !bytes.Equal(out[:end], b[:end]) || len(out) != end+2 || binary.BigEndian.Uint16(out[end:]) != vcrc {
			t.Fatalf("SerializeTo\n%x\nwant\n%x + VCRC %04x", out, b[:end], vcrc)
		}
		if g, ok := pk.Layer(googlelayers.LayerTypeLRH).(*googlelayers.LRH); !ok || cmp.Diff(&h, g) != "" {
			t.Fatalf("NewPacket LRH %v, want %v", pk.Layer(googlelayers.LayerTypeLRH), &h)
		}
	})
}

// fzRefICRC is the ICRC by its definition: copy the packet without its
// last four bytes, set the variant fields to ones, prepend eight 0xFF
// bytes for the LRH and run CRC-32.
func fzRefICRC(enc ib.Encapsulation, pkt []byte) uint32 {
	b := bytes.Clone(pkt[:len(pkt)-ib.ICRCLen])
	ones := func(off ...int) {
		for _, o := range off {
			b[o] = 0xff
		}
	}
	var bth int
	switch enc {
	case ib.RoCEv1:
		b[0] |= 0x0f
		ones(1, 2, 3, 7)
		bth = ib.GRHLen
	case ib.RoCEv2IPv4:
		ones(1, 8, 10, 11, 26, 27)
		bth = 28
	case ib.RoCEv2IPv6:
		b[0] |= 0x0f
		ones(1, 2, 3, 7, 46, 47)
		bth = 48
	}
	ones(bth + 4)
	return crc32.ChecksumIEEE(append(bytes.Repeat([]byte{0xff}, 8), b...))
}

// FuzzICRCVerify computes, writes and verifies the ICRC of arbitrary
// packets (the first input byte selects the encapsulation, 0 being
// invalid) and checks ComputeICRC against the definition, that a written
// ICRC always verifies, that changing a variant field keeps it valid and
// that changing any other covered bit breaks it.
func FuzzICRCVerify(f *testing.F) {
	for _, b := range fzSeeds(f) {
		if l, ok := fzLayout(b); ok {
			f.Add(append([]byte{byte(l.Enc)}, b[l.Net:l.End]...), uint16(0))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, flip uint16) {
		if len(data) == 0 {
			return
		}
		enc := ib.Encapsulation(data[0] & 3)
		pkt := fzExact(bytes.Clone(data[1:]))
		orig := bytes.Clone(pkt)
		crc, err := ib.ComputeICRC(enc, pkt)
		fzCheckErr(t, "ComputeICRC", err, ib.ErrTruncated, ib.ErrUnsupported, ib.ErrBadVersion)
		verr := ib.VerifyICRC(enc, pkt)
		fzCheckErr(t, "VerifyICRC", verr, ib.ErrTruncated, ib.ErrUnsupported, ib.ErrBadVersion, ib.ErrBadICRC)
		if !bytes.Equal(pkt, orig) {
			t.Fatal("ComputeICRC or VerifyICRC changed the packet")
		}
		if err != nil {
			if perr := ib.PutICRC(enc, pkt); perr == nil || !bytes.Equal(pkt, orig) {
				t.Fatalf("PutICRC after ComputeICRC failed with %v: %v", err, perr)
			}
			return
		}
		if want := fzRefICRC(enc, pkt); crc != want {
			t.Fatalf("%v: ComputeICRC %#08x, by definition %#08x", enc, crc, want)
		}
		if (verr == nil) != (ib.ReceivedICRC(pkt) == crc) {
			t.Fatalf("VerifyICRC %v, received %#08x, computed %#08x", verr, ib.ReceivedICRC(pkt), crc)
		}
		if err := ib.PutICRC(enc, pkt); err != nil {
			t.Fatal(err)
		}
		if err := ib.VerifyICRC(enc, pkt); err != nil || ib.ReceivedICRC(pkt) != crc {
			t.Fatalf("PutICRC then VerifyICRC: %v", err)
		}
		if !bytes.Equal(pkt[:len(pkt)-4], orig[:len(orig)-4]) {
			t.Fatal("PutICRC changed more than the ICRC")
		}
		// Flip one bit before the ICRC: the ICRC still verifies exactly
		// when the bit is in a variant field.
		bit := int(flip) % (8 * (len(pkt) - ib.ICRCLen))
		mod := bytes.Clone(pkt)
		mod[bit/8] ^= 1 << (bit % 8)
		mod = fzExact(mod)
		variant := fzRefICRC(enc, mod) == fzRefICRC(enc, pkt)
		merr := ib.VerifyICRC(enc, mod)
		if enc == ib.RoCEv2IPv4 && mod[0] != 0x45 {
			fzCheckErr(t, "VerifyICRC", merr, ib.ErrUnsupported, ib.ErrBadVersion)
			return
		}
		if (merr == nil) != variant {
			t.Fatalf("%v: bit %d flipped: VerifyICRC %v, variant %v", enc, bit, merr, variant)
		}
		fzCheckErr(t, "VerifyICRC", merr, ib.ErrBadICRC)
	})
}
