package dump_test

import (
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/mad"
)

// madMsg is one MAD of madFrames: the attribute, the message and the
// values of the keys tshark 4.0 does not have, as the message was built
// (IBTA Vol 1, 12.6.6 MRA, 12.11 SIDR, 12.8 LAP and APR).
type madMsg struct {
	attr uint16
	msg  interface {
		AppendTo([]byte) ([]byte, error)
	}
	ours map[string]string
}

// madMessages are CM messages of every attribute with fields not zero:
// the captures hold only REQ, REP, RTU, DREQ and DREP over mapped GIDs.
func madMessages(t testing.TB) []madMsg {
	var ip mad.IPCM
	ip.SetAddrs(netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2"))
	ip.SrcPort = 0xbeef
	priv, err := ip.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	path := mad.CMPath{LocalPortLID: 7, RemotePortLID: 9, FlowLabel: 0x12345, PacketRate: 16, TrafficClass: 0x20,
		HopLimit: 3, SL: 5, SubnetLocal: true, LocalACKTimeout: 18,
		LocalPortGID:  netip.MustParseAddr("fe80::2:c903:0:1895").As16(),
		RemotePortGID: netip.MustParseAddr("fe80::2:c902:24:f636").As16()}
	return []madMsg{
		{mad.AttrConnectRequest, &mad.REQ{LocalCommID: 0x01020304, ServiceID: mad.RDMACMServiceID(mad.PortSpaceTCP, 4420),
			LocalCAGUID: 0x0002c90300001895, LocalQKey: 0x11223344, LocalQPN: 0x123456, ResponderResources: 16,
			LocalEECN: 0x654321, InitiatorDepth: 8, RemoteEECN: 0x0abcde, RemoteCMResponseTimeout: 23,
			TransportServiceType: 1, EndToEndFlowControl: true, StartingPSN: 0xabcdef, LocalCMResponseTimeout: 22,
			RetryCount: 6, PartitionKey: 0x8001, PathPacketPayloadMTU: 5, RDCExists: true, RNRRetryCount: 5,
			MaxCMRetries: 9, SRQ: true, ExtendedTransportType: 1, Primary: path, Alternate: path, PrivateData: priv},
			map[string]string{ // tshark misreads these (see tsharkWrong)
				"infiniband.cm.req.prim_flowlabel": "74565", "infiniband.cm.req.prim_pktrate": "16",
				"infiniband.cm.req.alt_flowlabel": "74565", "infiniband.cm.req.alt_pktrate": "16"}},
		{mad.AttrConnectReject, &mad.REJ{LocalCommID: 0x0a0b0c0d, RemoteCommID: 0x01020304, MessageRejected: mad.CMMsgREP,
			RejectedInfoLength: 5, Reason: mad.RejectConsumer, ARI: []byte{1, 2, 3, 4, 5}}, nil},
		{mad.AttrMsgRcptAck, &mad.MRA{LocalCommID: 0x1234, RemoteCommID: 0x56789abc, MessageMRAed: mad.CMMsgREP, ServiceTimeout: 21},
			map[string]string{"infiniband.cm.mra.localcommid": "4660", "infiniband.cm.mra.remotecommid": "1450744508",
				"infiniband.cm.mra.msgmraed": "1", "infiniband.cm.mra.servicetimeout": "21"}},
		{mad.AttrServiceIDResReq, &mad.SIDRREQ{RequestID: 0x77, PartitionKey: 0xffff, ServiceID: mad.RDMACMServiceID(mad.PortSpaceUDP, 7471)},
			map[string]string{"infiniband.cm.sidr_req.requestid": "119", "infiniband.cm.sidr_req.pkey": "65535",
				"infiniband.cm.sidr_req.serviceid": "0x0000000001111d2f"}},
		{mad.AttrServiceIDResReqResp, &mad.SIDRREP{RequestID: 0x77, Status: 2, QPN: 0x000abc, ServiceID: 0x0000000001111d2f, QKey: 0x80010000},
			map[string]string{"infiniband.cm.sidr_rep.requestid": "119", "infiniband.cm.sidr_rep.status": "2",
				"infiniband.cm.sidr_rep.qpn": "2748", "infiniband.cm.sidr_rep.serviceid": "0x0000000001111d2f",
				"infiniband.cm.sidr_rep.qkey": "2147549184"}},
		{mad.AttrLoadAlternatePath, &mad.LAP{LocalCommID: 5, RemoteCommID: 6, RemoteQPN: 0x123},
			map[string]string{"infiniband.cm.lap.localcommid": "5", "infiniband.cm.lap.remotecommid": "6", "infiniband.cm.lap.remoteqpneecn": "291"}},
		{mad.AttrAlternatePathResponse, &mad.APR{LocalCommID: 6, RemoteCommID: 5, APStatus: 1},
			map[string]string{"infiniband.cm.apr.localcommid": "6", "infiniband.cm.apr.remotecommid": "5", "infiniband.cm.apr.apstatus": "1"}},
	}
}

// madFrames wraps madMessages, an SA GetResp(PathRecord) whose RMPP
// header is active, SMInfo in a directed-route and a LID-routed SMP and
// NodeInfo in a directed-route one,
// each in a RoCEv2 UD SEND Only to QP 1 (the SMPs to QP 0).
func madFrames(t testing.TB) [][]byte {
	t.Helper()
	var mads [][]byte
	for _, m := range madMessages(t) {
		h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2, Method: mad.MethodSend,
			TransactionID: 0x1122334455667788, AttributeID: m.attr}
		b, _ := h.AppendTo(nil)
		b, err := m.msg.AppendTo(b)
		if err != nil {
			t.Fatal(err)
		}
		mads = append(mads, b)
	}
	h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnAdm, ClassVersion: 2, Method: mad.MethodGet, Response: true,
		TransactionID: 0x99, AttributeID: mad.AttrPathRecord}
	rmpp := mad.RMPP{RMPPVersion: 1, RMPPType: mad.RMPPTypeData, RMPPFlags: mad.RMPPActive | mad.RMPPFirst | mad.RMPPLast,
		RRespTime: 3, Data1: 1, Data2: 84}
	pr := mad.PathRecord{DGID: netip.MustParseAddr("fe80::1").As16(), SGID: netip.MustParseAddr("fe80::2").As16(),
		DLID: 9, SLID: 7, RawTraffic: true, FlowLabel: 0x54321, HopLimit: 2, TClass: 0x40, Reversible: true, NumbPath: 3,
		PKey: 0xffff, SL: 4, MTUSelector: 2, MTU: 5, RateSelector: 2, Rate: 16, PacketLifeTimeSelector: 1, PacketLifeTime: 19, Preference: 1}
	b, _ := h.AppendTo(nil)
	b, _ = rmpp.AppendTo(b)
	sa := make([]byte, mad.SAHeaderLen)
	sa[0], sa[7] = 0x12, 0x34 // SM_Key 0x1200000000000034
	sa[9] = mad.PathRecordLen / 8
	sa[19] = 0x0c // ComponentMask: DGID, SGID
	b = append(b, sa...)
	b, err := pr.AppendTo(b)
	if err != nil {
		t.Fatal(err)
	}
	mads = append(mads, append(b, make([]byte, mad.Len-len(b))...))
	// SMInfo GetResp over a directed route on its way back (D set, hop
	// pointer 1 of 2), then SMInfo Get LID routed.
	smi := mad.SMInfo{GUID: 0x0002c9020020b4dd, SMKey: 0x0102030405060708, ActCount: 77, Priority: 5, SMState: 3}
	data, err := smi.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	dr := mad.SMPDirected{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnDR, ClassVersion: 1, Method: mad.MethodGet,
		Response: true, TransactionID: 0x42, AttributeID: uint16(mad.SMPAttrSMInfo)}, MKey: 0x1122, DrSLID: 0xffff, DrDLID: 0xffff}
	dr.SetDirection(true)
	if err := dr.SetHops(1, 2); err != nil {
		t.Fatal(err)
	}
	copy(dr.Data[:], data)
	lid := mad.SMP{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnLID, ClassVersion: 1, Method: mad.MethodGet,
		TransactionID: 0x43, AttributeID: uint16(mad.SMPAttrSMInfo)}, MKey: 0x3344}
	copy(lid.Data[:], data)
	ni := mad.NodeInfo{BaseVersion: 1, ClassVersion: 1, NodeType: 1, NumPorts: 2, SystemImageGUID: 0x0002c90300001897,
		NodeGUID: 0x0002c90300001894, PortGUID: 0x0002c90300001895, PartitionCap: 128, DeviceID: 0x1003, Revision: 0xa0,
		LocalPortNum: 1, VendorID: 0x0002c9}
	data, err = ni.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	node := dr
	node.AttributeID, node.TransactionID = uint16(mad.SMPAttrNodeInfo), 0x44
	copy(node.Data[:], data)
	for _, m := range []interface {
		AppendTo([]byte) ([]byte, error)
	}{&dr, &lid, &node} {
		b, err := m.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		mads = append(mads, b)
	}
	return wrapMADs(t, mads)
}

