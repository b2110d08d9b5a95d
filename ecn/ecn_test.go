package ecn_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/roce-go/roce/internal/testkit/corpus"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Frames from docs/icrc-vectors.md, Ethernet first, no FCS.
const (
	// V1: RoCEv2/IPv4 SEND Only, TOS 0x02 (ECT(0)), header checksum 0xa527.
	hexV1 = "02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f"
	// V2: RoCEv2/IPv6 SEND Only, Traffic Class 0x02, Flow Label 0x12345.
	hexV2 = "02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d"
	// PFC frame: MAC Control Ethertype 0x8808.
	hexPFC = "0180c2000001020000000001880801010088000000000000ffff00000000000012340000000000000000000000000000000000000000000000000000"
	// ARP request, 42 bytes (Ethertype 0x0806).
	hexARP = "ffffffffffff020000000001" + "0806" + "0001080006040001" + "020000000001c0a80101" + "000000000000c0a80102"
)

// withTags inserts n 802.1Q tags (TPID 0x8100, PCP 3, VID 100+i) after the
// MAC addresses.
func withTags(f []byte, n int) []byte {
	out := append([]byte(nil), f[:12]...)
	for i := range n {
		out = append(out, 0x81, 0x00, 0x60, byte(100+i))
	}
	return append(out, f[12:]...)
}

