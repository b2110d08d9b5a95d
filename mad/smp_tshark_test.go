package mad_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/mad"
)

// smpTsharkField is one tshark 4.0 field and how to get the same value from
// our decode: ours returns our values as text, one per value tshark
// shows, or nil when the frame has nothing of the kind (another
// attribute). num says to compare the values as integers.
type smpTsharkField struct {
	name string
	ours func(d decodedMAD) []string
	num  bool
}

// ourNum returns our value for key as a decimal number.
func ourNum(key string) func(d decodedMAD) []string {
	return func(d decodedMAD) []string {
		v, err := d.value(key)
		if err != nil {
			return nil
		}
		n, _ := number(v)
		return []string{strconv.FormatUint(n, 10)}
	}
}

// ourElems returns the elements of the array field key, each shifted
// right by shift and masked.
func ourElems(key string, shift uint, mask uint64) func(d decodedMAD) []string {
	return func(d decodedMAD) []string {
		v, err := d.value(key)
		if err != nil {
			return nil
		}
		out := make([]string, v.Len())
		for i := range out {
			out[i] = strconv.FormatUint(v.Index(i).Uint()>>shift&mask, 10)
		}
		return out
	}
}

// ourBytes returns the byte array field key as tshark prints bytes.
func ourBytes(key string) func(d decodedMAD) []string {
	return func(d decodedMAD) []string {
		v, err := d.value(key)
		if err != nil {
			return nil
		}
		b := make([]byte, v.Len())
		reflect.Copy(reflect.ValueOf(b), v)
		return []string{oracle.Hex(b)}
	}
}

// ourText returns the string key returns.
func ourText(key string) func(d decodedMAD) []string {
	return func(d decodedMAD) []string {
		v, err := d.value(key)
		if err != nil {
			return nil
		}
		return []string{v.String()}
	}
}

// ourMethod is the method byte, R bit and method.
func ourMethod(d decodedMAD) []string {
	h := d["MAD"].(*mad.Header)
	m := uint64(h.Method)
	if h.Response {
		m |= 0x80
	}
	return []string{strconv.FormatUint(m, 10)}
}

// ourClass limits a field to the MADs of one class.
func ourClass(c mad.Class, f func(d decodedMAD) []string) func(d decodedMAD) []string {
	return func(d decodedMAD) []string {
		if d["MAD"].(*mad.Header).MgmtClass != c {
			return nil
		}
		return f(d)
	}
}

// ourCap is one bit of PortInfo.CapabilityMask, which tshark shows as
// 0 or 1 under infiniband.portinfo.capabilitymask.<name>. tshark has no
// field for the IBTA 1.3 bits 14 and 15.
func ourCap(name string, bit uint32) smpTsharkField {
	return smpTsharkField{"infiniband.portinfo.capabilitymask." + name, func(d decodedMAD) []string {
		p, ok := d["PortInfo"].(*mad.PortInfo)
		if !ok {
			return nil
		}
		if p.CapabilityMask&bit != 0 {
			return []string{"1"}
		}
		return []string{"0"}
	}, true}
}

// ourIf limits a field to the MADs that carry the attribute named.
func ourIf(attr string, f func(d decodedMAD) []string) func(d decodedMAD) []string {
	return func(d decodedMAD) []string {
		if _, ok := d[attr]; !ok {
			return nil
		}
		return f(d)
	}
}

