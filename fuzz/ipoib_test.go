package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
)

// fzIPoIBSeeds returns the IPoIB payloads of the native InfiniBand
// packets of testdata (what follows the transport headers when ipoib.Match
// takes it for IPoIB).
func fzIPoIBSeeds(tb testing.TB) [][]byte {
	frames, _ := fzLoad(tb)
	var rec dump.Record
	var out [][]byte
	for _, c := range frames {
		if c.linkType != capfile.LinkTypeERF {
			continue
		}
		rec.Decode(c.index, gopacket.CaptureInfo{}, uint16(c.linkType), c.data)
		if rec.HasIPoIB {
			out = append(out, bytes.Clone(rec.RoCE.Packet.Payload))
		}
	}
	return out
}

// fzLLDPDUs returns the LLDPDUs (the bytes after Ethertype 0x88CC) of the
// Ethernet frames of testdata.
func fzLLDPDUs(tb testing.TB) [][]byte {
	var out [][]byte
	for _, b := range fzEthernet(tb) {
		if len(b) >= 14 && binary.BigEndian.Uint16(b[12:]) == 0x88cc {
			out = append(out, b[14:])
		}
	}
	return out
}

// FuzzIPoIB decodes the input as an IPoIB packet (ipoib.Header, then ARP)
// and, behind a fuzzed 40-byte link header, as a link type 242 record
// through ipoib.LinkHeader, gopacket.NewPacket and dump.Record, and
// checks the errors, the bounds, that the headers re-encode to the input
// byte for byte, and that Match agrees with the header's fields.
func FuzzIPoIB(f *testing.F) {
	for _, b := range fzIPoIBSeeds(f) {
		f.Add(b)
	}
	f.Add([]byte{0x08, 0x06, 0, 0, 0, 32, 8, 0, 255, 255, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data)
		var h ipoib.Header
		err := h.Decode(b)
		fzCheckErr(t, "Header", err, ib.ErrTruncated)
		var gh googlelayers.IPoIB
		if gerr := gh.DecodeFromBytes(b, gopacket.NilDecodeFeedback); (gerr == nil) != (err == nil) || gh.Header != h {
			t.Fatalf("layer %+v %v, codec %+v %v", gh.Header, gerr, h, err)
		}
		if err == nil {
			fzWithin(t, b, gh.Contents, "Header contents")
			fzWithin(t, b, gh.Payload, "Header payload")
			if len(gh.Contents)+len(gh.Payload) != len(b) {
				t.Fatalf("contents %d, payload %d of %d bytes", len(gh.Contents), len(gh.Payload), len(b))
			}
			if out, err := h.AppendTo(nil); err != nil || !bytes.Equal(out, b[:ipoib.HeaderLen]) {
				t.Fatalf("AppendTo %x %v, want %x", out, err, b[:4])
			}
			match := ipoib.Match(ib.OpUDSendOnly, 2, b)
			want := h.Reserved == 0 && (h.Type == ipoib.TypeIPv4 || h.Type == ipoib.TypeIPv6 || h.Type == ipoib.TypeARP)
			if match != want {
				t.Fatalf("Match %v for type %#x reserved %#x", match, uint16(h.Type), h.Reserved)
			}
			var a ipoib.ARP
			payload := b[ipoib.HeaderLen:]
			if err := a.Decode(payload); err == nil {
				for _, s := range [][]byte{a.SenderHW, a.SenderIP, a.TargetHW, a.TargetIP, a.Remainder} {
					fzWithin(t, b, s, "ARP")
				}
				if n := 8 + 2*int(a.HWLen) + 2*int(a.ProtoLen) + len(a.Remainder); n != len(payload) {
					t.Fatalf("ARP parts %d of %d bytes", n, len(payload))
				}
			} else {
				fzCheckErr(t, "ARP", err, ib.ErrTruncated)
			}
		}
		var lh ipoib.LinkHeader
		rec := fzExact(append(bytes.Repeat([]byte{byte(len(b))}, ipoib.LinkHeaderLen), b...))
		if len(b) > 0 && b[0]&1 == 0 {
			copy(rec, make([]byte, 4)) // a sent packet's link header
		}
		if err := lh.Decode(rec); err != nil {
			t.Fatal(err)
		}
		if out, err := lh.AppendTo(nil); err != nil || !bytes.Equal(out, rec[:ipoib.LinkHeaderLen]) {
			t.Fatalf("LinkHeader AppendTo %x %v", out, err)
		}
		pk := gopacket.NewPacket(rec, layers.LinkType(ipoib.LinkType), fzDecodeOptions)
		fzNoPanic(t, "NewPacket", pk)
		fzLayersWithin(t, rec, "NewPacket", pk.Layers()...)
		var r dump.Record
		r.Decode(1, gopacket.CaptureInfo{}, capfile.LinkTypeIPoIB, rec)
		if err != nil && r.Kind != dump.KindMalformed {
			t.Fatalf("Record kind %v, Header error %v", r.Kind, err)
		}
		line := r.AppendText(nil)
		if bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("text %q", line)
		}
	})
}

