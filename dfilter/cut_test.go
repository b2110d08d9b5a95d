package dfilter_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/dfilter"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestCutFrames runs filters over the first 400 frames of a capture cut
// by editcap -s at snap lengths from the end of the BTH to past the
// RETH, on each side of each field's end (the RDMA WRITE Only frames' RETH runs from byte 54 to 70: VA to
// 62, R_Key to 66, DMA length to 70; the Acknowledges' AETH from 54 to
// 58, its syndrome to 55). Filters on the BTH and on headers the capture
// kept whole select what tshark -Y selects on the same cut file; a RETH
// or AETH field is there exactly when its bytes were captured (where
// tshark 4.0 shows no field of a header that is not whole).
func TestCutFrames(t *testing.T) {
	tshark := oracle.Need(t, "tshark")
	editcap := oracle.Need(t, "editcap")
	src := filepath.Join(t.TempDir(), "first.pcap")
	if out, err := exec.Command(editcap, "-F", "pcap", "-r", corpus.Path("captures", "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"),
		src, "1-400").CombinedOutput(); err != nil {
		t.Fatalf("editcap: %v\n%s", err, out)
	}
	same := []string{"infiniband.bth.opcode == 10", "infiniband.bth.opcode == 17", "infiniband.bth.psn > 6189700",
		"infiniband.bth.a == 1 && infiniband.bth.destqp == 0xcf", "infiniband.aeth.msn >= 2"}
	ends := map[string]int{"infiniband.reth": 62, "infiniband.reth.va": 62, "infiniband.reth.r_key": 66,
		"infiniband.reth.dmalen": 70, "infiniband.reth.dmalen == 2": 70,
		"infiniband.aeth": 55, "infiniband.aeth.syndrome == 0": 55, "infiniband.aeth.msn": 58}
	for _, snap := range []int{54, 55, 57, 58, 61, 62, 65, 66, 69, 70, 74} { // each side of each field's end
		path := filepath.Join(t.TempDir(), "cut.pcap")
		if out, err := exec.Command(editcap, "-F", "pcap", "-s", strconv.Itoa(snap), src, path).CombinedOutput(); err != nil {
			t.Fatalf("editcap: %v\n%s", err, out)
		}
		recs := testcaps.Records(t, path)
		count := func(expr string) int {
			f, err := dfilter.Compile(expr)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for i := range recs {
				if f.Match(&recs[i]) {
					n++
				}
			}
			return n
		}
		for _, expr := range same {
			cmd := exec.Command(tshark, "-n", "-r", path, "-Y", expr, "-T", "fields", "-e", "frame.number",
				"--disable-protocol", "pppmux", "--disable-protocol", "crtp")
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("tshark -Y %q: %v", expr, err)
			}
			want := strings.Count(string(out), "\n")
			if got := count(expr); got != want {
				t.Errorf("-s %d: %q selects %d frames, tshark -Y %d", snap, expr, got, want)
			}
		}
		writes, acks := count("infiniband.bth.opcode == 10"), count("infiniband.bth.opcode == 17")
		if writes+acks != 400 {
			t.Fatalf("-s %d: %d RDMA WRITE and %d Acknowledge frames", snap, writes, acks)
		}
		for expr, end := range ends {
			want := 0
			switch {
			case snap < end:
			case strings.HasPrefix(expr, "infiniband.reth"):
				want = writes
			default:
				want = acks
			}
			if got := count(expr); got != want {
				t.Errorf("-s %d: %q selects %d frames, want %d", snap, expr, got, want)
			}
		}
	}
}
