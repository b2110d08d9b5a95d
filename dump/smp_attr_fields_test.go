package dump_test

import (
	"bytes"
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
		for _, pre := range []string{"infiniband.portinfo.", "infiniband.switchinfo.", "infiniband.portcounters.", "infiniband.portcounters_ext."} {
			if strings.HasPrefix(f.Name, pre) {
				ks = append(ks, f.Name)
			}
		}
	}
	return ks
}

// TestTsharkSMPAttrJSON compares every PortInfo, SwitchInfo,
// PortCounters and PortCountersExtended key with tshark 4.0's value on
// the golden SMP and PerfMgt MADs (fields of distinct non-zero values)
// and on smpFrames; every key must be compared, and every such field
// tshark shows must be among our keys.
func TestTsharkSMPAttrJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	dir := t.TempDir()
	keys := attrKeys()
	if len(keys) < 90 {
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
					!strings.HasPrefix(k, "infiniband.portcounters") &&
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
	t.Logf("%d values of %d PortInfo, SwitchInfo, PortCounters and PortCountersExtended keys compared with tshark", n, len(keys))
}

// TestSMPAttrJSONNoAllocs: Decode and AppendJSON allocate nothing for the
// golden SMP and PerfMgt MADs, and the JSON holds the attribute's keys.
func TestSMPAttrJSONNoAllocs(t *testing.T) {
	want := map[uint16]string{uint16(mad.SMPAttrPortInfo): `"infiniband.portinfo.lid":`,
		uint16(mad.SMPAttrSwitchInfo): `"infiniband.switchinfo.linearfdbcap":`}
	perf := map[uint16]string{uint16(mad.PerfAttrPortCounters): `"infiniband.portcounters.portxmitdata":`,
		uint16(mad.PerfAttrPortCountersExtended): `"infiniband.portcounters_ext.portxmitdata":"`}
	var rec dump.Record
	buf := make([]byte, 0, 8192)
	ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 0)}
	for i, fr := range testcaps.GoldenSMP(t) {
		ci.Length, ci.CaptureLength = len(fr), len(fr)
		m := testcaps.GoldenSMPMADs(t)[i]
		attr := uint16(m[16])<<8 | uint16(m[17])
		key := want[attr]
		if mad.Class(m[1]) == mad.ClassPerfMgt {
			key = perf[attr]
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
