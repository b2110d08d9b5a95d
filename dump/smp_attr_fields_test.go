package dump_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/mad"
)

// attrKeys are the keys of PortInfo, SwitchInfo, PortCounters and
// PortCountersExtended in the field table.
func attrKeys() []string {
	var ks []string
	for _, f := range dump.Fields() {
		for _, pre := range []string{"infiniband.portinfo.", "infiniband.switchinfo.", "infiniband.portcounters.", "infiniband.portcounters_ext.", "infiniband.mcmemberrecord."} {
			if strings.HasPrefix(f.Name, pre) {
				ks = append(ks, f.Name)
			}
		}
	}
	return ks
}

// TestTsharkSMPAttrJSON compares every PortInfo, SwitchInfo,
// PortCounters, PortCountersExtended and MCMemberRecord key with tshark
// 4.0's value on the golden SMP and PerfMgt MADs, an SA MCMemberRecord (fields of distinct non-zero values)
// and on smpFrames; every key must be compared, and every such field
// tshark shows must be among our keys.
func TestTsharkSMPAttrJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	dir := t.TempDir()
	keys := attrKeys()
	if len(keys) < 109 {
		t.Fatalf("only %d attribute keys", len(keys))
	}
	ours := map[string]bool{}
	for _, k := range keys {
		ours[k] = true
	}
	all := map[string]int{}
	for name, frames := range map[string][][]byte{"golden.pcap": testcaps.GoldenSMP(t), "smp.pcap": smpFrames(t)} {
		path := oracle.WritePcap(t, dir, name, frames)
		for k, n := range compareTshark(t, path) {
			all[k] += n
		}
		// tshark's fields of these attributes we do not write.
		for i, fs := range oracle.Tshark(t, path) {
			for k := range fs {
				if ours[k] || strings.Contains(k, ".capabilitymask.") || !strings.HasPrefix(k, "infiniband.portinfo.") &&
					!strings.HasPrefix(k, "infiniband.portcounters") && !strings.HasPrefix(k, "infiniband.mcmemberrecord.") &&
					!(strings.HasPrefix(k, "infiniband.switchinfo.") && k != "infiniband.switchinfo.guid") {
					continue
				}
				t.Errorf("%s frame %d: tshark shows %s, we have no such key", name, i+1, k)
			}
		}
	}
	n := 0
	for _, k := range keys {
		if all[k] == 0 && !ourName(k) { // ourName: TestAttrKeysTsharkLacks
			t.Errorf("%s never compared", k)
		}
		n += all[k]
	}
	t.Logf("%d values of %d PortInfo, SwitchInfo, PortCounters, PortCountersExtended and MCMemberRecord keys compared with tshark", n, len(keys))
}