// wrapMADs puts each MAD in a RoCEv2 UD SEND Only to QP 1, or QP 0 for
// an SMP.
func wrapMADs(t testing.TB, mads [][]byte) [][]byte {
	t.Helper()
	var frames [][]byte
	for i, m := range mads {
		f := roce.Frame{Dst: [6]byte{2, 0, 0, 0, 0, 2}, Src: [6]byte{2, 0, 0, 0, 0, 1}, Encap: ib.RoCEv2IPv4,
			GRH: ib.GRH{HopLmt: 64, SGID: netip.MustParseAddr("::ffff:10.1.16.62").As16(), DGID: netip.MustParseAddr("::ffff:10.1.16.61").As16()}}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, DestQP: ib.QPGSI, PSN: uint32(i)}
		f.Packet.DETH = ib.DETH{QKey: ib.GSIQKey, SrcQP: ib.QPGSI}
		if c := mad.Class(m[1]); c == mad.ClassSubnLID || c == mad.ClassSubnDR { // SMPs go to QP 0
			f.Packet.BTH.DestQP, f.Packet.DETH = ib.QPSMI, ib.DETH{SrcQP: ib.QPSMI}
		}
		f.Packet.Payload = m
		fr, err := f.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, fr)
	}
	return frames
}

// zeroMADs are a MAD of every CM attribute whose message is all zero,
// and SA responses whose SA header and records are all zero: the
// PathRecord, NodeRecord, PortInfoRecord, ServiceRecord and
// MCMemberRecord.
func zeroMADs(t testing.TB) [][]byte {
	t.Helper()
	var mads [][]byte
	for attr := uint16(mad.AttrConnectRequest); attr <= mad.AttrAlternatePathResponse; attr++ {
		h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2, Method: mad.MethodSend, TransactionID: uint64(attr), AttributeID: attr}
		b, err := h.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		mads = append(mads, append(b, make([]byte, mad.Len-len(b))...))
	}
	for _, attr := range []uint16{mad.AttrPathRecord, mad.AttrNodeRecord, mad.AttrPortInfoRecord, mad.AttrServiceRecord, mad.AttrMCMemberRecord} {
		h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnAdm, ClassVersion: 2, Method: mad.MethodGet, Response: true,
			TransactionID: uint64(attr), AttributeID: attr}
		b, err := h.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		mads = append(mads, append(b, make([]byte, mad.Len-len(b))...))
	}
	return wrapMADs(t, mads)
}

