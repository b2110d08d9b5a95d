package hdr

import "encoding/binary"

// UDPLen is the size of a UDP header.
const UDPLen = 8

// Offsets in a UDP header (RFC 768).
const (
	UDPSrcPort  = 0
	UDPDstPort  = 2
	UDPLength   = 4
	UDPChecksum = 6
)

// UDP is a view of a UDP header:
//
//	+-------------------------------+-------------------------------+
//	|          Source Port          |       Destination Port        |
//	+-------------------------------+-------------------------------+
//	|            Length             |           Checksum            |
//	+-------------------------------+-------------------------------+
type UDP []byte

// SrcPort returns the source port.
func (u UDP) SrcPort() uint16 { return binary.BigEndian.Uint16(u[UDPSrcPort:]) }

// DstPort returns the destination port.
func (u UDP) DstPort() uint16 { return binary.BigEndian.Uint16(u[UDPDstPort:]) }

// Length returns the Length field: header and data.
func (u UDP) Length() uint16 { return binary.BigEndian.Uint16(u[UDPLength:]) }

// Checksum returns the checksum field (0: none, over IPv4).
func (u UDP) Checksum() uint16 { return binary.BigEndian.Uint16(u[UDPChecksum:]) }

// Encode writes the header with a zero checksum.
func (u UDP) Encode(src, dst, length uint16) {
	_ = u[UDPLen-1]
	binary.BigEndian.PutUint16(u[UDPSrcPort:], src)
	binary.BigEndian.PutUint16(u[UDPDstPort:], dst)
	binary.BigEndian.PutUint16(u[UDPLength:], length)
	binary.BigEndian.PutUint16(u[UDPChecksum:], 0)
}

// SetChecksum writes the checksum field.
func (u UDP) SetChecksum(c uint16) { binary.BigEndian.PutUint16(u[UDPChecksum:], c) }

// FixChecksum computes the checksum of the datagram u (header and data,
// u's length is the datagram's) behind the IPv4 or IPv6 header ip and
// writes it.
func (u UDP) FixChecksum(ip []byte) {
	u.SetChecksum(0)
	u.SetChecksum(UDPChecksumOf(ip, u))
}
