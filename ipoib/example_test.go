package ipoib_test

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
)

// Build a link type 242 record holding an IPoIB ARP request and decode it
// with gopacket, which the package has taught link type 242.
func Example() {
	gid := netip.MustParseAddr("fe80::2:c902:24:f636").As16()
	lh := ipoib.LinkHeader{IPVer: 6, SrcQP: 0x405, SGID: gid, DGID: netip.MustParseAddr("ff12:401b:ffff::ffff:ffff").As16()}
	rec, err := lh.AppendTo(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rec = (&ipoib.Header{Type: ipoib.TypeARP}).AppendTo(rec)
	me, _ := ipoib.MakeHWAddr(ipoib.FlagConnected, 0x405, gid)
	rec, _ = ipoib.AppendARP(rec, ipoib.ARPRequest, me, netip.MustParseAddr("10.0.1.34"), ipoib.HWAddr{}, netip.MustParseAddr("10.0.0.58"))

	p := gopacket.NewPacket(rec, layers.LinkType(ipoib.LinkType), gopacket.Default)
	var names []string
	for _, l := range p.Layers() {
		names = append(names, l.LayerType().String())
	}
	fmt.Println(strings.Join(names, " "))
	arp := p.Layer(layers.LayerTypeARP).(*layers.ARP)
	fmt.Println("hardware type", uint8(arp.AddrType), "size", arp.HwAddressSize, netip.AddrFrom4([4]byte(arp.DstProtAddress)))

	var a ipoib.ARP
	if err := a.Decode(p.Layer(ipoib.LayerTypeIPoIB).LayerPayload()); err != nil {
		fmt.Println(err)
		return
	}
	sender, _ := a.Sender()
	fmt.Printf("qpn %#x gid %v\n", sender.QPN(), sender.GID())
	// Output:
	// IPoIBLinkHeader IPoIB ARP
	// hardware type 32 size 20 10.0.0.58
	// qpn 0x405 gid fe80::2:c902:24:f636
}

// The rule that takes a native InfiniBand payload for IPoIB.
func ExampleMatch() {
	ipv4 := []byte{0x08, 0x00, 0x00, 0x00, 0x45}
	fmt.Println(ipoib.Match(ib.OpUDSendOnly, 0xffffff, ipv4)) // datagram mode, to a multicast group
	fmt.Println(ipoib.Match(ib.OpRCSendOnly, 0xfc0407, ipv4)) // connected mode
	fmt.Println(ipoib.Match(ib.OpUDSendOnly, 1, ipv4))        // QP1 carries MADs
	fmt.Println(ipoib.Match(ib.OpRCSendMiddle, 0xfc0407, ipv4))
	// Output:
	// true
	// true
	// false
	// false
}
