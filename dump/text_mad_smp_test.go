package dump_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/mad"
)

// IBTA's names of the values tshark 4.0 shows as numbers: SMInfo's
// SMState (Vol 1, 14.4.1), PortInfo's PortState (Table 155) and
// NodeInfo's NodeType (14.2.5.3).
var (
	ibtaSMState   = map[uint64]string{0: "NotActive", 1: "Discovering", 2: "Standby", 3: "Master"}
	ibtaPortState = map[uint64]string{1: "Down", 2: "Init", 3: "Armed", 4: "Active"}
	ibtaNodeType  = map[uint64]string{1: "CA", 2: "Switch", 3: "Router"}
)

// smpLine builds the text a line shows after "payload 256: " for one MAD,
// from tshark's fields of its frame alone: the class and attribute names
// of the frame's class and attribute IDs, then the key fields.
func smpLine(t *testing.T, f oracle.Fields) string {
	t.Helper()
	num := func(name string) uint64 {
		v, ok := f.First(name)
		if !ok {
			t.Fatalf("tshark shows no %s", name)
		}
		n, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			t.Fatalf("%s = %q", name, v)
		}
		return n
	}
	method := map[uint64]string{0x01: "Get", 0x81: "GetResp", 0x02: "Set"}[num("infiniband.mad.method")]
	class := map[uint64]string{0x01: "SMP", 0x81: "SMP-DR", 0x04: "PerfMgt"}[num("infiniband.mad.mgmtclass")]
	attr := num("infiniband.mad.attributeid")
	s := fmt.Sprintf("%s %s %s tid 0x%016x", class, method, map[uint64]string{
		0x11: "NodeInfo", 0x15: "PortInfo", 0x20: "SMInfo", 0x12: "PortCounters", 0x1d: "PortCountersExtended",
	}[attr], num("infiniband.mad.transactionid"))
	if class == "SMP-DR" {
		s += fmt.Sprintf(" hop %d/%d", num("infiniband.smpdirected.hoppointer"), num("infiniband.smpdirected.hopcount"))
	}
	if method == "Get" {
		return s
	}
	switch {
	case class != "PerfMgt" && attr == 0x20:
		s += fmt.Sprintf(" guid 0x%016x priority %d state %s", num("infiniband.sminfo.guid"),
			num("infiniband.sminfo.priority"), ibtaSMState[num("infiniband.sminfo.smstate")])
	case class != "PerfMgt" && attr == 0x15:
		s += fmt.Sprintf(" lid 0x%04x sm lid 0x%04x state %s lmc %d", num("infiniband.portinfo.lid"),
			num("infiniband.portinfo.mastersmlid"), ibtaPortState[num("infiniband.portinfo.portstate")], num("infiniband.portinfo.lmc"))
	case class != "PerfMgt" && attr == 0x11:
		s += fmt.Sprintf(" type %s ports %d guid 0x%016x port guid 0x%016x", ibtaNodeType[num("infiniband.nodeinfo.nodetype")],
			num("infiniband.nodeinfo.numports"), num("infiniband.nodeinfo.nodeguid"), num("infiniband.nodeinfo.portguid"))
	case attr == 0x12:
		p := "infiniband.portcounters."
		s += fmt.Sprintf(" port %d symbol_errors %d rcv_errors %d xmit_discards %d xmit_data %d rcv_data %d xmit_pkts %d rcv_pkts %d",
			num(p+"portselect"), num(p+"symbolerrorcounter"), num(p+"portrcverrors"), num(p+"portxmitdiscards"),
			num(p+"portxmitdata"), num(p+"portrcvdata"), num(p+"portxmitpkts"), num(p+"portrcvpkts"))
	case attr == 0x1d:
		p := "infiniband.portcounters_ext."
		s += fmt.Sprintf(" port %d xmit_data %d rcv_data %d xmit_pkts %d rcv_pkts %d", num(p+"portselect"),
			num(p+"portxmitdata"), num(p+"portrcvdata"), num(p+"portxmitpkts"), num(p+"portrcvpkts"))
	}
	return s
}

