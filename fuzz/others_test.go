package fuzz

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocev2"
)

// FuzzMACControl decodes the body of a MAC Control frame (the bytes after
// Ethertype 0x8808) with DecodeFromBytes, with and without feedback, and
// as a whole frame with gopacket.NewPacket, and checks the error, the
// bounds, that every byte is accounted for, that AppendTo and SerializeTo
// give back the body byte for byte and that XON and XOFF split the
// enabled priorities.
func FuzzMACControl(f *testing.F) {
	for _, b := range fzSeeds(f) {
		if len(b) >= 14 && binary.BigEndian.Uint16(b[12:]) == uint16(pfc.EthernetTypeMACControl) {
			f.Add(b[14:])
		}
	}
	f.Add([]byte{0x01, 0x01})
	f.Add([]byte{0x00, 0x01, 0x12})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data)
		var m pfc.MACControl
		err := m.Decode(b)
		fzCheckErr(t, "MACControl", err, pfc.ErrTruncated)
		var m2 googlelayers.MACControl
		if err2 := m2.DecodeFromBytes(b, gopacket.NilDecodeFeedback); (err2 == nil) != (err == nil) {
			t.Fatalf("layer %v, codec %v", err2, err)
		}
		frame := append(append(append([]byte{}, pfc.MulticastAddr[:]...), 2, 0, 0, 0, 0, 1, 0x88, 0x08), b...)
		frame = fzExact(frame)
		pk := gopacket.NewPacket(frame, layers.LayerTypeEthernet, fzDecodeOptions)
		fzNoPanic(t, "NewPacket", pk)
		fzLayersWithin(t, frame, "NewPacket", pk.Layers()...)
		if err != nil {
			// gopacket calls no decoder for an empty Ethernet payload.
			if el := pk.ErrorLayer(); el == nil {
				if len(b) > 0 {
					t.Fatalf("NewPacket decoded what Decode refused: %v", err)
				}
			} else {
				fzCheckErr(t, "NewPacket", el.Error(), ib.ErrTruncated)
			}
			return
		}
		if d := cmp.Diff(m, m2.MACControl); d != "" {
			t.Fatalf("decodes differ:\n%s", d)
		}
		fzWithin(t, b, m2.Contents, "Contents")
		fzWithin(t, b, m.Pad, "Pad")
		fzWithin(t, b, m.Body, "Body")
		if len(m2.Payload) != 0 || len(m2.Contents)+len(m.Pad)+len(m.Body) != len(b) || m.Len() != len(b) {
			t.Fatalf("contents %d, pad %d, body %d, Len %d of %d bytes", len(m2.Contents), len(m.Pad), len(m.Body), m.Len(), len(b))
		}
		if out, err := m.AppendTo(nil); err != nil || !bytes.Equal(out, b) {
			t.Fatalf("AppendTo %x, %v, want %x", out, err, b)
		}
		if out := fzSerialize(t, "MACControl", &m2); !bytes.Equal(out, b) {
			t.Fatalf("SerializeTo %x, want %x", out, b)
		}
		if m.XON()&m.XOFF() != 0 || m.XON()|m.XOFF() != m.Enabled() {
			t.Fatalf("XON %v, XOFF %v, enabled %v", m.XON(), m.XOFF(), m.Enabled())
		}
		for prio := -1; prio <= pfc.NumPriorities; prio++ {
			q, ok := m.Quanta(prio)
			if ok != m.Enabled().Has(prio) || m.Paused(prio) != (ok && q != 0) {
				t.Fatalf("priority %d: quanta %d %v, paused %v", prio, q, ok, m.Paused(prio))
			}
		}
		l, ok := pk.Layer(googlelayers.LayerTypeMACControl).(*googlelayers.MACControl)
		if !ok {
			t.Fatalf("NewPacket: no MACControl in %v", pk)
		}
		if d := cmp.Diff(&m, &l.MACControl); d != "" {
			t.Fatalf("NewPacket differs:\n%s", d)
		}
	})
}

// fzCNPErrs are what cnp.Decode, Check and Reply may return.
var fzCNPErrs = append([]error{cnp.ErrNotCNP, cnp.ErrBadField, cnp.ErrNotCE, cnp.ErrIsCNP, cnp.ErrRange}, fzFrameErrs...)

