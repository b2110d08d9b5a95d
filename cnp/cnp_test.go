package cnp_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"testing"

	"github.com/roce-go/roce/internal/testkit/corpus"

	"github.com/google/go-cmp/cmp"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/rocev2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Vectors from docs/icrc-vectors.md, Ethernet first, no FCS.
const (
	// V4: CNP over RoCEv2/IPv4, 192.168.1.2 -> 192.168.1.1, TOS 0xC2,
	// UDP 49153 -> 4791, DestQP 0x34, BECN, ICRC 0d07721e.
	hexV4 = "020000000001020000000002080045c2003c000040004011b69bc0a80102c0a80101c00112b7002800008100ffff4000003400000000000000000000000000000000000000000d07721e"
	// V1: RoCEv2/IPv4 SEND Only, 192.168.1.1 -> 192.168.1.2, TOS 0x02.
	hexV1 = "02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f"
	// V2: RoCEv2/IPv6 SEND Only, fd00::1 -> fd00::2, Traffic Class 0x02,
	// Flow Label 0x12345.
	hexV2 = "02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d"
	// V3: RoCEv1 SEND Only.
	hexV3 = "02000000000202000000000189156000000000201b40fe800000000000000000000000000001fe8000000000000000000000000000020470ffff0000001280000001526f4345207465737420766563000000b906246b"
	// ARP request.
	hexARP = "ffffffffffff020000000001" + "0806" + "0001080006040001" + "020000000001c0a80101" + "000000000000c0a80102"
)

// withTag inserts an 802.1Q tag with the given PCP and VID after the MACs.
func withTag(f []byte, pcp uint8, vid uint16) []byte {
	out := append([]byte(nil), f[:12]...)
	out = append(out, 0x81, 0x00, pcp<<5|byte(vid>>8), byte(vid))
	return append(out, f[12:]...)
}

