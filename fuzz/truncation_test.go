package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// TestTruncationSweepAll cuts every Ethernet frame of testdata (every
// capture, every golden frame, the ICRC vectors, PAUSE, PFC and CNP
// frames) at every byte offset, with the cut's capacity equal to its
// length, and runs every decoder over each cut: roce.Frame.Decode,
// roce.VerifyFrame, gopacket.NewPacket, the googlelayers.Layers parser,
// ib.Packet.Decode (on the cut transport packet), pfc.MACControl, cnp
// (IsCNP, Decode, Reply) and ecn (FrameECN, MarkCE). Nothing may panic;
// errors must wrap the documented sentinels; a cut either fails or
// decodes to a shorter valid result: a RoCE frame cut inside its headers
// through the BTH fails with ErrTruncated; cut after its BTH but before
// the end of its ICRC (a capture's snap length) it decodes with Truncated
// set, the whole frame's headers (of an extended header cut, its fields
// as in the whole frame or zero) and WireLen, a prefix of its payload,
// and VerifyFrame and VerifyICRC return ErrUnchecked; cut after the ICRC
// (in its Ethernet padding) it decodes as the whole frame does.
func TestTruncationSweepAll(t *testing.T) {
	frames := fzEthernet(t)
	var ls googlelayers.Layers
	parser := ls.Parser()
	var decoded []gopacket.LayerType
	cuts := 0
	for i, whole := range frames {
		var full roce.Frame
		fullErr := full.Decode(whole)
		l, isRoCE := fzLayout(whole)
		isMACC := len(whole) >= 14 && binary.BigEndian.Uint16(whole[12:]) == uint16(pfc.EthernetTypeMACControl)
		var fullMACC pfc.MACControl
		if isMACC {
			if err := fullMACC.Decode(whole[14:]); err != nil {
				t.Fatalf("frame %d: MAC Control: %v", i, err)
			}
		}
		for n := 0; n < len(whole); n++ {
			cuts++
			b := whole[:n:n]

			// roce.Frame and VerifyFrame.
			var f roce.Frame
			err := f.Decode(b)
			fzCheckErr(t, "Frame.Decode", err, fzFrameErrs...)
			verr := roce.VerifyFrame(b)
			fzCheckErr(t, "VerifyFrame", verr, append(fzFrameErrs, ib.ErrBadICRC, ib.ErrUnchecked)...)
			hdrEnd := l.BTH + ib.BTHLen // where a cut stops being an error
			if isRoCE && fullErr == nil {
				switch {
				case n < hdrEnd && !errors.Is(err, ib.ErrTruncated):
					t.Fatalf("frame %d cut at %d of %d (the BTH ends at %d): %v, want ErrTruncated", i, n, len(whole), hdrEnd, err)
				case n >= hdrEnd && n < l.End && err != nil:
					t.Fatalf("frame %d cut at %d, after its BTH (%d): %v", i, n, hdrEnd, err)
				case n >= hdrEnd && n < l.End:
					fzSameCut(t, &full, &f, b)
					if !errors.Is(verr, ib.ErrUnchecked) || !errors.Is(f.VerifyICRC(), ib.ErrUnchecked) {
						t.Fatalf("frame %d cut at %d: VerifyFrame %v, VerifyICRC %v, want ErrUnchecked", i, n, verr, f.VerifyICRC())
					}
				case n >= l.End && err != nil:
					t.Fatalf("frame %d cut at %d after its ICRC (%d): %v", i, n, l.End, err)
				case n >= l.End && fzDiff(f, full) != "":
					t.Fatalf("frame %d cut at %d decodes otherwise: %s", i, n, fzDiff(f, full))
				case (verr == nil) != (n >= l.End && full.VerifyICRC() == nil):
					t.Fatalf("frame %d cut at %d: VerifyFrame %v", i, n, verr)
				}
			}

			// gopacket.NewPacket and the Layers parser.
			pk := gopacket.NewPacket(b, layers.LayerTypeEthernet, fzDecodeOptions)
			fzNoPanic(t, "NewPacket", pk)
			fzLayersWithin(t, b, "NewPacket", pk.Layers()...)
			if el := pk.ErrorLayer(); el != nil {
				fzIBErrOK(t, "NewPacket", el.Error())
			}
			perr := parser.DecodeLayers(b, &decoded)
			fzIBErrOK(t, "parser", perr)
			for _, lt := range decoded {
				if ly := fzParserLayer(&ls, lt); ly != nil {
					fzLayersWithin(t, b, "parser", ly)
				}
			}
			if isRoCE && fullErr == nil && n >= hdrEnd {
				if bth, ok := pk.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH); !ok {
					t.Fatalf("frame %d cut at %d: NewPacket lost the BTH", i, n)
				} else {
					fzSameBTH(t, "NewPacket", &full.Packet.BTH, &bth.BTH)
				}
				fzSameBTH(t, "parser", &full.Packet.BTH, &ls.BTH.BTH)
			}

			// ib.Packet over the cut transport packet, told its length.
			if isRoCE && fullErr == nil && n > l.BTH {
				var p ib.Packet
				derr := p.DecodeTruncated(b[l.BTH:min(n, l.End)], l.End-l.BTH)
				if (derr == nil) != (n >= hdrEnd) || derr == nil && (p.BTH.Truncated != (n < l.End) || p.BTH.PSN != full.Packet.BTH.PSN) {
					t.Fatalf("frame %d cut at %d: DecodeTruncated %v, BTH %+v", i, n, derr, p.BTH)
				}
			}
			// ib.Packet over the cut transport packet taken as whole.
			if isRoCE && n > l.BTH {
				tp := b[l.BTH:min(n, l.End)]
				var p ib.Packet
				if perr := p.Decode(tp); perr != nil {
					fzCheckErr(t, "Packet.Decode", perr, fzPacketErrs...)
				} else {
					fzWithin(t, tp, p.Payload, "Packet.Payload")
					fzWithin(t, tp, p.BTH.Pad, "Packet.BTH.Pad")
					if ib.BTHLen+p.Headers().Size()+len(p.Payload)+len(p.BTH.Pad)+ib.ICRCLen != len(tp) {
						t.Fatalf("frame %d cut at %d: Packet does not account for its %d bytes", i, n, len(tp))
					}
				}
			}

			// pfc.
			if isMACC && n >= 14 {
				var m pfc.MACControl
				merr := m.Decode(b[14:])
				fzCheckErr(t, "MACControl", merr, pfc.ErrTruncated)
				if merr == nil {
					fzWithin(t, b, m.Pad, "MACControl.Pad")
					fzWithin(t, b, m.Body, "MACControl.Body")
					if m.Opcode != fullMACC.Opcode || m.PauseTime != fullMACC.PauseTime || m.Time != fullMACC.Time ||
						m.PriorityEnableVector != fullMACC.PriorityEnableVector || m.Len() != n-14 {
						t.Fatalf("frame %d cut at %d: MAC Control %+v, whole %+v", i, n, m, fullMACC)
					}
				} else if fullMACC.Len()-len(fullMACC.Pad)-len(fullMACC.Body) <= n-14 {
					t.Fatalf("frame %d cut at %d after the MAC Control fields: %v", i, n, merr)
				}
			}

			// cnp.
			is := cnp.IsCNP(b)
			if is && (!isRoCE || n < l.End) {
				t.Fatalf("frame %d cut at %d: IsCNP", i, n)
			}
			var c roce.Frame
			cerr := cnp.Decode(&c.Packet, b)
			fzCheckErr(t, "cnp.Decode", cerr, fzCNPErrs...)
			if cerr == nil && !is && !c.Packet.BTH.Truncated { // cnp.Decode takes a CNP cut by the capture, IsCNP does not
				t.Fatalf("frame %d cut at %d: cnp.Decode without IsCNP", i, n)
			}
			o := cnp.DefaultOptions()
			o.AnyECN = true
			if _, rerr := cnp.Reply(nil, b, 1, &o); rerr != nil {
				fzCheckErr(t, "cnp.Reply", rerr, fzCNPErrs...)
			} else if !isRoCE || n < l.End {
				t.Fatalf("frame %d cut at %d: Reply answered a cut frame", i, n)
			}

			// ecn, on a copy: MarkCE writes in place.
			_, eerr := ecn.FrameECN(b)
			fzCheckErr(t, "FrameECN", eerr, ecn.ErrNotIP, ib.ErrTruncated, ib.ErrBadVersion, ib.ErrBadLength)
			mc := bytes.Clone(b)
			mc = mc[:n:n]
			if _, merr := ecn.MarkCE(mc); merr != nil {
				fzCheckErr(t, "MarkCE", merr, ecn.ErrNotIP, ib.ErrTruncated, ib.ErrBadVersion, ib.ErrBadLength)
				if !bytes.Equal(mc, b) {
					t.Fatalf("frame %d cut at %d: refused MarkCE changed the frame", i, n)
				}
			} else {
				mw := bytes.Clone(whole)
				if _, err := ecn.MarkCE(mw); err != nil || !bytes.Equal(mw[:n], mc) {
					t.Fatalf("frame %d cut at %d: MarkCE of the cut differs from MarkCE of the whole (%v)", i, n, err)
				}
			}
		}
	}
	t.Logf("%d frames, %d cuts, 11 decoders each", len(frames), cuts)
}

