package ecmp_test

import (
	"hash/crc32"
	"math"
	"net/netip"
	"testing"

	"github.com/roce-go/roce/ecmp"
	"github.com/roce-go/roce/rocev2"
)

// TestCheckValues checks the CRCs against the check values of the CRC
// catalogue (reveng.sourceforge.io/crc-catalogue): the CRC of the ASCII
// "123456789".
func TestCheckValues(t *testing.T) {
	check := []byte("123456789")
	if got := ecmp.CRC16CCITT(check); got != 0x29b1 {
		t.Errorf("CRC-16/IBM-3740 check %#04x, want 0x29b1", got)
	}
	if got := ecmp.CRC32(check); got != 0xcbf43926 {
		t.Errorf("CRC-32/ISO-HDLC check %#08x, want 0xcbf43926", got)
	}
	// The catalogue's residue-free property of CRC-16/IBM-3740 (xorout 0,
	// not reflected): the CRC of the message followed by its CRC is 0.
	if got := ecmp.CRC16CCITT(append(check, 0x29, 0xb1)); got != 0 {
		t.Errorf("CRC-16/IBM-3740 of the message and its CRC %#04x, want 0", got)
	}
	for _, b := range [][]byte{nil, {0}, v4.AppendKey(nil), []byte("RoCEv2 flows")} {
		if got, want := ecmp.CRC32(b), crc32.ChecksumIEEE(b); got != want {
			t.Errorf("CRC32(% x) %#08x, hash/crc32 %#08x", b, got, want)
		}
	}
	if got := ecmp.CRC16CCITT(nil); got != 0xffff {
		t.Errorf("CRC-16/IBM-3740 of nothing %#04x, want the init 0xffff", got)
	}
}

var v4 = ecmp.Tuple{Src: netip.MustParseAddr("192.0.2.1"), Dst: netip.MustParseAddr("192.0.2.2"),
	Proto: ecmp.ProtoUDP, SrcPort: 0xc000, DstPort: 4791}

// TestAppendKey checks the key layout the doc comment gives, byte by
// byte.
func TestAppendKey(t *testing.T) {
	want := []byte{192, 0, 2, 1, 192, 0, 2, 2, 17, 0xc0, 0x00, 0x12, 0xb7}
	if got := v4.AppendKey(nil); string(got) != string(want) {
		t.Errorf("IPv4 key % x, want % x", got, want)
	}
	m := v4
	m.Src = netip.AddrFrom16(v4.Src.As16()) // IPv4-mapped: hashed as IPv4
	if got := m.AppendKey(nil); string(got) != string(want) {
		t.Errorf("IPv4-mapped key % x, want % x", got, want)
	}
	v6 := ecmp.Tuple{Src: netip.MustParseAddr("2001:db8::1"), Dst: netip.MustParseAddr("2001:db8::2"),
		Proto: 17, SrcPort: 1, DstPort: 4791}
	k := v6.AppendKey(nil)
	if len(k) != ecmp.MaxKeyLen || k[0] != 0x20 || k[15] != 1 || k[16] != 0x20 || k[31] != 2 || k[32] != 17 ||
		k[33] != 0 || k[34] != 1 || k[35] != 0x12 || k[36] != 0xb7 {
		t.Errorf("IPv6 key % x", k)
	}
}

// TestXORFold checks the fold on a 5-tuple worked by hand from the
// formula of the bonding documentation:
//
//	ports        0xc000 << 16 | 0x12b7           = 0xc00012b7
//	^ src ^ dst  0xc0000201 ^ 0xc0000202 = 0x3  -> 0xc00012b4
//	^ h >> 16    0x0000c000                     -> 0xc000d2b4
//	^ h >> 8     0x00c000d2                     -> 0xc0c0d266
func TestXORFold(t *testing.T) {
	if got := ecmp.XORFold(&v4); got != 0xc0c0d266 {
		t.Errorf("XORFold %#08x, want 0xc0c0d266", got)
	}
	if got := ecmp.Hashes[2].Path(&v4, 4); got != 2 { // 0x66 % 4
		t.Errorf("xor-fold path %d of 4, want 2", got)
	}
	// IPv6: the XOR of the four words of each address: 0x20010db8 ^ 1
	// and 0x20010db8 ^ 2 XOR to 3, as the IPv4 pair above.
	v6 := v4
	v6.Src, v6.Dst = netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
	if got := ecmp.XORFold(&v6); got != 0xc0c0d266 {
		t.Errorf("XORFold IPv6 %#08x, want 0xc0c0d266", got)
	}
}

