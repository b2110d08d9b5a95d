package ib

//go:generate go run ./internal/crctab crc32tab.go

import (
	"encoding/binary"
	"hash/crc32"
)

// Encapsulation names the network header in front of the BTH, which
// decides which of its fields the ICRC masks.
type Encapsulation uint8

// The encapsulations of RoCE.
const (
	RoCEv1     Encapsulation = 1 // Ethertype 0x8915: GRH, BTH
	RoCEv2IPv4 Encapsulation = 2 // UDP/4791 over IPv4 (20-byte header): IPv4, UDP, BTH
	RoCEv2IPv6 Encapsulation = 3 // UDP/4791 over IPv6: IPv6, UDP, BTH
)

var encNames = [4]string{"?", "RoCEv1", "RoCEv2/IPv4", "RoCEv2/IPv6"}

// String returns "RoCEv1", "RoCEv2/IPv4" or "RoCEv2/IPv6".
func (e Encapsulation) String() string { return encNames[e&3] }

// icrcMask says which bits of the leading n bytes (the network header, the
// UDP header for RoCEv2 and the BTH) the ICRC replaces by ones, as
// little-endian 64-bit words to OR into the data.
type icrcMask struct {
	n int
	w [8]uint64
}

// The variant fields (IBTA Annex A16.7 and A17.4.2): for IPv4 the TOS,
// TTL and header checksum; for IPv6 and the GRH the traffic class, flow
// label and hop limit; the UDP checksum; the BTH's byte 4 (FECN, BECN,
// Resv6a).
var icrcMasks = [4]icrcMask{
	RoCEv1: {n: GRHLen + BTHLen, w: [8]uint64{
		0: 0xff<<56 | 0xffffff<<8 | 0x0f, // TClass, FlowLabel; HopLmt
		5: 0xff << 32,                    // BTH byte 4
	}},
	RoCEv2IPv4: {n: 20 + 8 + BTHLen, w: [8]uint64{
		0: 0xff << 8,         // TOS
		1: 0xffff<<16 | 0xff, // TTL, header checksum
		3: 0xffff << 16,      // UDP checksum
		4: 0xff,              // BTH byte 4
	}},
	RoCEv2IPv6: {n: 40 + 8 + BTHLen, w: [8]uint64{
		0: 0xff<<56 | 0xffffff<<8 | 0x0f, // Traffic Class, Flow Label; Hop Limit
		5: 0xffff << 48,                  // UDP checksum
		6: 0xff << 32,                    // BTH byte 4
	}},
}

// lrhSeed is the CRC register (not inverted) after eight 0xFF bytes, the
// stand-in for the LRH that RoCE frames do not carry.
const lrhSeed = 0xdebb20e3

// ComputeICRC returns the ICRC of pkt, which runs from the first byte of
// the GRH (RoCEv1) or IP header (RoCEv2) to the last byte of the ICRC; the
// last four bytes themselves are not covered. It allocates nothing and
// does not copy the packet: the variant fields are masked in registers.
func ComputeICRC(enc Encapsulation, pkt []byte) (uint32, error) {
	if enc < RoCEv1 || enc > RoCEv2IPv6 {
		return 0, &Error{Layer: "ICRC", Err: ErrUnsupported}
	}
	m := &icrcMasks[enc]
	if len(pkt) < m.n+ICRCLen {
		return 0, truncated("ICRC", 0, m.n+ICRCLen, len(pkt))
	}
	if enc == RoCEv2IPv4 && pkt[0] != 0x45 {
		if pkt[0]>>4 != 4 {
			return 0, &Error{Layer: "ICRC", Err: ErrBadVersion}
		}
		return 0, &Error{Layer: "ICRC", Err: ErrUnsupported} // IPv4 options
	}
	body := pkt[:len(pkt)-ICRCLen]
	// Take the masked header and then as many bytes as leave a multiple of
	// 16 for crc32.Update: it runs a carry-less-multiply kernel over
	// 16-byte blocks and finishes a shorter tail a byte at a time.
	n := m.n + (len(body)-m.n)&15
	crc := uint32(lrhSeed)
	i := 0
	for ; i+16 <= n; i += 16 {
		crc = update16(crc, le64(body[i:])|m.w[i>>3], le64(body[i+8:])|m.word(i+8))
	}
	if i+8 <= n {
		crc = update8(crc, le64(body[i:])|m.word(i))
		i += 8
	}
	if i+4 <= n {
		crc = update4(crc, binary.LittleEndian.Uint32(body[i:])|uint32(m.word(i)))
		i += 4
	}
	for ; i < n; i++ {
		crc = slicing16[0][byte(crc)^body[i]] ^ crc>>8 // past the header: no mask
	}
	return crc32.Update(^crc, crc32.IEEETable, body[n:]), nil
}