// TestSMPAttrJSONNoAllocs: Decode and AppendJSON allocate nothing for the
// golden SMP and PerfMgt MADs and the SA records of testcaps.MADs, and
// the JSON holds the attribute's keys (PortInfo, SwitchInfo, GUIDInfo,
// P_KeyTable, NodeDescription, PortCounters, PortCountersExtended, the
// SA records); nor does Get of a text held in the frame.
func TestSMPAttrJSONNoAllocs(t *testing.T) {
	type id struct {
		class mad.Class
		attr  uint16
	}
	smp := map[uint16]string{uint16(mad.SMPAttrPortInfo): `"infiniband.portinfo.linkspeedextenabled":`,
		uint16(mad.SMPAttrSwitchInfo): `"infiniband.switchinfo.multicastfdbtop":`, uint16(mad.SMPAttrNodeInfo): `"infiniband.nodeinfo.vendorid":`,
		uint16(mad.SMPAttrGUIDInfo): `"infiniband.guidinfo.guid7":"0x`, uint16(mad.SMPAttrPKeyTable): `"infiniband.p_keytable.p_keybase31":`,
		uint16(mad.SMPAttrNodeDescription): `"infiniband.nodedescription.nodestring":"`, uint16(mad.SMPAttrSMInfo): `"infiniband.sminfo.guid":`}
	want := map[id]string{{mad.ClassPerfMgt, uint16(mad.PerfAttrPortCounters)}: `"infiniband.portcounters.portxmitwait":`,
		{mad.ClassPerfMgt, uint16(mad.PerfAttrPortCountersExtended)}: `"infiniband.portcounters_ext.qp1dropped":"`,
		{mad.ClassSubnAdm, mad.AttrMCMemberRecord}:                   `"infiniband.mcmemberrecord.proxyjoin":1`,
		{mad.ClassSubnAdm, mad.AttrNodeRecord}:                       `"infiniband.nodedescription.nodestring":"sw-spine-01\u0001 \"core\" \\ mlx5_2"`,
		{mad.ClassSubnAdm, mad.AttrPortInfoRecord}:                   `"infiniband.sa.endportlid":`,
		{mad.ClassSubnAdm, mad.AttrServiceRecord}:                    `"infiniband.servicerecord.servicename":"SRP.T10:`,
		{mad.ClassSubnAdm, mad.AttrPathRecord}:                       `"infiniband.sa.records":3`}
	for a, k := range smp {
		want[id{mad.ClassSubnLID, a}], want[id{mad.ClassSubnDR, a}] = k, k
	}
	var rec dump.Record
	buf := make([]byte, 0, 8192)
	ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 0)}
	mads := testcaps.MADs(t)
	text, _ := dump.LookupField("infiniband.nodedescription.nodestring")
	for i, fr := range testcaps.GoldenSMP(t) {
		ci.Length, ci.CaptureLength = len(fr), len(fr)
		m := mads[i]
		key, found := want[id{mad.Class(m[1]), uint16(m[16])<<8 | uint16(m[17])}]
		if !found {
			t.Fatalf("MAD %d: class %#x attribute %#x: no key to look for", i+1, m[1], m[16:18])
		}
		ok, kb := true, []byte(key)
		n := testing.AllocsPerRun(100, func() {
			rec.Decode(1, ci, capfile.LinkTypeEthernet, fr)
			buf = rec.AppendJSON(buf[:0])
			_, has := text.Get(&rec)
			ok = ok && rec.Kind == dump.KindRoCE && bytes.Contains(buf, kb) && has == bytes.Contains(buf, []byte(`"infiniband.nodedescription.nodestring"`))
		})
		if !ok || n != 0 {
			t.Errorf("MAD %d: %v allocs, decoded with %q: %v\n%s", i+1, n, key, ok, buf)
		}
	}
}

// TestTsharkSMPTableJSON compares GUIDInfo's and P_KeyTable's numbered
// keys with the values tshark 4.0 shows, in order, for the golden
// GUIDInfo and P_KeyTable MADs: entry n is tshark's n-th value of
// infiniband.switchinfo.guid (its name for GUIDInfo's GUIDs), of
// infiniband.p_keytable.membershiptype and of p_keybase.
func TestTsharkSMPTableJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	path := oracle.WritePcap(t, t.TempDir(), "golden.pcap", testcaps.GoldenSMP(t))
	ts := oracle.Tshark(t, path)
	out, _ := runDump(t, path, dump.Options{JSON: true})
	objs := parseLines(t, out)
	families := []struct{ ours, theirs string }{
		{"infiniband.guidinfo.guid", "infiniband.switchinfo.guid"},
		{"infiniband.p_keytable.membershiptype", "infiniband.p_keytable.membershiptype"},
		{"infiniband.p_keytable.p_keybase", "infiniband.p_keytable.p_keybase"},
	}
	n, frames := 0, 0
	for i, o := range objs {
		if _, ok := o["infiniband.mad.attributeid"]; !ok {
			continue
		}
		any := false
		for _, f := range families {
			if _, ok := o[f.ours+"0"]; !ok {
				continue
			}
			any = true
			theirs := ts[i][f.theirs]
			for j := 0; ; j++ {
				v, ok := o[f.ours+strconv.Itoa(j)]
				if !ok {
					if j != len(theirs) {
						t.Errorf("frame %d: %s: %d keys, tshark shows %d values", i+1, f.ours, j, len(theirs))
					}
					break
				}
				if j >= len(theirs) || !sameValue(f.ours, v, theirs[j]) {
					t.Errorf("frame %d: %s%d = %v, tshark %v", i+1, f.ours, j, v, theirs)
					break
				}
				n++
			}
		}
		if any {
			frames++
		}
	}
	if frames != 2 || n != 8+2*32 {
		t.Errorf("%d values compared over %d frames, want 72 over 2 (GUIDInfo, P_KeyTable)", n, frames)
	}
	t.Logf("%d GUIDInfo and P_KeyTable values compared with tshark over %d frames", n, frames)
}

