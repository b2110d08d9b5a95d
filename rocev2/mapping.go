package rocev2

import (
	"encoding/binary"
	"net/netip"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
)

// Header sizes RoCEv2 uses. IPv4 options are not allowed: the ICRC is
// defined over a 20-byte IPv4 header.
const (
	IPv4HeaderLen = hdr.IPv4MinLen
	IPv6HeaderLen = hdr.IPv6Len
	UDPHeaderLen  = hdr.UDPLen
)

// GRH.PayLen counts the bytes from the BTH through the ICRC in both
// encapsulations, so a RoCEv1 frame and its RoCEv2 twin carry the same
// PayLen. On the wire: IPv4 Total Length = PayLen + 28, IPv6 Payload
// Length = UDP Length = PayLen + 8.

// IsIPv4GID reports whether gid is an IPv4-mapped address ::ffff:a.b.c.d,
// the form RoCEv2 uses for IPv4 peers.
func IsIPv4GID(gid [16]byte) bool {
	return binary.BigEndian.Uint64(gid[:8]) == 0 && binary.BigEndian.Uint32(gid[8:12]) == 0xffff
}

// GIDFromAddr returns the GID of an address: IPv4 addresses become
// IPv4-mapped GIDs.
func GIDFromAddr(a netip.Addr) [16]byte { return a.As16() }

// PutIPv4Header writes the 20-byte IPv4 header of a RoCEv2 packet that
// g describes: TOS = TClass, TTL = HopLmt, protocol UDP, addresses from
// the IPv4-mapped GIDs, Total Length from PayLen, a correct header
// checksum. id and flagsFrag are the Identification field and the 16-bit
// flags and fragment offset word (0x4000 is DF, as Linux rxe sends).
// It checks nothing: roce.Frame.Validate says which values fit.
func PutIPv4Header(b []byte, g *ib.GRH, id, flagsFrag uint16) {
	hdr.IPv4(b).Encode(&hdr.IPv4Fields{
		TOS:       g.TClass,
		TotalLen:  g.PayLen + IPv4HeaderLen + UDPHeaderLen,
		ID:        id,
		FlagsFrag: flagsFrag,
		TTL:       g.HopLmt,
		Protocol:  hdr.IPProtocolUDP,
		Src:       [4]byte(g.SGID[12:]),
		Dst:       [4]byte(g.DGID[12:]),
	})
}

// PutIPv6Header writes the 40-byte IPv6 header of a RoCEv2 packet that g
// describes: Traffic Class, Flow Label and Hop Limit from the GRH, next
// header UDP, Payload Length from PayLen.
func PutIPv6Header(b []byte, g *ib.GRH) {
	hdr.IPv6(b).Encode(&hdr.IPv6Fields{
		TrafficClass: g.TClass,
		FlowLabel:    g.FlowLabel,
		PayloadLen:   g.PayLen + UDPHeaderLen,
		NextHeader:   hdr.IPProtocolUDP,
		HopLimit:     g.HopLmt,
		Src:          g.SGID,
		Dst:          g.DGID,
	})
}

// PutUDPHeader writes a UDP header with a zero checksum for a RoCEv2
// packet of PayLen transport bytes.
func PutUDPHeader(b []byte, src, dst uint16, payLen uint16) {
	hdr.UDP(b).Encode(src, dst, payLen+UDPHeaderLen)
}

// GRHFromIPv4Header maps a 20-byte IPv4 header onto g: TClass = TOS,
// HopLmt = TTL, IPv4-mapped GIDs, PayLen = Total Length - 28, FlowLabel 0.
func GRHFromIPv4Header(g *ib.GRH, b []byte) {
	// Written with the offsets rather than the accessors of hdr.IPv4 so
	// that it stays small enough to inline into roce.Frame's fast path.
	_ = b[IPv4HeaderLen-1]
	*g = ib.GRH{IPVer: 6, TClass: b[hdr.IPv4TOS], NxtHdr: ib.NxtHdrBTH, HopLmt: b[hdr.IPv4TTL]}
	g.PayLen = binary.BigEndian.Uint16(b[hdr.IPv4TotalLen:]) - IPv4HeaderLen - UDPHeaderLen
	g.SGID[10], g.SGID[11], g.DGID[10], g.DGID[11] = 0xff, 0xff, 0xff, 0xff // ::ffff:a.b.c.d
	copy(g.SGID[12:], b[hdr.IPv4Src:hdr.IPv4Src+4])
	copy(g.DGID[12:], b[hdr.IPv4Dst:hdr.IPv4Dst+4])
}

// GRHFromIPv6Header maps a 40-byte IPv6 header onto g: TClass, FlowLabel,
// HopLmt and the GIDs are the IPv6 fields, PayLen = Payload Length - 8.
func GRHFromIPv6Header(g *ib.GRH, b []byte) {
	ip := hdr.IPv6(b[:IPv6HeaderLen])
	*g = ib.GRH{IPVer: 6, TClass: ip.TrafficClass(), FlowLabel: ip.FlowLabel(),
		PayLen: ip.PayloadLen() - UDPHeaderLen, NxtHdr: ib.NxtHdrBTH, HopLmt: ip.HopLimit(),
		SGID: ip.Src(), DGID: ip.Dst()}
}

// UDPChecksum returns the UDP checksum of a datagram (header and data in
// udp, its checksum field taken as zero) behind the IPv4 or IPv6 header
// ip, with 0 sent as 0xFFFF (RFC 768).
func UDPChecksum(ip, udp []byte) uint16 { return hdr.UDPChecksumOf(ip, udp) }
