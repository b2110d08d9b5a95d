package mad_test

import (
	"net/netip"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/mad"
)

// syntheticMADs builds MADs the captures lack: a REQ with IPv6 IP-CM
// addresses, native (non-mapped) GIDs and every field non-zero; two REJs
// (a consumer reject with private data, the Timeout reject of the golden
// file); and an SA GetResp whose RMPP header is active.
func syntheticMADs(t *testing.T) [][]byte {
	t.Helper()
	var ip mad.IPCM
	ip.SetAddrs(netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2"))
	ip.SrcPort = 0xbeef
	ip.ConsumerPrivateData = []byte("nvme")
	priv, err := ip.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	path := mad.CMPath{LocalPortLID: 7, RemotePortLID: 9, FlowLabel: 0x12345, PacketRate: 16, TrafficClass: 0x20,
		HopLimit: 3, SL: 5, SubnetLocal: true, LocalACKTimeout: 18,
		LocalPortGID:  netip.MustParseAddr("fe80::2:c903:0:1895").As16(),
		RemotePortGID: netip.MustParseAddr("fe80::2:c902:24:f636").As16()}
	req := mad.REQ{LocalCommID: 0x01020304, ServiceID: mad.RDMACMServiceID(mad.PortSpaceTCP, 4420),
		LocalCAGUID: 0x0002c90300001895, LocalQKey: 0x11223344, LocalQPN: 0x123456, ResponderResources: 16,
		LocalEECN: 0x654321, InitiatorDepth: 8, RemoteEECN: 0x0abcde, RemoteCMResponseTimeout: 23,
		TransportServiceType: 1, EndToEndFlowControl: true, StartingPSN: 0xabcdef, LocalCMResponseTimeout: 22,
		RetryCount: 6, PartitionKey: 0x8001, PathPacketPayloadMTU: 5, RDCExists: true, RNRRetryCount: 5,
		MaxCMRetries: 9, SRQ: true, ExtendedTransportType: 1, Primary: path, Alternate: path, PrivateData: priv}
	req.Alternate.FlowLabel, req.Alternate.SL = 0xfedcb, 2
	rej := mad.REJ{LocalCommID: 0x0a0b0c0d, RemoteCommID: 0x01020304, MessageRejected: mad.CMMsgREP,
		RejectedInfoLength: 5, Reason: mad.RejectConsumer, ARI: []byte{1, 2, 3, 4, 5}, PrivateData: []byte("busy")}
	var out [][]byte
	for i, msg := range []interface {
		AppendTo([]byte) ([]byte, error)
	}{&req, &rej} {
		attr := []uint16{mad.AttrConnectRequest, mad.AttrConnectReject}[i]
		h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2, Method: mad.MethodSend,
			TransactionID: 0x1122334455667788, AttributeID: attr}
		b, _ := h.AppendTo(nil)
		if b, err = msg.AppendTo(b); err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	for _, a := range readGolden(t) {
		if a.name == "CM.REJ" {
			h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2, Method: mad.MethodSend, AttributeID: mad.AttrConnectReject}
			b, _ := h.AppendTo(nil)
			out = append(out, append(b, a.raw...))
		}
	}
	// SA GetResp(PathRecord) with an active RMPP DATA header.
	h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnAdm, ClassVersion: 2, Method: mad.MethodGet, Response: true,
		TransactionID: 0x99, AttributeID: mad.AttrPathRecord}
	rmpp := mad.RMPP{RMPPVersion: 1, RMPPType: mad.RMPPTypeData, RMPPFlags: mad.RMPPActive | mad.RMPPFirst | mad.RMPPLast,
		Data1: 1, Data2: 84}
	pr := mad.PathRecord{DGID: path.RemotePortGID, SGID: path.LocalPortGID, DLID: 9, SLID: 7, RawTraffic: true,
		FlowLabel: 0x54321, HopLimit: 2, TClass: 0x40, Reversible: true, NumbPath: 3, PKey: 0xffff, SL: 4,
		MTUSelector: 2, MTU: 5, RateSelector: 2, Rate: 16, PacketLifeTimeSelector: 1, PacketLifeTime: 19, Preference: 1}
	b, _ := h.AppendTo(nil)
	b, _ = rmpp.AppendTo(b)
	b = append(b, make([]byte, mad.SAHeaderLen)...) // SM_Key 0, AttributeOffset below, ComponentMask below
	b[mad.HeaderLen+mad.RMPPLen+9] = mad.PathRecordLen / 8
	b[mad.HeaderLen+mad.RMPPLen+19] = 0x0c // ComponentMask: DGID, SGID
	b, err = pr.AppendTo(b)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, append(b, make([]byte, mad.Len-len(b))...))
	return out
}

// TestTsharkSynthetic wraps each synthetic MAD in a RoCEv2 UD SEND Only
// to QP 1 (roce.Frame, ICRC included) and compares tshark 4.0's decoding
// with ours, field by field, as TestTshark does: the IPv6 IP-CM private
// data, non-mapped GIDs, REJ (which no capture holds; tshark 4.0 shows
// its reason as a number), RMPP in an active transfer.
func TestTsharkSynthetic(t *testing.T) {
	mads := syntheticMADs(t)
	var frames [][]byte
	var cms []capturedMAD
	for i, m := range mads {
		if len(m) != mad.Len {
			t.Fatalf("MAD %d: %d bytes", i, len(m))
		}
		f := roce.Frame{Dst: [6]byte{2, 0, 0, 0, 0, 2}, Src: [6]byte{2, 0, 0, 0, 0, 1}, Encap: ib.RoCEv2IPv4,
			GRH: ib.GRH{HopLmt: 64,
				SGID: netip.MustParseAddr("::ffff:10.1.16.62").As16(), DGID: netip.MustParseAddr("::ffff:10.1.16.61").As16()}}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, DestQP: ib.QPGSI, PSN: uint32(i)}
		f.Packet.DETH = ib.DETH{QKey: ib.GSIQKey, SrcQP: ib.QPGSI}
		f.Packet.Payload = m
		fr, err := f.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, fr)
		cms = append(cms, capturedMAD{"synthetic", i + 1, m})
	}
	got := oracle.Tshark(t, oracle.WritePcap(t, t.TempDir(), "mads.pcap", frames), oracle.TsharkRoCEArgs...)
	compared, n, per := compareTshark(t, cms, func(m capturedMAD) oracle.Fields { return got[m.frame-1] })
	if n != len(mads) {
		t.Errorf("tshark decoded %d of %d MADs", n, len(mads))
	}
	for _, f := range []string{"infiniband.cm.req.ip_cm.sip6", "infiniband.cm.rej.reason", "infiniband.cm.rej.ari", "infiniband.pathrecord.dgid", "infiniband.rmpp.payloadlength", "infiniband.rmpp.segmentnumber"} {
		found := false
		for _, g := range got {
			_, ok := g[f]
			found = found || ok
		}
		if !found {
			t.Errorf("tshark shows no %s", f)
		}
	}
	t.Logf("compared %d fields with tshark over %d synthetic MADs (%v)", compared, n, per)
}