// smpTsharkFields lists every SMP and PerfMgt field tshark 4.0 decodes that
// has a counterpart in this package. Where tshark is blind or wrong the
// golden notes check the value against the spec instead:
//
//   - infiniband.smpdirected.d is always 0 in tshark 4.0, even with bit 15
//     of Status set (frame 2 of the real capture is a response, D=1):
//     it is wrong, and left out.
//   - infiniband.smpdirected.smpstatus is the whole Status field, D bit
//     included (0x8000 in a response): compared with Header.Status, while
//     SMPDirected.SMPStatus (15 bits) is checked by the golden notes.
//   - tshark has no field for PortInfo's MulticastPKeyTrapSuppressionEnabled,
//     CapabilityMask2 and LinkSpeedExt fields, SwitchInfo.MulticastFDBTop,
//     PortCounters' CounterSelect2, QP1Dropped and PortXmitWait, and
//     PortCountersExtended's CounterSelect2 and 14 error counters (it
//     shows the bytes of the last ones it knows as reserved): blind.
//   - GUIDInfo's GUIDs are shown under the name infiniband.switchinfo.guid,
//     which SwitchInfo's GUID also uses (a tshark naming slip); the GUIDs
//     of a GUIDInfo are compared, not a SwitchInfo (whose IBTA layout has
//     no GUID).
var smpTsharkFields = []smpTsharkField{
	{"infiniband.mad.baseversion", ourNum("MAD.BaseVersion"), true},
	{"infiniband.mad.mgmtclass", ourNum("MAD.MgmtClass"), true},
	{"infiniband.mad.classversion", ourNum("MAD.ClassVersion"), true},
	{"infiniband.mad.method", ourMethod, true},
	{"infiniband.mad.status", ourNum("MAD.Status"), true},
	{"infiniband.mad.classspecific", ourNum("MAD.ClassSpecific"), true},
	{"infiniband.mad.transactionid", ourNum("MAD.TransactionID"), true},
	{"infiniband.mad.attributeid", ourNum("MAD.AttributeID"), true},
	{"infiniband.mad.attributemodifier", ourNum("MAD.AttributeModifier"), true},

	{"infiniband.smplid.mkey", ourNum("SMP.MKey"), true},
	{"infiniband.smplid.smpdata", ourClass(mad.ClassSubnLID, ourBytes("SMP.Data")), false},
	{"infiniband.smpdirected.smpstatus", ourClass(mad.ClassSubnDR, ourNum("MAD.Status")), true},
	{"infiniband.smpdirected.hoppointer", ourNum("SMP.HopPointer"), true},
	{"infiniband.smpdirected.hopcount", ourNum("SMP.HopCount"), true},
	{"infiniband.smpdirected.drslid", ourNum("SMP.DrSLID"), true},
	{"infiniband.smpdirected.drdlid", ourNum("SMP.DrDLID"), true},
	{"infiniband.smpdirected.initialpath", ourBytes("SMP.InitialPath"), false},
	{"infiniband.smpdirected.returnpath", ourBytes("SMP.ReturnPath"), false},

	{"infiniband.nodedescription.nodestring", ourText("NodeDescription.Text"), false},

	{"infiniband.nodeinfo.baseversion", ourNum("NodeInfo.BaseVersion"), true},
	{"infiniband.nodeinfo.classversion", ourNum("NodeInfo.ClassVersion"), true},
	{"infiniband.nodeinfo.nodetype", ourNum("NodeInfo.NodeType"), true},
	{"infiniband.nodeinfo.numports", ourNum("NodeInfo.NumPorts"), true},
	{"infiniband.nodeinfo.systemimageguid", ourNum("NodeInfo.SystemImageGUID"), true},
	{"infiniband.nodeinfo.nodeguid", ourNum("NodeInfo.NodeGUID"), true},
	{"infiniband.nodeinfo.portguid", ourNum("NodeInfo.PortGUID"), true},
	{"infiniband.nodeinfo.partitioncap", ourNum("NodeInfo.PartitionCap"), true},
	{"infiniband.nodeinfo.deviceid", ourNum("NodeInfo.DeviceID"), true},
	{"infiniband.nodeinfo.revision", ourNum("NodeInfo.Revision"), true},
	{"infiniband.nodeinfo.localportnum", ourNum("NodeInfo.LocalPortNum"), true},
	{"infiniband.nodeinfo.vendorid", ourNum("NodeInfo.VendorID"), true},

	{"infiniband.switchinfo.linearfdbcap", ourNum("SwitchInfo.LinearFDBCap"), true},
	{"infiniband.switchinfo.randomfdbcap", ourNum("SwitchInfo.RandomFDBCap"), true},
	{"infiniband.switchinfo.multicastfdbcap", ourNum("SwitchInfo.MulticastFDBCap"), true},
	{"infiniband.switchinfo.linearfdbtop", ourNum("SwitchInfo.LinearFDBTop"), true},
	{"infiniband.switchinfo.defaultport", ourNum("SwitchInfo.DefaultPort"), true},
	{"infiniband.switchinfo.defaultmulticastprimaryport", ourNum("SwitchInfo.DefaultMulticastPrimaryPort"), true},
	{"infiniband.switchinfo.defaultmulticastnotprimaryport", ourNum("SwitchInfo.DefaultMulticastNotPrimaryPort"), true},
	{"infiniband.switchinfo.lifetimevalue", ourNum("SwitchInfo.LifeTimeValue"), true},
	{"infiniband.switchinfo.portstatechange", ourNum("SwitchInfo.PortStateChange"), true},
	{"infiniband.switchinfo.optimizedsltovlmappingprogramming", ourNum("SwitchInfo.OptimizedSLtoVLMappingProgramming"), true},
	{"infiniband.switchinfo.lidsperport", ourNum("SwitchInfo.LIDsPerPort"), true},
	{"infiniband.switchinfo.partitionenforcementcap", ourNum("SwitchInfo.PartitionEnforcementCap"), true},
	{"infiniband.switchinfo.inboundenforcementcap", ourNum("SwitchInfo.InboundEnforcementCap"), true},
	{"infiniband.switchinfo.outboundenforcementcap", ourNum("SwitchInfo.OutboundEnforcementCap"), true},
	{"infiniband.switchinfo.filterrawinboundcap", ourNum("SwitchInfo.FilterRawInboundCap"), true},
	{"infiniband.switchinfo.filterrawoutboundcap", ourNum("SwitchInfo.FilterRawOutboundCap"), true},
	{"infiniband.switchinfo.enhancedportzero", ourNum("SwitchInfo.EnhancedPortZero"), true},
	{"infiniband.switchinfo.guid", ourElems("GUIDInfo.GUIDs", 0, ^uint64(0)), true},

	{"infiniband.portinfo.m_key", ourNum("PortInfo.MKey"), true},
	{"infiniband.portinfo.guid", ourNum("PortInfo.GIDPrefix"), true}, // tshark's name for GidPrefix
	{"infiniband.portinfo.lid", ourNum("PortInfo.LID"), true},
	{"infiniband.portinfo.mastersmlid", ourNum("PortInfo.MasterSMLID"), true},
	{"infiniband.portinfo.capabilitymask", ourNum("PortInfo.CapabilityMask"), true},
	ourCap("issm", mad.PortCapIsSM),
	ourCap("noticesupported", mad.PortCapIsNoticeSupported),
	ourCap("trapsupported", mad.PortCapIsTrapSupported),
	ourCap("optionalipdsupported", mad.PortCapIsOptionalIPDSupported),
	ourCap("automaticmigrationsupported", mad.PortCapIsAutomaticMigrationSupported),
	ourCap("slmappingsupported", mad.PortCapIsSLMappingSupported),
	ourCap("mkeynvram", mad.PortCapIsMKeyNVRAM),
	ourCap("pkeynvram", mad.PortCapIsPKeyNVRAM),
	ourCap("ledinfosupported", mad.PortCapIsLedInfoSupported),
	ourCap("smdisabled", mad.PortCapIsSMDisabled),
	ourCap("systemimageguidsupported", mad.PortCapIsSystemImageGUIDSupported),
	ourCap("pkeyswitchexternalporttrapsupported", mad.PortCapIsPKeySwitchExternalPortTrapSupported),
	ourCap("communicationmanagementsupported", mad.PortCapIsCommunicationManagementSupported),
	ourCap("snmptunnelingsupported", mad.PortCapIsSNMPTunnelingSupported),
	ourCap("reinitsupported", mad.PortCapIsReinitSupported),
	ourCap("devicemanagementsupported", mad.PortCapIsDeviceManagementSupported),
	ourCap("vendorclasssupported", mad.PortCapIsVendorClassSupported),
	ourCap("drnoticesupported", mad.PortCapIsDRNoticeSupported),
	ourCap("capabilitymasknoticesupported", mad.PortCapIsCapabilityMaskNoticeSupported),
	ourCap("bootmanagementsupported", mad.PortCapIsBootManagementSupported),
	ourCap("linkroundtriplatencysupported", mad.PortCapIsLinkRoundTripLatencySupported),
	ourCap("clientregistrationsupported", mad.PortCapIsClientReregistrationSupported),
	ourCap("otherlocalchangesnoticesupported", mad.PortCapIsOtherLocalChangesNoticeSupported),
	ourCap("linkspeedwidthpairstablesupported", mad.PortCapIsLinkSpeedWidthPairsTableSupported),
	{"infiniband.portinfo.diagcode", ourNum("PortInfo.DiagCode"), true},
	{"infiniband.portinfo.m_keyleaseperiod", ourNum("PortInfo.MKeyLeasePeriod"), true},
	{"infiniband.portinfo.localportnum", ourNum("PortInfo.LocalPortNum"), true},
	{"infiniband.portinfo.linkwidthenabled", ourNum("PortInfo.LinkWidthEnabled"), true},
	{"infiniband.portinfo.linkwidthsupported", ourNum("PortInfo.LinkWidthSupported"), true},
	{"infiniband.portinfo.linkwidthactive", ourNum("PortInfo.LinkWidthActive"), true},
	{"infiniband.portinfo.linkspeedsupported", ourNum("PortInfo.LinkSpeedSupported"), true},
	{"infiniband.portinfo.portstate", ourNum("PortInfo.PortState"), true},
	{"infiniband.portinfo.portphysicalstate", ourNum("PortInfo.PortPhysicalState"), true},
	{"infiniband.portinfo.linkdowndefaultstate", ourNum("PortInfo.LinkDownDefaultState"), true},
	{"infiniband.portinfo.m_keyprotectbits", ourNum("PortInfo.MKeyProtectBits"), true},
	{"infiniband.portinfo.lmc", ourNum("PortInfo.LMC"), true},
	{"infiniband.portinfo.linkspeedactive", ourNum("PortInfo.LinkSpeedActive"), true},
	{"infiniband.portinfo.linkspeedenabled", ourNum("PortInfo.LinkSpeedEnabled"), true},
	{"infiniband.portinfo.neighbormtu", ourNum("PortInfo.NeighborMTU"), true},
	{"infiniband.portinfo.mastersmsl", ourNum("PortInfo.MasterSMSL"), true},
	{"infiniband.portinfo.vlcap", ourNum("PortInfo.VLCap"), true},
	{"infiniband.portinfo.inittype", ourNum("PortInfo.InitType"), true},
	{"infiniband.portinfo.vlhighlimit", ourNum("PortInfo.VLHighLimit"), true},
	{"infiniband.portinfo.vlarbitrationhighcap", ourNum("PortInfo.VLArbitrationHighCap"), true},
	{"infiniband.portinfo.vlarbitrationlowcap", ourNum("PortInfo.VLArbitrationLowCap"), true},
	{"infiniband.portinfo.inittypereply", ourNum("PortInfo.InitTypeReply"), true},
	{"infiniband.portinfo.mtucap", ourNum("PortInfo.MTUCap"), true},
	{"infiniband.portinfo.vlstallcount", ourNum("PortInfo.VLStallCount"), true},
	{"infiniband.portinfo.hoqlife", ourNum("PortInfo.HOQLife"), true},
	{"infiniband.portinfo.operationalvls", ourNum("PortInfo.OperationalVLs"), true},
	{"infiniband.portinfo.partitionenforcementinbound", ourNum("PortInfo.PartitionEnforcementInbound"), true},
	{"infiniband.portinfo.partitionenforcementoutbound", ourNum("PortInfo.PartitionEnforcementOutbound"), true},
	{"infiniband.portinfo.filterrawinbound", ourNum("PortInfo.FilterRawInbound"), true},
	{"infiniband.portinfo.filterrawoutbound", ourNum("PortInfo.FilterRawOutbound"), true},
	{"infiniband.portinfo.m_keyviolations", ourNum("PortInfo.MKeyViolations"), true},
	{"infiniband.portinfo.p_keyviolations", ourNum("PortInfo.PKeyViolations"), true},
	{"infiniband.portinfo.q_keyviolations", ourNum("PortInfo.QKeyViolations"), true},
	{"infiniband.portinfo.guidcap", ourNum("PortInfo.GUIDCap"), true},
	{"infiniband.portinfo.clientreregister", ourNum("PortInfo.ClientReregister"), true},
	{"infiniband.portinfo.subnettimeout", ourNum("PortInfo.SubnetTimeOut"), true},
	{"infiniband.portinfo.resptimevalue", ourNum("PortInfo.RespTimeValue"), true},
	{"infiniband.portinfo.localphyerrors", ourNum("PortInfo.LocalPhyErrors"), true},
	{"infiniband.portinfo.overrunerrors", ourNum("PortInfo.OverrunErrors"), true},
	{"infiniband.portinfo.maxcredithint", ourNum("PortInfo.MaxCreditHint"), true},
	{"infiniband.portinfo.linkroundtriplatency", ourNum("PortInfo.LinkRoundTripLatency"), true},

	{"infiniband.p_keytable.p_keytableblock", ourIf("PKeyTable", ourBytes("SMP.Data")), false},
	{"infiniband.p_keytable.membershiptype", ourElems("PKeyTable.PKeys", 15, 1), true},
	{"infiniband.p_keytable.p_keybase", ourElems("PKeyTable.PKeys", 0, 0x7fff), true},

	{"infiniband.sminfo.guid", ourNum("SMInfo.GUID"), true},
	{"infiniband.sminfo.sm_key", ourNum("SMInfo.SMKey"), true},
	{"infiniband.sminfo.actcount", ourNum("SMInfo.ActCount"), true},
	{"infiniband.sminfo.priority", ourNum("SMInfo.Priority"), true},
	{"infiniband.sminfo.smstate", ourNum("SMInfo.SMState"), true},

	{"infiniband.portcounters.portselect", ourNum("PortCounters.PortSelect"), true},
	{"infiniband.portcounters.counterselect", ourNum("PortCounters.CounterSelect"), true},
	{"infiniband.portcounters.symbolerrorcounter", ourNum("PortCounters.SymbolErrorCounter"), true},
	{"infiniband.portcounters.linkerrorrecoverycounter", ourNum("PortCounters.LinkErrorRecoveryCounter"), true},
	{"infiniband.portcounters.linkdownedcounter", ourNum("PortCounters.LinkDownedCounter"), true},
	{"infiniband.portcounters.portrcverrors", ourNum("PortCounters.PortRcvErrors"), true},
	{"infiniband.portcounters.portrcvremotephysicalerrors", ourNum("PortCounters.PortRcvRemotePhysicalErrors"), true},
	{"infiniband.portcounters.portrcvswitchrelayerrors", ourNum("PortCounters.PortRcvSwitchRelayErrors"), true},
	{"infiniband.portcounters.portxmitdiscards", ourNum("PortCounters.PortXmitDiscards"), true},
	{"infiniband.portcounters.portxmitconstrainterrors", ourNum("PortCounters.PortXmitConstraintErrors"), true},
	{"infiniband.portcounters.portrcvconstrainterrors", ourNum("PortCounters.PortRcvConstraintErrors"), true},
	{"infiniband.portcounters.locallinkintegrityerrors", ourNum("PortCounters.LocalLinkIntegrityErrors"), true},
	{"infiniband.portcounters.excessivebufferoverrunerrors", ourNum("PortCounters.ExcessiveBufferOverrunErrors"), true},
	{"infiniband.portcounters.vl15dropped", ourNum("PortCounters.VL15Dropped"), true},
	{"infiniband.portcounters.portxmitdata", ourNum("PortCounters.PortXmitData"), true},
	{"infiniband.portcounters.portrcvdata", ourNum("PortCounters.PortRcvData"), true},
	{"infiniband.portcounters.portxmitpkts", ourNum("PortCounters.PortXmitPkts"), true},
	{"infiniband.portcounters.portrcvpkts", ourNum("PortCounters.PortRcvPkts"), true},

	{"infiniband.portcounters_ext.portselect", ourNum("PortCountersExtended.PortSelect"), true},
	{"infiniband.portcounters_ext.counterselect", ourNum("PortCountersExtended.CounterSelect"), true},
	{"infiniband.portcounters_ext.portxmitdata", ourNum("PortCountersExtended.PortXmitData"), true},
	{"infiniband.portcounters_ext.portrcvdata", ourNum("PortCountersExtended.PortRcvData"), true},
	{"infiniband.portcounters_ext.portxmitpkts", ourNum("PortCountersExtended.PortXmitPkts"), true},
	{"infiniband.portcounters_ext.portrcvpkts", ourNum("PortCountersExtended.PortRcvPkts"), true},
	{"infiniband.portcounters_ext.portunicastxmitpkts", ourNum("PortCountersExtended.PortUnicastXmitPkts"), true},
	{"infiniband.portcounters_ext.portunicastrcvpkts", ourNum("PortCountersExtended.PortUnicastRcvPkts"), true},
	{"infiniband.portcounters_ext.portmulticastxmitpkts", ourNum("PortCountersExtended.PortMulticastXmitPkts"), true},
	{"infiniband.portcounters_ext.portmulticastrcvpkts", ourNum("PortCountersExtended.PortMulticastRcvPkts"), true},
}