// FuzzDCBX decodes the input as an LLDPDU with dcbx.TLVs.Decode and
// checks the errors, that each DCBX TLV decoded on its own re-encodes to
// its bytes, and that gopacket's LLDP layer, when it decodes the frame,
// hands googlelayers.DCBX.DecodeValue the same TLVs.
func FuzzDCBX(f *testing.F) {
	for _, b := range fzLLDPDUs(f) {
		f.Add(b)
	}
	f.Add([]byte{0xfe, 0x06, 0x00, 0x80, 0xc2, 0x0b, 0x08, 0x08, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data)
		var d dcbx.TLVs
		err := d.Decode(b)
		fzCheckErr(t, "Decode", err, ib.ErrTruncated, ib.ErrBadLength)
		if d.AppPriority.Table != nil {
			fzWithin(t, b, d.AppPriority.Table, "AppPriority.Table")
		}
		for off := 0; off+2 <= len(b); {
			typ, n := b[off]>>1, 2+(int(b[off]&1)<<8|int(b[off+1]))
			if typ == 0 || off+n > len(b) {
				break
			}
			fzDCBXRoundTrip(t, b[off:off+n])
			off += n
		}
		if err != nil {
			return
		}
		frame := fzExact(append([]byte{1, 0x80, 0xc2, 0, 0, 0x0e, 2, 0, 0, 0, 0, 1, 0x88, 0xcc}, b...))
		pk := gopacket.NewPacket(frame, layers.LayerTypeEthernet, fzDecodeOptions)
		l, ok := pk.Layer(layers.LayerTypeLinkLayerDiscovery).(*layers.LinkLayerDiscovery)
		if !ok || pk.ErrorLayer() != nil {
			return // gopacket wants the mandatory TLVs first
		}
		var byValue googlelayers.DCBX
		for _, v := range l.Values {
			if _, err := byValue.DecodeValue(v); err != nil {
				t.Fatalf("DecodeValue %v after Decode accepted", err)
			}
		}
		if byValue.Any() != d.Any() || byValue.PFCConfig != d.PFCConfig || byValue.ETSConfig != d.ETSConfig {
			t.Fatalf("gopacket's TLVs decode to %+v, Decode to %+v", byValue, d)
		}
	})
}

// fzDCBXRoundTrip decodes one LLDP TLV (header included) and, when it is a
// DCBX TLV that decodes, checks that AppendTo gives it back.
func fzDCBXRoundTrip(t *testing.T, tlv []byte) {
	var d dcbx.TLVs
	ok, err := d.DecodeTLV(tlv[0]>>1, tlv[2:])
	fzCheckErr(t, "DecodeTLV", err, ib.ErrTruncated, ib.ErrBadLength)
	if !ok || err != nil {
		return
	}
	out, err := d.AppendTo(nil)
	if err != nil || !bytes.Equal(out, tlv) {
		t.Fatalf("AppendTo %x %v, want %x", out, err, tlv)
	}
}

// TestTruncationIPoIBDCBX cuts the IPoIB payloads and LLDPDUs of testdata
// at every length: the IPoIB header cut short and an ARP packet cut before
// its addresses end fail with ErrTruncated; an LLDPDU cut inside a TLV
// fails with ErrTruncated and one cut between TLVs decodes; nothing
// panics.
func TestTruncationIPoIBDCBX(t *testing.T) {
	cuts := 0
	for _, whole := range fzIPoIBSeeds(t) {
		var h ipoib.Header
		if err := h.Decode(whole); err != nil {
			t.Fatal(err)
		}
		var full ipoib.ARP
		arpErr := full.Decode(whole[ipoib.HeaderLen:])
		for n := 0; n < len(whole); n++ {
			cuts++
			b := whole[:n:n]
			err := h.Decode(b)
			if n < ipoib.HeaderLen {
				if !errorsIsTruncated(err) {
					t.Fatalf("cut %d: %v", n, err)
				}
				continue
			}
			if h.Type == ipoib.TypeARP && arpErr == nil {
				var a ipoib.ARP
				aerr := a.Decode(b[ipoib.HeaderLen:])
				if (n < ipoib.HeaderLen+ipoib.ARPLen) != errorsIsTruncated(aerr) {
					t.Fatalf("ARP cut %d: %v", n, aerr)
				}
			}
		}
	}
	for _, whole := range fzLLDPDUs(t) {
		for n := 0; n < len(whole); n++ {
			cuts++
			var d dcbx.TLVs
			err := d.Decode(whole[:n:n])
			fzCheckErr(t, "Decode", err, ib.ErrTruncated)
		}
	}
	if cuts < 1000 {
		t.Fatalf("%d cuts: too few inputs", cuts)
	}
}

func errorsIsTruncated(err error) bool { return errors.Is(err, ib.ErrTruncated) }
