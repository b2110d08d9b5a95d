package ecmp

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"net/netip"
)

// ProtoUDP is the IP protocol number of UDP, the protocol of every
// RoCEv2 packet.
const ProtoUDP = 17

// Tuple is the 5-tuple of a flow.
type Tuple struct {
	Src, Dst         netip.Addr // IPv4 (or IPv4-mapped, taken as IPv4) or IPv6
	Proto            uint8      // ProtoUDP for RoCEv2
	SrcPort, DstPort uint16
}

// MaxKeyLen is the longest key AppendKey appends: two IPv6 addresses,
// the protocol and two ports.
const MaxKeyLen = 16 + 16 + 1 + 2 + 2

// AppendKey appends the bytes the CRC hashes read, the fields in the
// order of the headers, each in network byte order: the source address
// (4 bytes for IPv4, an IPv4-mapped address counting as IPv4, 16 for
// IPv6), the destination address, the protocol (1 byte), the source
// port and the destination port (2 bytes each, big-endian). An IPv4
// 5-tuple makes 13 bytes, an IPv6 one 37.
func (t *Tuple) AppendKey(b []byte) []byte {
	b = appendAddr(b, t.Src)
	b = appendAddr(b, t.Dst)
	b = append(b, t.Proto)
	b = binary.BigEndian.AppendUint16(b, t.SrcPort)
	return binary.BigEndian.AppendUint16(b, t.DstPort)
}

func appendAddr(b []byte, a netip.Addr) []byte {
	a = a.Unmap()
	if a.Is4() {
		v := a.As4()
		return append(b, v[:]...)
	}
	v := a.As16()
	return append(b, v[:]...)
}

// CRC16CCITT returns the CRC-16 of b in the variant the CRC catalogue
// (Greg Cook, "Catalogue of parametrised CRC algorithms",
// reveng.sourceforge.io/crc-catalogue/16.htm) names CRC-16/IBM-3740,
// alias CRC-16/CCITT-FALSE: width 16, poly 0x1021 (x^16 + x^12 + x^5 +
// 1, ITU-T V.41), init 0xFFFF, input and output not reflected (most
// significant bit first), xorout 0x0000; check ("123456789") 0x29B1.
func CRC16CCITT(b []byte) uint16 {
	crc := uint16(0xffff)
	for _, c := range b {
		crc = crc<<8 ^ crc16Table[byte(crc>>8)^c]
	}
	return crc
}

// crc16Table is the CRC of each byte value, MSB first, poly 0x1021.
var crc16Table = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC32 returns the CRC-32 of b that the CRC catalogue
// (reveng.sourceforge.io/crc-catalogue/17plus.htm) names CRC-32/ISO-HDLC,
// alias CRC-32 and the CRC of IEEE 802.3: width 32, poly 0x04C11DB7,
// init 0xFFFFFFFF, input and output reflected, xorout 0xFFFFFFFF; check
// ("123456789") 0xCBF43926: what hash/crc32.ChecksumIEEE returns,
// computed here byte by byte so that the key stays on the stack.
func CRC32(b []byte) uint32 {
	crc := ^uint32(0)
	for _, c := range b {
		crc = crc32Table[byte(crc)^c] ^ crc>>8
	}
	return ^crc
}

// crc32Table is hash/crc32's IEEE table: the reflected poly 0xEDB88320.
var crc32Table = crc32.MakeTable(crc32.IEEE)

// XORFold returns the XOR fold of t that the Linux bonding driver's
// layer3+4 transmit hash policy documents (Documentation/networking/
// bonding.rst, xmit_hash_policy): the two ports as one 32-bit word
// (source port in the high half), XORed with the source and the
// destination address, then folded: hash ^= hash >> 16; hash ^= hash >>
// 8. An IPv4 address is its 32-bit value; an IPv6 address the XOR of its
// four 32-bit words (as the kernel's ipv6_addr_hash). Every word is read
// in network byte order here; the driver reads them as the host stores
// them, and in 802.3ad mode drops the lowest bit of the hash, so its
// choice can differ on the same 5-tuple. The protocol is not hashed.
func XORFold(t *Tuple) uint32 {
	h := uint32(t.SrcPort)<<16 | uint32(t.DstPort)
	h ^= addrWord(t.Src) ^ addrWord(t.Dst)
	h ^= h >> 16
	h ^= h >> 8
	return h
}

func addrWord(a netip.Addr) uint32 {
	a = a.Unmap()
	if a.Is4() {
		v := a.As4()
		return binary.BigEndian.Uint32(v[:])
	}
	v := a.As16()
	var w uint32
	for i := 0; i < 16; i += 4 {
		w ^= binary.BigEndian.Uint32(v[i:])
	}
	return w
}

// Hash is one hash function of the what-if.
type Hash struct {
	// Name is the hash's name in rocedump's -ecmp report and its JSON:
	// "crc16-ccitt", "crc32", "xor-fold".
	Name string
	// Sum hashes a 5-tuple.
	Sum func(t *Tuple) uint32
}

// Hashes are the hash functions the what-if compares, in the order of
// the report.
var Hashes = []Hash{
	{"crc16-ccitt", func(t *Tuple) uint32 { var k [MaxKeyLen]byte; return uint32(CRC16CCITT(t.AppendKey(k[:0]))) }},
	{"crc32", func(t *Tuple) uint32 { var k [MaxKeyLen]byte; return CRC32(t.AppendKey(k[:0])) }},
	{"xor-fold", XORFold},
}

// Path returns the path, 0 to n-1, that h gives t among n paths: the
// hash modulo n. It panics if n is not positive.
func (h Hash) Path(t *Tuple, n int) int { return int(h.Sum(t) % uint32(n)) }

// Entropy returns the Shannon entropy, in bits, of the distribution the
// counts give: -sum p log2 p with p = count/total over the counts not
// zero. For the source ports of a host pair's QPs (one count per port,
// the QPs using it) it is 0 when every QP uses one port and log2 n when
// n QPs use n ports; 0 for no counts at all.
func Entropy(counts []uint64) float64 {
	var total uint64
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(total)
			h -= p * math.Log2(p)
		}
	}
	return h
}

// Imbalance returns the largest of the loads divided by their mean (1
// for an even spread, len(loads) when one path carries everything), and
// 0 when they are all zero.
func Imbalance(loads []uint64) float64 {
	var total, most uint64
	for _, l := range loads {
		total += l
		most = max(most, l)
	}
	if total == 0 {
		return 0
	}
	return float64(most) * float64(len(loads)) / float64(total)
}
