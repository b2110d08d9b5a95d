package hdr

import "encoding/binary"

// Checksum adds b as big-endian 16-bit words to sum in ones' complement
// (RFC 1071) and returns the folded sum, not inverted. It takes eight
// bytes at a time: since 2^16 = 1 modulo 2^16-1, the 32-bit halves of
// each word can be added whole and folded at the end.
func Checksum(sum uint32, b []byte) uint16 {
	s := uint64(sum)
	for len(b) >= 8 {
		w := binary.BigEndian.Uint64(b)
		s += w>>32 + w&0xffffffff
		b = b[8:]
	}
	for len(b) >= 2 {
		s += uint64(b[0])<<8 | uint64(b[1])
		b = b[2:]
	}
	if len(b) == 1 {
		s += uint64(b[0]) << 8
	}
	for s > 0xffff {
		s = s>>16 + s&0xffff
	}
	return uint16(s)
}

// UpdateChecksum returns the checksum hc after a 16-bit word of the data
// it covers changed from m to m1 (RFC 1624, equation 3:
// HC' = ~(~HC + ~m + m')).
func UpdateChecksum(hc, m, m1 uint16) uint16 {
	s := uint32(^hc) + uint32(^m) + uint32(m1)
	s = s>>16 + s&0xffff
	s += s >> 16
	return ^uint16(s)
}

// UDPChecksumOf returns the UDP checksum of a datagram (header and data in
// udp, its checksum field taken as zero) behind the IPv4 or IPv6 header
// ip, with 0 sent as 0xFFFF (RFC 768).
func UDPChecksumOf(ip, udp []byte) uint16 {
	var sum uint32
	if ip[0]>>4 == 4 {
		sum = uint32(Checksum(0, ip[IPv4Src:IPv4Dst+4]))
	} else {
		sum = uint32(Checksum(0, ip[IPv6Src:IPv6Dst+16]))
	}
	sum += IPProtocolUDP + uint32(len(udp))
	sum += uint32(Checksum(0, udp[:UDPChecksum])) + uint32(Checksum(0, udp[UDPLen:]))
	c := ^Checksum(sum, nil)
	if c == 0 {
		c = 0xffff
	}
	return c
}
