package dump_test

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestTsharkServiceRecordBlocks compares the ServiceRecord keys whose
// values tshark 4.0 shows in another form: servicedata8, 16, 32 and 64
// with its four values of infiniband.linkrecord.servicedata, in order,
// and servicename with its infiniband.linkrecord.servicename bytes up to
// the first NUL (IBTA Vol 1 15.2.5.14: 64 bytes, UTF-8, NUL padded).
func TestTsharkServiceRecordBlocks(t *testing.T) {
	path := testcaps.WriteGoldenSMP(t, t.TempDir())
	ts := oracle.TsharkFields(t, path, []string{"infiniband.linkrecord.servicedata", "infiniband.linkrecord.servicename"})
	out, _ := runDump(t, path, dump.Options{JSON: true})
	n := 0
	for i, o := range parseLines(t, out) {
		name, ok := o["infiniband.servicerecord.servicename"]
		if !ok {
			continue
		}
		blocks := ts[i]["infiniband.linkrecord.servicedata"]
		if len(blocks) != 4 {
			t.Fatalf("frame %d: tshark shows %d ServiceData blocks, want 4", i+1, len(blocks))
		}
		for j, k := range []string{"servicedata8", "servicedata16", "servicedata32", "servicedata64"} {
			if got := o["infiniband.servicerecord."+k]; got != strings.ReplaceAll(blocks[j], ":", "") {
				t.Errorf("frame %d: %s = %v, tshark's block %d %s", i+1, k, got, j, blocks[j])
			}
			n++
		}
		raw, err := hex.DecodeString(strings.ReplaceAll(strings.Join(ts[i]["infiniband.linkrecord.servicename"], ""), ":", ""))
		if err != nil || len(raw) != 64 {
			t.Fatalf("frame %d: tshark's servicename %v: %v", i+1, ts[i]["infiniband.linkrecord.servicename"], err)
		}
		if text, _, _ := bytes.Cut(raw, []byte{0}); name != string(text) {
			t.Errorf("frame %d: servicename = %v, tshark's bytes %q", i+1, name, text)
		}
		n++
	}
	if n != 5 {
		t.Errorf("%d values compared, want 5 (one ServiceRecord)", n)
	}
}

// TestSAOptionsAtItsOffset checks infiniband.sa.options, which tshark
// 4.0 shows as reserved, against the byte the IBTA layout puts it in:
// byte 3 of the PortInfoRecord (IBTA Vol 1 15.2.5.3), the record at byte
// 56 of the MAD (24-byte MAD header, 12-byte RMPP header, 20-byte SA
// header: 15.2.1.1).
func TestSAOptionsAtItsOffset(t *testing.T) {
	path := testcaps.WriteGoldenSMP(t, t.TempDir())
	out, _ := runDump(t, path, dump.Options{JSON: true})
	mads := testcaps.MADs(t)
	n := 0
	for i, o := range parseLines(t, out) {
		v, ok := o["infiniband.sa.options"]
		if !ok {
			continue
		}
		if want := strconv.Itoa(int(mads[i][56+3])); !sameValue("infiniband.sa.options", v, want) {
			t.Errorf("frame %d: sa.options = %v, byte 59 of the MAD %s", i+1, v, want)
		}
		n++
	}
	if n != 3 { // the PortInfoRecord GetTable response and its two segments
		t.Errorf("%d PortInfoRecords, want 3", n)
	}
}
