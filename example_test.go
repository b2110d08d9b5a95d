package roce_test

import (
	"encoding/hex"
	"fmt"
	"net"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
)

// An RC SEND Only over RoCEv2/IPv4 (vector V1 of the ICRC vectors).
const sendOnly = "02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f"

// Decode a frame in one pass into a reused Frame and check its ICRC.
func ExampleFrame_Decode() {
	b, _ := hex.DecodeString(sendOnly)
	var f roce.Frame
	if err := f.Decode(b); err != nil {
		fmt.Println(err)
		return
	}
	bth := &f.Packet.BTH
	fmt.Println(f.Encap, f.GRH.SrcGID().Unmap(), "->", f.GRH.DstGID().Unmap())
	fmt.Printf("%v QP %#x PSN %d pad %d payload %q\n", bth.OpCode, bth.DestQP, bth.PSN, bth.PadCnt, f.Packet.Payload)
	fmt.Println("ICRC ok:", f.VerifyICRC() == nil)
	// Output:
	// RoCEv2/IPv4 192.168.1.1 -> 192.168.1.2
	// RC SEND Only QP 0x12 PSN 1 pad 3 payload "RoCE test vec"
	// ICRC ok: true
}

// Decode with gopacket: importing roce registers every layer.
func Example_gopacket() {
	b, _ := hex.DecodeString(sendOnly)
	p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
	for i, l := range p.Layers() {
		if i > 0 {
			fmt.Print(" ")
		}
		fmt.Print(l.LayerType())
	}
	fmt.Println()
	bth := p.Layer(ib.LayerTypeBTH).(*ib.BTH)
	fmt.Println(bth.OpCode, "ICRC ok:", roce.VerifyPacket(p) == nil)
	// Output:
	// Ethernet IPv4 UDP BTH Payload
	// RC SEND Only ICRC ok: true
}

// Build an RDMA WRITE Only with its ICRC into a reused buffer: the engine of
// a packet generator.
func ExampleFrame_AppendTo() {
	f := roce.Frame{
		Dst:   [6]byte{2, 0, 0, 0, 0, 2},
		Src:   [6]byte{2, 0, 0, 0, 0, 1},
		Encap: ib.RoCEv2IPv4,
		GRH: ib.GRH{
			TClass: 0x02, // DSCP 0, ECT(0)
			HopLmt: 64,
			SGID:   [16]byte{10: 0xff, 11: 0xff, 12: 192, 13: 168, 14: 1, 15: 1},
			DGID:   [16]byte{10: 0xff, 11: 0xff, 12: 192, 13: 168, 14: 1, 15: 2},
		},
		IPv4Flags: 0x4000, // DF
	}
	f.Packet.BTH = ib.BTH{OpCode: 0x0a, PKey: 0xffff, DestQP: 0x12, AckReq: true, PSN: 7}
	f.Packet.RETH = ib.RETH{VA: 0x1000, RKey: 0x42, DMALen: 5}
	f.Packet.Payload = []byte("hello")

	buf := make([]byte, 0, 2048)
	buf, err := f.AppendTo(buf[:0])
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(buf), "bytes, pad", f.Packet.BTH.PadCnt, "UDP source port", f.SrcPort)
	fmt.Println("ICRC ok:", roce.VerifyFrame(buf) == nil)
	// Output:
	// 82 bytes, pad 3 UDP source port 49152
	// ICRC ok: true
}

// Build with gopacket.SerializeLayers, then FixICRC: the one extra call.
func ExampleFixICRC() {
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2},
		EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Flags: layers.IPv4DontFragment, Protocol: layers.IPProtocolUDP,
		SrcIP: net.IP{192, 168, 1, 1}, DstIP: net.IP{192, 168, 1, 2}}
	udp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	_ = udp.SetNetworkLayerForChecksum(ip)
	bth := &ib.BTH{OpCode: 0x11, PKey: 0xffff, DestQP: 0x12, PSN: 7}
	aeth := &ib.AETH{Syndrome: 0x1f, MSN: 3}

	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(buf, opts, eth, ip, udp, bth, aeth); err != nil {
		fmt.Println(err)
		return
	}
	if err := roce.FixICRC(buf.Bytes()); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(buf.Bytes()), "bytes, ICRC ok:", roce.VerifyFrame(buf.Bytes()) == nil)
	// Output:
	// 62 bytes, ICRC ok: true
}
