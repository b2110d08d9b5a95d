package mad_test

import (
	"net/netip"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/mad"
)

// TestSATable builds an SA GetTableResp of three MCMemberRecords
// (AttributeOffset 7: 56-byte slots for the 52-byte record, IBTA Vol 1,
// 15.2.5.17 and 15.4) with gopacket.SerializeLayers and reads the table
// back through SA.Record.
func TestSATable(t *testing.T) {
	var data []byte
	for i := range 3 {
		r := mad.MCMemberRecord{MGID: netip.MustParseAddr("ff12:401b:ffff::1").As16(), QKey: 0xb1b,
			MLID: 0xc000 + uint16(i), PKey: 0xffff, JoinState: 1, HopLimit: uint8(i)}
		var err error
		if data, err = r.AppendTo(data); err != nil {
			t.Fatal(err)
		}
		data = append(data, 0, 0, 0, 0) // to the 8-byte slot
	}
	m := googlelayers.MAD{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnAdm, ClassVersion: 2,
		Method: mad.MethodGetTable, Response: true, AttributeID: mad.AttrMCMemberRecord}}
	rmpp := googlelayers.RMPP{RMPP: mad.RMPP{RMPPVersion: 1, RMPPType: mad.RMPPTypeData, RMPPFlags: mad.RMPPActive | mad.RMPPFirst | mad.RMPPLast,
		Data1: 1, Data2: uint32(mad.SAHeaderLen + len(data))}}
	sa := googlelayers.SA{SA: mad.SA{AttributeOffset: 7, ComponentMask: 0x1, Data: data}}
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, &m, &rmpp, &sa); err != nil {
		t.Fatal(err)
	}
	l, decoded := decodeMAD(t, buf.Bytes())
	if len(buf.Bytes()) != mad.Len || len(decoded) != 3 || l.MAD.String() != "SA GetTableResp MCMemberRecord" {
		t.Fatalf("%d bytes, %v, %s", len(buf.Bytes()), decoded, l.MAD.String())
	}
	if !l.RMPP.Active() || l.RMPP.SegmentNumber() != 1 || l.RMPP.PayloadLength() != 188 || l.RMPP.TypeName() != "DATA" {
		t.Errorf("RMPP %+v", l.RMPP)
	}
	// 200 bytes of SA data hold three whole 56-byte slots.
	if l.SA.RecordLen() != 56 || l.SA.NumRecords() != 3 || l.SA.Record(3) != nil || l.SA.Record(-1) != nil {
		t.Fatalf("record length %d, %d records", l.SA.RecordLen(), l.SA.NumRecords())
	}
	for i := range 3 {
		var r mad.MCMemberRecord
		if err := r.Decode(l.SA.Record(i)); err != nil || r.MLID != 0xc000+uint16(i) || r.HopLimit != uint8(i) || r.JoinState != 1 {
			t.Errorf("record %d: %+v %v", i, r, err)
		}
	}
}

// TestRDMACM checks the RDMA-CM service IDs of each port space (IBTA Vol
// 1, Annex A11: 0x0000_0000_01PS_pppp; Linux's rdma_ucm_port_space for
// IPoIB) and what is not one.
func TestRDMACM(t *testing.T) {
	for _, c := range []struct {
		id   mad.ServiceID
		ps   mad.PortSpace
		port uint16
		ok   bool
		ipcm bool
	}{
		{0x0000000001061d2f, mad.PortSpaceTCP, 7471, true, true},
		{0x0000000001111144, mad.PortSpaceUDP, 0x1144, true, true},
		{0x00000000013f0001, mad.PortSpaceIB, 1, true, true},
		{0x0000000000021234, mad.PortSpaceIPoIB, 0x1234, true, false},
		{0x1000000000000404, 0, 0, false, false}, // IPoIB-CM's service ID
		{0x0000000001990001, 0, 0, false, true},  // IP CM prefix, no RDMA-CM port space
	} {
		ps, port, ok := c.id.RDMACM()
		if ps != c.ps || port != c.port || ok != c.ok || c.id.IsIPCM() != c.ipcm {
			t.Errorf("%v: %v %d %v IP CM %v", c.id, ps, port, ok, c.id.IsIPCM())
		}
		if ok && mad.RDMACMServiceID(ps, port) != c.id {
			t.Errorf("%v: built back as %v", c.id, mad.RDMACMServiceID(ps, port))
		}
	}
	for ps, s := range map[mad.PortSpace]string{mad.PortSpaceTCP: "TCP", mad.PortSpaceUDP: "UDP", mad.PortSpaceIB: "IB", mad.PortSpaceIPoIB: "IPoIB", 0x0199: "PS 0x0199"} {
		if ps.String() != s {
			t.Errorf("%#x: %s", uint16(ps), ps)
		}
	}
	// IPv4 addresses sit in the last 4 bytes of the 16-byte fields.
	var ip mad.IPCM
	ip.SetAddrs(netip.MustParseAddr("10.1.16.62"), netip.MustParseAddr("::ffff:10.1.16.61"))
	b, _ := ip.AppendTo(nil)
	if b[1] != 0x40 || b[4+12] != 10 || b[20+15] != 61 || ip.Src().String() != "10.1.16.62" || ip.Dst().String() != "10.1.16.61" {
		t.Errorf("% x: %v > %v", b[:36], ip.Src(), ip.Dst())
	}
	ip.IPV = 5
	if ip.Src().IsValid() {
		t.Error("IP version 5 gives an address")
	}
}

// TestNames checks the name tables against IBTA's names (Vol 1, Tables
// 105, 118, 119 and 187; 12.6.3).
func TestNames(t *testing.T) {
	for h, s := range map[mad.Header]string{
		{MgmtClass: mad.ClassCM, Method: mad.MethodSend, AttributeID: mad.AttrServiceIDResReqResp}:                    "CM Send ServiceIDResReqResp",
		{MgmtClass: mad.ClassSubnAdm, Method: mad.MethodGetTable, Response: true, AttributeID: mad.AttrServiceRecord}: "SA GetTableResp ServiceRecord",
		// A Set is answered by a GetResp (0x81): 0x82 is no method.
		{MgmtClass: mad.ClassSubnAdm, Method: mad.MethodSet, Response: true, AttributeID: mad.AttrInformInfo}: "SA Method(0x82) InformInfo",
		{MgmtClass: 0x99, Method: 0x7f, AttributeID: 0xabcd}:                                                  "Class(0x99) Method(0x7f) Attribute(0xabcd)",
		{MgmtClass: mad.ClassVendor2First, Method: mad.MethodGet}:                                             "Vendor Get Attribute(0x0000)",
	} {
		if h.String() != s {
			t.Errorf("%q, want %q", h.String(), s)
		}
	}
	for r, s := range map[mad.RejectReason]string{1: "No QP available", 8: "Invalid Service ID", 28: "Consumer Reject", 30: "Duplicate Local Comm ID", 34: "reason 34", 1000: "reason 1000"} {
		if r.String() != s {
			t.Errorf("reason %d: %q, want %q", r, r.String(), s)
		}
	}
	for st, s := range map[mad.Status]string{0: "ok", 1: "busy", 0x1c: "invalid field value", 0x0300: "class code 3", 0x0007: "busy, redirect, bad version"} {
		if st.String() != s {
			t.Errorf("status %#x: %q, want %q", uint16(st), st.String(), s)
		}
	}
}
