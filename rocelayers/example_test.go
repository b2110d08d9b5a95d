package rocelayers_test

import (
	"fmt"
	"strings"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/rocelayers"
)

// Example builds a RoCEv2 RDMA WRITE with the community gopacket's
// SerializeLayers and rocelayers.FixICRC, then decodes it with NewPacket
// and with the allocation-free parser.
func Example() {
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolUDP,
		SrcIP: []byte{192, 168, 1, 2}, DstIP: []byte{192, 168, 1, 3}}
	udp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	_ = udp.SetNetworkLayerForChecksum(ip) // FixICRC recomputes the UDP checksum after the ICRC
	bth := &rocelayers.BTH{BTH: ib.BTH{OpCode: ib.OpRCRDMAWriteOnly, PKey: 0xffff, DestQP: 0x11, PSN: 7}}
	reth := &rocelayers.RETH{RETH: ib.RETH{VA: 0x1000, RKey: 0x42, DMALen: 5}}
	buf := gopacket.NewSerializeBuffer()
	err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
		&layers.Ethernet{SrcMAC: make([]byte, 6), DstMAC: make([]byte, 6), EthernetType: layers.EthernetTypeIPv4},
		ip, udp, bth, reth, gopacket.Payload("hello"))
	if err != nil {
		fmt.Println(err)
		return
	}
	frame := buf.Bytes()
	if err := rocelayers.FixICRC(frame); err != nil {
		fmt.Println(err)
		return
	}

	p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
	var names []string
	for _, l := range p.Layers() {
		names = append(names, l.LayerType().String())
	}
	fmt.Println(strings.Join(names, " "))
	b := p.Layer(rocelayers.LayerTypeBTH).(*rocelayers.BTH)
	r := p.Layer(rocelayers.LayerTypeRETH).(*rocelayers.RETH)
	fmt.Println(b.OpCode, b.DestQP, b.PSN, r.DMALen, rocelayers.VerifyPacket(p) == nil)

	var l rocelayers.Layers
	parser := l.Parser()
	decoded := make([]gopacket.LayerType, 0, 8)
	if err := parser.DecodeLayers(frame, &decoded); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(decoded, l.RETH.VA, string(l.Payload))
	// Output:
	// Ethernet IPv4 UDP BTH RETH Payload
	// RC RDMA WRITE Only 17 7 5 true
	// [Ethernet IPv4 UDP BTH RETH Payload] 4096 hello
}

// Example_mad builds a CM REQ to QP 1 in a RoCEv2 frame with the
// community gopacket's SerializeLayers, decodes it with NewPacket down to
// the CM message, then decodes a link type 242 record (IPoIB).
func Example_mad() {
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolUDP,
		SrcIP: []byte{10, 0, 0, 1}, DstIP: []byte{10, 0, 0, 2}}
	udp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	_ = udp.SetNetworkLayerForChecksum(ip)
	buf := gopacket.NewSerializeBuffer()
	err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
		&layers.Ethernet{SrcMAC: make([]byte, 6), DstMAC: make([]byte, 6), EthernetType: layers.EthernetTypeIPv4}, ip, udp,
		&rocelayers.BTH{BTH: ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, DestQP: ib.QPGSI}},
		&rocelayers.DETH{DETH: ib.DETH{QKey: ib.GSIQKey, SrcQP: 0x11}},
		&rocelayers.MAD{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2,
			Method: mad.MethodSend, AttributeID: mad.AttrConnectRequest}},
		&rocelayers.CM{CM: mad.CM{AttributeID: mad.AttrConnectRequest, REQ: mad.REQ{LocalCommID: 0x1234, LocalQPN: 0x11}}})
	if err == nil {
		err = rocelayers.FixICRC(buf.Bytes())
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	p := gopacket.NewPacket(buf.Bytes(), layers.LayerTypeEthernet, gopacket.Default)
	fmt.Println(layerNames(p))
	cm := p.Layer(rocelayers.LayerTypeCM).(*rocelayers.CM)
	fmt.Printf("%s LocalCommID %#x LocalQPN %#x\n", cm.Name(), cm.REQ.LocalCommID, cm.REQ.LocalQPN)

	var lh ipoib.LinkHeader
	lh.SetDstAddr(ipoib.HWAddr{0x80, 0, 0x04, 0x05, 0xfe, 0x80, 19: 1})
	rec, _ := lh.AppendTo(nil)
	rec = append(rec, 0x08, 0x00, 0, 0) // IPoIB: IPv4
	rec = append(rec, 0x45, 0, 0, 20, 0, 0, 0x40, 0, 64, 0xfd, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2)
	fmt.Println(layerNames(gopacket.NewPacket(rec, layers.LinkType(ipoib.LinkType), gopacket.Default)))
	// Output:
	// Ethernet IPv4 UDP BTH DETH MAD CM
	// REQ LocalCommID 0x1234 LocalQPN 0x11
	// IPoIBLinkHeader IPoIB IPv4
}

// layerNames returns the names of the layers of p.
func layerNames(p gopacket.Packet) string {
	var names []string
	for _, l := range p.Layers() {
		names = append(names, l.LayerType().String())
	}
	return strings.Join(names, " ")
}