// compareSMPTshark compares tshark's fields of one frame with our decode:
// every field of the table that our decode has must be shown by tshark
// with the same values. It returns the number of values compared.
func compareSMPTshark(t *testing.T, what string, tf oracle.Fields, d decodedMAD) int {
	t.Helper()
	n := 0
	for _, f := range smpTsharkFields {
		ours := f.ours(d)
		if ours == nil {
			continue
		}
		have, ok := tf[f.name]
		if !ok {
			t.Errorf("%s: tshark shows no %s (ours %v)", what, f.name, ours)
			continue
		}
		if len(ours) == 1 { // a field tshark may show more than once
			for _, h := range have {
				if !oracle.SameValue(h, ours[0], f.num) {
					t.Errorf("%s: %s: tshark %s, ours %s", what, f.name, h, ours[0])
				}
				n++
			}
			continue
		}
		if !oracle.SameValues(have, ours, f.num) {
			t.Errorf("%s: %s: tshark %v, ours %v", what, f.name, have, ours)
		}
		n += len(ours)
	}
	return n
}

// captureMADs returns the MADs of the real native InfiniBand capture by
// frame number (from 1), located by the ib package: LRH, then BTH and
// DETH through the ICRC (PktLen words), the payload of a UD SEND to QP 0.
func captureMADs(t *testing.T) map[int][]byte {
	t.Helper()
	out := map[int][]byte{}
	for i, rec := range corpus.Capture(t, "ib_native_erf_dag_smp_ipoib_cm.pcap") {
		pkt := rec[erfHeaderLen:]
		var lrh ib.LRH
		if err := lrh.Decode(pkt); err != nil || lrh.LNH != ib.LNHIBALocal {
			continue
		}
		var p ib.Packet
		if err := p.Decode(pkt[ib.LRHLen : int(lrh.PktLen)*4]); err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		if p.BTH.OpCode == ib.OpUDSendOnly && p.BTH.DestQP == 0 {
			out[i+1] = p.Payload
		}
	}
	return out
}

