package rocev2

import (
	"slices"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/wire"
)

// FromRoCEv1 appends to dst the RoCEv2 frame that carries the transport
// packet of the RoCEv1 frame v1, and returns the extended slice. The
// Ethernet header and VLAN tags are kept; the GRH becomes an IPv4 header
// when both GIDs are IPv4-mapped, an IPv6 header otherwise; the UDP source
// port is srcPort, or derived from the flow label when srcPort is 0. The
// ICRC is computed afresh; over IPv6 the UDP checksum is computed too
// (RFC 8200 forbids a zero one), over IPv4 it is zero, as Linux rxe sends.
func FromRoCEv1(dst, v1 []byte, srcPort uint16) ([]byte, error) {
	var l wire.Layout
	err := wire.Locate(v1, &l)
	if err != nil {
		return dst, err
	}
	if l.Enc != ib.RoCEv1 {
		return dst, errs.New("RoCEv1", l.EtherType, 0, 0, ib.ErrNotRoCE)
	}
	var g ib.GRH
	if err := g.Decode(v1[l.Net:]); err != nil {
		return dst, err
	}
	if srcPort == 0 {
		srcPort = FlowLabelToUDPSrcPort(g.FlowLabel)
	}
	v4 := IsIPv4GID(g.SGID) && IsIPv4GID(g.DGID)
	ipLen, et, enc := IPv6HeaderLen, uint16(hdr.EtherTypeIPv6), ib.RoCEv2IPv6
	if v4 {
		ipLen, et, enc = IPv4HeaderLen, hdr.EtherTypeIPv4, ib.RoCEv2IPv4
	}
	// The IP and UDP length fields count headers too: IPv4 Total Length
	// its own and UDP's, IPv6 Payload Length and UDP Length UDP's.
	limit := 0xffff - UDPHeaderLen
	if v4 {
		limit -= IPv4HeaderLen
	}
	if int(g.PayLen) > limit {
		return dst, errs.New("GRH", l.Net+hdr.IPv6PayLen, limit, int(g.PayLen), ib.ErrBadLength)
	}
	transport := v1[l.BTH:l.End]
	n := l.Net + ipLen + UDPHeaderLen + len(transport)
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	copy(out, v1[:l.Net])
	hdr.PutEtherType(out, l.Tags, et)
	ip := out[l.Net:]
	if v4 {
		PutIPv4Header(ip, &g, 0, hdr.IPv4FlagDF)
	} else {
		PutIPv6Header(ip, &g)
	}
	udp := hdr.UDP(ip[ipLen:])
	PutUDPHeader(udp, srcPort, hdr.RoCEv2Port, g.PayLen)
	copy(udp[UDPHeaderLen:], transport)
	if err := ib.PutICRC(enc, ip); err != nil {
		return dst, err
	}
	if !v4 {
		udp.FixChecksum(ip)
	}
	return dst[:len(dst)+n], nil
}

// ToRoCEv1 appends to dst the RoCEv1 frame that carries the transport
// packet of the RoCEv2 frame v2 and returns the extended slice: the IP
// header becomes a GRH (NxtHdr 0x1B; an IPv4 header gives IPv4-mapped GIDs
// and flow label 0), the UDP header goes, the Ethertype becomes 0x8915 and
// the ICRC is computed afresh.
func ToRoCEv1(dst, v2 []byte) ([]byte, error) {
	var l wire.Layout
	err := wire.Locate(v2, &l)
	if err != nil {
		return dst, err
	}
	var g ib.GRH
	switch l.Enc {
	case ib.RoCEv2IPv4:
		if l.UDP-l.Net != IPv4HeaderLen {
			return dst, errs.New("IPv4", l.Net, 0, 0, ib.ErrUnsupported)
		}
		GRHFromIPv4Header(&g, v2[l.Net:])
	case ib.RoCEv2IPv6:
		GRHFromIPv6Header(&g, v2[l.Net:])
	default:
		return dst, errs.New("RoCEv2", l.EtherType, 0, 0, ib.ErrNotRoCE)
	}
	transport := v2[l.BTH:l.End]
	g.PayLen = uint16(len(transport))
	n := l.Net + ib.GRHLen + len(transport)
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	copy(out, v2[:l.Net])
	hdr.PutEtherType(out, l.Tags, hdr.EtherTypeRoCE)
	g.Encode(out[l.Net:])
	copy(out[l.Net+ib.GRHLen:], transport)
	if err := ib.PutICRC(ib.RoCEv1, out[l.Net:]); err != nil {
		return dst, err
	}
	return dst[:len(dst)+n], nil
}