// fullChecksum recomputes the IPv4 header checksum from scratch (RFC 1071):
// the ones' complement of the ones' complement sum of the header's 16-bit
// words, the checksum field taken as zero.
func fullChecksum(h []byte) uint16 {
	n := int(h[0]&0x0f) * 4
	var sum uint32
	for i := 0; i < n; i += 2 {
		if i == 10 {
			continue
		}
		sum += uint32(h[i])<<8 | uint32(h[i+1])
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

func storedChecksum(h []byte) uint16 { return binary.BigEndian.Uint16(h[10:]) }

func TestCodepointString(t *testing.T) {
	for _, tc := range []struct {
		c    ecn.Codepoint
		want string
		ect  bool
	}{
		{0b00, "Not-ECT", false},
		{0b01, "ECT(1)", true},
		{0b10, "ECT(0)", true},
		{0b11, "CE", false},
		{4, "Codepoint(4)", false},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("Codepoint(%d).String() = %q, want %q", uint8(tc.c), got, tc.want)
		}
		if got := tc.c.IsECT(); got != tc.ect {
			t.Errorf("Codepoint(%d).IsECT() = %v, want %v", uint8(tc.c), got, tc.ect)
		}
	}
}

// TestRFC1624Example follows the worked example of wire-format.md section
// 8 on vector V1's IPv4 header: checksum 0xA527; TOS 0x02 -> 0x03 gives
// 0xA526; then TTL 64 -> 63 (word 0x4011 -> 0x3F11) gives 0xA626.
func TestRFC1624Example(t *testing.T) {
	f := corpus.Hex(t, hexV1)
	h := f[14:34]
	if got := storedChecksum(h); got != 0xa527 {
		t.Fatalf("vector checksum %#04x, want 0xa527", got)
	}
	if err := ecn.SetIPv4ECN(h, ecn.CE); err != nil {
		t.Fatal(err)
	}
	if h[1] != 0x03 {
		t.Fatalf("TOS %#02x, want 0x03", h[1])
	}
	if got := storedChecksum(h); got != 0xa526 {
		t.Fatalf("after TOS 0x02->0x03: checksum %#04x, want 0xa526", got)
	}
	h[8] = 63
	hc := ecn.ChecksumUpdate(storedChecksum(h), 0x4011, 0x3f11)
	if hc != 0xa626 {
		t.Fatalf("after TTL 64->63: checksum %#04x, want 0xa626", hc)
	}
	binary.BigEndian.PutUint16(h[10:], hc)
	if full := fullChecksum(h); full != hc {
		t.Fatalf("full recomputation %#04x, incremental %#04x", full, hc)
	}
	// And the ICRC, which masks TOS, TTL and the checksum, still holds:
	// icrc-vectors.md says the CE/TTL 63 variant keeps 85bca00f.
	if err := roce.VerifyFrame(f); err != nil {
		t.Fatalf("ICRC after remarking: %v", err)
	}
}

// rfc1141 is the flawed update of RFC 1141 (HC' = HC + m + ~m'), kept here
// only to show that the random test below can tell the two forms apart.
func rfc1141(hc, m, m1 uint16) uint16 {
	s := uint32(hc) + uint32(m) + uint32(^m1)
	s = s&0xffff + s>>16
	s = s&0xffff + s>>16
	return uint16(s)
}

// randomHeader fills h with a random IPv4 header (IHL 5 to 15) carrying a
// correct checksum, and returns its length.
func randomHeader(r *rand.Rand, h []byte) []byte {
	ihl := 5 + r.IntN(11)
	n := ihl * 4
	for i := range n {
		h[i] = byte(r.Uint32())
	}
	h[0] = 0x40 | byte(ihl)
	binary.BigEndian.PutUint16(h[10:], fullChecksum(h[:n]))
	return h[:n]
}

func TestChecksumMatchesRecomputation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf [60]byte
	var zeros, diff1141 int
	const n = 100_000
	for i := range n {
		h := randomHeader(r, buf[:])
		// One in four headers is steered so that, after the change, a
		// full recomputation gives 0x0000: the ones' complement sum is
		// 0xFFFF. That is the case RFC 1141 gets wrong.
		newTOS := byte(r.Uint32())
		op := r.IntN(3)
		switch op {
		case 0: // ECN only
			newTOS = h[1]&^3 | newTOS&3
		case 1: // DSCP only
			newTOS = newTOS&^3 | h[1]&3
		}
		steer := i%4 == 0
		if steer {
			c := append([]byte(nil), h...)
			c[1] = newTOS
			binary.BigEndian.PutUint16(c[4:], 0)
			// With ID 0, fullChecksum is ~S for S the sum of the other
			// words; an ID of ~S makes the whole sum 0xFFFF.
			binary.BigEndian.PutUint16(h[4:], fullChecksum(c))
			binary.BigEndian.PutUint16(h[10:], fullChecksum(h))
		}
		before := append([]byte(nil), h...)
		m := binary.BigEndian.Uint16(h[0:])
		var err error
		switch op {
		case 0:
			err = ecn.SetIPv4ECN(h, ecn.Codepoint(newTOS&3))
		case 1:
			err = ecn.SetIPv4DSCP(h, newTOS>>2)
		default:
			err = ecn.SetIPv4TOS(h, newTOS)
		}
		if err != nil {
			t.Fatal(err)
		}
		if h[1] != newTOS {
			t.Fatalf("header %x: TOS %#02x, want %#02x", before, h[1], newTOS)
		}
		want := fullChecksum(h)
		if got := storedChecksum(h); got != want {
			t.Fatalf("header %x, TOS -> %#02x: incremental checksum %#04x, full recomputation %#04x",
				before, newTOS, got, want)
		}
		if want == 0 {
			zeros++
		}
		m1 := binary.BigEndian.Uint16(h[0:])
		if m != m1 && rfc1141(storedChecksum(before), m, m1) != want {
			diff1141++
		}
	}
	if zeros < n/8 {
		t.Errorf("only %d of %d cases had a recomputed checksum of 0x0000; the steering is broken", zeros, n)
	}
	if diff1141 == 0 {
		t.Errorf("RFC 1141's update agreed with the recomputation every time: the test cannot tell the forms apart")
	}
	t.Logf("%d headers, %d with checksum 0x0000, RFC 1141 would have been wrong %d times", n, zeros, diff1141)
}