// word returns the mask of the 8 bytes at offset i, zero past the header.
func (m *icrcMask) word(i int) uint64 {
	if i>>3 < len(m.w) {
		return m.w[i>>3]
	}
	return 0
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// update16 feeds sixteen bytes (little-endian in lo, hi) to the raw CRC
// register: one step of slicing-by-16.
func update16(crc uint32, lo, hi uint64) uint32 {
	t := &slicing16
	crc ^= uint32(lo)
	a, b, c := uint32(lo>>32), uint32(hi), uint32(hi>>32)
	return t[15][crc&0xff] ^ t[14][crc>>8&0xff] ^ t[13][crc>>16&0xff] ^ t[12][crc>>24] ^
		t[11][a&0xff] ^ t[10][a>>8&0xff] ^ t[9][a>>16&0xff] ^ t[8][a>>24] ^
		t[7][b&0xff] ^ t[6][b>>8&0xff] ^ t[5][b>>16&0xff] ^ t[4][b>>24] ^
		t[3][c&0xff] ^ t[2][c>>8&0xff] ^ t[1][c>>16&0xff] ^ t[0][c>>24]
}

// update8 feeds eight bytes (little-endian in w) to the raw CRC register.
func update8(crc uint32, w uint64) uint32 {
	t := &slicing16
	crc ^= uint32(w)
	hi := uint32(w >> 32)
	return t[0][hi>>24] ^ t[1][hi>>16&0xff] ^ t[2][hi>>8&0xff] ^ t[3][hi&0xff] ^
		t[4][crc>>24] ^ t[5][crc>>16&0xff] ^ t[6][crc>>8&0xff] ^ t[7][crc&0xff]
}

// update4 feeds four bytes (little-endian in w) to the raw CRC register.
func update4(crc uint32, w uint32) uint32 {
	t := &slicing16
	crc ^= w
	return t[0][crc>>24] ^ t[1][crc>>16&0xff] ^ t[2][crc>>8&0xff] ^ t[3][crc&0xff]
}

// ReceivedICRC returns the ICRC a packet carries in its last four bytes
// (sent least significant byte first), or 0 if pkt is shorter than that.
func ReceivedICRC(pkt []byte) uint32 {
	if len(pkt) < ICRCLen {
		return 0
	}
	return binary.LittleEndian.Uint32(pkt[len(pkt)-ICRCLen:])
}

// VerifyICRC checks the ICRC at the end of pkt (laid out as for
// ComputeICRC). It returns an error wrapping ErrBadICRC on a mismatch.
func VerifyICRC(enc Encapsulation, pkt []byte) error {
	c, err := ComputeICRC(enc, pkt)
	if err != nil {
		return err
	}
	if c != ReceivedICRC(pkt) {
		return errBadICRC
	}
	return nil
}

// errBadICRC is preallocated: a bad ICRC is an expected outcome in a
// capture, and reporting it allocates nothing.
var errBadICRC = &Error{Layer: "ICRC", Offset: -ICRCLen, Err: ErrBadICRC}

// PutICRC computes the ICRC of pkt and writes it into its last four bytes.
func PutICRC(enc Encapsulation, pkt []byte) error {
	c, err := ComputeICRC(enc, pkt)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(pkt[len(pkt)-ICRCLen:], c)
	return nil
}
