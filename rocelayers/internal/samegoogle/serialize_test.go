package samegoogle_test

import (
	"bytes"
	"testing"

	ggopacket "github.com/google/gopacket"
	glayers "github.com/google/gopacket/layers"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocelayers"
)

// serializable returns the layers of a packet that decoded without an
// error as SerializableLayers, and false if one is not.
func serializable[L any, S any](ls []L) ([]S, bool) {
	out := make([]S, 0, len(ls))
	for _, l := range ls {
		s, ok := any(l).(S)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// TestSerializeSameAsGoogle re-serializes the decoded layers of every
// frame of every capture with SerializeLayers of both modules, without
// options (the fields as decoded), and compares the bytes.
func TestSerializeSameAsGoogle(t *testing.T) {
	gbuf, fbuf := ggopacket.NewSerializeBuffer(), gopacket.NewSerializeBuffer()
	n, mads, ipoibs, skipped := 0, 0, 0, 0
	for _, c := range captures(t) {
		gfirst, ffirst := c.starts()
		for i, data := range c.frames {
			gp := ggopacket.NewPacket(data, gfirst, ggopacket.Default)
			fp := gopacket.NewPacket(data, ffirst, gopacket.Default)
			gs, gok := serializable[ggopacket.Layer, ggopacket.SerializableLayer](gp.Layers())
			fs, fok := serializable[gopacket.Layer, gopacket.SerializableLayer](fp.Layers())
			if gok != fok {
				t.Fatalf("%s frame %d: serializable with Google's %v, with the fork %v", c.name, i+1, gok, fok)
			}
			if !gok || gp.ErrorLayer() != nil {
				continue
			}
			if len(gs) != len(fs) { // the fork's Payload after ICMPv6Echo (see sameLayers)
				skipped++
				continue
			}
			gerr := ggopacket.SerializeLayers(gbuf, ggopacket.SerializeOptions{}, gs...)
			ferr := gopacket.SerializeLayers(fbuf, gopacket.SerializeOptions{}, fs...)
			if (gerr == nil) != (ferr == nil) || !bytes.Equal(gbuf.Bytes(), fbuf.Bytes()) {
				t.Fatalf("%s frame %d: Google %v\n% x\nfork %v\n% x", c.name, i+1, gerr, gbuf.Bytes(), ferr, fbuf.Bytes())
			}
			n++
			if gp.Layer(googlelayers.LayerTypeMAD) != nil {
				mads++
			}
			if gp.Layer(googlelayers.LayerTypeIPoIB) != nil {
				ipoibs++
			}
		}
	}
	t.Logf("%d frames serialized alike (%d with a MAD, %d with IPoIB); %d skipped for the fork's extra Payload", n, mads, ipoibs, skipped)
	if n < 8000 || mads < 20 || ipoibs < 25 {
		t.Errorf("only %d frames serialized, %d MADs, %d IPoIB", n, mads, ipoibs)
	}
}

// TestBuildSameAsGoogle builds a RoCEv2 RDMA WRITE and a PFC frame from
// fields, with FixLengths, through each module's SerializeLayers (then
// FixICRC), and compares the bytes; the ICRC must verify.
func TestBuildSameAsGoogle(t *testing.T) {
	mac := [6]byte{0x02, 0, 0, 0, 0, 1}
	bth := ib.BTH{OpCode: ib.OpRCRDMAWriteOnly, PKey: 0xffff, DestQP: 0x11, AckReq: true, PSN: 7}
	reth := ib.RETH{VA: 0x1000, RKey: 0x42, DMALen: 5}
	payload := []byte("hello")
	mc := pfc.MACControl{Opcode: pfc.OpcodePFC, PriorityEnableVector: 0x08, Time: [8]uint16{3: 0xffff}}
	opts := struct{ FixLengths, ComputeChecksums bool }{true, true}

	gbuf := ggopacket.NewSerializeBuffer()
	gip := &glayers.IPv4{Version: 4, IHL: 5, TTL: 64, Flags: glayers.IPv4DontFragment, Protocol: glayers.IPProtocolUDP,
		SrcIP: []byte{192, 168, 1, 2}, DstIP: []byte{192, 168, 1, 3}}
	gudp := &glayers.UDP{SrcPort: 49152, DstPort: 4791}
	if err := gudp.SetNetworkLayerForChecksum(gip); err != nil {
		t.Fatal(err)
	}
	gwrite := []ggopacket.SerializableLayer{
		&glayers.Ethernet{SrcMAC: mac[:], DstMAC: mac[:], EthernetType: glayers.EthernetTypeIPv4}, gip,
		gudp, &googlelayers.BTH{BTH: bth}, &googlelayers.RETH{RETH: reth}, ggopacket.Payload(payload)}
	fbuf := gopacket.NewSerializeBuffer()
	fip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Flags: layers.IPv4DontFragment, Protocol: layers.IPProtocolUDP,
		SrcIP: []byte{192, 168, 1, 2}, DstIP: []byte{192, 168, 1, 3}}
	fudp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	if err := fudp.SetNetworkLayerForChecksum(fip); err != nil {
		t.Fatal(err)
	}
	fwrite := []gopacket.SerializableLayer{
		&layers.Ethernet{SrcMAC: mac[:], DstMAC: mac[:], EthernetType: layers.EthernetTypeIPv4}, fip,
		fudp, &rocelayers.BTH{BTH: bth}, &rocelayers.RETH{RETH: reth}, gopacket.Payload(payload)}
	if err := ggopacket.SerializeLayers(gbuf, ggopacket.SerializeOptions(opts), gwrite...); err != nil {
		t.Fatal(err)
	}
	if err := gopacket.SerializeLayers(fbuf, gopacket.SerializeOptions(opts), fwrite...); err != nil {
		t.Fatal(err)
	}
	if err := roce.FixICRC(gbuf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := rocelayers.FixICRC(fbuf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gbuf.Bytes(), fbuf.Bytes()) {
		t.Fatalf("RDMA WRITE: Google\n% x\nfork\n% x", gbuf.Bytes(), fbuf.Bytes())
	}
	if err := roce.VerifyFrame(fbuf.Bytes()); err != nil {
		t.Fatal(err)
	}

	gpfc := []ggopacket.SerializableLayer{&glayers.Ethernet{SrcMAC: mac[:], DstMAC: pfc.MulticastAddr[:],
		EthernetType: glayers.EthernetType(pfc.EthernetTypeMACControl)}, &googlelayers.MACControl{MACControl: mc}}
	fpfc := []gopacket.SerializableLayer{&layers.Ethernet{SrcMAC: mac[:], DstMAC: pfc.MulticastAddr[:],
		EthernetType: layers.EthernetType(pfc.EthernetTypeMACControl)}, &rocelayers.MACControl{MACControl: mc}}
	if err := ggopacket.SerializeLayers(gbuf, ggopacket.SerializeOptions(opts), gpfc...); err != nil {
		t.Fatal(err)
	}
	if err := gopacket.SerializeLayers(fbuf, gopacket.SerializeOptions(opts), fpfc...); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gbuf.Bytes(), fbuf.Bytes()) || !bytes.Equal(fbuf.Bytes(), pfc.AppendPFC(nil, mac, 0x08, mc.Time)) {
		t.Fatalf("PFC: Google\n% x\nfork\n% x", gbuf.Bytes(), fbuf.Bytes())
	}
	p := gopacket.NewPacket(fbuf.Bytes(), layers.LayerTypeEthernet, gopacket.Default)
	if m, ok := p.Layer(rocelayers.LayerTypeMACControl).(*rocelayers.MACControl); !ok || m.XOFF() != 0x08 {
		t.Fatalf("PFC frame decodes as %v", p)
	}
}