func TestMarkCE(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frame  string
		tags   int
		tos    uint8 // TOS or Traffic Class to start from
		marked bool
	}{
		{"v4/ECT0", hexV1, 0, 0x02, true},
		{"v4/ECT1", hexV1, 0, 0x01, true},
		{"v4/NotECT", hexV1, 0, 0x00, false},
		{"v4/CE", hexV1, 0, 0x03, false},
		{"v4/dscp26/ECT0", hexV1, 0, 26<<2 | 2, true},
		{"v4/vlan", hexV1, 1, 0x02, true},
		{"v4/qinq", hexV1, 2, 0x02, true},
		{"v6/ECT0", hexV2, 0, 0x02, true},
		{"v6/ECT1", hexV2, 0, 0xb9, true},
		{"v6/NotECT", hexV2, 0, 0xb8, false},
		{"v6/vlan", hexV2, 1, 0x02, true},
		{"v6/qinq", hexV2, 2, 0xfe, true},
		{"v4/three tags", hexV1, 3, 0x02, true},
		{"v6/eight tags", hexV2, 8, 0x02, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := withTags(corpus.Hex(t, tc.frame), tc.tags)
			ip := f[14+4*tc.tags:]
			v6 := ip[0]>>4 == 6
			if v6 {
				ip[0] = ip[0]&0xf0 | tc.tos>>4
				ip[1] = ip[1]&0x0f | tc.tos<<4
			} else {
				ip[1] = tc.tos
				binary.BigEndian.PutUint16(ip[10:], fullChecksum(ip))
			}
			if err := roce.VerifyFrame(f); err != nil {
				t.Fatalf("test frame: %v", err)
			}
			orig := append([]byte(nil), f...)
			marked, err := ecn.MarkCE(f)
			if err != nil || marked != tc.marked {
				t.Fatalf("MarkCE = %v, %v; want %v, nil", marked, err, tc.marked)
			}
			once := append([]byte(nil), f...)
			marked, err = ecn.MarkCE(f)
			if err != nil || marked {
				t.Fatalf("second MarkCE = %v, %v; want false, nil", marked, err)
			}
			if string(f) != string(once) {
				t.Fatalf("marking twice differs from marking once:\n%x\n%x", once, f)
			}
			wantTC := tc.tos
			if tc.marked {
				wantTC |= 3
			}
			var gotTC uint8
			if v6 {
				gotTC = ip[0]<<4 | ip[1]>>4
				if ip[0]>>4 != 6 || binary.BigEndian.Uint32(ip)&0xfffff != 0x12345 {
					t.Fatalf("version or flow label damaged: %x", ip[:4])
				}
			} else {
				gotTC = ip[1]
				if got, want := storedChecksum(ip), fullChecksum(ip); got != want {
					t.Fatalf("IPv4 checksum %#04x, recomputed %#04x", got, want)
				}
			}
			if gotTC != wantTC {
				t.Fatalf("traffic class %#02x, want %#02x", gotTC, wantTC)
			}
			// Nothing but the traffic class and the IPv4 checksum moved.
			for i := range f {
				off := i - (14 + 4*tc.tags)
				changeable := v6 && (off == 0 || off == 1) || !v6 && (off == 1 || off == 10 || off == 11)
				if f[i] != orig[i] && !changeable {
					t.Fatalf("byte %d changed: %#02x -> %#02x", i, orig[i], f[i])
				}
			}
			if err := roce.VerifyFrame(f); err != nil {
				t.Fatalf("ICRC after MarkCE: %v", err)
			}
			c, err := ecn.FrameECN(f)
			if err != nil || uint8(c) != wantTC&3 {
				t.Fatalf("FrameECN = %v, %v; want %v", c, err, ecn.Codepoint(wantTC&3))
			}
			d, err := ecn.FrameDSCP(f)
			if err != nil || d != wantTC>>2 {
				t.Fatalf("FrameDSCP = %d, %v; want %d", d, err, wantTC>>2)
			}
		})
	}
}

func TestIPv6RoundTrip(t *testing.T) {
	f := corpus.Hex(t, hexV2)
	h := f[14:54]
	for tc := range 256 {
		if err := ecn.SetIPv6TrafficClass(h, uint8(tc)); err != nil {
			t.Fatal(err)
		}
		// Independent read: Traffic Class is bits 27..20 of the first word.
		w := binary.BigEndian.Uint32(h)
		if got := uint8(w >> 20); got != uint8(tc) {
			t.Fatalf("set %#02x, first word %#08x", tc, w)
		}
		if w>>28 != 6 || w&0xfffff != 0x12345 {
			t.Fatalf("version or flow label damaged: %#08x", w)
		}
		got, err := ecn.IPv6TrafficClass(h)
		if err != nil || got != uint8(tc) {
			t.Fatalf("IPv6TrafficClass = %#02x, %v; want %#02x", got, err, tc)
		}
		c, _ := ecn.IPv6ECN(h)
		d, _ := ecn.IPv6DSCP(h)
		if uint8(c) != uint8(tc)&3 || d != uint8(tc)>>2 {
			t.Fatalf("tc %#02x: ECN %v DSCP %d", tc, c, d)
		}
		// ECN and DSCP can be set each without touching the other.
		nc := ecn.Codepoint(tc*7) & 3
		if err := ecn.SetIPv6ECN(h, nc); err != nil {
			t.Fatal(err)
		}
		if d2, _ := ecn.IPv6DSCP(h); d2 != d {
			t.Fatalf("SetIPv6ECN changed DSCP %d -> %d", d, d2)
		}
		nd := uint8(tc*13) & 63
		if err := ecn.SetIPv6DSCP(h, nd); err != nil {
			t.Fatal(err)
		}
		if c2, _ := ecn.IPv6ECN(h); c2 != nc {
			t.Fatalf("SetIPv6DSCP changed ECN %v -> %v", nc, c2)
		}
		if got, _ := ecn.IPv6TrafficClass(h); got != nd<<2|uint8(nc) {
			t.Fatalf("traffic class %#02x, want %#02x", got, nd<<2|uint8(nc))
		}
	}
	if err := roce.VerifyFrame(f); err != nil {
		t.Fatalf("ICRC after rewriting the traffic class: %v", err)
	}
}

