package dump_test

import (
	"sort"
	"strconv"
	"testing"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestTsharkDCBXFields compares the DCBX rows of the field table with
// tshark 4.0 on every frame of the DCBX capture: for each tshark field,
// the values of our rows named so or answering to the name (Field.Also:
// willing of PFC and ETS Configuration, the ETS tables of Configuration
// and Recommendation, which tshark names alike) equal tshark's values,
// in any order. Every DCBX key is compared at least once.
func TestTsharkDCBXFields(t *testing.T) {
	oracle.Need(t, "tshark")
	byName := map[string][]*dump.Field{} // tshark name: our rows
	for i := range dump.Fields() {
		f := &dump.Fields()[i]
		for _, n := range []string{f.Name, f.Also} {
			if len(n) > 10 && n[:10] == "lldp.dcbx." && !ourName(n) {
				byName[n] = append(byName[n], f)
			}
		}
	}
	var names []string
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	ts := oracle.TsharkFields(t, dcbxPcap, append(names, "lldp.dcbx.ieee.app.prio"))
	compared := map[string]int{}
	recs := testcaps.Records(t, dcbxPcap)
	for i := range recs {
		r := &recs[i]
		theirs := ts[r.Number-1]
		for _, n := range names {
			var ours []string
			for _, fd := range byName[n] {
				if v, ok := fd.Get(r); ok {
					ours = append(ours, strconv.FormatUint(v.U, 10))
					compared[fd.Name]++
				}
			}
			var want []string
			for _, s := range theirs[n] {
				switch s {
				case "True":
					s = "1"
				case "False":
					s = "0"
				}
				u, err := strconv.ParseUint(s, 0, 64)
				if err != nil {
					t.Fatalf("frame %d: tshark %s = %q", r.Number, n, s)
				}
				want = append(want, strconv.FormatUint(u, 10))
			}
			sort.Strings(ours)
			sort.Strings(want)
			if len(ours) != len(want) || len(ours) > 0 && !equalStrings(ours, want) {
				t.Errorf("frame %d: %s: ours %v, tshark %v", r.Number, n, ours, want)
			}
		}
		// Our keys tshark lacks: the PFC enable vector is tshark's prio
		// bits, the count of entries that of tshark's entry priorities.
		if prio := theirs["lldp.dcbx.feature.pfc.prio0"]; len(prio) == 1 {
			vec := 0
			for p := 0; p < 8; p++ {
				if v := theirs["lldp.dcbx.feature.pfc.prio"+strconv.Itoa(p)]; v[0] == "1" || v[0] == "True" {
					vec |= 1 << p
				}
			}
			checkUint(t, r, "lldp.dcbx.ieee.pfc.enable", uint64(vec))
			compared["lldp.dcbx.ieee.pfc.enable"]++
		}
		if apps, ok := theirs["lldp.dcbx.ieee.app.prio"]; ok || r.HasDCBX && r.DCBX.HasAppPriority {
			checkUint(t, r, "lldp.dcbx.ieee.app.entries", uint64(len(apps)))
			compared["lldp.dcbx.ieee.app.entries"]++
		}
	}
	n := 0
	for _, fd := range dump.Fields() {
		if len(fd.Name) > 10 && fd.Name[:10] == "lldp.dcbx." && fd.Name != "_dcbx_error" {
			if compared[fd.Name] == 0 {
				t.Errorf("%s never compared", fd.Name)
			}
			n += compared[fd.Name]
		}
	}
	t.Logf("%d DCBX values compared with tshark over %d frames (%d tshark names)", n, len(recs), len(names))
}

func equalStrings(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkUint checks that r's field name holds want.
func checkUint(t *testing.T, r *dump.Record, name string, want uint64) {
	t.Helper()
	f, _ := dump.LookupField(name)
	if v, ok := f.Get(r); !ok || v.U != want {
		t.Errorf("frame %d: %s = %d (present %v), tshark's fields say %d", r.Number, name, v.U, ok, want)
	}
}
