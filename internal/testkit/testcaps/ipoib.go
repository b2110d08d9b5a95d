package testcaps

import (
	"encoding/binary"
	"net"
	"net/netip"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
)

// IPoIBNative returns ERF records (link type 197, record type 21) of
// native InfiniBand packets whose payload is IPoIB, built here: over UD
// (LRH, GRH, BTH, DETH) and RC (LRH, BTH), an IPv4/UDP datagram, an
// IPv4/TCP segment, IPv6/UDP and IPv6/TCP, an ARP request and reply
// (20-byte IPoIB hardware addresses), an IPv4 datagram with options,
// and an ARP packet whose addresses the IPoIB packet does not hold
// whole. The ICRC is right, the VCRC zero.
func IPoIBNative(t testing.TB) [][]byte {
	t.Helper()
	src, dst := netip.MustParseAddr("10.0.0.36"), netip.MustParseAddr("10.0.0.58")
	src6, dst6 := netip.MustParseAddr("fe80::202:c902:24:f636"), netip.MustParseAddr("fe80::202:c903:0:1895")
	ser := func(ls ...gopacket.SerializableLayer) []byte {
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	v4 := func(proto layers.IPProtocol, opts []layers.IPv4Option) *layers.IPv4 {
		return &layers.IPv4{Version: 4, TOS: 0x2a, TTL: 64, Id: 0x1234, Flags: layers.IPv4DontFragment, Protocol: proto,
			SrcIP: net.IP(src.AsSlice()), DstIP: net.IP(dst.AsSlice()), Options: opts}
	}
	v6 := func(next layers.IPProtocol) *layers.IPv6 {
		return &layers.IPv6{Version: 6, TrafficClass: 0x61, FlowLabel: 0x12345, HopLimit: 255, NextHeader: next,
			SrcIP: net.IP(src6.AsSlice()), DstIP: net.IP(dst6.AsSlice())}
	}
	udp := func(ip interface {
		gopacket.NetworkLayer
		gopacket.SerializableLayer
	}) []byte {
		u := &layers.UDP{SrcPort: 49501, DstPort: 40000}
		if err := u.SetNetworkLayerForChecksum(ip); err != nil {
			t.Fatal(err)
		}
		return ser(ip, u, gopacket.Payload("hello over IPoIB"))
	}
	tcp := func(ip interface {
		gopacket.NetworkLayer
		gopacket.SerializableLayer
	}) []byte {
		s := &layers.TCP{SrcPort: 34567, DstPort: 22, Seq: 7, SYN: true, Window: 65535}
		if err := s.SetNetworkLayerForChecksum(ip); err != nil {
			t.Fatal(err)
		}
		return ser(ip, s)
	}
	hw := func(qpn uint32, gid netip.Addr) ipoib.HWAddr {
		a, err := ipoib.MakeHWAddr(ipoib.FlagConnected, qpn, gid.As16())
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	arp := func(op uint16, target ipoib.HWAddr) []byte {
		b, err := ipoib.AppendARP(nil, op, hw(0x405, src6), src, target, dst)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	type carried struct {
		typ  uint16
		body []byte
	}
	bodies := []carried{
		{ipoib.TypeIPv4, udp(v4(layers.IPProtocolUDP, nil))},
		{ipoib.TypeIPv4, tcp(v4(layers.IPProtocolTCP, nil))},
		{ipoib.TypeIPv6, udp(v6(layers.IPProtocolUDP))},
		{ipoib.TypeIPv6, tcp(v6(layers.IPProtocolTCP))},
		{ipoib.TypeARP, arp(ipoib.ARPRequest, ipoib.HWAddr{})},
		{ipoib.TypeARP, arp(ipoib.ARPReply, hw(0x404, dst6))},
		{ipoib.TypeIPv4, udp(v4(layers.IPProtocolUDP, []layers.IPv4Option{{OptionType: 1}, {OptionType: 1}, {OptionType: 1}, {OptionType: 0}}))},
		{ipoib.TypeARP, arp(ipoib.ARPRequest, ipoib.HWAddr{})[:30]},
	}
	var out [][]byte
	for i, c := range bodies {
		h := ipoib.Header{Type: c.typ}
		hb, _ := h.AppendTo(nil) // a Header always encodes
		payload := append(hb, c.body...)
		ud := i%2 == 0
		out = append(out, erfIB(t, nativeIB(t, ud, uint32(100+i), payload), uint64(1700000000+i)<<32))
	}
	return out
}

// nativeIB builds a native InfiniBand SEND Only carrying payload: UD
// (LRH, GRH to the IPoIB broadcast group, BTH, DETH) or RC (LRH, BTH).
func nativeIB(t testing.TB, ud bool, psn uint32, payload []byte) []byte {
	t.Helper()
	var p ib.Packet
	p.BTH = ib.BTH{OpCode: ib.OpRCSendOnly, MigReq: true, PKey: 0xffff, DestQP: 0xfc0407, PSN: psn, AckReq: true}
	if ud {
		p.BTH = ib.BTH{OpCode: ib.OpUDSendOnly, MigReq: true, PKey: 0xffff, DestQP: 0xffffff, PSN: psn}
		p.DETH = ib.DETH{QKey: 0xb1b, SrcQP: 0x405}
	}
	p.Payload = payload
	lrh := ib.LRH{VL: 0, SL: 0, LNH: ib.LNHIBALocal, DLID: 4, SLID: 1}
	hl := ib.LRHLen
	if ud {
		lrh.LNH, lrh.DLID, hl = ib.LNHIBAGlobal, 0xc000, ib.LRHLen+ib.GRHLen
	}
	b := make([]byte, hl, hl+p.Len()+2)
	b, err := p.AppendTo(b)
	if err != nil {
		t.Fatal(err)
	}
	lrh.PktLen = uint16(len(b) / 4)
	if err := lrh.Encode(b); err != nil {
		t.Fatal(err)
	}
	if ud {
		g := ib.GRH{IPVer: 6, PayLen: uint16(len(b) - hl), NxtHdr: ib.NxtHdrBTH, HopLmt: 0,
			SGID: netip.MustParseAddr("fe80::2:c902:24:f636").As16(), DGID: netip.MustParseAddr("ff12:401b:ffff::ffff:ffff").As16()}
		if err := g.Encode(b[ib.LRHLen:]); err != nil {
			t.Fatal(err)
		}
	}
	icrc, err := ib.ComputeNativeICRC(b)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(b[len(b)-ib.ICRCLen:], icrc)
	return append(b, 0, 0) // the VCRC, not computed
}

// erfIB wraps a native InfiniBand packet in an ERF record of type 21 at
// ERF time ts (seconds in the upper 32 bits).
func erfIB(t testing.TB, pkt []byte, ts uint64) []byte {
	t.Helper()
	rlen := 16 + len(pkt)
	h := make([]byte, 16, rlen)
	binary.LittleEndian.PutUint64(h, ts)
	h[8] = 21 // InfiniBand
	h[9] = 0x04
	binary.BigEndian.PutUint16(h[10:], uint16(rlen))
	binary.BigEndian.PutUint16(h[14:], uint16(len(pkt)))
	return append(h, pkt...)
}

// EthernetARP returns Ethernet frames carrying ARP: a request and a reply
// (the reply behind an 802.1Q tag), and packets of the forms tshark 4.0
// names otherwise: IEEE 802 hardware (a MAC too), an IPv6 protocol
// address (bytes), no hardware address (size 0), an AX.25 callsign (no
// hardware key), ATM ARP (another layout: no key), and a packet cut
// inside its addresses (the header's keys only).
func EthernetARP(t testing.TB) [][]byte {
	t.Helper()
	eth := func(tagged bool, body []byte) []byte {
		b := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1}
		if tagged {
			b = append(b, 0x81, 0x00, 0x20, 0x05)
		}
		return append(append(b, 0x08, 0x06), body...)
	}
	arp := func(hrd, pro uint16, hln, pln uint8, op uint16, addrs ...[]byte) []byte {
		b := binary.BigEndian.AppendUint16(nil, hrd)
		b = binary.BigEndian.AppendUint16(b, pro)
		b = append(b, hln, pln)
		b = binary.BigEndian.AppendUint16(b, op)
		for _, a := range addrs {
			b = append(b, a...)
		}
		return b
	}
	mac1, mac2 := []byte{2, 0, 0, 0, 0, 1}, []byte{2, 0, 0, 0, 0, 2}
	ip1, ip2 := []byte{10, 0, 0, 1}, []byte{10, 0, 0, 2}
	v61, v62 := netip.MustParseAddr("2001:db8::1").AsSlice(), netip.MustParseAddr("2001:db8::2").AsSlice()
	return [][]byte{
		eth(false, arp(1, 0x0800, 6, 4, 1, mac1, ip1, make([]byte, 6), ip2)),
		eth(true, arp(1, 0x0800, 6, 4, 2, mac2, ip2, mac1, ip1)),
		eth(false, arp(6, 0x0800, 6, 4, 1, mac1, ip1, mac2, ip2)),
		eth(false, arp(1, 0x86dd, 6, 16, 1, mac1, v61, make([]byte, 6), v62)),
		eth(false, arp(1, 0x0800, 0, 4, 1, ip1, ip2)),
		eth(false, arp(3, 0x00cc, 7, 4, 1, []byte("N0CALL\x00"), ip1, []byte("N1CALL\x00"), ip2)),
		eth(false, arp(19, 0x0800, 6, 4, 1, mac1, ip1, mac2, ip2)),
		eth(false, arp(1, 0x0800, 6, 4, 1, mac1, ip1)),
	}
}