// fzSameCut checks a frame decoded from the first bytes of the whole
// one: Truncated, the whole frame's WireLen and headers (each field of an
// extended header not captured whole as in the whole frame or zero), a
// prefix of its payload.
func fzSameCut(t *testing.T, whole, cut *roce.Frame, b []byte) {
	t.Helper()
	if !cut.Truncated || !cut.Packet.BTH.Truncated || cut.WireLen != whole.WireLen {
		t.Fatalf("cut at %d: Truncated %v, WireLen %d, whole WireLen %d", len(b), cut.Truncated, cut.WireLen, whole.WireLen)
	}
	if !bytes.HasPrefix(whole.Packet.Payload, cut.Packet.Payload) {
		t.Fatalf("cut at %d: payload %x not a prefix of %x", len(b), cut.Packet.Payload, whole.Packet.Payload)
	}
	w := *whole
	w.Truncated, w.Packet.Payload = true, cut.Packet.Payload
	w.Packet.BTH.Pad, w.Packet.BTH.ICRC, w.Packet.BTH.Truncated = nil, [4]byte{}, true
	w.Raw, w.Packet.BTH.Pad = cut.Raw, cut.Packet.BTH.Pad
	hs := cut.Packet.Headers()
	for i := range hs.Len() {
		h := hs.At(i)
		if cut.Packet.Captured(h) == h.Len() {
			continue
		}
		wv := reflect.ValueOf(&w.Packet).Elem().FieldByName(h.String())
		cv := reflect.ValueOf(&cut.Packet).Elem().FieldByName(h.String())
		for k := range wv.NumField() {
			if wv.Type().Field(k).IsExported() && !wv.Field(k).Equal(cv.Field(k)) && !cv.Field(k).IsZero() {
				t.Fatalf("cut at %d: %v.%s %v, whole %v", len(b), h, wv.Type().Field(k).Name, cv.Field(k), wv.Field(k))
			}
		}
		wv.Set(cv)
		// The BTH then differs only in what it keeps of the cut, which
		// is unexported: compare its exported fields, then take it.
		wb, cb := reflect.ValueOf(w.Packet.BTH), reflect.ValueOf(cut.Packet.BTH)
		for k := range wb.NumField() {
			if f := wb.Type().Field(k); f.IsExported() && !f.Anonymous && !reflect.DeepEqual(wb.Field(k).Interface(), cb.Field(k).Interface()) {
				t.Fatalf("cut at %d: BTH.%s %v, whole %v", len(b), f.Name, cb.Field(k), wb.Field(k))
			}
		}
		w.Packet.BTH = cut.Packet.BTH
	}
	if reflect.DeepEqual(w, *cut) { // cmp.Diff only to explain: it is slow, and this runs for every cut
		return
	}
	if d := fzDiff(w, *cut); d != "" {
		t.Fatalf("cut at %d decodes other headers (-whole +cut):\n%s", len(b), d)
	}
}
