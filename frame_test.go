package roce_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"net"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

// Vectors from shared/docs/icrc-vectors.md (V1 RoCEv2/IPv4, V2 RoCEv2/IPv6,
// V3 RoCEv1, V4 CNP, V5 ACK), each checked there by zlib, rxe's algorithm
// and, for IPv4, Scapy.
var vectors = map[string]string{
	"v2ipv4": "02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f",
	"v2ipv6": "02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d",
	"v1":     "02000000000202000000000189156000000000201b40fe800000000000000000000000000001fe8000000000000000000000000000020470ffff0000001280000001526f4345207465737420766563000000b906246b",
	"cnp":    "020000000001020000000002080045c2003c000040004011b69bc0a80102c0a80101c00112b7002800008100ffff4000003400000000000000000000000000000000000000000d07721e",
	"ack":    "020000000001020000000002080045020030000140004011b766c0a80102c0a80101c00012b7001c00001100ffff00000011000000011f000005aea7a67c",
}

func vec(t testing.TB, name string) []byte {
	t.Helper()
	b, err := hex.DecodeString(vectors[name])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFrameVectors(t *testing.T) {
	for name := range vectors {
		t.Run(name, func(t *testing.T) {
			b := vec(t, name)
			var f roce.Frame
			if err := f.Decode(b); err != nil {
				t.Fatal(err)
			}
			if err := f.VerifyICRC(); err != nil {
				t.Fatal(err)
			}
			out, err := f.AppendTo(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, b) {
				t.Fatalf("re-encode\n got %x\nwant %x", out, b)
			}
		})
	}
}

// The ICRC is found from GRH PayLen or the UDP length, not from the end of
// the frame: Ethernet padding or an FCS after it changes nothing.
func TestTrailerIgnored(t *testing.T) {
	for name := range vectors {
		b := append(vec(t, name), 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0)
		var f roce.Frame
		if err := f.Decode(b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := f.VerifyICRC(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
		bth, _ := p.Layer(ib.LayerTypeBTH).(*ib.BTH)
		if bth == nil || bth.ICRC != f.Packet.BTH.ICRC {
			t.Fatalf("%s: NewPacket BTH %v", name, p)
		}
		if err := roce.VerifyPacket(p); err != nil {
			t.Fatalf("%s: VerifyPacket: %v", name, err)
		}
	}
}

// Every prefix of every vector decodes to an error wrapping a sentinel, or
// (never) a shorter valid frame; nothing panics on any path.
func TestTruncationSweep(t *testing.T) {
	for name := range vectors {
		b := vec(t, name)
		for n := 0; n < len(b); n++ {
			cut := append([]byte(nil), b[:n]...) // exact capacity: reads past n fault
			var f roce.Frame
			err := f.Decode(cut)
			if err == nil {
				t.Fatalf("%s cut at %d decoded", name, n)
			}
			if !errors.Is(err, ib.ErrTruncated) && !errors.Is(err, ib.ErrBadLength) && !errors.Is(err, ib.ErrNotRoCE) {
				t.Fatalf("%s cut at %d: %v", name, n, err)
			}
			if err := roce.VerifyFrame(cut); err == nil {
				t.Fatalf("%s cut at %d verified", name, n)
			}
			gopacket.NewPacket(cut, layers.LayerTypeEthernet, gopacket.Default)
			var l roce.Layers
			var decoded []gopacket.LayerType
			_ = l.Parser().DecodeLayers(cut, &decoded)
		}
	}
}

func TestMalformed(t *testing.T) {
	mutate := func(name string, f func(b []byte) []byte) []byte { return f(vec(t, name)) }
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"UDP length beyond IP", mutate("v2ipv4", func(b []byte) []byte { b[38], b[39] = 0x01, 0x00; return b }), ib.ErrBadLength},
		{"IP total length beyond frame", mutate("v2ipv4", func(b []byte) []byte { b[16], b[17] = 0x05, 0xdc; return b }), ib.ErrTruncated},
		{"GRH PayLen beyond frame", mutate("v1", func(b []byte) []byte { b[18], b[19] = 0x01, 0x00; return b }), ib.ErrTruncated},
		{"GRH version", mutate("v1", func(b []byte) []byte { b[14] = 0x40; return b }), ib.ErrBadVersion},
		{"pad count larger than payload", mutate("ack", func(b []byte) []byte { b[43] = 0x30; return b }), ib.ErrBadPad},
		{"IPv4 options", mutate("v2ipv4", func(b []byte) []byte {
			// Insert four NOP options: IHL 6, Total Length 64.
			b = append(b[:34:34], append([]byte{1, 1, 1, 1}, b[34:]...)...)
			b[14], b[17] = 0x46, 0x40
			return b
		}), ib.ErrUnsupported},
		{"not UDP", mutate("v2ipv4", func(b []byte) []byte { b[23] = 6; return b }), ib.ErrNotRoCE},
		{"other Ethertype", mutate("v2ipv4", func(b []byte) []byte { b[12], b[13] = 0x08, 0x06; return b }), ib.ErrNotRoCE},
	} {
		var f roce.Frame
		if err := f.Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// A datagram sent from port 4791 to another port is not RoCE, on every
// path, although gopacket's UDP would route it by its source port.
func TestSourcePort4791IsNotRoCE(t *testing.T) {
	b := vec(t, "v2ipv4")
	b[34], b[35], b[36], b[37] = 0x12, 0xb7, 0x30, 0x39 // 4791 -> 12345
	var f roce.Frame
	if err := f.Decode(b); !errors.Is(err, ib.ErrNotRoCE) {
		t.Fatalf("Frame.Decode: %v", err)
	}
	p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
	if p.Layer(ib.LayerTypeBTH) != nil || p.Layer(gopacket.LayerTypePayload) == nil {
		t.Fatalf("NewPacket decoded RoCE:\n%v", p)
	}
	var l roce.Layers
	var decoded []gopacket.LayerType
	_ = l.Parser().DecodeLayers(b, &decoded)
	for _, lt := range decoded {
		if lt == ib.LayerTypeBTH {
			t.Fatalf("parser decoded RoCE: %v", decoded)
		}
	}
}

func TestConvertV1V2(t *testing.T) {
	for _, name := range []string{"v2ipv4", "v2ipv6", "ack", "cnp"} {
		v2 := vec(t, name)
		v1, err := rocev2.ToRoCEv1(nil, v2)
		if err != nil {
			t.Fatal(err)
		}
		if err := roce.VerifyFrame(v1); err != nil {
			t.Fatalf("%s -> v1: %v", name, err)
		}
		back, err := rocev2.FromRoCEv1(nil, v1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := roce.VerifyFrame(back); err != nil {
			t.Fatalf("%s -> v1 -> v2: %v", name, err)
		}
		var a, b roce.Frame
		if err := a.Decode(v2); err != nil {
			t.Fatal(err)
		}
		if err := b.Decode(back); err != nil {
			t.Fatal(err)
		}
		// Same transport packet, same GIDs, traffic class, hop limit; the
		// ICRC differs only where the network header does.
		if !bytes.Equal(a.Raw[len(a.Raw)-len(a.Packet.Payload)-4-len(a.Packet.BTH.Pad):len(a.Raw)-4], b.Raw[len(b.Raw)-len(b.Packet.Payload)-4-len(b.Packet.BTH.Pad):len(b.Raw)-4]) {
			t.Fatalf("%s: payload changed", name)
		}
		if a.GRH.SGID != b.GRH.SGID || a.GRH.DGID != b.GRH.DGID || a.GRH.TClass != b.GRH.TClass || a.GRH.HopLmt != b.GRH.HopLmt || a.Encap != b.Encap {
			t.Fatalf("%s: network fields changed: %+v vs %+v", name, a.GRH, b.GRH)
		}
		if a.Packet.BTH.DestQP != b.Packet.BTH.DestQP || a.Packet.BTH.PSN != b.Packet.BTH.PSN {
			t.Fatalf("%s: BTH changed", name)
		}
	}
	// RoCEv1 with link-local GIDs becomes RoCEv2 over IPv6 and back, exactly.
	v1 := vec(t, "v1")
	v2, err := rocev2.FromRoCEv1(nil, v1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var f roce.Frame
	if err := f.Decode(v2); err != nil || f.Encap != ib.RoCEv2IPv6 || f.VerifyICRC() != nil || f.SrcPort != rocev2.FlowLabelToUDPSrcPort(0) {
		t.Fatalf("v1 -> v2: %v %v %v", err, f.Encap, f.VerifyICRC())
	}
	again, err := rocev2.ToRoCEv1(nil, v2)
	if err != nil || !bytes.Equal(again, v1) {
		t.Fatalf("v1 -> v2 -> v1 differs: %v\n%x\n%x", err, again, v1)
	}
}

// gopacket.SerializeLayers with FixLengths and ComputeChecksums, then the
// one call roce.FixICRC, yields a valid RoCEv2 packet; so does RoCEv1.
func TestSerializeLayers(t *testing.T) {
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TOS: 2, Id: 0x1234, Flags: layers.IPv4DontFragment, TTL: 64, Protocol: layers.IPProtocolUDP,
		SrcIP: net.IP{192, 168, 1, 1}, DstIP: net.IP{192, 168, 1, 2}}
	udp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	bth := &ib.BTH{OpCode: 0x04, MigReq: true, PKey: 0xffff, DestQP: 0x12, AckReq: true, PSN: 1}
	if err := udp.SetNetworkLayerForChecksum(ip); err != nil {
		t.Fatal(err)
	}
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, opts, eth, ip, udp, bth, gopacket.Payload("RoCE test vec")); err != nil {
		t.Fatal(err)
	}
	if err := roce.FixICRC(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	// This is vector V1 but for the UDP checksum, which V1 leaves 0 and
	// gopacket computes; the ICRC masks it, so the ICRC is V1's.
	got, want := buf.Bytes(), vec(t, "v2ipv4")
	if len(got) != len(want) || !bytes.Equal(got[:40], want[:40]) || !bytes.Equal(got[42:], want[42:]) {
		t.Fatalf("\n got %x\nwant %x", got, want)
	}
	if c := rocev2.UDPChecksum(got[14:34], got[34:]); got[40] != byte(c>>8) || got[41] != byte(c) {
		t.Fatalf("UDP checksum %x, want %#04x", got[40:42], c)
	}

	// IPv6 with a real UDP checksum: FixICRC recomputes it after the ICRC.
	eth.EthernetType = layers.EthernetTypeIPv6
	ip6 := &layers.IPv6{Version: 6, TrafficClass: 2, FlowLabel: 0x12345, NextHeader: layers.IPProtocolUDP, HopLimit: 64,
		SrcIP: net.ParseIP("fd00::1"), DstIP: net.ParseIP("fd00::2")}
	if err := udp.SetNetworkLayerForChecksum(ip6); err != nil {
		t.Fatal(err)
	}
	buf = gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, opts, eth, ip6, udp, bth, gopacket.Payload("RoCE test vec")); err != nil {
		t.Fatal(err)
	}
	if err := roce.FixICRC(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if want := vec(t, "v2ipv6"); !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("ipv6\n got %x\nwant %x", buf.Bytes(), want)
	}
	p := gopacket.NewPacket(buf.Bytes(), layers.LayerTypeEthernet, gopacket.Default)
	if u := p.Layer(layers.LayerTypeUDP).(*layers.UDP); u.Checksum != 0xc683 {
		t.Fatalf("UDP checksum %#x, tshark said 0xc683 is correct", u.Checksum)
	}

	// RoCEv1: Ethernet, GRH, BTH.
	eth.EthernetType = 0x8915
	grh := &ib.GRH{IPVer: 6, NxtHdr: ib.NxtHdrBTH, HopLmt: 64,
		SGID: [16]byte{0xfe, 0x80, 15: 1}, DGID: [16]byte{0xfe, 0x80, 15: 2}}
	buf = gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, opts, eth, grh, bth, gopacket.Payload("RoCE test vec")); err != nil {
		t.Fatal(err)
	}
	if err := roce.FixICRC(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if want := vec(t, "v1"); !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("v1\n got %x\nwant %x", buf.Bytes(), want)
	}
}

func TestGRHMapping(t *testing.T) {
	b := vec(t, "v2ipv4")
	p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
	ip := p.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
	g := rocev2.GRHFromIPv4(ip)
	var f roce.Frame
	if err := f.Decode(b); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(f.GRH, g); d != "" {
		t.Fatalf("GRHFromIPv4 vs Frame (-frame +gopacket):\n%s", d)
	}
	if g.SrcGID().String() != "::ffff:192.168.1.1" || g.TClass != 2 || g.HopLmt != 64 || g.PayLen != 32 {
		t.Fatalf("mapped GRH %+v", g)
	}
	back := rocev2.IPv4FromGRH(&g)
	if !back.SrcIP.Equal(ip.SrcIP) || !back.DstIP.Equal(ip.DstIP) || back.TOS != ip.TOS || back.TTL != ip.TTL || back.Length != ip.Length {
		t.Fatalf("IPv4FromGRH %+v", back)
	}
	b6 := vec(t, "v2ipv6")
	p6 := gopacket.NewPacket(b6, layers.LayerTypeEthernet, gopacket.Default)
	ip6 := p6.Layer(layers.LayerTypeIPv6).(*layers.IPv6)
	g6 := rocev2.GRHFromIPv6(ip6)
	if g6.FlowLabel != 0x12345 || g6.TClass != 2 || g6.HopLmt != 64 || g6.PayLen != 32 || g6.DstGID().String() != "fd00::2" {
		t.Fatalf("mapped GRH %+v", g6)
	}
	back6 := rocev2.IPv6FromGRH(&g6)
	if back6.FlowLabel != ip6.FlowLabel || back6.Length != ip6.Length || !back6.SrcIP.Equal(ip6.SrcIP) {
		t.Fatalf("IPv6FromGRH %+v", back6)
	}
}

func TestFlowLabel(t *testing.T) {
	// sport = 0xC000 | ((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14)), worked by hand.
	for _, c := range []struct {
		fl   uint32
		port uint16
	}{{0, 0xc000}, {0x12345, 0xc000 | (0x2345 ^ 0x4)}, {0xfffff, 0xc000 | (0x3fff ^ 0x3f)}} {
		if got := rocev2.FlowLabelToUDPSrcPort(c.fl); got != c.port {
			t.Errorf("FlowLabelToUDPSrcPort(%#x) = %#x, want %#x", c.fl, got, c.port)
		}
	}
	// rdma_calc_flow_label: symmetric and folded to 20 bits.
	if rocev2.CalcFlowLabel(0x11, 0x2a) != rocev2.CalcFlowLabel(0x2a, 0x11) {
		t.Error("not symmetric")
	}
	// 0x123456 * 0x654321 = 0x73319B3C0F6 (worked by hand); v ^= v>>20; v ^= v>>40.
	v := uint64(0x123456) * 0x654321
	v ^= v >> 20
	v ^= v >> 40
	if got := rocev2.CalcFlowLabel(0x123456, 0x654321); got != uint32(v&0xfffff) {
		t.Errorf("CalcFlowLabel = %#x", got)
	}
}
