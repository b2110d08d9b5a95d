package rocev2

import (
	"encoding/binary"
	"net"
	"net/netip"

	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/ib"
)

// Header sizes RoCEv2 uses. IPv4 options are not allowed: the ICRC is
// defined over a 20-byte IPv4 header.
const (
	IPv4HeaderLen = 20
	IPv6HeaderLen = 40
	UDPHeaderLen  = 8
)

// GRH.PayLen counts the bytes from the BTH through the ICRC in both
// encapsulations, so a RoCEv1 frame and its RoCEv2 twin carry the same
// PayLen. On the wire: IPv4 Total Length = PayLen + 28, IPv6 Payload
// Length = UDP Length = PayLen + 8.

// IsIPv4GID reports whether gid is an IPv4-mapped address ::ffff:a.b.c.d,
// the form RoCEv2 uses for IPv4 peers.
func IsIPv4GID(gid [16]byte) bool {
	return netip.AddrFrom16(gid).Is4In6()
}

// GIDFromAddr returns the GID of an address: IPv4 addresses become
// IPv4-mapped GIDs.
func GIDFromAddr(a netip.Addr) [16]byte { return a.As16() }

// PutIPv4Header writes the 20-byte IPv4 header of a RoCEv2 packet that
// g describes: TOS = TClass, TTL = HopLmt, protocol UDP, addresses from
// the IPv4-mapped GIDs, Total Length from PayLen, a correct header
// checksum. id and flagsFrag are the Identification field and the 16-bit
// flags and fragment offset word (0x4000 is DF, as Linux rxe sends).
func PutIPv4Header(b []byte, g *ib.GRH, id, flagsFrag uint16) {
	_ = b[19]
	b[0] = 0x45
	b[1] = g.TClass
	binary.BigEndian.PutUint16(b[2:], g.PayLen+IPv4HeaderLen+UDPHeaderLen)
	binary.BigEndian.PutUint16(b[4:], id)
	binary.BigEndian.PutUint16(b[6:], flagsFrag)
	b[8] = g.HopLmt
	b[9] = byte(layers.IPProtocolUDP)
	b[10], b[11] = 0, 0
	copy(b[12:16], g.SGID[12:])
	copy(b[16:20], g.DGID[12:])
	binary.BigEndian.PutUint16(b[10:], ^onesSum(0, b[:20]))
}

// PutIPv6Header writes the 40-byte IPv6 header of a RoCEv2 packet that g
// describes: Traffic Class, Flow Label and Hop Limit from the GRH, next
// header UDP, Payload Length from PayLen.
func PutIPv6Header(b []byte, g *ib.GRH) {
	_ = b[39]
	binary.BigEndian.PutUint32(b, 6<<28|uint32(g.TClass)<<20|g.FlowLabel&0xfffff)
	binary.BigEndian.PutUint16(b[4:], g.PayLen+UDPHeaderLen)
	b[6] = byte(layers.IPProtocolUDP)
	b[7] = g.HopLmt
	copy(b[8:24], g.SGID[:])
	copy(b[24:40], g.DGID[:])
}

// PutUDPHeader writes a UDP header with a zero checksum for a RoCEv2
// packet of PayLen transport bytes.
func PutUDPHeader(b []byte, src, dst uint16, payLen uint16) {
	_ = b[7]
	binary.BigEndian.PutUint16(b, src)
	binary.BigEndian.PutUint16(b[2:], dst)
	binary.BigEndian.PutUint16(b[4:], payLen+UDPHeaderLen)
	b[6], b[7] = 0, 0
}

// GRHFromIPv4Header maps a 20-byte IPv4 header onto g: TClass = TOS,
// HopLmt = TTL, IPv4-mapped GIDs, PayLen = Total Length - 28, FlowLabel 0.
func GRHFromIPv4Header(g *ib.GRH, b []byte) {
	_ = b[19]
	*g = ib.GRH{IPVer: 6, TClass: b[1], NxtHdr: ib.NxtHdrBTH, HopLmt: b[8]}
	g.PayLen = binary.BigEndian.Uint16(b[2:]) - IPv4HeaderLen - UDPHeaderLen
	g.SGID[10], g.SGID[11], g.DGID[10], g.DGID[11] = 0xff, 0xff, 0xff, 0xff
	copy(g.SGID[12:], b[12:16])
	copy(g.DGID[12:], b[16:20])
}