// TestHashesOfKey checks that the CRC hashes of a tuple are the CRCs of
// its key, and their names.
func TestHashesOfKey(t *testing.T) {
	k := v4.AppendKey(nil)
	want := map[string]uint32{"crc16-ccitt": uint32(ecmp.CRC16CCITT(k)), "crc32": ecmp.CRC32(k), "xor-fold": 0xc0c0d266}
	if len(ecmp.Hashes) != len(want) {
		t.Fatalf("%d hashes", len(ecmp.Hashes))
	}
	for _, h := range ecmp.Hashes {
		if got := h.Sum(&v4); got != want[h.Name] {
			t.Errorf("%s %#x, want %#x", h.Name, got, want[h.Name])
		}
		if p := h.Path(&v4, 7); p != int(want[h.Name]%7) {
			t.Errorf("%s path %d", h.Name, p)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		for _, h := range ecmp.Hashes {
			if h.Path(&v4, 8) > 7 {
				t.Fatal("path out of range")
			}
		}
	}); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}

// TestFlowLabelFormula checks rocev2.FlowLabelToUDPSrcPort, the formula
// this package's documentation gives, on labels worked by hand from
// 0xC000 | ((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14)).
func TestFlowLabelFormula(t *testing.T) {
	for _, c := range []struct {
		fl   uint32
		port uint16
	}{
		{0x00000, 0xc000}, // nothing to fold: the top two bits alone
		{0x002ca, 0xc2ca}, // low 14 bits 0x02ca, high 6 bits 0
		{0x12345, 0xe341}, // 0x2345 ^ (0x10000 >> 14 = 0x4) = 0x2341
		{0xfc000, 0xc03f}, // 0x0000 ^ 0x3f
		{0xfffff, 0xffc0}, // 0x3fff ^ 0x3f = 0x3fc0
		{0x04001, 0xc000}, // 0x0001 ^ (0x04000 >> 14 = 0x1) = 0
	} {
		if got := rocev2.FlowLabelToUDPSrcPort(c.fl); got != c.port {
			t.Errorf("flow label %#05x: port %#04x, want %#04x", c.fl, got, c.port)
		}
	}
}

// TestEntropy checks the entropy on distributions worked by hand.
func TestEntropy(t *testing.T) {
	for _, c := range []struct {
		counts []uint64
		bits   float64
	}{
		{nil, 0},
		{[]uint64{4}, 0},                  // one port for every QP
		{[]uint64{1, 1}, 1},               // two QPs, two ports
		{[]uint64{1, 1, 1, 1}, 2},         // log2 4
		{[]uint64{2, 1, 1}, 1.5},          // 1/2*1 + 2*(1/4*2)
		{[]uint64{3, 1, 0}, 0.8112781245}, // 3/4 log2 4/3 + 1/4 log2 4
	} {
		if got := ecmp.Entropy(c.counts); math.Abs(got-c.bits) > 1e-9 || math.Signbit(got) {
			t.Errorf("Entropy(%v) = %v, want %v", c.counts, got, c.bits)
		}
	}
}

// TestImbalance checks max/mean on loads worked by hand.
func TestImbalance(t *testing.T) {
	for _, c := range []struct {
		loads []uint64
		want  float64
	}{
		{[]uint64{0, 0}, 0},
		{[]uint64{5, 5, 5, 5}, 1},
		{[]uint64{8, 0, 0, 0}, 4},
		{[]uint64{3, 1}, 1.5}, // mean 2
	} {
		if got := ecmp.Imbalance(c.loads); got != c.want {
			t.Errorf("Imbalance(%v) = %v, want %v", c.loads, got, c.want)
		}
	}
}
