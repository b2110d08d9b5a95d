package roce_test

import (
	"hash/crc32"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
)

// benchWrite is the benchmark frame: RoCEv2/IPv4, RC RDMA WRITE Only,
// 4 KiB of payload.
func benchWrite() roce.Frame {
	f := roce.Frame{
		Dst:       [6]byte{0x04, 0x3f, 0x72, 0, 0, 2},
		Src:       [6]byte{0x08, 0xc0, 0xeb, 0, 0, 1},
		Encap:     ib.RoCEv2IPv4,
		IPv4Flags: 0x4000,
	}
	f.GRH.TClass, f.GRH.HopLmt = 0x02, 64
	f.GRH.SGID = [16]byte{10: 0xff, 11: 0xff, 12: 192, 13: 168, 14: 1, 15: 2}
	f.GRH.DGID = [16]byte{10: 0xff, 11: 0xff, 12: 192, 13: 168, 14: 1, 15: 3}
	f.SrcPort = 49506
	f.Packet.BTH = ib.BTH{OpCode: 0x0a, PKey: 0xffff, DestQP: 0xa0, AckReq: true, PSN: 1234}
	f.Packet.RETH = ib.RETH{VA: 0x7f0000001000, RKey: 0x1234, DMALen: 4096}
	f.Packet.Payload = make([]byte, 4096)
	for i := range f.Packet.Payload {
		f.Packet.Payload[i] = byte(i)
	}
	return f
}

func benchFrame(b *testing.B) []byte {
	f := benchWrite()
	out, err := f.AppendTo(nil)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// plainUDP is a UDP frame of the same size to a port gopacket does not know.
func plainUDP(b *testing.B, n int) []byte {
	buf := gopacket.NewSerializeBuffer()
	eth := &layers.Ethernet{SrcMAC: make([]byte, 6), DstMAC: make([]byte, 6), EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolUDP, SrcIP: []byte{10, 0, 0, 1}, DstIP: []byte{10, 0, 0, 2}}
	udp := &layers.UDP{SrcPort: 49506, DstPort: 5000}
	pay := gopacket.Payload(make([]byte, n-14-20-8))
	udp.SetNetworkLayerForChecksum(ip)
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, eth, ip, udp, pay); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func BenchmarkDecodeGopacketBaseline(b *testing.B) {
	frame := plainUDP(b, len(benchFrame(b)))
	var (
		eth layers.Ethernet
		ip  layers.IPv4
		udp layers.UDP
		pay gopacket.Payload
	)
	p := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &ip, &udp, &pay)
	decoded := make([]gopacket.LayerType, 0, 8)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.DecodeLayers(frame, &decoded); err != nil {
			b.Fatal(err)
		}
	}
	if len(decoded) != 4 {
		b.Fatal(decoded)
	}
}

// BenchmarkDecodeGopacketBaselineSparse is the baseline with the container
// googlelayers.Layers.Parser uses, to show what the container alone is worth.
func BenchmarkDecodeGopacketBaselineSparse(b *testing.B) {
	frame := plainUDP(b, len(benchFrame(b)))
	var (
		eth layers.Ethernet
		ip  layers.IPv4
		udp layers.UDP
		pay gopacket.Payload
	)
	p := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet)
	p.SetDecodingLayerContainer(gopacket.DecodingLayerSparse(nil))
	for _, d := range []gopacket.DecodingLayer{&eth, &ip, &udp, &pay} {
		p.AddDecodingLayer(d)
	}
	decoded := make([]gopacket.LayerType, 0, 8)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.DecodeLayers(frame, &decoded); err != nil {
			b.Fatal(err)
		}
	}
	if len(decoded) != 4 {
		b.Fatal(decoded)
	}
}

func BenchmarkDecodeRoCEv2Write(b *testing.B) {
	frame := benchFrame(b)
	var l googlelayers.Layers
	p := l.Parser()
	decoded := make([]gopacket.LayerType, 0, 8)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.DecodeLayers(frame, &decoded); err != nil {
			b.Fatal(err)
		}
	}
	if len(decoded) != 6 || l.RETH.DMALen != 4096 {
		b.Fatal(decoded)
	}
}

func BenchmarkDecodeFrameRoCEv2Write(b *testing.B) {
	frame := benchFrame(b)
	var f roce.Frame
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if err := f.Decode(frame); err != nil {
			b.Fatal(err)
		}
	}
	if f.Packet.RETH.DMALen != 4096 || len(f.Packet.Payload) != 4096 {
		b.Fatal("bad decode")
	}
}

func BenchmarkCRC32Baseline(b *testing.B) {
	frame := benchFrame(b)
	covered := frame[14 : len(frame)-ib.ICRCLen] // plus 8 bytes of 0xFF in the ICRC
	data := make([]byte, len(covered)+8)
	copy(data, covered)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var sink uint32
	for b.Loop() {
		sink += crc32.ChecksumIEEE(data)
	}
	_ = sink
}

// BenchmarkCRC32InPlace is crc32.ChecksumIEEE over the bytes ComputeICRC
// reads, where they lie in the frame: the packet less its ICRC, 8 bytes
// fewer than CRC32Baseline (the ICRC's eight 0xFF bytes stand in front
// of the packet only as a start value). A length that is not a multiple
// of 64 costs the standard library's carry-less-multiply kernel a few
// 16-byte folds, which CRC32Baseline's 4,160 bytes do not pay.
func BenchmarkCRC32InPlace(b *testing.B) {
	frame := benchFrame(b)
	data := frame[14 : len(frame)-ib.ICRCLen]
	b.SetBytes(int64(len(data) + 8))
	b.ReportAllocs()
	var sink uint32
	for b.Loop() {
		sink += crc32.ChecksumIEEE(data)
	}
	_ = sink
}

func BenchmarkICRC(b *testing.B) {
	frame := benchFrame(b)
	pkt := frame[14:]
	b.SetBytes(int64(len(pkt) - ib.ICRCLen + 8))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ib.ComputeICRC(ib.RoCEv2IPv4, pkt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildRoCEv2Write(b *testing.B) {
	f := benchWrite()
	buf := make([]byte, 0, 8192)
	b.SetBytes(int64(f.Len()))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = f.AppendTo(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