// GRHFromIPv6Header maps a 40-byte IPv6 header onto g: TClass, FlowLabel,
// HopLmt and the GIDs are the IPv6 fields, PayLen = Payload Length - 8.
func GRHFromIPv6Header(g *ib.GRH, b []byte) {
	_ = b[39]
	w := binary.BigEndian.Uint32(b)
	*g = ib.GRH{IPVer: 6, TClass: uint8(w >> 20), FlowLabel: w & 0xfffff,
		NxtHdr: ib.NxtHdrBTH, HopLmt: b[7]}
	g.PayLen = binary.BigEndian.Uint16(b[4:]) - UDPHeaderLen
	copy(g.SGID[:], b[8:24])
	copy(g.DGID[:], b[24:40])
}

// GRHFromIPv4 maps a decoded gopacket IPv4 layer onto a GRH, as
// GRHFromIPv4Header does.
func GRHFromIPv4(ip *layers.IPv4) ib.GRH {
	g := ib.GRH{IPVer: 6, TClass: ip.TOS, NxtHdr: ib.NxtHdrBTH, HopLmt: ip.TTL,
		PayLen: ip.Length - uint16(ip.IHL)*4 - UDPHeaderLen}
	g.SGID = netip.AddrFrom4([4]byte(ip.SrcIP.To4())).As16()
	g.DGID = netip.AddrFrom4([4]byte(ip.DstIP.To4())).As16()
	return g
}

// GRHFromIPv6 maps a decoded gopacket IPv6 layer onto a GRH.
func GRHFromIPv6(ip *layers.IPv6) ib.GRH {
	g := ib.GRH{IPVer: 6, TClass: ip.TrafficClass, FlowLabel: ip.FlowLabel,
		NxtHdr: ib.NxtHdrBTH, HopLmt: ip.HopLimit, PayLen: ip.Length - UDPHeaderLen}
	copy(g.SGID[:], ip.SrcIP.To16())
	copy(g.DGID[:], ip.DstIP.To16())
	return g
}

// IPv4FromGRH fills a gopacket IPv4 layer from g, for SerializeLayers
// (set FixLengths and ComputeChecksums to fill Length and Checksum).
func IPv4FromGRH(g *ib.GRH) *layers.IPv4 {
	return &layers.IPv4{Version: 4, IHL: 5, TOS: g.TClass, TTL: g.HopLmt,
		Flags: layers.IPv4DontFragment, Protocol: layers.IPProtocolUDP,
		Length: g.PayLen + IPv4HeaderLen + UDPHeaderLen,
		SrcIP:  net.IP(g.SGID[12:16:16]), DstIP: net.IP(g.DGID[12:16:16])}
}

// IPv6FromGRH fills a gopacket IPv6 layer from g.
func IPv6FromGRH(g *ib.GRH) *layers.IPv6 {
	return &layers.IPv6{Version: 6, TrafficClass: g.TClass, FlowLabel: g.FlowLabel,
		NextHeader: layers.IPProtocolUDP, HopLimit: g.HopLmt,
		Length: g.PayLen + UDPHeaderLen,
		SrcIP:  net.IP(g.SGID[:]), DstIP: net.IP(g.DGID[:])}
}

// onesSum adds b as big-endian 16-bit words to sum in ones' complement,
// eight bytes at a time: since 2^16 = 1 modulo 2^16-1, the 32-bit halves
// of each word can be added whole and folded at the end.
func onesSum(sum uint32, b []byte) uint16 {
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

// UDPChecksum returns the UDP checksum of a datagram (header and data in
// udp, its checksum field taken as zero) behind the IPv4 or IPv6 header ip.
func UDPChecksum(ip, udp []byte) uint16 {
	var sum uint32
	if ip[0]>>4 == 4 {
		sum = uint32(onesSum(0, ip[12:20]))
	} else {
		sum = uint32(onesSum(0, ip[8:40]))
	}
	sum += uint32(layers.IPProtocolUDP) + uint32(len(udp))
	sum += uint32(onesSum(0, udp[:6])) + uint32(onesSum(0, udp[8:]))
	c := ^onesSum(sum, nil)
	if c == 0 {
		c = 0xffff
	}
	return c
}
