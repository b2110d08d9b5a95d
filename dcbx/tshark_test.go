package dcbx_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// fieldList collects the values we expect tshark to show, per field, in
// the order of the TLVs.
type fieldList map[string][]string

func (f fieldList) add(k string, v uint64) { f[k] = append(f[k], strconv.FormatUint(v, 10)) }

func (f fieldList) flag(k string, on bool) {
	if on {
		f.add(k, 1)
	} else {
		f.add(k, 0)
	}
}

// tables adds the three ETS tables under tshark 4.0's names, which are
// those of the pre-IEEE DCBX's priority groups for the first two.
func (f fieldList) tables(t *dcbx.ETSTables) {
	for i := 0; i < 8; i++ {
		f.add("lldp.dcbx.feature.pg.pgid_prio"+strconv.Itoa(i), uint64(t.PriorityTC[i]))
	}
	for i := 0; i < 8; i++ {
		f.add("lldp.dcbx.feature.pg.per"+strconv.Itoa(i), uint64(t.Bandwidth[i]))
	}
	for i := 0; i < 8; i++ {
		f.add("lldp.dcbx.ieee.ets.tsa"+strconv.Itoa(i), uint64(t.TSA[i]))
	}
}

// expectFields decodes each DCBX TLV of an LLDPDU on its own and lists
// what tshark should show of it.
func expectFields(t *testing.T, pdu []byte) fieldList {
	f := fieldList{}
	for _, v := range tlvs(t, pdu) {
		if v[0]>>1 == dcbx.TLVTypeOrg && v[2] == 0x00 && v[3] == 0x80 && v[4] == 0xc2 {
			f.add("lldp.ieee.802_1.subtype", uint64(v[5]))
		}
		var d dcbx.TLVs
		ok, err := d.DecodeTLV(v[0]>>1, v[2:])
		require.NoError(t, err)
		switch {
		case !ok:
		case d.HasETSConfig:
			e := &d.ETSConfig
			f.flag("lldp.dcbx.ieee.willing", e.Willing)
			f.flag("lldp.dcbx.ieee.ets.cbs", e.CBS)
			f.add("lldp.dcbx.ieee.ets.maxtcs", uint64(e.MaxTCs))
			f.tables(&e.ETSTables)
		case d.HasETSRecommendation:
			f.add("lldp.dcbx.feature.pg.reserved", uint64(d.ETSRecommendation.Reserved))
			f.tables(&d.ETSRecommendation.ETSTables)
		case d.HasPFCConfig:
			p := &d.PFCConfig
			f.flag("lldp.dcbx.ieee.willing", p.Willing)
			f.flag("lldp.dcbx.ieee.pfc.mbc", p.MBC)
			f.add("lldp.dcbx.ieee.pfc.numtcs", uint64(p.Cap))
			for i := 0; i < 8; i++ {
				f.flag("lldp.dcbx.feature.pfc.prio"+strconv.Itoa(i), p.Enabled(i))
			}
		case d.HasAppPriority:
			a := &d.AppPriority
			f.add("lldp.dcbx.ieee.app.reserved", uint64(a.Reserved))
			for i := 0; i < a.Entries(); i++ {
				e := a.Entry(i)
				f.add("lldp.dcbx.ieee.app.prio", uint64(e.Priority))
				f.add("lldp.dcbx.iee.app.sf", uint64(e.Sel)) // tshark 4.0 spells it "iee"
				f.add("lldp.dcbx.feature.app.proto", uint64(e.Protocol))
			}
		}
	}
	return f
}

// TestTshark compares every DCBX field tshark 4.0 shows for the golden
// frames with our decoding, value by value and in order, and checks that
// tshark shows no DCBX field we do not compare.
//
// tshark is off in one field: it shows the ETS Recommendation's reserved
// byte (lldp.dcbx.feature.pg.reserved) through the mask 0xfe of the
// pre-IEEE DCBX field it reuses, so it shows the byte shifted right by
// one; the test expects that of it.
func TestTshark(t *testing.T) {
	frames := goldenFrames()
	wants := make([]fieldList, len(frames))
	seen := map[string]bool{}
	for i, fr := range frames {
		wants[i] = expectFields(t, lldpdu(fr))
		if r, ok := wants[i]["lldp.dcbx.feature.pg.reserved"]; ok {
			for j, v := range r {
				n, _ := strconv.ParseUint(v, 10, 8)
				r[j] = strconv.FormatUint(n>>1, 10)
			}
		}
		for k := range wants[i] {
			seen[k] = true
		}
	}
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	got := oracle.TsharkFields(t, goldenPcap, names)
	shown := oracle.Tshark(t, goldenPcap)
	require.Len(t, got, len(frames))
	values := 0
	for i := range frames {
		for _, k := range names {
			assert.True(t, oracle.SameValues(got[i][k], wants[i][k], true), "frame %d %s: tshark %v, we %v", i+1, k, got[i][k], wants[i][k])
			values += len(wants[i][k])
		}
		for k := range shown[i] {
			if strings.HasPrefix(k, "lldp.dcbx.") || k == "lldp.ieee.802_1.subtype" {
				assert.True(t, seen[k], "frame %d: tshark shows %s = %v, we compare none", i+1, k, shown[i][k])
			}
		}
	}
	t.Logf("%d values of %d tshark fields compared over %d frames", values, len(names), len(frames))
}