// ipv4Sum recomputes an IPv4 header checksum from scratch (RFC 1071).
func ipv4Sum(h []byte) uint16 {
	var s uint32
	for i := 0; i < 20; i += 2 {
		if i != 10 {
			s += uint32(binary.BigEndian.Uint16(h[i:]))
		}
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

// markCE sets the ECN bits of the IPv4 or IPv6 frame f (with tags VLAN
// tags) to CE, fixing the IPv4 checksum by full recomputation. It is
// written here, apart from package ecn, so that the test does not lean on
// the code it could be hiding a bug in.
func markCE(f []byte, tags int) {
	ip := f[14+4*tags:]
	if ip[0]>>4 == 4 {
		ip[1] |= 3
		binary.BigEndian.PutUint16(ip[10:], ipv4Sum(ip))
	} else {
		ip[1] |= 0x30
	}
}

func TestVectorV4(t *testing.T) {
	v4 := corpus.Hex(t, hexV4)
	if !cnp.IsCNP(v4) {
		t.Fatal("IsCNP(V4) = false")
	}
	var f roce.Frame
	if err := cnp.Decode(&f.Packet, v4); err != nil {
		t.Fatal(err)
	}
	if err := roce.VerifyFrame(v4); err != nil {
		t.Fatal(err)
	}
	if err := f.Decode(v4); err != nil { // the addresses

		t.Fatal(err)
	}
	if err := cnp.Check(&f.Packet); err != nil {
		t.Fatalf("Check: %v", err)
	}
	h := f.Packet.BTH
	if h.OpCode != 0x81 || h.DestQP != 0x34 || !h.BECN || h.FECN || h.PKey != 0xffff || h.PSN != 0 || h.AckReq {
		t.Fatalf("BTH %+v", h)
	}
	if f.GRH.TClass != 0xc2 || f.SrcPort != 49153 || f.DstPort != 4791 {
		t.Fatalf("TClass %#x, ports %d -> %d", f.GRH.TClass, f.SrcPort, f.DstPort)
	}
	out, err := f.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(v4, out); diff != "" {
		t.Fatalf("re-encoding differs (-vector +ours):\n%s", diff)
	}

	// The same CNP built from scratch with FillPacket.
	var g roce.Frame
	g.Dst = [6]byte{2, 0, 0, 0, 0, 1}
	g.Src = [6]byte{2, 0, 0, 0, 0, 2}
	g.Encap = ib.RoCEv2IPv4
	g.GRH.TClass, g.GRH.HopLmt = 0xc2, 64
	g.GRH.SGID = rocev2.GIDFromAddr(netip.MustParseAddr("::ffff:192.168.1.2"))
	g.GRH.DGID = rocev2.GIDFromAddr(netip.MustParseAddr("::ffff:192.168.1.1"))
	g.IPv4Flags = 0x4000
	g.SrcPort = 49153
	cnp.FillPacket(&g.Packet, 0x34)
	built, err := g.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(v4, built); diff != "" {
		t.Fatalf("FillPacket + AppendTo differs (-vector +ours):\n%s", diff)
	}
	if len(built) != cnp.FrameLenIPv4 {
		t.Fatalf("length %d, want %d", len(built), cnp.FrameLenIPv4)
	}
}

func TestDecodeErrors(t *testing.T) {
	var f roce.Frame
	if err := cnp.Decode(&f.Packet, corpus.Hex(t, hexV1)); !errors.Is(err, cnp.ErrNotCNP) {
		t.Errorf("SEND Only: %v, want ErrNotCNP", err)
	}
	if err := cnp.Decode(&f.Packet, corpus.Hex(t, hexV3)); !errors.Is(err, cnp.ErrNotCNP) {
		t.Errorf("RoCEv1: %v, want ErrNotCNP", err)
	}
	if err := cnp.Decode(&f.Packet, corpus.Hex(t, hexARP)); !errors.Is(err, ib.ErrNotRoCE) {
		t.Errorf("ARP: %v, want ib.ErrNotRoCE", err)
	}
	// A CNP with four more reserved bytes: IP length 64, UDP length 44.
	long := corpus.Hex(t, hexV4)
	long = append(long[:len(long)-4], 0, 0, 0, 0, 0, 0, 0, 0)
	binary.BigEndian.PutUint16(long[16:], 64)
	binary.BigEndian.PutUint16(long[38:], 44)
	if err := cnp.Decode(&f.Packet, long); !errors.Is(err, ib.ErrBadLength) {
		t.Errorf("long CNP: %v, want ib.ErrBadLength", err)
	}
	if cnp.IsCNP(long) {
		t.Error("IsCNP(long CNP) = true")
	}
	// Field rules: one broken field at a time.
	for _, tc := range []struct {
		name string
		off  int // byte offset in the frame
		val  byte
	}{
		{"BECN clear", 46, 0x00},
		{"FECN set", 46, 0xc0},
		{"SE set", 43, 0x80},
		{"PadCnt 1", 43, 0x10},
		{"PSN 1", 53, 0x01},
		{"AckReq", 50, 0x80},
		{"reserved byte", 60, 0x01},
	} {
		b := corpus.Hex(t, hexV4)
		b[tc.off] = tc.val
		if err := cnp.Decode(&f.Packet, b); err != nil {
			if tc.name == "PadCnt 1" {
				continue // the core may reject it already
			}
			t.Errorf("%s: Decode: %v", tc.name, err)
			continue
		}
		err := cnp.Check(&f.Packet)
		if !errors.Is(err, cnp.ErrBadField) && !errors.Is(err, ib.ErrBadLength) {
			t.Errorf("%s: Check = %v, want ErrBadField", tc.name, err)
		}
		// Checker.Check: the same error, held in the Checker, no allocation.
		c := new(cnp.Checker)
		checkerSink = c // on the heap, where its error stays put
		var cerr error
		allocs := testing.AllocsPerRun(10, func() { cerr = c.Check(&f.Packet) })
		var fe *ib.FieldError
		if cerr == nil || cerr.Error() != err.Error() || errors.As(err, &fe) != errors.As(cerr, &fe) || allocs != 0 {
			t.Errorf("%s: Checker.Check = %v (%v allocations), Check %v", tc.name, cerr, allocs, err)
		}
	}
	// A trailer (Ethernet padding, FCS) is not part of the CNP.
	if !cnp.IsCNP(append(corpus.Hex(t, hexV4), 0xde, 0xad, 0xbe, 0xef)) {
		t.Error("IsCNP with a 4-byte trailer = false")
	}
}

// senderQP is the QP number the tests pretend the receiver looked up in
// its QP context for a received frame: anything but the received DestQP.
func senderQP(rx *roce.Frame) uint32 { return (rx.Packet.BTH.DestQP ^ 0xa5a5a5) & 0xffffff }

// checkReply decodes a reply to rx and checks every field against rx.
func checkReply(t *testing.T, what string, rx *roce.Frame, reply []byte, o cnp.Options) {
	t.Helper()
	if err := roce.VerifyFrame(reply); err != nil {
		t.Fatalf("%s: reply ICRC: %v", what, err)
	}
	if !cnp.IsCNP(reply) {
		t.Fatalf("%s: IsCNP(reply) = false", what)
	}
	var f roce.Frame
	if err := f.Decode(reply); err != nil {
		t.Fatalf("%s: decoding the reply: %v", what, err)
	}
	if err := cnp.Check(&f.Packet); err != nil {
		t.Fatalf("%s: Check(reply): %v", what, err)
	}
	h := f.Packet.BTH
	if h.OpCode != 0x81 || !h.BECN || h.DestQP != senderQP(rx) || h.PKey != o.PKey || h.PSN != 0 {
		t.Fatalf("%s: reply BTH opcode %#x BECN %v DestQP %#x P_Key %#x PSN %d; want DestQP %#x",
			what, h.OpCode, h.BECN, h.DestQP, h.PKey, h.PSN, senderQP(rx))
	}
	if f.Dst != rx.Src || f.Src != rx.Dst {
		t.Fatalf("%s: MACs %x <- %x, received %x <- %x", what, f.Dst, f.Src, rx.Dst, rx.Src)
	}
	if f.GRH.SGID != rx.GRH.DGID || f.GRH.DGID != rx.GRH.SGID {
		t.Fatalf("%s: addresses not swapped", what)
	}
	if f.Encap != rx.Encap || f.NumVLANs != rx.NumVLANs {
		t.Fatalf("%s: encapsulation %v/%d tags, received %v/%d", what, f.Encap, f.NumVLANs, rx.Encap, rx.NumVLANs)
	}
	for i := range f.NumVLANs {
		want := rx.VLANs[i]
		if o.Priority != cnp.KeepPriority {
			want.PCP = uint8(o.Priority)
		}
		if f.VLANs[i] != want {
			t.Fatalf("%s: tag %d %+v, want %+v", what, i, f.VLANs[i], want)
		}
	}
	if f.GRH.TClass != o.DSCP<<2|uint8(o.ECN) || f.GRH.HopLmt != o.HopLimit {
		t.Fatalf("%s: traffic class %#x hop limit %d", what, f.GRH.TClass, f.GRH.HopLmt)
	}
	wantPort := o.SrcPort
	if wantPort == 0 {
		wantPort = rx.SrcPort
		if rx.GRH.FlowLabel != 0 {
			wantPort = rocev2.FlowLabelToUDPSrcPort(rx.GRH.FlowLabel)
		}
	}
	if f.SrcPort != wantPort || f.DstPort != 4791 {
		t.Fatalf("%s: ports %d -> %d, want %d -> 4791", what, f.SrcPort, f.DstPort, wantPort)
	}
	if f.Encap == ib.RoCEv2IPv4 {
		ip := reply[14+4*f.NumVLANs:]
		if binary.BigEndian.Uint16(ip[10:]) != ipv4Sum(ip) {
			t.Fatalf("%s: bad IPv4 header checksum", what)
		}
		if f.IPv4Flags != 0x4000 || f.UDPChecksum {
			t.Fatalf("%s: IPv4 flags %#x, UDP checksum %v", what, f.IPv4Flags, f.UDPChecksum)
		}
		if len(reply) != cnp.FrameLenIPv4+4*f.NumVLANs {
			t.Fatalf("%s: length %d", what, len(reply))
		}
	} else {
		if f.GRH.FlowLabel != rx.GRH.FlowLabel || !f.UDPChecksum {
			t.Fatalf("%s: flow label %#x, UDP checksum %v", what, f.GRH.FlowLabel, f.UDPChecksum)
		}
		if len(reply) != cnp.FrameLenIPv6+4*f.NumVLANs {
			t.Fatalf("%s: length %d", what, len(reply))
		}
	}
}

// captureReplies returns, for the RoCE frames of the four captures (every
// one, plus a VLAN-tagged copy of every 50th), the CE-marked frame and
// the CNP Reply builds for it, checking each as it goes.
func captureReplies(t *testing.T, o cnp.Options) (rxs, replies [][]byte, total int) {
	buf := make([]byte, 0, 128)
	for _, name := range corpus.RoCECaptures {
		for i, raw := range corpus.Capture(t, name) {
			if roce.VerifyFrame(raw) != nil {
				continue
			}
			total++
			variants := [][]byte{raw}
			if total%50 == 0 {
				variants = append(variants, withTag(raw, 5, 300))
			}
			for _, f := range variants {
				tags := (len(f) - len(raw)) / 4
				what := name + " #" + strconv.Itoa(i) + " tags " + strconv.Itoa(tags)
				f = append([]byte(nil), f...)
				var rx roce.Frame
				if err := rx.Decode(f); err != nil {
					t.Fatal(err)
				}
				if rx.GRH.TClass&3 != 3 {
					if _, err := cnp.Reply(buf[:0], f, senderQP(&rx), &o); !errors.Is(err, cnp.ErrNotCE) {
						t.Fatalf("%s: reply to a %s frame: %v, want ErrNotCE", what, ecnName(rx.GRH.TClass), err)
					}
				}
				markCE(f, tags)
				if err := roce.VerifyFrame(f); err != nil {
					t.Fatalf("%s: CE-marked frame: %v", what, err)
				}
				if err := rx.Decode(f); err != nil {
					t.Fatal(err)
				}
				reply, err := cnp.Reply(buf[:0], f, senderQP(&rx), &o)
				if err != nil {
					t.Fatalf("%s: Reply: %v", what, err)
				}
				checkReply(t, what, &rx, reply, o)
				rxs = append(rxs, f)
				replies = append(replies, append([]byte(nil), reply...))
			}
		}
	}
	return rxs, replies, total
}

func ecnName(tc uint8) string { return [4]string{"Not-ECT", "ECT(1)", "ECT(0)", "CE"}[tc&3] }

func TestReplyCaptures(t *testing.T) {
	_, replies, total := captureReplies(t, cnp.DefaultOptions())
	if total != 4129 {
		t.Errorf("%d RoCE frames, want 4129", total)
	}
	o := cnp.DefaultOptions()
	o.DSCP, o.Priority, o.SrcPort, o.HopLimit, o.PKey = 26, 7, 50000, 255, 0x8001
	_, replies2, _ := captureReplies(t, o)
	t.Logf("%d frames answered twice (%d and %d CNPs)", total, len(replies), len(replies2))
}

func TestReplyIPv6(t *testing.T) {
	for _, tags := range []int{0, 1} {
		f := corpus.Hex(t, hexV2)
		if tags == 1 {
			f = withTag(f, 3, 42)
		}
		markCE(f, tags)
		var rx roce.Frame
		if err := rx.Decode(f); err != nil {
			t.Fatal(err)
		}
		for _, o := range []cnp.Options{cnp.DefaultOptions(), {DSCP: 0, ECN: 2, Priority: 6, SrcPort: 1234, HopLimit: 1, PKey: 0x7fff}} {
			reply, err := cnp.Reply(nil, f, senderQP(&rx), &o)
			if err != nil {
				t.Fatal(err)
			}
			checkReply(t, "V2 tags "+strconv.Itoa(tags), &rx, reply, o)
			// UDP checksum: recomputed here with the core's helper over
			// the reply as sent must give zero difference.
			ip := reply[14+4*tags:]
			udp := ip[40:]
			if got, want := binary.BigEndian.Uint16(udp[6:]), rocev2.UDPChecksum(ip[:40], udp); got != want || got == 0 {
				t.Fatalf("UDP checksum %#04x, want %#04x", got, want)
			}
		}
	}
	// Flow label 0 over IPv6: the received source port is kept.
	f := corpus.Hex(t, hexV2)
	f[15], f[16], f[17] = 0x20, 0, 0
	markCE(f, 0)
	reply, err := cnp.Reply(nil, f, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sp := binary.BigEndian.Uint16(reply[54:]); sp != 0xc000 {
		t.Fatalf("source port %#x, want the received 0xc000", sp)
	}
}

// TestReplyTshark has tshark dissect CNPs built for the captures and for
// the IPv6 vector: Ethernet, VLAN, IP and UDP fields as expected, BTH
// opcode 129 (tshark 4.0 names it "Unknown"), DestQP, P_Key, PSN, and the
// BECN byte (tshark shows byte 4 as infiniband.reserved).
func TestReplyTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	rxs, replies, _ := captureReplies(t, cnp.DefaultOptions())
	// Keep the pcap small: every frame of the small captures, every 20th
	// of the rest, every tagged one.
	var frames, sent [][]byte
	for i := range replies {
		if i < 105 || i%20 == 0 || len(replies[i]) != cnp.FrameLenIPv4 || i >= len(replies)-30 {
			frames, sent = append(frames, rxs[i]), append(sent, replies[i])
		}
	}
	for _, tags := range []int{0, 1} {
		f := corpus.Hex(t, hexV2)
		if tags == 1 {
			f = withTag(f, 3, 42)
		}
		markCE(f, tags)
		var rx roce.Frame
		if err := rx.Decode(f); err != nil {
			t.Fatal(err)
		}
		reply, err := cnp.Reply(nil, f, senderQP(&rx), nil)
		if err != nil {
			t.Fatal(err)
		}
		frames, sent = append(frames, f), append(sent, reply)
	}
	pcap := oracle.WritePcap(t, t.TempDir(), "cnp.pcap", sent)
	ts := oracle.Tshark(t, pcap, "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
		"--disable-protocol", "tftp", "--disable-protocol", "pppmux", "--disable-protocol", "crtp")
	if len(ts) != len(sent) {
		t.Fatalf("tshark decoded %d frames, want %d", len(ts), len(sent))
	}
	mac := func(b []byte) string {
		return fmt.Sprintf("%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2], b[3], b[4], b[5])
	}
	for i, fl := range ts {
		var rx roce.Frame
		if err := rx.Decode(frames[i]); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"eth.dst":               mac(frames[i][6:]),
			"eth.src":               mac(frames[i][0:]),
			"udp.dstport":           "4791",
			"udp.length":            "40",
			"infiniband.bth.opcode": "129",
			"infiniband.bth.p_key":  "65535",
			"infiniband.bth.psn":    "0",
			"infiniband.bth.se":     "0",
			"infiniband.bth.padcnt": "0",
			"infiniband.reserved":   "40", // byte 4: BECN
			"infiniband.bth.destqp": fmt.Sprintf("0x%06x", senderQP(&rx)),
			"udp.srcport":           strconv.Itoa(int(binary.BigEndian.Uint16(sent[i][len(sent[i])-40:]))),
			"udp.checksum.status":   map[bool]string{true: "1", false: "3"}[rx.Encap == ib.RoCEv2IPv6], // 1 good, 3 not present
			"frame.len":             strconv.Itoa(len(sent[i])),
		}
		if rx.Encap == ib.RoCEv2IPv4 {
			want["ip.src"] = rx.GRH.DstGID().Unmap().String()
			want["ip.dst"] = rx.GRH.SrcGID().Unmap().String()
			want["ip.dsfield.dscp"] = "48"
			want["ip.dsfield.ecn"] = "0"
			want["ip.ttl"] = "64"
			want["ip.len"] = "60"
			want["ip.checksum.status"] = "1" // good
		} else {
			want["ipv6.src"] = rx.GRH.DstGID().String()
			want["ipv6.dst"] = rx.GRH.SrcGID().String()
			want["ipv6.tclass.dscp"] = "48"
			want["ipv6.flow"] = fmt.Sprintf("0x%06x", rx.GRH.FlowLabel)
			want["ipv6.plen"] = "40"
		}
		if rx.NumVLANs == 1 {
			want["vlan.id"] = strconv.Itoa(int(rx.VLANs[0].ID))
			want["vlan.priority"] = strconv.Itoa(int(rx.VLANs[0].PCP))
		}
		for k, v := range want {
			got, ok := fl.First(k)
			if !ok || got != v {
				t.Errorf("frame %d: tshark %s = %q (shown %v), want %q", i, k, got, ok, v)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("tshark checked %d CNPs", len(ts))
}

// TestReplyRefusals: frames Reply must not answer, and every cut of
// answerable ones: errors wrapping the sentinels, dst untouched, no panic.
func TestReplyRefusals(t *testing.T) {
	v1 := corpus.Hex(t, hexV1)
	ce := append([]byte(nil), v1...)
	markCE(ce, 0)
	cnpCE := corpus.Hex(t, hexV4)
	markCE(cnpCE, 0)
	v3 := corpus.Hex(t, hexV3)
	v3[15] |= 0x30 // CE in the GRH traffic class
	opts := cnp.DefaultOptions()
	bad := func(f func(o *cnp.Options)) *cnp.Options { o := opts; f(&o); return &o }
	for _, tc := range []struct {
		name string
		f    []byte
		qp   uint32
		o    *cnp.Options
		want error
	}{
		{"not CE", v1, 1, nil, cnp.ErrNotCE},
		{"CNP", cnpCE, 1, nil, cnp.ErrIsCNP},
		{"ARP", corpus.Hex(t, hexARP), 1, nil, ib.ErrNotRoCE},
		{"RoCEv1", v3, 1, nil, ib.ErrUnsupported},
		{"QP 25 bits", ce, 1 << 24, nil, cnp.ErrRange},
		{"DSCP 64", ce, 1, bad(func(o *cnp.Options) { o.DSCP = 64 }), cnp.ErrRange},
		{"priority 8", ce, 1, bad(func(o *cnp.Options) { o.Priority = 8 }), cnp.ErrRange},
		{"priority -2", ce, 1, bad(func(o *cnp.Options) { o.Priority = -2 }), cnp.ErrRange},
		{"ECN 4", ce, 1, bad(func(o *cnp.Options) { o.ECN = 4 }), cnp.ErrRange},
	} {
		dst := []byte("keep")
		out, err := cnp.Reply(dst, tc.f, tc.qp, tc.o)
		if !errors.Is(err, tc.want) || string(out) != "keep" {
			t.Errorf("%s: %q, %v; want %v and dst unchanged", tc.name, out, err, tc.want)
		}
	}
	if _, err := cnp.Reply(nil, v1, 1, bad(func(o *cnp.Options) { o.AnyECN = true })); err != nil {
		t.Errorf("AnyECN on an ECT(0) frame: %v", err)
	}
	// A BTH-less RoCEv2 datagram: UDP length 8 + 8 bytes.
	short := append([]byte(nil), ce[:14+20+8+8]...)
	binary.BigEndian.PutUint16(short[16:], 36)
	binary.BigEndian.PutUint16(short[38:], 16)
	binary.BigEndian.PutUint16(short[24:], 0)
	binary.BigEndian.PutUint16(short[24:], ipv4Sum(short[14:]))
	if _, err := cnp.Reply(nil, short, 1, nil); !errors.Is(err, ib.ErrBadLength) {
		t.Errorf("8-byte transport: %v, want ib.ErrBadLength", err)
	}

	ce6 := corpus.Hex(t, hexV2)
	markCE(ce6, 0)
	ceTag := withTag(v1, 2, 7)
	markCE(ceTag, 1)
	for name, full := range map[string][]byte{"v4": ce, "v6": ce6, "v4/vlan": ceTag, "cnp": corpus.Hex(t, hexV4)} {
		for n := 0; n < len(full); n++ {
			f := append([]byte(nil), full[:n]...)
			dst := make([]byte, 3, 200)
			out, err := cnp.Reply(dst, f, 1, nil)
			if err == nil || len(out) != 3 {
				t.Fatalf("%s cut at %d: Reply = %d bytes, %v", name, n, len(out), err)
			}
			if !errors.Is(err, ib.ErrTruncated) && !errors.Is(err, ib.ErrNotRoCE) {
				t.Errorf("%s cut at %d: %v, want ErrTruncated", name, n, err)
			}
			if cnp.IsCNP(f) {
				t.Errorf("%s cut at %d: IsCNP = true", name, n)
			}
			var fr roce.Frame
			if cnp.Decode(&fr.Packet, f) == nil {
				t.Errorf("%s cut at %d: Decode succeeded", name, n)
			}
		}
	}
}

func TestNoAllocs(t *testing.T) {
	ce := corpus.Hex(t, hexV1)
	markCE(ce, 0)
	ce6 := withTag(corpus.Hex(t, hexV2), 1, 1)
	markCE(ce6, 1)
	notCE := corpus.Hex(t, hexV1)
	v4 := corpus.Hex(t, hexV4)
	buf := make([]byte, 0, 128)
	p := cnp.NewPacer(1024, cnp.DefaultInterval)
	var now int64
	var qp uint32
	var f, g roce.Frame // g holds the CNP's addresses for the rows that build one
	require.NoError(t, g.Decode(v4))
	reply := func(rx []byte, o *cnp.Options, n int) error {
		out, err := cnp.Reply(buf[:0], rx, 0x1234, o)
		if err == nil && len(out) != n {
			err = fmt.Errorf("Reply wrote %d bytes, want %d", len(out), n)
		}
		return err
	}
	// Every row returns an error unless its call did what the row says.
	for name, fn := range map[string]func() error{
		"Reply/IPv4":      func() error { return reply(ce, nil, cnp.FrameLenIPv4) },
		"Reply/IPv6+VLAN": func() error { return reply(ce6, nil, cnp.FrameLenIPv6+4) },
		"Reply/notCE": func() error {
			if err := reply(notCE, nil, 0); err != cnp.ErrNotCE {
				return fmt.Errorf("Reply(not CE) = %v, want ErrNotCE itself", err)
			}
			return nil
		},
		"Reply/IsCNP": func() error {
			if err := reply(v4, &cnp.Options{AnyECN: true, HopLimit: 1, Priority: -1}, 0); err != cnp.ErrIsCNP {
				return fmt.Errorf("Reply(CNP) = %v, want ErrIsCNP itself", err)
			}
			return nil
		},
		"IsCNP": func() error {
			if !cnp.IsCNP(v4) || cnp.IsCNP(ce) {
				return errors.New("IsCNP wrong")
			}
			return nil
		},
		"Pacer.Allow": func() error { now += 100; qp = (qp + 1) % 5000; p.Allow(qp, now); return nil },
		"Check": func() error {
			if err := f.Decode(v4); err != nil {
				return err
			}
			return cnp.Check(&f.Packet)
		},
		"Decode(CNP)": func() error { return cnp.Decode(&f.Packet, v4) },
		"FillPacket+AppendTo": func() error {
			cnp.FillPacket(&g.Packet, 0x34)
			out, err := g.AppendTo(buf[:0])
			if err == nil && !cnp.IsCNP(out) {
				err = errors.New("not a CNP")
			}
			return err
		},
	} {
		require.NoError(t, fn(), name)
		var err error
		n := testing.AllocsPerRun(1000, func() {
			if e := fn(); e != nil {
				err = e
			}
		})
		assert.NoError(t, err, name)
		assert.Zero(t, n, "%s: allocations per run", name)
	}
}

// TestMessages checks what the errors say: the field, the value, one
// prefix.
func TestMessages(t *testing.T) {
	var f roce.Frame
	v4 := corpus.Hex(t, hexV4)
	for _, tc := range []struct {
		name   string
		mutate func(b []byte) // of the CNP V4 before decoding
		fix    func(f *roce.Frame)
		want   string
		is     error
	}{
		{"BECN clear", func(b []byte) { b[46] = 0 }, nil, "roce: BTH.BECN 0x0 must be 1 in a CNP", cnp.ErrBadField},
		{"PSN 1", func(b []byte) { b[53] = 1 }, nil, "roce: BTH.PSN 0x1 must be 0 in a CNP", cnp.ErrBadField},
		{"reserved", func(b []byte) { b[62] = 0xab }, nil, "roce: reserved byte 8 0xab must be 0 in a CNP", cnp.ErrBadField},
		{"opcode", nil, func(f *roce.Frame) { f.Packet.BTH.OpCode = ib.OpRCSendOnly },
			"roce: BTH.OpCode 0x4 (RC SEND Only) is not the CNP opcode 0x81", cnp.ErrNotCNP},
	} {
		b := append([]byte(nil), v4...)
		if tc.mutate != nil {
			tc.mutate(b)
		}
		require.NoError(t, cnp.Decode(&f.Packet, b), tc.name)
		if tc.fix != nil {
			tc.fix(&f)
		}
		err := cnp.Check(&f.Packet)
		require.ErrorIs(t, err, tc.is, tc.name)
		var fe *ib.FieldError
		require.ErrorAs(t, err, &fe, tc.name)
		assert.Equal(t, tc.want, err.Error(), tc.name)
	}
	err := cnp.Decode(&f.Packet, corpus.Hex(t, hexV1))
	require.ErrorIs(t, err, cnp.ErrNotCNP)
	assert.Equal(t, "roce: BTH.OpCode 0x4 (RC SEND Only) is not the CNP opcode 0x81", err.Error())
	err = cnp.Decode(&f.Packet, corpus.Hex(t, hexV3))
	require.ErrorIs(t, err, cnp.ErrNotCNP)
	assert.Equal(t, "roce: Encap 0x1 is RoCEv1; a CNP is RoCEv2", err.Error())
	_, err = cnp.Reply(nil, corpus.Hex(t, hexV1)[:20], 1, nil)
	assert.Equal(t, "roce: IPv4 at offset 14: truncated (want 34 bytes, have 20)", err.Error())
	_, err = cnp.Reply(nil, corpus.Hex(t, hexV1), 1, nil)
	assert.Equal(t, "roce: frame is not CE-marked", err.Error())
	// FillPacket does not cut a QP number to 24 bits; AppendTo refuses it.
	cnp.FillPacket(&f.Packet, 1<<24)
	_, err = f.AppendTo(nil)
	assert.ErrorIs(t, err, ib.ErrBadValue)
}

// checkerSink keeps a Checker on the heap.
var checkerSink *cnp.Checker
