package dump_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/oracle"
	"github.com/roce-go/roce/internal/testcaps"
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
		if all[k] == 0 {
			t.Errorf("%s never compared", k)
		}
		n += all[k]
	}
	t.Logf("%d values of %d PortInfo, SwitchInfo, PortCounters, PortCountersExtended and MCMemberRecord keys compared with tshark", n, len(keys))
}

// TestSMPAttrJSONNoAllocs: Decode and AppendJSON allocate nothing for the
// golden SMP and PerfMgt MADs, and the JSON holds the attribute's keys
// (PortInfo, SwitchInfo, GUIDInfo, P_KeyTable, PortCounters,
// PortCountersExtended).
func TestSMPAttrJSONNoAllocs(t *testing.T) {
	want := map[uint16]string{uint16(mad.SMPAttrPortInfo): `"infiniband.portinfo.lid":`,
		uint16(mad.SMPAttrSwitchInfo): `"infiniband.switchinfo.linearfdbcap":`,
		uint16(mad.SMPAttrGUIDInfo):   `"infiniband.guidinfo.guid7":"0x`, uint16(mad.SMPAttrPKeyTable): `"infiniband.p_keytable.p_keybase31":`}
	perf := map[uint16]string{uint16(mad.PerfAttrPortCounters): `"infiniband.portcounters.portxmitdata":`,
		uint16(mad.PerfAttrPortCountersExtended): `"infiniband.portcounters_ext.portxmitdata":"`}
	var rec dump.Record
	buf := make([]byte, 0, 8192)
	ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 0)}
	mads := append(testcaps.GoldenSMPMADs(t), testcaps.SAMCMember(t))
	for i, fr := range testcaps.GoldenSMP(t) {
		ci.Length, ci.CaptureLength = len(fr), len(fr)
		m := mads[i]
		attr := uint16(m[16])<<8 | uint16(m[17])
		key := want[attr]
		switch mad.Class(m[1]) {
		case mad.ClassPerfMgt:
			key = perf[attr]
		case mad.ClassSubnAdm:
			key = `"infiniband.mcmemberrecord.proxyjoin":1`
		}
		ok, kb := true, []byte(key)
		n := testing.AllocsPerRun(100, func() {
			rec.Decode(1, ci, dump.LinkTypeEthernet, fr)
			buf = rec.AppendJSON(buf[:0])
			ok = ok && rec.Kind == dump.KindRoCE && bytes.Contains(buf, kb)
		})
		if !ok || n != 0 {
			t.Errorf("golden MAD %d: %v allocs, decoded with %q: %v", i+1, n, key, ok)
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
