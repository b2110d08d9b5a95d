package googlelayers_test

import (
	"bytes"
	"encoding/hex"
	"net"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

// vectors are V1 to V3 of docs/icrc-vectors.md, whose ICRCs were checked
// with a separate zlib computation.
var vectors = map[string]string{
	"v2ipv4": "02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f",
	"v2ipv6": "02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d",
	"v1":     "02000000000202000000000189156000000000201b40fe800000000000000000000000000001fe8000000000000000000000000000020470ffff0000001280000001526f4345207465737420766563000000b906246b",
}

func vec(t testing.TB, name string) []byte {
	t.Helper()
	b, err := hex.DecodeString(vectors[name])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gopacket.SerializeLayers with FixLengths and ComputeChecksums, then the
// one call roce.FixICRC, yields a valid RoCEv2 packet; so does RoCEv1.
func TestSerializeLayers(t *testing.T) {
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TOS: 2, Id: 0x1234, Flags: layers.IPv4DontFragment, TTL: 64, Protocol: layers.IPProtocolUDP,
		SrcIP: net.IP{192, 168, 1, 1}, DstIP: net.IP{192, 168, 1, 2}}
	udp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	bth := &googlelayers.BTH{BTH: ib.BTH{OpCode: 0x04, MigReq: true, PKey: 0xffff, DestQP: 0x12, AckReq: true, PSN: 1}}
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
	grh := &googlelayers.GRH{GRH: ib.GRH{IPVer: 6, NxtHdr: ib.NxtHdrBTH, HopLmt: 64,
		SGID: [16]byte{0xfe, 0x80, 15: 1}, DGID: [16]byte{0xfe, 0x80, 15: 2}}}
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
	g := googlelayers.GRHFromIPv4(ip)
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
	back := googlelayers.IPv4FromGRH(&g)
	if !back.SrcIP.Equal(ip.SrcIP) || !back.DstIP.Equal(ip.DstIP) || back.TOS != ip.TOS || back.TTL != ip.TTL || back.Length != ip.Length {
		t.Fatalf("IPv4FromGRH %+v", back)
	}
	b6 := vec(t, "v2ipv6")
	p6 := gopacket.NewPacket(b6, layers.LayerTypeEthernet, gopacket.Default)
	ip6 := p6.Layer(layers.LayerTypeIPv6).(*layers.IPv6)
	g6 := googlelayers.GRHFromIPv6(ip6)
	if g6.FlowLabel != 0x12345 || g6.TClass != 2 || g6.HopLmt != 64 || g6.PayLen != 32 || g6.DstGID().String() != "fd00::2" {
		t.Fatalf("mapped GRH %+v", g6)
	}
	back6 := googlelayers.IPv6FromGRH(&g6)
	if back6.FlowLabel != ip6.FlowLabel || back6.Length != ip6.Length || !back6.SrcIP.Equal(ip6.SrcIP) {
		t.Fatalf("IPv6FromGRH %+v", back6)
	}
}
