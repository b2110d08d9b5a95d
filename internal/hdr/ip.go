package hdr

import "encoding/binary"

// IPv4MinLen is the size of an IPv4 header without options, the only
// IPv4 header RoCEv2 allows under its ICRC.
const IPv4MinLen = 20

// Offsets in an IPv4 header (RFC 791, 3.1).
const (
	IPv4VersionIHL = 0  // version (4 bits) and IHL (4 bits)
	IPv4TOS        = 1  // DSCP (6 bits) and ECN (2 bits)
	IPv4TotalLen   = 2  // total length
	IPv4ID         = 4  // identification
	IPv4FlagsFrag  = 6  // flags (3 bits) and fragment offset (13 bits)
	IPv4TTL        = 8  // time to live
	IPv4Protocol   = 9  // protocol
	IPv4Checksum   = 10 // header checksum
	IPv4Src        = 12 // source address
	IPv4Dst        = 16 // destination address
)

// IPv4NoOptions is the first byte of an IPv4 header without options:
// version 4, IHL 5.
const IPv4NoOptions = 4<<4 | IPv4MinLen/4

// Bits of the IPv4 flags and fragment offset word (RFC 791, 3.1).
const (
	IPv4FlagDF     = 0x4000 // don't fragment
	IPv4FlagMF     = 0x2000 // more fragments
	IPv4FragOffset = 0x1fff // fragment offset, in units of 8 bytes
	// IPv4FragMask is the part of the word that makes a fragment.
	IPv4FragMask = IPv4FlagMF | IPv4FragOffset
)

// IPv4 is a view of an IPv4 header:
//
//	+-------+-------+---------------+-------------------------------+
//	|Version|  IHL  |   DSCP  |ECN  |          Total Length         |
//	+-------+-------+---------------+-----+-------------------------+
//	|         Identification        |Flags|     Fragment Offset     |
//	+---------------+---------------+-----+-------------------------+
//	|      TTL      |   Protocol    |        Header Checksum        |
//	+---------------+---------------+-------------------------------+
//	|                        Source Address                         |
//	|                      Destination Address                      |
//	+---------------------------------------------------------------+
type IPv4 []byte

// Version returns the version field.
func (h IPv4) Version() uint8 { return h[IPv4VersionIHL] >> 4 }

// HeaderLen returns the header length in bytes (IHL times 4).
func (h IPv4) HeaderLen() int { return int(h[IPv4VersionIHL]&0xf) * 4 }

// TOS returns the DSCP and ECN byte.
func (h IPv4) TOS() uint8 { return h[IPv4TOS] }

// TotalLen returns the Total Length field.
func (h IPv4) TotalLen() uint16 { return binary.BigEndian.Uint16(h[IPv4TotalLen:]) }

// ID returns the Identification field.
func (h IPv4) ID() uint16 { return binary.BigEndian.Uint16(h[IPv4ID:]) }

// FlagsFrag returns the flags and fragment offset word (0x4000 is DF).
func (h IPv4) FlagsFrag() uint16 { return binary.BigEndian.Uint16(h[IPv4FlagsFrag:]) }

// IsFragment reports whether the header has MF set or a fragment offset.
func (h IPv4) IsFragment() bool { return h.FlagsFrag()&IPv4FragMask != 0 }

// TTL returns the time to live.
func (h IPv4) TTL() uint8 { return h[IPv4TTL] }

// Protocol returns the protocol number.
func (h IPv4) Protocol() uint8 { return h[IPv4Protocol] }

// Checksum returns the header checksum as received.
func (h IPv4) Checksum() uint16 { return binary.BigEndian.Uint16(h[IPv4Checksum:]) }

// Src returns the source address.
func (h IPv4) Src() [4]byte { return [4]byte(h[IPv4Src : IPv4Src+4]) }

// Dst returns the destination address.
func (h IPv4) Dst() [4]byte { return [4]byte(h[IPv4Dst : IPv4Dst+4]) }

// IPv4Fields are the fields Encode writes.
type IPv4Fields struct {
	TOS       uint8
	TotalLen  uint16
	ID        uint16
	FlagsFrag uint16
	TTL       uint8
	Protocol  uint8
	Src, Dst  [4]byte
}

// Encode writes a 20-byte header with the fields of f and a correct
// header checksum.
func (h IPv4) Encode(f *IPv4Fields) {
	_ = h[IPv4MinLen-1]
	h[IPv4VersionIHL] = IPv4NoOptions
	h[IPv4TOS] = f.TOS
	binary.BigEndian.PutUint16(h[IPv4TotalLen:], f.TotalLen)
	binary.BigEndian.PutUint16(h[IPv4ID:], f.ID)
	binary.BigEndian.PutUint16(h[IPv4FlagsFrag:], f.FlagsFrag)
	h[IPv4TTL] = f.TTL
	h[IPv4Protocol] = f.Protocol
	copy(h[IPv4Src:], f.Src[:])
	copy(h[IPv4Dst:], f.Dst[:])
	h.FixChecksum()
}