// smpFrames builds RoCEv2 frames carrying a UD SEND Only of an SMP to QP
// 0 or a PerfMgt MAD to QP 1: a LID-routed PortInfo and a directed-route
// NodeInfo response, PortCounters and PortCountersExtended responses,
// with distinct values in the fields the lines show.
func smpFrames(t *testing.T) [][]byte {
	hdr := func(c mad.Class, attr uint16, tid uint64) mad.Header {
		return mad.Header{BaseVersion: 1, MgmtClass: c, ClassVersion: 1, Response: true, Method: mad.MethodGet, TransactionID: tid, AttributeID: attr, AttributeModifier: 1}
	}
	must := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	lid := mad.SMP{Header: hdr(mad.ClassSubnLID, uint16(mad.SMPAttrPortInfo), 0x1111222233334444)}
	pi := mad.PortInfo{LID: 0x0123, MasterSMLID: 0x0045, PortState: 3, LMC: 5, LocalPortNum: 1, PortPhysicalState: 5}
	copy(lid.Data[:], must(pi.AppendTo(nil)))
	dr := mad.SMPDirected{Header: hdr(mad.ClassSubnDR, uint16(mad.SMPAttrNodeInfo), 0x0102030405060708), DrSLID: 0xffff, DrDLID: 0xffff}
	dr.SetDirection(true)
	if err := dr.SetHops(3, 4); err != nil {
		t.Fatal(err)
	}
	ni := mad.NodeInfo{BaseVersion: 1, ClassVersion: 1, NodeType: mad.NodeTypeSwitch, NumPorts: 36, NodeGUID: 0x0002c90300a1b2c3, PortGUID: 0x0002c90300a1b2c4, VendorID: 0x2c9}
	copy(dr.Data[:], must(ni.AppendTo(nil)))
	pc := mad.PerfMgt{Header: hdr(mad.ClassPerfMgt, uint16(mad.PerfAttrPortCounters), 0x77)}
	c := mad.PortCounters{PortSelect: 2, SymbolErrorCounter: 3, PortRcvErrors: 4, PortXmitDiscards: 5, PortXmitData: 600000, PortRcvData: 700000, PortXmitPkts: 8000, PortRcvPkts: 9000}
	copy(pc.Data[:], must(c.AppendTo(nil)))
	pe := mad.PerfMgt{Header: hdr(mad.ClassPerfMgt, uint16(mad.PerfAttrPortCountersExtended), 0x78)}
	e := mad.PortCountersExtended{PortSelect: 1, PortXmitData: 1 << 40, PortRcvData: 1<<40 + 1, PortXmitPkts: 1 << 33, PortRcvPkts: 1<<33 + 7}
	copy(pe.Data[:], must(e.AppendTo(nil)))

	v4 := ib.GRH{HopLmt: 64, SGID: [16]byte{10: 0xff, 11: 0xff, 12: 10, 15: 1}, DGID: [16]byte{10: 0xff, 11: 0xff, 12: 10, 15: 2}}
	var out [][]byte
	for i, m := range [][]byte{must(lid.AppendTo(nil)), must(dr.AppendTo(nil)), must(pc.AppendTo(nil)), must(pe.AppendTo(nil))} {
		qp, qkey := uint32(ib.QPSMI), uint32(0)
		if mad.Class(m[1]) == mad.ClassPerfMgt {
			qp, qkey = ib.QPGSI, ib.GSIQKey
		}
		f := roce.Frame{Encap: ib.RoCEv2IPv4, GRH: v4}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, DestQP: qp, PSN: uint32(i + 1)}
		f.Packet.DETH = ib.DETH{QKey: qkey, SrcQP: qp}
		f.Packet.Payload = m
		out = append(out, testcaps.Build(t, &f))
	}
	return out
}

// TestSMPTextLines: the text line of each SMP and PerfMgt MAD names its
// class, method and attribute and shows the key fields with the values
// tshark 4.0 decodes from the same frame: the six directed-route SMInfo
// MADs of the native capture and the hand-built frames of smpFrames.
func TestSMPTextLines(t *testing.T) {
	native := filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap")
	built := oracle.WritePcap(t, t.TempDir(), "smp.pcap", smpFrames(t))
	n := 0
	for _, c := range []struct {
		path string
		want int
	}{{native, 6}, {built, 4}} {
		tf := oracle.Tshark(t, c.path)
		out, _ := runDump(t, c.path, dump.Options{})
		lines := strings.Split(string(out), "\n")
		k := 0
		for i, f := range tf {
			if cl, ok := f.First("infiniband.mad.mgmtclass"); !ok || cl == "0x07" || cl == "0x03" || cl == "7" || cl == "3" {
				continue // no MAD, or CM and SA (TestTextLines)
			}
			want := ": " + smpLine(t, f) + " icrc good"
			if !strings.HasSuffix(lines[i], want) {
				t.Errorf("%s frame %d:\n got %s\nwant …%s", filepath.Base(c.path), i+1, lines[i], want)
			}
			k++
		}
		if k != c.want {
			t.Errorf("%s: %d SMP and PerfMgt frames, want %d", filepath.Base(c.path), k, c.want)
		}
		n += k
	}
	t.Logf("%d lines compared with tshark's fields", n)
}
