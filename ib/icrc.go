package ib

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/roce-go/roce/internal/hdr"
)

// Encapsulation names the network header in front of the BTH, which
// decides which of its fields the ICRC masks.
type Encapsulation = hdr.Encapsulation

// The encapsulations of RoCE.
const (
	RoCEv1     = hdr.RoCEv1     // Ethertype 0x8915: GRH, BTH
	RoCEv2IPv4 = hdr.RoCEv2IPv4 // UDP/4791 over IPv4 (20-byte header): IPv4, UDP, BTH
	RoCEv2IPv6 = hdr.RoCEv2IPv6 // UDP/4791 over IPv6: IPv6, UDP, BTH
)

// variantByte is a byte of the covered headers that holds variant bits:
// the ICRC is computed as if the bits of mask were ones.
type variantByte struct {
	off  int
	mask byte
}

// variantFields describes the headers an encapsulation puts in front of
// the transport headers' ICRC coverage.
type variantFields struct {
	n     int           // covered header bytes: network header, UDP header, BTH
	bytes []variantByte // the bytes with variant bits, at most 8
}

// Where the variant bytes sit, counted from the first byte of the GRH or
// IP header: the UDP checksum and the BTH's byte 4 behind an IPv4 header
// without options, behind an IPv6 header, and the BTH's byte 4 behind a
// GRH.
const (
	v4UDPChecksum = hdr.IPv4MinLen + hdr.UDPChecksum
	v4BTHFECN     = hdr.IPv4MinLen + hdr.UDPLen + bthFECN
	v6UDPChecksum = hdr.IPv6Len + hdr.UDPChecksum
	v6BTHFECN     = hdr.IPv6Len + hdr.UDPLen + bthFECN
	v1BTHFECN     = GRHLen + bthFECN
)

// The variant fields (IBTA Annex A16.7 and A17.4.2): for IPv4 the TOS,
// TTL and header checksum; for IPv6 and the GRH the traffic class, flow
// label and hop limit; the UDP checksum; the BTH's byte 4 (FECN, BECN,
// Resv6a). Offsets count from the first byte of the GRH or IP header.
// The GRH has the IPv6 header's layout, so the IPv6 offsets serve both.
var variants = [4]variantFields{
	RoCEv1: {n: GRHLen + BTHLen, bytes: []variantByte{
		{hdr.IPv6VersionTC, 0x0f}, {hdr.IPv6VersionTC + 1, 0xff}, // TClass, FlowLabel
		{hdr.IPv6VersionTC + 2, 0xff}, {hdr.IPv6VersionTC + 3, 0xff},
		{hdr.IPv6HopLimit, 0xff}, // HopLmt
		{v1BTHFECN, 0xff},        // BTH byte 4
	}},
	RoCEv2IPv4: {n: hdr.IPv4MinLen + hdr.UDPLen + BTHLen, bytes: []variantByte{
		{hdr.IPv4TOS, 0xff},                                    // TOS
		{hdr.IPv4TTL, 0xff},                                    // TTL
		{hdr.IPv4Checksum, 0xff}, {hdr.IPv4Checksum + 1, 0xff}, // header checksum
		{v4UDPChecksum, 0xff}, {v4UDPChecksum + 1, 0xff}, // UDP checksum
		{v4BTHFECN, 0xff}, // BTH byte 4
	}},
	RoCEv2IPv6: {n: hdr.IPv6Len + hdr.UDPLen + BTHLen, bytes: []variantByte{
		{hdr.IPv6VersionTC, 0x0f}, {hdr.IPv6VersionTC + 1, 0xff}, // Traffic Class, Flow Label
		{hdr.IPv6VersionTC + 2, 0xff}, {hdr.IPv6VersionTC + 3, 0xff},
		{hdr.IPv6HopLimit, 0xff},                         // Hop Limit
		{v6UDPChecksum, 0xff}, {v6UDPChecksum + 1, 0xff}, // UDP checksum
		{v6BTHFECN, 0xff}, // BTH byte 4
	}},
}

// lrhSeed is the CRC register (not inverted) after eight 0xFF bytes, the
// stand-in for the LRH that RoCE frames do not carry.
const lrhSeed = 0xdebb20e3

// How the masking costs almost nothing. The CRC register is linear in its
// start value and the data taken together, so masking a byte at offset k
// (flipping its bits that are zero under the mask) changes the final
// register exactly as some change of the start value would: the change
// that, carried over k+1 zero bytes, becomes the flipped bits' own
// contribution. seeds[enc][i][b] is that change for variants[enc].bytes[i]
// holding b.
// The engine XORs one entry per variant byte into the start value and
// hands the packet, unmasked and uncopied, to crc32.Update (see update), whose
// carry-less-multiply kernel then runs over every byte without waiting on
// a masked header.
var seeds [4][8][256]uint32

// nativeLocal describes a native InfiniBand packet without a GRH: the LRH's
// VL and the BTH's byte 4 are variant (IBTA Vol 1, 7.8.1).
var nativeLocal = variantFields{n: LRHLen + BTHLen, bytes: []variantByte{
	{lrhVL, 0xf0},            // VL
	{LRHLen + bthFECN, 0xff}, // BTH byte 4
}}

