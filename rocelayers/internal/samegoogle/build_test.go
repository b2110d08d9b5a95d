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
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/rocelayers"
)

// TestBuildMADSameAsGoogle builds a CM REQ to QP 1 in a RoCEv2 frame,
// from fields, with FixLengths (which pads the MAD data to 232 bytes),
// through each module's SerializeLayers, then FixICRC; the bytes must
// agree, the ICRC verify and the fork's NewPacket read the REQ back.
func TestBuildMADSameAsGoogle(t *testing.T) {
	mac := []byte{0x02, 0, 0, 0, 0, 1}
	ip := [2][]byte{{10, 0, 0, 1}, {10, 0, 0, 2}}
	bth := ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, DestQP: ib.QPGSI, PSN: 9}
	deth := ib.DETH{QKey: ib.GSIQKey, SrcQP: 0x11}
	hdr := googlelayers.MAD{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2,
		Method: mad.MethodSend, TransactionID: 0x42, AttributeID: mad.AttrConnectRequest}}
	cm := mad.CM{AttributeID: mad.AttrConnectRequest, REQ: mad.REQ{LocalCommID: 0x1234, LocalQPN: 0x11, LocalQKey: 7}}
	opts := struct{ FixLengths, ComputeChecksums bool }{true, true}

	gip := &glayers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: glayers.IPProtocolUDP, SrcIP: ip[0], DstIP: ip[1]}
	gudp := &glayers.UDP{SrcPort: 49152, DstPort: 4791}
	fip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolUDP, SrcIP: ip[0], DstIP: ip[1]}
	fudp := &layers.UDP{SrcPort: 49152, DstPort: 4791}
	if gudp.SetNetworkLayerForChecksum(gip) != nil || fudp.SetNetworkLayerForChecksum(fip) != nil {
		t.Fatal("SetNetworkLayerForChecksum")
	}
	gbuf, fbuf := ggopacket.NewSerializeBuffer(), gopacket.NewSerializeBuffer()
	if err := ggopacket.SerializeLayers(gbuf, ggopacket.SerializeOptions(opts),
		&glayers.Ethernet{SrcMAC: mac, DstMAC: mac, EthernetType: glayers.EthernetTypeIPv4}, gip, gudp,
		&googlelayers.BTH{BTH: bth}, &googlelayers.DETH{DETH: deth}, &hdr, &googlelayers.CM{CM: cm}); err != nil {
		t.Fatal(err)
	}
	if err := gopacket.SerializeLayers(fbuf, gopacket.SerializeOptions(opts),
		&layers.Ethernet{SrcMAC: mac, DstMAC: mac, EthernetType: layers.EthernetTypeIPv4}, fip, fudp,
		&rocelayers.BTH{BTH: bth}, &rocelayers.DETH{DETH: deth}, &rocelayers.MAD{Header: hdr.Header}, &rocelayers.CM{CM: cm}); err != nil {
		t.Fatal(err)
	}
	if roce.FixICRC(gbuf.Bytes()) != nil || rocelayers.FixICRC(fbuf.Bytes()) != nil {
		t.Fatal("FixICRC")
	}
	if !bytes.Equal(gbuf.Bytes(), fbuf.Bytes()) {
		t.Fatalf("CM REQ: Google\n% x\nfork\n% x", gbuf.Bytes(), fbuf.Bytes())
	}
	if err := roce.VerifyFrame(fbuf.Bytes()); err != nil {
		t.Fatal(err)
	}
	p := gopacket.NewPacket(fbuf.Bytes(), layers.LayerTypeEthernet, gopacket.Default)
	got, ok := p.Layer(rocelayers.LayerTypeCM).(*rocelayers.CM)
	if !ok || got.Name() != "REQ" || got.REQ.LocalCommID != 0x1234 || got.REQ.LocalQKey != 7 {
		t.Fatalf("the frame decodes as %v", p)
	}
}

// TestBuildIPoIBSameAsGoogle builds a link type 242 record (a sent
// packet's link header, the IPoIB header, an opaque IPv4 packet) through
// each module's SerializeLayers and compares the bytes; the fork's
// NewPacket, from link type 242, reads it back.
func TestBuildIPoIBSameAsGoogle(t *testing.T) {
	var lh ipoib.LinkHeader
	lh.SetDstAddr(ipoib.HWAddr{0x80, 0, 0x04, 0x05, 0xfe, 0x80, 19: 1})
	h := ipoib.Header{Type: ipoib.TypeIPv4}
	body := []byte{0x45, 0, 0, 20, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2}
	gbuf, fbuf := ggopacket.NewSerializeBuffer(), gopacket.NewSerializeBuffer()
	if err := ggopacket.SerializeLayers(gbuf, ggopacket.SerializeOptions{},
		&googlelayers.IPoIBLinkHeader{LinkHeader: lh}, &googlelayers.IPoIB{Header: h}, ggopacket.Payload(body)); err != nil {
		t.Fatal(err)
	}
	if err := gopacket.SerializeLayers(fbuf, gopacket.SerializeOptions{},
		&rocelayers.IPoIBLinkHeader{LinkHeader: lh}, &rocelayers.IPoIB{Header: h}, gopacket.Payload(body)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gbuf.Bytes(), fbuf.Bytes()) || len(fbuf.Bytes()) != ipoib.LinkHeaderLen+ipoib.HeaderLen+len(body) {
		t.Fatalf("link type 242 record: Google\n% x\nfork\n% x", gbuf.Bytes(), fbuf.Bytes())
	}
	p := gopacket.NewPacket(fbuf.Bytes(), layers.LinkType(ipoib.LinkType), gopacket.Default)
	l, ok := p.Layer(rocelayers.LayerTypeIPoIBLinkHeader).(*rocelayers.IPoIBLinkHeader)
	if !ok || !l.Sent() || l.DstAddr().QPN() != 0x405 || p.Layer(layers.LayerTypeIPv4) == nil {
		t.Fatalf("the record decodes as %v", p)
	}
}