// TestTsharkZeroMADs compares with tshark 4.0 MADs whose fields are all
// zero: a key tshark writes for a zero field must be in our object too
// (compareTshark checks every MAD key of the field table that tshark
// has), and the keys tshark writes for these MADs that the table lacks
// are only those tshark writes for every MAD of the kind, whatever the
// values (reserved fields, private data, raw bytes), listed here.
func TestTsharkZeroMADs(t *testing.T) {
	oracle.Need(t, "tshark")
	path := oracle.WritePcap(t, t.TempDir(), "zero_mads.pcap", zeroMADs(t))
	c := compareTshark(t, path)
	for _, k := range []string{"infiniband.cm.req.alt_localgid", "infiniband.cm.req.alt_remotegid", "infiniband.cm.req.prim_localgid_ipv4",
		"infiniband.cm.req.alt_locallid", "infiniband.cm.rep.localqpn", "infiniband.cm.rej.reason", "infiniband.sa.attributeoffset",
		"infiniband.pathrecord.dgid", "infiniband.cm.req.localcaguid"} {
		if c[k] == 0 {
			t.Errorf("%s never compared", k)
		}
	}
	ts := oracle.Tshark(t, path, "--disable-protocol", "tftp")
	notOurs := map[string]bool{}
	for i := range ts {
		for k := range ts[i] {
			if _, ok := dump.LookupField(k); !ok && strings.HasPrefix(k, "infiniband.") && !strings.HasSuffix(k, "_tree") && !tsharkOnlyMADKey(k) {
				notOurs[k] = true
			}
		}
	}
	for k := range notOurs {
		t.Errorf("tshark writes %s for a zero MAD; the field table lacks it", k)
	}
	t.Logf("%d values compared over %d keys", total(c), len(c))
}