// TestCaptureSMPs decodes the directed-route SubnGet and SubnGetResp
// (SMInfo) of the real capture (frames 1, 2, 12, 13, 41, 42) and compares every field tshark 4.0
// decodes; frames 1 and 2 must also be the golden file's first two MADs.
func TestCaptureSMPs(t *testing.T) {
	mads := captureMADs(t)
	if len(mads) != 6 {
		t.Fatalf("%d MADs to QP 0 in the capture, want 6 (frames 1, 2, 12, 13, 41, 42)", len(mads))
	}
	golden := readSMPGolden(t)
	for i, frame := range []int{1, 2} {
		if !bytes.Equal(mads[frame], golden[i].bytes) {
			t.Errorf("frame %d differs from golden %s", frame, golden[i].name)
		}
	}
	fields := oracle.Tshark(t, corpus.Path("captures", "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	n := 0
	for frame, m := range mads {
		d, err := decodeGolden(m)
		if err != nil {
			t.Fatalf("frame %d: %v", frame, err)
		}
		if _, ok := d["SMInfo"]; !ok {
			t.Fatalf("frame %d: no SMInfo", frame)
		}
		n += compareSMPTshark(t, fmt.Sprintf("frame %d", frame), fields[frame-1], d)
	}
	t.Logf("%d values compared with tshark over %d frames of the real capture", n, len(mads))
	if n < 6*22 { // 9 header, 8 SMP and 5 SMInfo fields a frame
		t.Errorf("only %d values compared", n)
	}
}

// TestTsharkGolden wraps every golden MAD into a native InfiniBand packet
// in an ERF record and compares tshark's decode field by field.
func TestTsharkGolden(t *testing.T) {
	golden := readSMPGolden(t)
	var pkts [][]byte
	for i, g := range golden {
		pkts = append(pkts, nativeMADPacket(t, g.bytes, uint32(i)))
	}
	fields := oracle.Tshark(t, writeERF(t, pkts))
	if len(fields) != len(golden) {
		t.Fatalf("tshark shows %d frames, want %d", len(fields), len(golden))
	}
	n, names := 0, map[string]bool{}
	for i, g := range golden {
		d, err := decodeGolden(g.bytes)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		n += compareSMPTshark(t, g.name, fields[i], d)
		for k := range fields[i] {
			names[k] = true
		}
	}
	compared := 0
	for _, f := range smpTsharkFields {
		if names[f.name] {
			compared++
		}
	}
	if compared != len(smpTsharkFields) {
		t.Errorf("tshark showed %d of the %d fields of the table", compared, len(smpTsharkFields))
	}
	t.Logf("%d values of %d tshark fields compared over %d frames", n, compared, len(golden))
}

// TestTsharkAttributeNames compares the attribute names with the ones
// tshark 4.0 prints in its Info column, for SMP attribute IDs 0-0x3f and
// PerfMgt IDs 0-0x3f. tshark knows every SMP name we know; of PerfMgt it
// knows only ClassPortInfo, PortCounters and PortCountersExtended (it is
// blind to the rest, which follow the IBTA table instead).
func TestTsharkAttributeNames(t *testing.T) {
	var pkts [][]byte
	for _, class := range []mad.Class{mad.ClassSubnDR, mad.ClassPerfMgt} {
		for id := range 0x40 {
			m := make([]byte, mad.Len)
			m[0], m[1], m[2], m[3] = 1, byte(class), 1, byte(mad.MethodGet)
			m[16], m[17] = byte(id>>8), byte(id)
			pkts = append(pkts, nativeMADPacket(t, m, uint32(id)))
		}
	}
	pcap := writeERF(t, pkts)
	bin := oracle.Need(t, "tshark")
	out, err := exec.Command(bin, "-n", "-r", pcap, "-T", "fields", "-e", "_ws.col.Info").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(pkts) {
		t.Fatalf("tshark printed %d lines, want %d", len(lines), len(pkts))
	}
	known := 0
	for i, line := range lines {
		id := uint16(i % 0x40)
		if i < 0x40 {
			a := mad.SMPAttribute(id)
			theirs, ok := between(line, "SubnGet(", ")")
			if ok && strings.HasSuffix(theirs, "Attribute!") { // tshark's text for an unknown ID
				ok = false
			}
			ours := a.String()
			if ok != !strings.HasPrefix(ours, "0x") || ok && theirs != ours {
				t.Errorf("SMP attribute 0x%04x: tshark %q, ours %q", id, line, ours)
			}
			if ok {
				known++
			}
			continue
		}
		a := mad.PerfAttribute(id)
		if theirs, ok := between(line, "PERF (", ")"); ok && !strings.HasPrefix(theirs, "Unknown") {
			known++
			if theirs != a.String() {
				t.Errorf("PerfMgt attribute 0x%04x: tshark %q, ours %q", id, line, a.String())
			}
		}
	}
	if known != 16+3 {
		t.Errorf("tshark named %d attributes, want 19", known)
	}
}

// between returns the text of s between the first start and the next end.
func between(s, start, end string) (string, bool) {
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		return "", false
	}
	v, _, ok := strings.Cut(rest, end)
	return v, ok
}