// FuzzCNP runs cnp.IsCNP, Decode, Check and Reply over a frame and
// checks that IsCNP and Decode agree, that the errors wrap the
// documented sentinels, that a refused Reply leaves dst alone, and that
// every CNP Reply builds is a conforming CNP that verifies its own ICRC
// (and its UDP checksum over IPv6) and goes back to the sender.
func FuzzCNP(f *testing.F) {
	for _, b := range fzSeeds(f) {
		if _, ok := fzLayout(b); ok {
			f.Add(b, uint32(0x123456), uint8(cnp.DefaultDSCP), int8(cnp.KeepPriority), true)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, qp uint32, dscp uint8, prio int8, anyECN bool) {
		b := fzExact(data)
		is := cnp.IsCNP(b)
		var fr roce.Frame
		err := cnp.Decode(&fr.Packet, b)
		fzCheckErr(t, "cnp.Decode", err, fzCNPErrs...)
		if err == nil && !is {
			t.Fatal("cnp.Decode decoded a frame IsCNP refuses")
		}
		if err != nil && is && !errors.Is(err, ib.ErrUnsupported) && !errors.Is(err, ib.ErrBadPad) {
			t.Fatalf("IsCNP, but cnp.Decode: %v", err)
		}
		if err == nil {
			cerr := cnp.Check(&fr.Packet)
			fzCheckErr(t, "cnp.Check", cerr, fzCNPErrs...)
		}

		o := cnp.DefaultOptions()
		o.DSCP, o.Priority, o.AnyECN = dscp, int(prio), anyECN
		dst := []byte("prefix")
		out, rerr := cnp.Reply(dst, b, qp, &o)
		fzCheckErr(t, "cnp.Reply", rerr, fzCNPErrs...)
		if rerr != nil {
			if !bytes.Equal(out, []byte("prefix")) {
				t.Fatalf("refused Reply changed dst: %q", out)
			}
			return
		}
		if !bytes.Equal(out[:6], []byte("prefix")) {
			t.Fatalf("Reply overwrote dst")
		}
		reply := fzExact(out[6:])
		var c, rx roce.Frame
		if err := cnp.Decode(&c.Packet, reply); err != nil {
			t.Fatalf("the reply is no CNP: %v\n%x", err, reply)
		}
		if err := c.Decode(reply); err != nil { // the addresses
			t.Fatalf("the reply does not decode: %v\n%x", err, reply)
		}
		if err := cnp.Check(&c.Packet); err != nil {
			t.Fatalf("the reply breaks the CNP rules: %v", err)
		}
		if !cnp.IsCNP(reply) || roce.VerifyFrame(reply) != nil {
			t.Fatalf("the reply: IsCNP %v, ICRC %v", cnp.IsCNP(reply), roce.VerifyFrame(reply))
		}
		if err := rx.Decode(b); err != nil && !errors.Is(err, ib.ErrBadPad) && !errors.Is(err, ib.ErrBadLength) && !errors.Is(err, ib.ErrTruncated) {
			t.Fatalf("Reply answered a frame Decode refuses: %v", err)
		}
		l, _ := fzLayout(b)
		if c.Encap != l.Enc || c.NumVLANs != l.Tags || c.Packet.BTH.DestQP != qp ||
			!bytes.Equal(reply[:6], b[6:12]) || !bytes.Equal(reply[6:12], b[:6]) {
			t.Fatalf("the reply goes elsewhere: %+v", c)
		}
		if c.GRH.TClass>>2 != dscp || c.GRH.TClass&3 != uint8(o.ECN) {
			t.Fatalf("reply traffic class %#x, want DSCP %d", c.GRH.TClass, dscp)
		}
		if c.Encap == ib.RoCEv2IPv6 {
			ip := reply[14+4*c.NumVLANs:]
			udp := ip[40 : 40+cnp.UDPLen]
			if got, want := binary.BigEndian.Uint16(udp[6:]), rocev2.UDPChecksum(ip[:40], udp); got != want {
				t.Fatalf("UDP checksum %#04x, want %#04x", got, want)
			}
		}
	})
}