// tsharkOnlyMADKey says whether tshark 4.0 writes key for a MAD with
// nothing of ours behind it: a header or protocol as a whole, raw data,
// reserved fields and private data, the DETH as bytes, the parts of the
// RMPP header and service ID Wireshark names apart.
func tsharkOnlyMADKey(k string) bool {
	switch k {
	case "infiniband.mad", "infiniband.mad.data", "infiniband.deth", "infiniband.rmpp", "infiniband.payload",
		"infiniband.cm.rej.ari", "infiniband.cm.req.ip_cm", "infiniband.cm.req.serviceid.prefix",
		"infiniband.rmpp.segmentnumber", "infiniband.rmpp.payloadlength", "infiniband.rmpp.transferreddata",
		"infiniband.rmpp.newwindowlast", "infiniband.sa.drdlid":
		return true
	}
	switch {
	case strings.HasPrefix(k, "infiniband.portinfo.capabilitymask."):
		return true // the mask's bits, which we give whole (infiniband.portinfo.capabilitymask)
	case k == "infiniband.linkrecord.servicename" || k == "infiniband.linkrecord.servicedata":
		return true // a ServiceRecord's name and data, tshark 4.0's names for bytes we give as infiniband.servicerecord.*
	case k == "infiniband.bth" || k == "infiniband.smplid.smpdata":
		return true
	}
	return strings.Contains(k, "reserved") || strings.HasSuffix(k, ".private") || strings.HasSuffix(k, ".padding")
}

// madKeys are the MAD keys of the field table: those whose name begins
// infiniband.mad., .rmpp., .sa., .pathrecord. or .cm.
func madKeys() []string {
	var ks []string
	for _, f := range dump.Fields() {
		for _, pre := range []string{"infiniband.mad.", "infiniband.rmpp.", "infiniband.sa.", "infiniband.pathrecord.", "infiniband.cm.", "infiniband.smp", "infiniband.sminfo.", "infiniband.nodeinfo.",
			"infiniband.nodedescription.", "infiniband.linkrecord.", "infiniband.servicerecord."} {
			if strings.HasPrefix(f.Name, pre) {
				ks = append(ks, f.Name)
				break
			}
		}
	}
	return ks
}

// TestTsharkMADJSON compares every MAD key tshark 4.0 has with tshark's
// value on every frame of the captures with MADs (CM on RoCEv2 from rxe,
// SMP, SA PathRecord with RMPP and CM on native InfiniBand) and of the
// synthetic MADs; the keys tshark lacks are checked against the values
// the messages were built with. Every MAD key is compared at least once.
func TestTsharkMADJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	dir := t.TempDir()
	synth := oracle.WritePcap(t, dir, "mads.pcap", madFrames(t))
	golden := testcaps.WriteGoldenSMP(t, dir) // SMP attributes, SA records
	all := map[string]int{}
	for _, path := range []string{
		golden,
		filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"),
		filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap"),
		filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"),
		synth,
	} {
		c := compareTshark(t, path)
		for k, n := range c {
			all[k] += n
		}
	}
	out, _ := runDump(t, synth, dump.Options{JSON: true})
	objs := parseLines(t, out)
	msgs := append(madMessages(t), madMsg{ours: map[string]string{ // the SA frame: tshark misreads its RMPP byte 2
		"infiniband.rmpp.rresptime": "3", "infiniband.rmpp.rmppflags": "7"}},
		madMsg{ours: map[string]string{"infiniband.smpdirected.d": "1", // tshark misreads the D bit
			"infiniband.smpdirected.smpstatus": "32768", "infiniband.smpdirected.hoppointer": "1", "infiniband.smpdirected.hopcount": "2",
			"infiniband.smplid.mkey": "0x0000000000001122", "infiniband.sminfo.actcount": "77", "infiniband.sminfo.priority": "5"}},
		madMsg{ours: map[string]string{"infiniband.smplid.mkey": "0x0000000000003344", "infiniband.sminfo.smstate": "3",
			"infiniband.sminfo.sm_key": "0x0102030405060708", "infiniband.sminfo.guid": "0x0002c9020020b4dd"}})
	for i, m := range msgs {
		for k, want := range m.ours {
			all[k]++
			if got, ok := objs[i][k]; !ok || !sameValue(k, got, want) {
				t.Errorf("synthetic MAD %d: %s = %v, built with %s", i+1, k, got, want)
			}
		}
	}
	out, _ = runDump(t, golden, dump.Options{JSON: true})
	objs = parseLines(t, out)
	built := testcaps.SARecords(t)
	for j, b := range built {
		o := objs[len(objs)-len(built)+j]
		for k, want := range b.Ours {
			all[k]++
			if got, ok := o[k]; !ok || !sameValue(k, got, want) {
				t.Errorf("%s: %s = %v, built with %s", b.Name, k, got, want)
			}
		}
	}
	n, compared := 0, 0
	for _, k := range madKeys() {
		if all[k] == 0 {
			t.Errorf("%s never compared", k)
		}
		n += all[k]
		compared++
	}
	t.Logf("%d values of %d MAD keys compared (with tshark, or for the keys tshark lacks with the messages built)", n, compared)
}

