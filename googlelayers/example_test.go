package googlelayers_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
)

// hexFrame decodes a hex string; the examples' frames are constants.
func hexFrame(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// An RC RDMA WRITE Only over RoCEv2/IPv4, ECT(0), with a 5-byte payload,
// the frame roce's ExampleFrame_AppendTo builds.
const writeOnly = "020000000002020000000001" + "0800" +
	"45020044000040004011b753c0a80101c0a80102" + // IPv4, TOS 0x02, DF, TTL 64
	"c00012b700300000" + // UDP 49152 -> 4791, length 48, no checksum
	"0a30ffff0000001280000007" + // BTH: RC RDMA WRITE Only, PadCnt 3, QP 0x12, A, PSN 7
	"00000000000010000000004200000005" + // RETH: VA 0x1000, R_Key 0x42, DMA length 5
	"68656c6c6f" + "000000" + // "hello" and 3 pad bytes
	"7c8ff490" // ICRC

// Decode with gopacket: importing googlelayers registers every layer.
func Example() {
	frame := hexFrame(writeOnly)

	p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
	var names []string
	for _, l := range p.Layers() {
		names = append(names, l.LayerType().String())
	}
	fmt.Println(strings.Join(names, " ")) // Ethernet IPv4 UDP BTH RETH Payload
	bth := p.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
	reth := p.Layer(googlelayers.LayerTypeRETH).(*googlelayers.RETH)
	fmt.Println(bth.OpCode, bth.DestQP, bth.PSN, reth.DMALen, googlelayers.VerifyPacket(p) == nil)
	// Output:
	// Ethernet IPv4 UDP BTH RETH Payload
	// RC RDMA WRITE Only 18 7 5 true
}

// Decode with a DecodingLayerParser into reused layers: no allocation
// once warmed up.
func ExampleLayers_Parser() {
	frame := hexFrame(writeOnly)

	var l googlelayers.Layers
	parser := l.Parser()
	decoded := make([]gopacket.LayerType, 0, 8)
	if err := parser.DecodeLayers(frame, &decoded); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(decoded)
	fmt.Println(l.BTH.OpCode, l.RETH.VA, l.RETH.DMALen, string(l.Payload))
	// Output:
	// [Ethernet IPv4 UDP BTH RETH Payload]
	// RC RDMA WRITE Only 4096 5 hello
}

// Build with gopacket.SerializeLayers, then FixICRC: the one extra call.
func ExampleFixICRC() {
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2},
		EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Flags: layers.IPv4DontFragment, Protocol: layers.IPProtocolUDP,
		SrcIP: net.IP{192, 168, 1, 1}, DstIP: net.IP{192, 168, 1, 2}}
	udp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	if err := udp.SetNetworkLayerForChecksum(ip); err != nil { // the UDP checksum covers a pseudo-header
		fmt.Println(err)
		return
	}
	bth := &googlelayers.BTH{BTH: ib.BTH{OpCode: ib.OpRCAcknowledge, PKey: 0xffff, DestQP: 0x12, PSN: 7}}
	aeth := &googlelayers.AETH{AETH: ib.AETH{Syndrome: 0x1f, MSN: 3}}

	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(buf, opts, eth, ip, udp, bth, aeth); err != nil {
		fmt.Println(err)
		return
	}
	if err := googlelayers.FixICRC(buf.Bytes()); err != nil { // the ICRC, then the UDP checksum if there is one
		fmt.Println(err)
		return
	}
	fmt.Println(len(buf.Bytes()), "bytes, ICRC ok:", roce.VerifyFrame(buf.Bytes()) == nil)
	// Output:
	// 62 bytes, ICRC ok: true
}

// With FixLengths, GRH.SerializeTo fills IPVer, NxtHdr and PayLen; a
// decoder given a nil DecodeFeedback and short input returns an error.
func ExampleGRH_SerializeTo() {
	buf := gopacket.NewSerializeBuffer()
	grh := googlelayers.GRH{GRH: ib.GRH{HopLmt: 64}}
	err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true}, &grh, gopacket.Payload("x"))
	fmt.Println(err, grh.IPVer, grh.NxtHdr, grh.PayLen)

	var bth googlelayers.BTH
	err = bth.DecodeFromBytes(make([]byte, 5), nil)
	fmt.Println(errors.Is(err, ib.ErrTruncated))
	// Output:
	// <nil> 6 27 1
	// true
}