// tsharkLacks are the keys of fields tshark 4.0 does not decode (its
// PortInfo stops at LinkRoundTripLatency, its PortCounters at
// PortRcvPkts, its PortCountersExtended at PortMulticastRcvPkts, its
// SwitchInfo at EnhancedPortZero; it shows PortInfoRecord's Options as
// reserved), with the note of testdata/golden/mad_smp_perf.txt that
// gives each value from the IBTA layouts ("" for the SA keys, checked
// against testcaps.SARecords' values as built).
var tsharkLacks = map[string]string{
	"infiniband.portinfo.multicastpkeytrapsuppressionenabled":  "PortInfo.MulticastPKeyTrapSuppressionEnabled",
	"infiniband.portinfo.capabilitymask2":                      "PortInfo.CapabilityMask2",
	"infiniband.portinfo.linkspeedextactive":                   "PortInfo.LinkSpeedExtActive",
	"infiniband.portinfo.linkspeedextsupported":                "PortInfo.LinkSpeedExtSupported",
	"infiniband.portinfo.linkspeedextenabled":                  "PortInfo.LinkSpeedExtEnabled",
	"infiniband.switchinfo.multicastfdbtop":                    "SwitchInfo.MulticastFDBTop",
	"infiniband.portcounters.counterselect2":                   "PortCounters.CounterSelect2",
	"infiniband.portcounters.qp1dropped":                       "PortCounters.QP1Dropped",
	"infiniband.portcounters.portxmitwait":                     "PortCounters.PortXmitWait",
	"infiniband.portcounters_ext.counterselect2":               "PortCountersExtended.CounterSelect2",
	"infiniband.portcounters_ext.symbolerrorcounter":           "PortCountersExtended.SymbolErrorCounter",
	"infiniband.portcounters_ext.linkerrorrecoverycounter":     "PortCountersExtended.LinkErrorRecoveryCounter",
	"infiniband.portcounters_ext.linkdownedcounter":            "PortCountersExtended.LinkDownedCounter",
	"infiniband.portcounters_ext.portrcverrors":                "PortCountersExtended.PortRcvErrors",
	"infiniband.portcounters_ext.portrcvremotephysicalerrors":  "PortCountersExtended.PortRcvRemotePhysicalErrors",
	"infiniband.portcounters_ext.portrcvswitchrelayerrors":     "PortCountersExtended.PortRcvSwitchRelayErrors",
	"infiniband.portcounters_ext.portxmitdiscards":             "PortCountersExtended.PortXmitDiscards",
	"infiniband.portcounters_ext.portxmitconstrainterrors":     "PortCountersExtended.PortXmitConstraintErrors",
	"infiniband.portcounters_ext.portrcvconstrainterrors":      "PortCountersExtended.PortRcvConstraintErrors",
	"infiniband.portcounters_ext.locallinkintegrityerrors":     "PortCountersExtended.LocalLinkIntegrityErrors",
	"infiniband.portcounters_ext.excessivebufferoverrunerrors": "PortCountersExtended.ExcessiveBufferOverrunErrors",
	"infiniband.portcounters_ext.vl15dropped":                  "PortCountersExtended.VL15Dropped",
	"infiniband.portcounters_ext.portxmitwait":                 "PortCountersExtended.PortXmitWait",
	"infiniband.portcounters_ext.qp1dropped":                   "PortCountersExtended.QP1Dropped",
	"infiniband.sa.records":                                    "",
	"infiniband.sa.options":                                    "",
}

// TestAttrKeysTsharkLacks checks the SMP and PerfMgt keys tshark 4.0 has
// no field for against the golden MADs' notes (the values the IBTA
// layouts give the bytes): tshark cannot be the oracle here.
func TestAttrKeysTsharkLacks(t *testing.T) {
	path := testcaps.WriteGoldenSMP(t, t.TempDir())
	out, _ := runDump(t, path, dump.Options{JSON: true})
	objs := parseLines(t, out)
	counts := map[string]int{}
	for i, notes := range testcaps.GoldenNotes(t) {
		for key, note := range tsharkLacks {
			v, ok := notes[note]
			if note == "" || !ok {
				continue
			}
			want, err := strconv.ParseUint(v, 0, 64)
			if err != nil {
				t.Fatalf("note %s = %s: %v", note, v, err)
			}
			counts[key]++
			if got, ok := objs[i][key]; !ok || !sameValue(key, got, strconv.FormatUint(want, 10)) {
				t.Errorf("golden MAD %d: %s = %v, the note %s = %s", i+1, key, got, note, v)
			}
		}
	}
	for key, note := range tsharkLacks {
		if note != "" && counts[key] == 0 {
			t.Errorf("%s: no golden MAD notes %s", key, note)
		}
	}
	t.Logf("%d keys tshark 4.0 lacks checked against the golden notes", len(counts))
}