// nativeSeeds is seeds for nativeLocal.
var nativeSeeds [8][256]uint32

func init() {
	for enc := range variants {
		variants[enc].buildSeeds(&seeds[enc])
	}
	nativeLocal.buildSeeds(&nativeSeeds)
}

// buildSeeds fills t with the start-value changes of v's variant bytes.
func (v *variantFields) buildSeeds(t *[8][256]uint32) {
	for i, vb := range v.bytes {
		var lin [256]uint32 // the change for each set of flipped bits
		for bit := 1; bit < 256; bit <<= 1 {
			r := crc32.IEEETable[bit]
			for range vb.off + 1 {
				r = crcBack(r)
			}
			lin[bit] = r
		}
		for d := 3; d < 256; d++ {
			lin[d] = lin[d&(d-1)] ^ lin[d&-d]
		}
		for b := range 256 {
			t[i][b] = lin[^byte(b)&vb.mask]
		}
	}
}

// update is crc32.Update(crc, crc32.IEEETable, p), faster when len(p)
// is not a multiple of 16. The standard library's carry-less-multiply
// kernel takes whole 16-byte blocks and leaves the rest (up to 15 bytes)
// to a loop of one table lookup per byte, whose chain of dependent loads
// costs a 4 KiB packet a fifth of its time: the ICRC covers the packet
// less its last four bytes, so the rest is 8 bytes for most payloads. The
// rest goes here through slicing by 8 (eight tables, eight independent
// lookups per 8 bytes) instead.
func update(crc uint32, p []byte) uint32 {
	if len(p) >= 64 { // below 64 bytes the library does not use the kernel
		n := len(p) &^ 15
		crc = crc32.Update(crc, crc32.IEEETable, p[:n])
		p = p[n:]
	}
	if len(p) == 0 {
		return crc
	}
	return slice8(crc, p)
}

// slice8 is crc32.Update(crc, crc32.IEEETable, p) by slicing by 8.
func slice8(crc uint32, p []byte) uint32 {
	r := ^crc
	for ; len(p) >= 8; p = p[8:] {
		r ^= binary.LittleEndian.Uint32(p)
		r = slicing8[0][p[7]] ^ slicing8[1][p[6]] ^ slicing8[2][p[5]] ^ slicing8[3][p[4]] ^
			slicing8[4][r>>24] ^ slicing8[5][r>>16&0xff] ^ slicing8[6][r>>8&0xff] ^ slicing8[7][r&0xff]
	}
	if len(p) >= 4 {
		r ^= binary.LittleEndian.Uint32(p)
		r = slicing8[0][r>>24] ^ slicing8[1][r>>16&0xff] ^ slicing8[2][r>>8&0xff] ^ slicing8[3][r&0xff]
		p = p[4:]
	}
	for _, b := range p {
		r = crc32.IEEETable[byte(r)^b] ^ r>>8
	}
	return ^r
}

// slicing8 holds the tables of slicing by 8 for the IEEE polynomial:
// slicing8[0] is crc32.IEEETable, and slicing8[k][b] the register after
// byte b followed by k zero bytes. Made at init (8 KiB, a few
// microseconds).
var slicing8 = func() (t [8][256]uint32) {
	t[0] = *crc32.IEEETable
	for k := 1; k < 8; k++ {
		for b := range 256 {
			v := t[k-1][b]
			t[k][b] = t[0][v&0xff] ^ v>>8
		}
	}
	return t
}()

// crcTop names, for each top byte of a crc32.IEEETable entry, its index:
// the top bytes of the 256 entries are distinct.
var crcTop = func() (t [256]byte) {
	for i := range 256 {
		t[crc32.IEEETable[i]>>24] = byte(i)
	}
	return t
}()

// crcBack undoes one step of the raw CRC register over a zero byte. The
// step is r' = T[r&0xff] ^ r>>8, so the top byte of r' names r&0xff.
func crcBack(r uint32) uint32 {
	i := crcTop[r>>24]
	return (r^crc32.IEEETable[i])<<8 | uint32(i)
}