// ipoibKeys are the IPoIB keys of the field table.
var ipoibKeys = []string{"ipoib.grh.ipver", "ipoib.grh.tclass", "ipoib.grh.flowlabel", "ipoib.grh.sqpn",
	"ipoib.grh.sgid", "ipoib.daddr.qpn", "ipoib.dgid", "ipoib.type", "ipoib.reserved"}

// TestTsharkIPoIBJSON compares the IPoIB keys with tshark 4.0 on every
// record of a link type 242 capture (the IPoIB packets of the ERF
// capture behind both forms of link header): tshark 4.0 does not decode
// the IPoIB payloads of native InfiniBand packets, whose ipoib.type and
// ipoib.reserved package ipoib's tests check.
func TestTsharkIPoIBJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	path := oracle.WritePcapLinkType(t, t.TempDir(), "ipoib242.pcap", layers.LinkType(ipoib.LinkType), linkFrames(t))
	c := compareTshark(t, path)
	n := 0
	for _, k := range ipoibKeys {
		if c[k] == 0 {
			t.Errorf("%s never compared", k)
		}
		n += c[k]
	}
	t.Logf("%d values of %d IPoIB keys compared with tshark (%d values in all)", n, len(ipoibKeys), total(c))
}

// BenchmarkJSONMAD measures Decode and AppendJSON of a CM REQ (about 120
// keys) beside a RoCEv2 RDMA WRITE (about 40) in the same run: neither
// may allocate.
func BenchmarkJSONMAD(b *testing.B) {
	for _, bc := range []struct {
		name  string
		frame []byte
	}{
		{"write", firstFrame(b, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", 1)},
		{"cm-req", firstFrame(b, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 1)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var rec dump.Record
			buf := make([]byte, 0, 8192)
			ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 0), Length: len(bc.frame), CaptureLength: len(bc.frame)}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				rec.Decode(i+1, ci, capfile.LinkTypeEthernet, bc.frame)
				buf = rec.AppendJSON(buf[:0])
			}
		})
	}
}

// TestMADDecodedOnce checks that the text line of a MAD is made from the
// MAD Decode decoded, as JSON is, not from a second decode of the bytes:
// once the frame's bytes change under the Record, AppendText writes the
// same line as before, for a CM REQ, an SMP and a PerfMgt MAD.
func TestMADDecodedOnce(t *testing.T) {
	frames := [][]byte{firstFrame(t, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 1)}
	frames = append(frames, smpFrames(t)...)
	var rec dump.Record
	for i, f := range frames {
		f = append([]byte(nil), f...)
		rec.Decode(1, gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 0), Length: len(f), CaptureLength: len(f)}, capfile.LinkTypeEthernet, f)
		want := string(rec.AppendText(nil))
		if !strings.Contains(want, "payload 256: ") {
			t.Fatalf("frame %d: no MAD in %q", i, want)
		}
		p := rec.RoCE.Packet.Payload
		for j := range p {
			p[j] = ^p[j]
		}
		if got := string(rec.AppendText(nil)); got != want {
			t.Errorf("frame %d: after the bytes changed, %q; want %q", i, got, want)
		}
	}
}
