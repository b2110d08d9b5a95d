package testcaps

import (
	"encoding/binary"
	"testing"

	"github.com/roce-go/roce/mad"
)

// BuiltMAD is a MAD built from the IBTA layouts (IBTA Vol 1, 15.2.5 SA
// records, 14.2.5.2 NodeDescription) with the values of the JSON keys
// tshark 4.0 lacks or shows otherwise, as it was built.
type BuiltMAD struct {
	Name string
	MAD  []byte
	Ours map[string]string // key: value as rocedump's JSON writes it (numbers in decimal)
}

// SARecords returns SA MADs of the records NodeRecord, PortInfoRecord
// (a GetTable response of two records, RMPP active), ServiceRecord and
// PathRecord (a GetTable response of three), fields not zero, and an SMP
// NodeDescription whose NodeString is UTF-8 with a stray byte.
func SARecords(t testing.TB) []BuiltMAD {
	t.Helper()
	node := mad.NodeRecord{LID: 0x42, NodeInfo: mad.NodeInfo{BaseVersion: 1, ClassVersion: 1, NodeType: 2, NumPorts: 36,
		SystemImageGUID: 0x0002c90300a1b2c0, NodeGUID: 0x0002c90300a1b2c1, PortGUID: 0x0002c90300a1b2c2, PartitionCap: 8,
		DeviceID: 0xc738, Revision: 0x0b, LocalPortNum: 5, VendorID: 0x0002c9}}
	copy(node.NodeDescription.NodeString[:], "sw-spine-01\x01 \"core\" \\ mlx5_2")

	golden := GoldenSMPMADs(t)[4] // lid_portinfo_getresp
	var pi mad.PortInfo
	if err := pi.Decode(golden[64:128]); err != nil {
		t.Fatal(err)
	}
	pir := []mad.PortInfoRecord{{EndportLID: 0x2a, PortNum: 7, Options: 1, PortInfo: pi}, {EndportLID: 0x2b, PortNum: 8}}
	pir[1].PortInfo.LID, pir[1].PortInfo.PortState = 0x2b, 2

	svc := mad.ServiceRecord{ServiceID: 0x0002c90300001895, ServiceGID: gid("fe80::2:c903:0:1895"), ServicePKey: 0x8001,
		ServiceLease: 3600, ServiceKey: [16]byte{0xa0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xaf},
		ServiceName: append([]byte("SRP.T10:0002C90300001895"), make([]byte, 40)...)}
	for i := range svc.ServiceData8 {
		svc.ServiceData8[i] = byte(0x10 + i)
	}
	for i := range svc.ServiceData16 {
		svc.ServiceData16[i] = uint16(0x1600 + i)
	}
	for i := range svc.ServiceData32 {
		svc.ServiceData32[i] = uint32(0x32000000 + i)
	}
	svc.ServiceData64 = [2]uint64{0x6400000000000001, 0x6400000000000002}

	var paths []any
	for i := 0; i < 3; i++ {
		paths = append(paths, &mad.PathRecord{DGID: gid("fe80::1"), SGID: gid("fe80::2"), DLID: uint16(0x11 + i), SLID: 0x22,
			FlowLabel: 0x321, HopLimit: 1, TClass: 8, Reversible: true, NumbPath: 1, PKey: 0xffff, SL: 2, MTUSelector: 2, MTU: 4,
			RateSelector: 2, Rate: 7, PacketLifeTimeSelector: 2, PacketLifeTime: 18, Preference: uint8(i)})
	}

	return []BuiltMAD{
		{"sa_noderecord_getresp", saMAD(t, mad.MethodGet, mad.AttrNodeRecord, mad.NodeRecordLen, false, &node),
			map[string]string{"infiniband.sa.records": "1"}},
		{"sa_portinforecord_gettableresp", saMAD(t, mad.MethodGetTable, mad.AttrPortInfoRecord, mad.PortInfoRecordLen, true, &pir[0], &pir[1]),
			map[string]string{"infiniband.sa.records": "2", "infiniband.sa.options": "1",
				// the golden PortInfo's notes: 0x14, 1, 3, 0x1e, 2
				"infiniband.portinfo.capabilitymask2": "20", "infiniband.portinfo.linkspeedextactive": "1",
				"infiniband.portinfo.linkspeedextsupported": "3", "infiniband.portinfo.linkspeedextenabled": "30",
				"infiniband.portinfo.multicastpkeytrapsuppressionenabled": "2"}},
		{"sa_servicerecord_getresp", saMAD(t, mad.MethodGet, mad.AttrServiceRecord, mad.ServiceRecordLen, false, &svc),
			map[string]string{"infiniband.sa.records": "1", "infiniband.servicerecord.servicename": "SRP.T10:0002C90300001895",
				"infiniband.servicerecord.servicedata8":  "101112131415161718191a1b1c1d1e1f",
				"infiniband.servicerecord.servicedata16": "16001601160216031604160516061607",
				"infiniband.servicerecord.servicedata32": "32000000320000013200000232000003",
				"infiniband.servicerecord.servicedata64": "64000000000000016400000000000002"}},
		{"sa_pathrecord_gettableresp", saMAD(t, mad.MethodGetTable, mad.AttrPathRecord, mad.PathRecordLen, true, paths...),
			map[string]string{"infiniband.sa.records": "3"}},
		{"sa_portinforecord_segment1", segment(saMAD(t, mad.MethodGetTable, mad.AttrPortInfoRecord, mad.PortInfoRecordLen, true,
			&pir[0], &pir[1]), mad.RMPPFirst, 1, 400), map[string]string{"infiniband.sa.records": "2"}},
		{"sa_portinforecord_segment2", segment(saMAD(t, mad.MethodGetTable, mad.AttrPortInfoRecord, mad.PortInfoRecordLen, true,
			&pir[1], &pir[0]), mad.RMPPLast, 2, 200), nil},
		{"smp_nodedescription_utf8", nodeDescriptionSMP(t, "caf\xc3\xa9 \xff node"),
			// IBTA Vol 1 14.2.5.2: the NodeString is UTF-8; the stray 0xff
			// byte is U+FFFD.
			map[string]string{"infiniband.nodedescription.nodestring": "café \uFFFD node"}},
	}
}

