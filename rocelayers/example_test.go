package rocelayers_test

import (
	"fmt"
	"strings"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/ib"
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