func TestIPv4Accessors(t *testing.T) {
	f := corpus.Hex(t, hexV1)
	h := f[14:34]
	if err := ecn.SetIPv4DSCP(h, 46); err != nil {
		t.Fatal(err)
	}
	if h[1] != 46<<2|2 {
		t.Fatalf("TOS %#02x, want %#02x", h[1], 46<<2|2)
	}
	if d, _ := ecn.IPv4DSCP(h); d != 46 {
		t.Fatalf("IPv4DSCP = %d", d)
	}
	if c, _ := ecn.IPv4ECN(h); c != ecn.ECT0 {
		t.Fatalf("IPv4ECN = %v", c)
	}
	if tos, _ := ecn.IPv4TOS(h); tos != 46<<2|2 {
		t.Fatalf("IPv4TOS = %#02x", tos)
	}
	if storedChecksum(h) != fullChecksum(h) {
		t.Fatal("checksum not updated")
	}
	if err := ecn.SetFrameDSCP(f, 48); err != nil {
		t.Fatal(err)
	}
	if h[1] != 48<<2|2 || storedChecksum(h) != fullChecksum(h) {
		t.Fatalf("SetFrameDSCP: TOS %#02x checksum %#04x", h[1], storedChecksum(h))
	}
	if err := ecn.SetFrameECN(f, ecn.NotECT); err != nil {
		t.Fatal(err)
	}
	if h[1] != 48<<2 || storedChecksum(h) != fullChecksum(h) {
		t.Fatalf("SetFrameECN: TOS %#02x checksum %#04x", h[1], storedChecksum(h))
	}
	if err := roce.VerifyFrame(f); err != nil {
		t.Fatal(err)
	}
}

func TestRange(t *testing.T) {
	v4 := corpus.Hex(t, hexV1)
	v6 := corpus.Hex(t, hexV2)
	for name, err := range map[string]error{
		"SetIPv4ECN":   ecn.SetIPv4ECN(v4[14:], 4),
		"SetIPv4DSCP":  ecn.SetIPv4DSCP(v4[14:], 64),
		"SetIPv6ECN":   ecn.SetIPv6ECN(v6[14:], 4),
		"SetIPv6DSCP":  ecn.SetIPv6DSCP(v6[14:], 64),
		"SetFrameECN":  ecn.SetFrameECN(v4, 7),
		"SetFrameDSCP": ecn.SetFrameDSCP(v6, 255),
	} {
		if !errors.Is(err, ecn.ErrRange) {
			t.Errorf("%s: %v, want ErrRange", name, err)
		}
	}
	if string(v4) != string(corpus.Hex(t, hexV1)) || string(v6) != string(corpus.Hex(t, hexV2)) {
		t.Error("a refused change modified the frame")
	}
}

// frameFuncs runs every frame-level function on f and returns their errors.
func frameFuncs(f []byte) []error {
	_, _, e1 := ecn.IPHeader(f)
	_, e2 := ecn.FrameECN(f)
	_, e3 := ecn.FrameDSCP(f)
	e4 := ecn.SetFrameECN(f, ecn.CE)
	e5 := ecn.SetFrameDSCP(f, 10)
	_, e6 := ecn.MarkCE(f)
	return []error{e1, e2, e3, e4, e5, e6}
}