// ComputeICRC returns the ICRC of pkt, which runs from the first byte of
// the GRH (RoCEv1) or IP header (RoCEv2) to the last byte of the ICRC; the
// last four bytes themselves are not covered. It allocates nothing and
// neither copies nor changes the packet.
func ComputeICRC(enc Encapsulation, pkt []byte) (uint32, error) {
	if enc < RoCEv1 || enc > RoCEv2IPv6 {
		return 0, &Error{Layer: "ICRC", Err: ErrUnsupported}
	}
	v := &variants[enc]
	if len(pkt) < v.n+ICRCLen {
		return 0, truncated("ICRC", 0, v.n+ICRCLen, len(pkt))
	}
	if enc == RoCEv2IPv4 && pkt[hdr.IPv4VersionIHL] != 4<<4|hdr.IPv4MinLen/4 {
		if pkt[hdr.IPv4VersionIHL]>>4 != 4 {
			return 0, &Error{Layer: "ICRC", Err: ErrBadVersion}
		}
		return 0, &Error{Layer: "ICRC", Err: ErrUnsupported} // IPv4 options
	}
	t := &seeds[enc]
	var s uint32
	// variants[enc].bytes, unrolled: a loop over them makes BenchmarkICRC
	// 15% slower. TestICRCEveryVariantValue holds the two together.
	switch enc {
	case RoCEv2IPv4:
		_ = pkt[v4BTHFECN]
		s = t[0][pkt[hdr.IPv4TOS]] ^ t[1][pkt[hdr.IPv4TTL]] ^
			t[2][pkt[hdr.IPv4Checksum]] ^ t[3][pkt[hdr.IPv4Checksum+1]] ^
			t[4][pkt[v4UDPChecksum]] ^ t[5][pkt[v4UDPChecksum+1]] ^ t[6][pkt[v4BTHFECN]]
	case RoCEv2IPv6:
		_ = pkt[v6BTHFECN]
		s = t[0][pkt[hdr.IPv6VersionTC]] ^ t[1][pkt[hdr.IPv6VersionTC+1]] ^
			t[2][pkt[hdr.IPv6VersionTC+2]] ^ t[3][pkt[hdr.IPv6VersionTC+3]] ^ t[4][pkt[hdr.IPv6HopLimit]] ^
			t[5][pkt[v6UDPChecksum]] ^ t[6][pkt[v6UDPChecksum+1]] ^ t[7][pkt[v6BTHFECN]]
	default:
		_ = pkt[v1BTHFECN]
		s = t[0][pkt[hdr.IPv6VersionTC]] ^ t[1][pkt[hdr.IPv6VersionTC+1]] ^
			t[2][pkt[hdr.IPv6VersionTC+2]] ^ t[3][pkt[hdr.IPv6VersionTC+3]] ^ t[4][pkt[hdr.IPv6HopLimit]] ^
			t[5][pkt[v1BTHFECN]]
	}
	return update(^(lrhSeed ^ s), pkt[:len(pkt)-ICRCLen]), nil
}

// ComputeNativeICRC returns the ICRC of a native InfiniBand packet, pkt
// running from the first byte of the LRH to the last byte of the ICRC (the
// VCRC not included). With a GRH (LNH 3) the whole LRH is variant and the
// ICRC is ComputeICRC(RoCEv1, pkt[LRHLen:]); without one (LNH 2) the LRH
// is covered with its VL masked. Other LNH values carry no IBA transport:
// the error wraps ErrUnsupported.
func ComputeNativeICRC(pkt []byte) (uint32, error) {
	if len(pkt) < LRHLen {
		return 0, truncated("ICRC", 0, LRHLen, len(pkt))
	}
	switch pkt[lrhSL] & 3 { // LNH
	case LNHIBAGlobal:
		return ComputeICRC(RoCEv1, pkt[LRHLen:])
	case LNHIBALocal:
	default:
		return 0, &Error{Layer: "ICRC", Offset: lrhSL, Err: ErrUnsupported}
	}
	if len(pkt) < nativeLocal.n+ICRCLen {
		return 0, truncated("ICRC", 0, nativeLocal.n+ICRCLen, len(pkt))
	}
	t := &nativeSeeds
	s := t[0][pkt[lrhVL]] ^ t[1][pkt[LRHLen+bthFECN]]
	return update(s, pkt[:len(pkt)-ICRCLen]), nil // start value ^0 ^ s
}

// VerifyNativeICRC checks the ICRC at the end of a native InfiniBand
// packet (laid out as for ComputeNativeICRC); on a mismatch the error is
// an *ICRCError, which matches ErrBadICRC.
func VerifyNativeICRC(pkt []byte) error {
	c, err := ComputeNativeICRC(pkt)
	if err != nil {
		return err
	}
	if r := ReceivedICRC(pkt); c != r {
		return &ICRCError{Computed: c, Received: r}
	}
	return nil
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
// ComputeICRC). On a mismatch it returns an *ICRCError, which matches
// ErrBadICRC and carries the computed and received values; building it
// is the one allocation (CheckICRC reports a mismatch without one).
func VerifyICRC(enc Encapsulation, pkt []byte) error {
	c, err := ComputeICRC(enc, pkt)
	if err != nil {
		return err
	}
	if r := ReceivedICRC(pkt); c != r {
		return &ICRCError{Computed: c, Received: r}
	}
	return nil
}

// CheckICRC computes the ICRC of pkt (laid out as for ComputeICRC) and
// compares it with the one pkt carries, allocating nothing: ok is false on
// a mismatch, err is set only when the ICRC cannot be computed.
func CheckICRC(enc Encapsulation, pkt []byte) (computed, received uint32, ok bool, err error) {
	c, err := ComputeICRC(enc, pkt)
	if err != nil {
		return 0, 0, false, err
	}
	r := ReceivedICRC(pkt)
	return c, r, c == r, nil
}

// PutICRC computes the ICRC of pkt and writes it into its last four bytes.
func PutICRC(enc Encapsulation, pkt []byte) error {
	c, err := ComputeICRC(enc, pkt)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint32(pkt[len(pkt)-ICRCLen:], c)
	return nil
}