// FixChecksum computes the header checksum over IHL*4 bytes and writes it.
func (h IPv4) FixChecksum() {
	n := h.HeaderLen()
	binary.BigEndian.PutUint16(h[IPv4Checksum:], 0)
	binary.BigEndian.PutUint16(h[IPv4Checksum:], ^Checksum(0, h[:n]))
}

// SetTOS rewrites the TOS byte and updates the header checksum
// incrementally (RFC 1624, equation 3).
func (h IPv4) SetTOS(tos uint8) {
	old := binary.BigEndian.Uint16(h[IPv4TOS-1:]) // version/IHL and TOS as one word
	h[IPv4TOS] = tos
	binary.BigEndian.PutUint16(h[IPv4Checksum:], UpdateChecksum(h.Checksum(), old, binary.BigEndian.Uint16(h[IPv4TOS-1:])))
}

// IPv6Len is the size of the IPv6 fixed header.
const IPv6Len = 40

// Offsets in an IPv6 header (RFC 8200, 3).
const (
	IPv6VersionTC = 0  // version (4 bits), traffic class (8), flow label (20)
	IPv6PayLen    = 4  // payload length
	IPv6NextHdr   = 6  // next header
	IPv6HopLimit  = 7  // hop limit
	IPv6Src       = 8  // source address
	IPv6Dst       = 24 // destination address
)

// IPv6FlowLabelMask covers the 20-bit flow label in the first word.
const IPv6FlowLabelMask = 0xfffff

// IPv6 is a view of an IPv6 fixed header:
//
//	+-------+---------------+---------------------------------------+
//	|Version| Traffic Class |              Flow Label               |
//	+-------+---------------+-------+---------------+---------------+
//	|         Payload Length        |  Next Header  |   Hop Limit   |
//	+-------------------------------+---------------+---------------+
//	|                   Source Address (128 bits)                   |
//	|                Destination Address (128 bits)                 |
//	+---------------------------------------------------------------+
type IPv6 []byte

// Version returns the version field.
func (h IPv6) Version() uint8 { return h[IPv6VersionTC] >> 4 }

// TrafficClass returns the traffic class (DSCP and ECN).
func (h IPv6) TrafficClass() uint8 {
	return uint8(binary.BigEndian.Uint16(h[IPv6VersionTC:]) >> 4)
}

// FlowLabel returns the 20-bit flow label.
func (h IPv6) FlowLabel() uint32 {
	return binary.BigEndian.Uint32(h[IPv6VersionTC:]) & IPv6FlowLabelMask
}

// PayloadLen returns the Payload Length field.
func (h IPv6) PayloadLen() uint16 { return binary.BigEndian.Uint16(h[IPv6PayLen:]) }

// NextHeader returns the next header number.
func (h IPv6) NextHeader() uint8 { return h[IPv6NextHdr] }

// HopLimit returns the hop limit.
func (h IPv6) HopLimit() uint8 { return h[IPv6HopLimit] }

// Src returns the source address.
func (h IPv6) Src() [16]byte { return [16]byte(h[IPv6Src : IPv6Src+16]) }

// Dst returns the destination address.
func (h IPv6) Dst() [16]byte { return [16]byte(h[IPv6Dst : IPv6Dst+16]) }

// IPv6Fields are the fields Encode writes.
type IPv6Fields struct {
	TrafficClass uint8
	FlowLabel    uint32 // 20 bits
	PayloadLen   uint16
	NextHeader   uint8
	HopLimit     uint8
	Src, Dst     [16]byte
}

// Encode writes the fixed header with the fields of f.
func (h IPv6) Encode(f *IPv6Fields) {
	_ = h[IPv6Len-1]
	binary.BigEndian.PutUint32(h[IPv6VersionTC:], 6<<28|uint32(f.TrafficClass)<<20|f.FlowLabel&IPv6FlowLabelMask)
	binary.BigEndian.PutUint16(h[IPv6PayLen:], f.PayloadLen)
	h[IPv6NextHdr] = f.NextHeader
	h[IPv6HopLimit] = f.HopLimit
	copy(h[IPv6Src:], f.Src[:])
	copy(h[IPv6Dst:], f.Dst[:])
}

// SetTrafficClass rewrites the traffic class and leaves the version and
// flow label alone.
func (h IPv6) SetTrafficClass(tc uint8) {
	w := binary.BigEndian.Uint16(h[IPv6VersionTC:])
	binary.BigEndian.PutUint16(h[IPv6VersionTC:], w&0xf00f|uint16(tc)<<4)
}