func TestNotIP(t *testing.T) {
	arp := corpus.Hex(t, hexARP)
	pfc := corpus.Hex(t, hexPFC)
	v1 := corpus.Hex(t, hexV1)
	roceV1 := append(append([]byte(nil), v1[:12]...), 0x89, 0x15) // RoCEv1 Ethertype
	roceV1 = append(roceV1, make([]byte, 60)...)
	// More tags than roce.MaxVLANs: refused, not read as IP nor as not IP.
	nine := withTags(v1, 9)
	orig := append([]byte(nil), nine...)
	for i, err := range frameFuncs(nine) {
		if !errors.Is(err, ib.ErrUnsupported) {
			t.Errorf("nine tags: function %d: %v, want ErrUnsupported", i, err)
		}
	}
	if string(nine) != string(orig) {
		t.Errorf("nine tags: frame modified")
	}
	for name, f := range map[string][]byte{
		"ARP": arp, "PFC/0x8808": pfc, "ARP/vlan": withTags(arp, 1), "PFC/qinq": withTags(pfc, 2),
		"RoCEv1": roceV1, "ARP/eight tags": withTags(arp, 8),
	} {
		orig := append([]byte(nil), f...)
		for i, err := range frameFuncs(f) {
			if !errors.Is(err, ecn.ErrNotIP) {
				t.Errorf("%s: function %d: %v, want ErrNotIP", name, i, err)
			}
		}
		if string(f) != string(orig) {
			t.Errorf("%s: frame modified", name)
		}
	}
}

func TestMalformed(t *testing.T) {
	v1 := corpus.Hex(t, hexV1)
	v2 := corpus.Hex(t, hexV2)
	badVer4 := append([]byte(nil), v1...)
	badVer4[14] = 0x65 // IPv6 version under Ethertype IPv4
	badVer6 := append([]byte(nil), v2...)
	badVer6[14] = 0x45
	badIHL := append([]byte(nil), v1...)
	badIHL[14] = 0x44
	longIHL := append([]byte(nil), v1[:14+20]...)
	longIHL[14] = 0x46 // 24-byte header, 20 present
	for _, tc := range []struct {
		name string
		f    []byte
		want error
	}{
		{"IPv4 version 6", badVer4, ib.ErrBadVersion},
		{"IPv6 version 4", badVer6, ib.ErrBadVersion},
		{"IHL 4", badIHL, ib.ErrBadLength},
		{"IHL 6 truncated", longIHL, ib.ErrTruncated},
	} {
		for i, err := range frameFuncs(tc.f) {
			if !errors.Is(err, tc.want) {
				t.Errorf("%s: function %d: %v, want %v", tc.name, i, err, tc.want)
			}
		}
	}
	for name, err := range map[string]error{
		"IPv4TOS short":  second(ecn.IPv4TOS(v1[14:33])),
		"IPv4 version":   ecn.SetIPv4TOS(v2[14:], 0),
		"IPv6 short":     ecn.SetIPv6TrafficClass(v2[14:53], 0),
		"IPv6 version":   ecn.SetIPv6TrafficClass(v1[14:], 0),
		"IPv6ECN short":  second(ecn.IPv6ECN(v2[14:20])),
		"IPv4ECN empty":  second(ecn.IPv4ECN(nil)),
		"IPv6DSCP empty": second(ecn.IPv6DSCP(nil)),
	} {
		var e *ib.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v is not an *ib.Error", name, err)
		}
	}
}