// FuzzECNMark marks a frame's ECN field in place, twice, and checks that
// the second marking changes nothing (idempotence), that only the ECN
// bits and the IPv4 header checksum change, that a valid IPv4 checksum
// stays valid and a valid ICRC stays valid (the ICRC masks both), that
// refused frames are left alone, and that SetFrameECN then FrameECN read
// back each codepoint.
func FuzzECNMark(f *testing.F) {
	for _, b := range fzSeeds(f) {
		f.Add(b, uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, cp uint8) {
		orig := fzExact(bytes.Clone(data))
		a := fzExact(bytes.Clone(data))
		before, ferr := ecn.FrameECN(a)
		fzCheckErr(t, "FrameECN", ferr, ecn.ErrNotIP, ib.ErrTruncated, ib.ErrBadVersion, ib.ErrBadLength)
		marked, err := ecn.MarkCE(a)
		fzCheckErr(t, "MarkCE", err, ecn.ErrNotIP, ib.ErrTruncated, ib.ErrBadVersion, ib.ErrBadLength)
		if (err == nil) != (ferr == nil) {
			t.Fatalf("FrameECN %v, MarkCE %v", ferr, err)
		}
		if err != nil {
			if marked || !bytes.Equal(a, orig) {
				t.Fatalf("MarkCE refused (%v) but changed the frame", err)
			}
			return
		}
		if marked != before.IsECT() {
			t.Fatalf("codepoint %v, marked %v", before, marked)
		}
		after, _ := ecn.FrameECN(a)
		if want := map[bool]ecn.Codepoint{true: ecn.CE, false: before}[marked]; after != want {
			t.Fatalf("after MarkCE: %v, want %v", after, want)
		}
		twice := bytes.Clone(a)
		m2, err2 := ecn.MarkCE(twice)
		if m2 || err2 != nil || !bytes.Equal(twice, a) {
			t.Fatalf("marking twice differs from marking once (%v, %v)", m2, err2)
		}
		h, v, _ := ecn.IPHeader(orig)
		off := len(orig) - len(h)
		for i := range a {
			if a[i] == orig[i] {
				continue
			}
			ok := false
			switch {
			case v == 4 && i == off+1:
				ok = a[i]&^3 == orig[i]&^3
			case v == 4 && (i == off+10 || i == off+11):
				ok = true
			case v == 6 && i == off+1:
				ok = a[i]&^0x30 == orig[i]&^0x30
			}
			if !ok {
				t.Fatalf("MarkCE changed byte %d: %#02x to %#02x", i, orig[i], a[i])
			}
		}
		if v == 4 {
			ihl := int(h[0]&0x0f) * 4
			if fzOnesSum(orig[off:off+ihl]) == 0xffff && fzOnesSum(a[off:off+ihl]) != 0xffff {
				t.Fatal("MarkCE broke a valid IPv4 header checksum")
			}
		}
		if roce.VerifyFrame(orig) == nil {
			if err := roce.VerifyFrame(a); err != nil {
				t.Fatalf("MarkCE broke the ICRC: %v", err)
			}
		}
		c := ecn.Codepoint(cp & 3)
		s := bytes.Clone(orig)
		if err := ecn.SetFrameECN(s, c); err != nil {
			t.Fatalf("SetFrameECN: %v", err)
		}
		s2 := bytes.Clone(s)
		if err := ecn.SetFrameECN(s2, c); err != nil || !bytes.Equal(s, s2) {
			t.Fatalf("SetFrameECN twice differs from once (%v)", err)
		}
		if got, err := ecn.FrameECN(s); got != c || err != nil {
			t.Fatalf("SetFrameECN %v, FrameECN %v (%v)", c, got, err)
		}
		if err := ecn.SetFrameECN(s, ecn.Codepoint(4+cp%252)); !errors.Is(err, ecn.ErrRange) {
			t.Fatalf("SetFrameECN out of range: %v", err)
		}
	})
}

// fzOnesSum is the 16-bit ones' complement sum of b (even length).
func fzOnesSum(b []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return uint16(s)
}

// fzMaxFrames bounds how many frames FuzzCaptureReader reads per input.
const fzMaxFrames = 256

// fzAllocSlack is what reading a capture may allocate beyond a multiple
// of its size: the reader's buffers.
const fzAllocSlack = 1 << 20

