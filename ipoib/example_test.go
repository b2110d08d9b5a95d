package ipoib_test

import (
	"fmt"
	"net/netip"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
)

// Build a link type 242 record holding an IPoIB ARP request and decode
// it again: the link header, the IPoIB header, the ARP packet.
func Example() {
	gid := netip.MustParseAddr("fe80::2:c902:24:f636").As16()
	lh := ipoib.LinkHeader{IPVer: 6, SrcQP: 0x405, SGID: gid, DGID: netip.MustParseAddr("ff12:401b:ffff::ffff:ffff").As16()}
	rec, err := lh.AppendTo(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rec, _ = (&ipoib.Header{Type: ipoib.TypeARP}).AppendTo(rec)
	me, _ := ipoib.MakeHWAddr(ipoib.FlagConnected, 0x405, gid)
	rec, _ = ipoib.AppendARP(rec, ipoib.ARPRequest, me, netip.MustParseAddr("10.0.1.34"), ipoib.HWAddr{}, netip.MustParseAddr("10.0.0.58"))

	var (
		l ipoib.LinkHeader
		h ipoib.Header
		a ipoib.ARP
	)
	if err := l.Decode(rec); err != nil {
		fmt.Println(err)
		return
	}
	if err := h.Decode(rec[ipoib.LinkHeaderLen:]); err != nil {
		fmt.Println(err)
		return
	}
	if err := a.Decode(rec[ipoib.LinkHeaderLen+ipoib.HeaderLen:]); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("from qpn %#x, type %#04x\n", l.SrcQP, h.Type)
	sender, _ := a.Sender()
	target, _ := a.TargetAddr()
	fmt.Printf("who has %v, tell qpn %#x gid %v\n", target, sender.QPN(), sender.GID())
	// Output:
	// from qpn 0x405, type 0x0806
	// who has 10.0.0.58, tell qpn 0x405 gid fe80::2:c902:24:f636
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