// TestMessages checks that every error reads with the module's one
// prefix.
func TestMessages(t *testing.T) {
	v1 := corpus.Hex(t, hexV1)
	arp := corpus.Hex(t, hexARP)
	for _, tc := range []struct {
		err  error
		want string
	}{
		{ecn.SetFrameECN(arp, ecn.CE), "roce: not an IPv4 or IPv6 packet"},
		{ecn.SetFrameDSCP(v1, 64), "roce: DSCP or ECN codepoint out of range"},
		{second(ecn.FrameECN(v1[:20])), "roce: IPv4 at offset 14: truncated (want 34 bytes, have 20)"},
		{second(ecn.IPv4TOS(v1[14:33])), "roce: IPv4 at offset 0: truncated (want 20 bytes, have 19)"},
		{second(ecn.FrameECN(v1[:8])), "roce: Ethernet at offset 0: truncated (want 14 bytes, have 8)"},
	} {
		if assert.Error(t, tc.err) {
			assert.Equal(t, tc.want, tc.err.Error())
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestTruncationSweep cuts every test frame at every length: the functions
// must fail with errors wrapping the sentinels, and never panic.
func TestTruncationSweep(t *testing.T) {
	type frame struct {
		name string
		f    []byte
		tags int
	}
	var frames []frame
	for n := range 3 {
		for _, h := range []struct{ name, hex string }{{"v4", hexV1}, {"v6", hexV2}, {"arp", hexARP}, {"pfc", hexPFC}} {
			frames = append(frames, frame{h.name + "/" + strconv.Itoa(n) + "tags", withTags(corpus.Hex(t, h.hex), n), n})
		}
	}
	for _, fr := range frames {
		full := fr.f
		hdr, _, fullErr := ecn.IPHeader(full)
		need := 14 + 4*fr.tags // shortest length at which the functions succeed
		if fullErr == nil {
			need += ipLen(hdr)
		}
		for n := 0; n <= len(full); n++ {
			f := append([]byte(nil), full[:n]...)
			for i, err := range frameFuncs(f) {
				switch {
				case n < need:
					if !errors.Is(err, ib.ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
						t.Errorf("%s cut at %d: function %d: %v, want ErrTruncated", fr.name, n, i, err)
					}
				case fullErr != nil:
					if err != ecn.ErrNotIP {
						t.Errorf("%s cut at %d: function %d: %v, want ErrNotIP", fr.name, n, i, err)
					}
				default:
					if err != nil {
						t.Errorf("%s cut at %d: function %d: %v", fr.name, n, i, err)
					}
				}
			}
		}
	}
}

func ipLen(h []byte) int {
	if h[0]>>4 == 4 {
		return int(h[0]&0x0f) * 4
	}
	return 40
}

// TestCapturesMarkCE marks CE on every RoCE frame of the four RoCEv2
// captures: the ICRC must still verify and the IPv4 checksum must match a
// full recomputation. The capture README counts 4,129 RoCE frames, ECT(0)
// or Not-ECT, none CE.
func TestCapturesMarkCE(t *testing.T) {
	var total, ect, notECT, nonRoCE int
	for _, name := range corpus.RoCECaptures {
		for i, f := range corpus.Capture(t, name) {
			if roce.VerifyFrame(f) != nil {
				nonRoCE++
				continue
			}
			total++
			h, v, err := ecn.IPHeader(f)
			if err != nil || v != 4 {
				t.Fatalf("%s #%d: IPHeader: %d, %v", name, i, v, err)
			}
			if storedChecksum(h) != fullChecksum(h) {
				t.Fatalf("%s #%d: capture has a bad IPv4 checksum", name, i)
			}
			tos := h[1]
			switch tos & 3 {
			case 2:
				ect++
			case 0:
				notECT++
			default:
				t.Fatalf("%s #%d: unexpected ECN %d", name, i, tos&3)
			}
			marked, err := ecn.MarkCE(f)
			if err != nil || marked != (tos&3 == 2) {
				t.Fatalf("%s #%d: MarkCE = %v, %v", name, i, marked, err)
			}
			// Not-ECT frames are not marked by MarkCE; force CE to check
			// the ICRC invariance on them too.
			if err := ecn.SetFrameECN(f, ecn.CE); err != nil {
				t.Fatal(err)
			}
			if h[1] != tos|3 {
				t.Fatalf("%s #%d: TOS %#02x, want %#02x", name, i, h[1], tos|3)
			}
			if got, want := storedChecksum(h), fullChecksum(h); got != want {
				t.Fatalf("%s #%d: IPv4 checksum %#04x, recomputed %#04x", name, i, got, want)
			}
			if err := roce.VerifyFrame(f); err != nil {
				t.Fatalf("%s #%d: ICRC after marking CE: %v", name, i, err)
			}
		}
	}
	if total != 4129 || ect != 4105 || notECT != 24 {
		t.Errorf("RoCE frames %d (ECT(0) %d, Not-ECT %d), want 4129 (4105, 24)", total, ect, notECT)
	}
	t.Logf("%d RoCE frames marked CE, %d other frames skipped", total, nonRoCE)
}

// TestCaptureP4SwitchCE reads the P4 switch capture: plain UDP, all CE,
// with wrong IPv4 checksums. Nothing may panic; MarkCE leaves CE alone;
// remarking and marking back restores the bytes exactly, and the checksum
// error is carried through unchanged.
func TestCaptureP4SwitchCE(t *testing.T) {
	frames := corpus.Capture(t, "ecn_ipv4_udp_all_ce_p4switch.pcap")
	if len(frames) != 3616 {
		t.Fatalf("%d frames, want 3616", len(frames))
	}
	var bad int
	for i, f := range frames {
		c, err := ecn.FrameECN(f)
		if err != nil || c != ecn.CE {
			t.Fatalf("#%d: FrameECN = %v, %v; want CE", i, c, err)
		}
		orig := append([]byte(nil), f...)
		if marked, err := ecn.MarkCE(f); marked || err != nil {
			t.Fatalf("#%d: MarkCE = %v, %v", i, marked, err)
		}
		h, _, _ := ecn.IPHeader(f)
		if storedChecksum(h) != fullChecksum(h) {
			bad++
		}
		if err := ecn.SetFrameECN(f, ecn.ECT0); err != nil {
			t.Fatal(err)
		}
		if err := ecn.SetFrameECN(f, ecn.CE); err != nil {
			t.Fatal(err)
		}
		if string(f) != string(orig) {
			t.Fatalf("#%d: CE -> ECT(0) -> CE did not restore the frame", i)
		}
	}
	if bad == 0 {
		t.Error("the README says the checksums are wrong; none was")
	}
}

// TestCaptureAccECN counts the codepoints of the tcpdump AccECN capture:
// its README gives Not-ECT x3, ECT(1) x2, ECT(0) x1.
func TestCaptureAccECN(t *testing.T) {
	counts := map[ecn.Codepoint]int{}
	for _, f := range corpus.Capture(t, "ecn_tcp_accecn_handshake_ect0_ect1.pcap") {
		c, err := ecn.FrameECN(f)
		if err != nil {
			t.Fatal(err)
		}
		counts[c]++
	}
	if counts[ecn.NotECT] != 3 || counts[ecn.ECT1] != 2 || counts[ecn.ECT0] != 1 || counts[ecn.CE] != 0 {
		t.Errorf("codepoints %v, want Not-ECT 3, ECT(1) 2, ECT(0) 1", counts)
	}
}

func TestNoAllocs(t *testing.T) {
	v4 := withTags(corpus.Hex(t, hexV1), 1)
	v6 := corpus.Hex(t, hexV2)
	arp := corpus.Hex(t, hexARP)
	var i int
	// Every row returns an error unless its call did what the row says.
	for name, fn := range map[string]func() error{
		"MarkCE/v4": func() error {
			v4[19] = 0x02 // ECT(0), then marked
			if marked, err := ecn.MarkCE(v4); !marked || err != nil || v4[19] != 0x03 {
				return fmt.Errorf("MarkCE = %v, %v; TOS %#x", marked, err, v4[19])
			}
			return nil
		},
		"MarkCE/v6": func() error {
			v6[15] = 0x21 // Traffic Class 0x02, ECT(0)
			if marked, err := ecn.MarkCE(v6); !marked || err != nil {
				return fmt.Errorf("MarkCE = %v, %v", marked, err)
			}
			return nil
		},
		"SetFrameECN":  func() error { i++; return ecn.SetFrameECN(v4, ecn.Codepoint(i&3)) },
		"SetFrameDSCP": func() error { i++; return ecn.SetFrameDSCP(v6, uint8(i&63)) },
		"FrameECN":     func() error { _, err := ecn.FrameECN(v4); return err },
		"FrameDSCP/v6": func() error { _, err := ecn.FrameDSCP(v6); return err },
		"SetIPv4TOS":   func() error { i++; return ecn.SetIPv4TOS(v4[18:], uint8(i)) },
		"SetIPv6ECN":   func() error { i++; return ecn.SetIPv6ECN(v6[14:], ecn.Codepoint(i&3)) },
		"ChecksumUpdate": func() error {
			if c := ecn.ChecksumUpdate(0xdd2f, 0x5555, 0x3285); c != 0x0000 {
				return fmt.Errorf("ChecksumUpdate = %#04x", c) // RFC 1624, section 4
			}
			return nil
		},
		"MarkCE/ARP": func() error {
			if _, err := ecn.MarkCE(arp); err != ecn.ErrNotIP {
				return fmt.Errorf("MarkCE(ARP) = %v, want ErrNotIP itself", err)
			}
			return nil
		},
		"ErrRange": func() error {
			if err := ecn.SetFrameDSCP(v4, 64); err != ecn.ErrRange {
				return fmt.Errorf("SetFrameDSCP(64) = %v, want ErrRange itself", err)
			}
			return nil
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
