package mad_test

import (
	"fmt"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/mad"
)

// A directed-route SubnGetResp(SMInfo) like frame 2 of the real native
// InfiniBand capture: built, then decoded as a gopacket layer.
func ExampleSMPDirected() {
	smp := mad.SMPDirected{
		Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnDR, ClassVersion: 1,
			Response: true, Method: mad.MethodGet, TransactionID: 0x0001509c000125c8,
			AttributeID: uint16(mad.SMPAttrSMInfo)},
		DrSLID: 0xffff, DrDLID: 0xffff, // permissive: the route is all directed
	}
	smp.SetDirection(true) // on its way back
	if err := smp.SetHops(1, 2); err != nil {
		panic(err)
	}
	smp.InitialPath[1], smp.InitialPath[2] = 2, 3
	smp.ReturnPath[1], smp.ReturnPath[2] = 6, 1
	info := mad.SMInfo{GUID: 0x0002c9020020b4dd, ActCount: 0x923a, SMState: mad.SMStateMaster}
	if _, err := info.AppendTo(smp.Data[:0]); err != nil { // fills Data in place
		panic(err)
	}
	b, err := smp.AppendTo(nil)
	if err != nil {
		panic(err)
	}

	pk := gopacket.NewPacket(b, googlelayers.LayerTypeSMPDirected, gopacket.Default)
	got := pk.Layer(googlelayers.LayerTypeSMPDirected).(*googlelayers.SMPDirected)
	var sm mad.SMInfo
	if err := sm.Decode(got.Data[:]); err != nil {
		panic(err)
	}
	fmt.Printf("%d-byte SMP, %s, returning %v, hop %d of %d\n", len(b),
		mad.SMPAttribute(got.AttributeID), got.Direction(), got.HopPointer(), got.HopCount())
	fmt.Printf("SM %#016x state %d actcount %#x\n", sm.GUID, sm.SMState, sm.ActCount)
	// Output:
	// 256-byte SMP, SMInfo, returning true, hop 1 of 2
	// SM 0x0002c9020020b4dd state 3 actcount 0x923a
}

// The PortCounters of a PerfMgt GetResp, decoded from the MAD's data.
func ExamplePortCounters() {
	m := mad.PerfMgt{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassPerfMgt, ClassVersion: 1,
		Response: true, Method: mad.MethodGet, AttributeID: uint16(mad.PerfAttrPortCounters)}}
	pc := mad.PortCounters{PortSelect: 1, SymbolErrorCounter: 7, PortXmitData: 0x12345678, LocalLinkIntegrityErrors: 9}
	if _, err := pc.AppendTo(m.Data[:0]); err != nil {
		panic(err)
	}
	b, _ := m.AppendTo(nil)

	var got mad.PerfMgt
	var c mad.PortCounters
	if err := got.Decode(b); err != nil {
		panic(err)
	}
	if err := c.Decode(got.Data[:]); err != nil {
		panic(err)
	}
	fmt.Println(mad.PerfAttribute(got.AttributeID), "port", c.PortSelect, "symbol errors", c.SymbolErrorCounter,
		"xmit words", c.PortXmitData, "link integrity", c.LocalLinkIntegrityErrors)
	// Output: PortCounters port 1 symbol errors 7 xmit words 305419896 link integrity 9
}