// saMAD builds an SA response MAD (method | 0x80) of attribute attr
// holding recs, each padded to a multiple of 8 bytes (AttributeOffset),
// with an RMPP header active for a whole transfer in one segment when
// rmpp is set: its PayloadLength is the SA header and the records.
func saMAD(t testing.TB, method mad.Method, attr uint16, size int, rmpp bool, recs ...any) []byte {
	t.Helper()
	h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnAdm, ClassVersion: 2, Method: method, Response: true,
		TransactionID: 0x1000 + uint64(attr), AttributeID: attr}
	b, err := h.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	words := (size + 7) / 8
	if rmpp {
		r := mad.RMPP{RMPPVersion: 1, RMPPType: mad.RMPPTypeData, RMPPFlags: mad.RMPPActive | mad.RMPPFirst | mad.RMPPLast,
			Data1: 1, Data2: uint32(mad.SAHeaderLen + len(recs)*words*8)}
		if b, err = r.AppendTo(b); err != nil {
			t.Fatal(err)
		}
	} else {
		b = append(b, make([]byte, 12)...) // RMPP header, inactive
	}
	sa := make([]byte, mad.SAHeaderLen)
	sa[0], sa[7] = 0x5a, 0xa5 // SM_Key
	sa[9] = byte(words)       // AttributeOffset
	sa[19] = 0x01             // ComponentMask
	b = append(b, sa...)
	for _, r := range recs {
		n := len(b)
		if b, err = r.(interface{ AppendTo([]byte) ([]byte, error) }).AppendTo(b); err != nil {
			t.Fatal(err)
		}
		b = append(b, make([]byte, words*8-(len(b)-n))...)
	}
	return append(b, make([]byte, mad.Len-len(b))...)
}

// segment makes m, an SA MAD whose RMPP header is active, segment seg of
// a transfer: flags (RMPPFirst or RMPPLast, or 0 in between) and
// PayloadLength pl. The first of a five-record PortInfoRecord table
// (two 220-byte segments, PayloadLength 5 × 72 + 2 × 20 = 400) holds
// two records whole; a later segment continues the table (records
// begun in the segment before: here, the bytes of two records) and has
// no record count.
func segment(m []byte, flags uint8, seg, pl uint32) []byte {
	m[24+2] = m[24+2]&^7 | mad.RMPPActive | flags // RRespTime (5 bits), RMPPFlags (3)
	binary.BigEndian.PutUint32(m[24+4:], seg)
	binary.BigEndian.PutUint32(m[24+8:], pl)
	return m
}

// nodeDescriptionSMP is a LID-routed SubnGetResp(NodeDescription) whose
// NodeString is s, NUL padded.
func nodeDescriptionSMP(t testing.TB, s string) []byte {
	t.Helper()
	m := mad.SMP{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnLID, ClassVersion: 1, Method: mad.MethodGet,
		Response: true, TransactionID: 0x10, AttributeID: uint16(mad.SMPAttrNodeDescription)}}
	copy(m.Data[:], s)
	b, err := m.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