// FuzzCaptureReader reads arbitrary bytes as a capture with
// capfile.NewSource and Source.Next, decodes every frame with Record.Decode
// and formats it as JSON and text. It checks the errors, that no frame is
// longer than the input (under gzip, what it decompresses to), that the
// JSON is valid and one line, and that reading allocates memory in
// proportion to the input, not to the lengths a hostile header claims.
func FuzzCaptureReader(f *testing.F) {
	_, files := fzLoad(f)
	for _, raw := range files {
		f.Add(raw)
		f.Add(raw[:len(raw)/2])
	}
	f.Add(fzPcapng(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		limit := uint64(8*fzSize(data) + fzAllocSlack)
		if got := fzReadCapture(t, data); got > limit {
			// The count is the whole process's: while fuzzing, the
			// engine allocates beside the test. Read the capture again:
			// a capture that makes the reader allocate does so each time.
			if got = fzReadCapture(t, data); got > limit {
				t.Fatalf("reading a %d-byte capture allocated %d bytes", len(data), got)
			}
		}
	})
}

// fzReadCapture reads data as FuzzCaptureReader does, checking every
// frame, and returns the bytes the process allocated meanwhile.
func fzReadCapture(t *testing.T, data []byte) uint64 {
	size := fzSize(data)
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	start := sample[0].Value.Uint64()

	src, err := capfile.NewSource(bytes.NewReader(data))
	if err != nil {
		fzCheckErr(t, "NewSource", err, capfile.ErrNotCapture)
		return 0
	}
	var r dump.Record
	var txt dump.TextOptions
	var out []byte
	for n := 1; n <= fzMaxFrames; n++ {
		frame, ci, lt, err := src.Next()
		if err != nil {
			break
		}
		if len(frame) > size {
			t.Fatalf("frame %d: %d bytes from a %d-byte input", n, len(frame), size)
		}
		r.Decode(n, ci, lt, frame)
		if r.Kind == dump.KindMalformed {
			fzCheckErr(t, "Record.Decode", r.Err, fzFrameErrs...)
		}
		out = r.AppendJSON(out[:0])
		if !json.Valid(out) || bytes.IndexByte(out, '\n') != len(out)-1 {
			t.Fatalf("frame %d: JSON %q", n, out)
		}
		out = r.AppendText(out[:0])
		if len(out) == 0 || bytes.IndexByte(out, '\n') != len(out)-1 {
			t.Fatalf("frame %d: text %q", n, out)
		}
		// tcpdump's output formats, one per frame in turn: the
		// line, then only hex lines.
		txt.Format, txt.TimeRef = fzTextFormats[n%len(fzTextFormats)], ci.Timestamp.Add(-time.Duration(n)*time.Hour)
		out = txt.AppendText(out[:0], &r)
		line, hex, _ := bytes.Cut(out, []byte{'\n'})
		if len(line) == 0 && txt.Format.Time != dump.TimeNone || bytes.Contains(line, []byte{'\t'}) {
			t.Fatalf("frame %d: text %+v %q", n, txt.Format, out)
		}
		for _, h := range bytes.SplitAfter(hex, []byte{'\n'}) {
			if len(h) > 0 && (!bytes.HasPrefix(h, []byte("\t0x")) || h[len(h)-1] != '\n') {
				t.Fatalf("frame %d: text %+v %q", n, txt.Format, out)
			}
		}
	}
	metrics.Read(sample)
	return sample[0].Value.Uint64() - start
}

// fzTextFormats are the text formats FuzzCaptureReader tries.
var fzTextFormats = []dump.TextFormat{
	{Time: dump.TimeDelta, Link: true, Hex: dump.HexASCII},
	{Time: dump.TimeDate, Nano: true, Hex: dump.Hex, HexLink: true, Quiet: true},
	{Time: dump.TimeNone, Link: true, Quiet: true},
	{Time: dump.TimeEpoch, Hex: dump.HexASCII, HexLink: true, Link: true},
	{Time: dump.TimeSinceFirst, Nano: true, Hex: dump.Hex},
}

// fzPcapng returns some golden frames as a pcapng file.
func fzPcapng(tb testing.TB) []byte {
	frames, _ := fzLoad(tb)
	var buf bytes.Buffer
	w, err := fzNgWriter(&buf)
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range frames[len(frames)-8:] {
		ci := gopacket.CaptureInfo{CaptureLength: len(c.data), Length: len(c.data), InterfaceIndex: 0}
		if err := w.WritePacket(ci, c.data); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func fzNgWriter(w io.Writer) (*pcapgo.NgWriter, error) {
	return pcapgo.NewNgWriter(w, layers.LinkTypeEthernet)
}
