// Code generated from ../googlelayers/ip.go by go generate; DO NOT EDIT.

package rocelayers

import (
	"net"
	"net/netip"

	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
)

// GRHFromIPv4 maps a decoded gopacket IPv4 layer onto a GRH, as
// rocev2.GRHFromIPv4Header does: TClass = TOS, HopLmt = TTL, IPv4-mapped
// GIDs, PayLen = Total Length - IHL*4 - 8.
func GRHFromIPv4(ip *layers.IPv4) ib.GRH {
	g := ib.GRH{IPVer: 6, TClass: ip.TOS, NxtHdr: ib.NxtHdrBTH, HopLmt: ip.TTL,
		PayLen: ip.Length - uint16(ip.IHL)*4 - hdr.UDPLen}
	g.SGID = netip.AddrFrom4([4]byte(ip.SrcIP.To4())).As16()
	g.DGID = netip.AddrFrom4([4]byte(ip.DstIP.To4())).As16()
	return g
}

// GRHFromIPv6 maps a decoded gopacket IPv6 layer onto a GRH, as
// rocev2.GRHFromIPv6Header does.
func GRHFromIPv6(ip *layers.IPv6) ib.GRH {
	g := ib.GRH{IPVer: 6, TClass: ip.TrafficClass, FlowLabel: ip.FlowLabel,
		NxtHdr: ib.NxtHdrBTH, HopLmt: ip.HopLimit, PayLen: ip.Length - hdr.UDPLen}
	copy(g.SGID[:], ip.SrcIP.To16())
	copy(g.DGID[:], ip.DstIP.To16())
	return g
}

// IPv4FromGRH fills a gopacket IPv4 layer from g, for SerializeLayers
// (set FixLengths and ComputeChecksums to fill Length and Checksum).
func IPv4FromGRH(g *ib.GRH) *layers.IPv4 {
	return &layers.IPv4{Version: 4, IHL: 5, TOS: g.TClass, TTL: g.HopLmt,
		Flags: layers.IPv4DontFragment, Protocol: layers.IPProtocolUDP,
		Length: g.PayLen + hdr.IPv4MinLen + hdr.UDPLen,
		SrcIP:  net.IP(g.SGID[12:16:16]), DstIP: net.IP(g.DGID[12:16:16])}
}

// IPv6FromGRH fills a gopacket IPv6 layer from g.
func IPv6FromGRH(g *ib.GRH) *layers.IPv6 {
	return &layers.IPv6{Version: 6, TrafficClass: g.TClass, FlowLabel: g.FlowLabel,
		NextHeader: layers.IPProtocolUDP, HopLimit: g.HopLmt,
		Length: g.PayLen + hdr.UDPLen,
		SrcIP:  net.IP(g.SGID[:]), DstIP: net.IP(g.DGID[:])}
}
