package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/internal/oracle"
)

// TestStatsVsTshark checks the per-flow frame counts of -stats -json on
// every real capture against the frames tshark shows per (source,
// destination, destination QP).
func TestStatsVsTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(capDir, c.name)
			st, out, errs := runCmd(t, nil, "-stats", "-json", path)
			if st != 0 {
				t.Fatalf("status %d: %s", st, errs)
			}
			var rep flow.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			want := map[string]uint64{}
			for _, f := range oracle.Tshark(t, path, "--disable-protocol", "tftp") {
				qp, ok := f.First("infiniband.bth.destqp")
				if !ok {
					continue
				}
				src, _ := f.First("ip.src")
				dst, _ := f.First("ip.dst")
				if slid, ok := f.First("infiniband.lrh.slid"); ok {
					s, _ := strconv.Atoi(slid)
					d, _ := f.First("infiniband.lrh.dlid")
					dd, _ := strconv.Atoi(d)
					src, dst = "lid 0x"+hex4(s), "lid 0x"+hex4(dd)
				}
				q, _ := strconv.ParseUint(qp, 0, 32)
				want[src+" "+dst+" "+strconv.FormatUint(q, 10)]++
			}
			got := map[string]uint64{}
			for _, f := range rep.Flows {
				got[f.Src+" "+f.Dst+" "+strconv.FormatUint(uint64(f.QP), 10)] = f.Frames
			}
			if len(got) != len(want) {
				t.Errorf("%d flows, tshark %d: %v vs %v", len(got), len(want), got, want)
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("flow %s: %d frames, tshark %d", k, got[k], n)
				}
			}
			t.Logf("%d flows agree with tshark", len(want))
		})
	}
}

func hex4(v int) string {
	s := strconv.FormatInt(int64(v), 16)
	return strings.Repeat("0", 4-len(s)) + s
}

// TestStatsCaptures checks -stats summaries against what the capture
// README says: the 4k capture holds 2000 RDMA WRITE Only and 2000 ACKs on
// two QPs (both directions write), ECT(0), no loss; rxe_a has one RDMA
// READ of 4096 bytes answered by First, two Middle and Last at MTU 1024.
func TestStatsCaptures(t *testing.T) {
	rep := func(name string) flow.Report {
		st, out, errs := runCmd(t, nil, "-stats", "-json", filepath.Join(capDir, name))
		if st != 0 {
			t.Fatalf("%s: status %d: %s", name, st, errs)
		}
		var r flow.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := rep("rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap")
	var frames, msgs, gaps, ce uint64
	for _, f := range r.Flows {
		frames += f.Frames
		msgs += f.Messages
		gaps += f.PSNGaps + f.Duplicates + f.OutOfOrder
		ce += f.CE
		if f.Peer == "" || f.SrcQP == nil {
			t.Errorf("flow %s > %s qp %#x not paired", f.Src, f.Dst, f.QP)
		}
	}
	if len(r.Flows) != 2 || frames != 4000 || msgs != 2000 || gaps != 0 || ce != 0 {
		t.Errorf("4k: %d flows, %d frames, %d messages, %d PSN anomalies, %d CE", len(r.Flows), frames, msgs, gaps, ce)
	}
	r = rep("rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	var reads, matched uint64
	for _, f := range r.Flows {
		reads += f.Reads
		matched += f.ReadsMatched
		if f.Transport == "RC" && f.Messages > 0 && f.MTU != 1024 && f.Reads == 0 {
			t.Errorf("flow %+v: MTU %d", f, f.MTU)
		}
	}
	if reads != 1 || matched != 1 {
		t.Errorf("rxe_a: %d reads, %d matched", reads, matched)
	}
	// Text mode works too and ends with the frame summary.
	st, out, _ := runCmd(t, nil, "-stats", filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	if st != 0 || !strings.Contains(out, "frames 43: RoCE 0, InfiniBand 43,") {
		t.Errorf("status %d, output:\n%s", st, out)
	}
}

func TestFilters(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	// testdata/captures/README.md: UD SEND Only x5 to QP 1, seven RC
	// frames to QP 0x11 (READ Response Middle x2).
	for _, tc := range []struct {
		args []string
		n    int
	}{
		{[]string{"-qp", "0x11"}, 7},
		{[]string{"-qp", "17"}, 7},
		{[]string{"-qp", "1"}, 5},
		{[]string{"-opcode", "rc rdma read response middle"}, 2},
		{[]string{"-opcode", "RC_RDMA_READ_Response_Middle"}, 2},
		{[]string{"-opcode", "14"}, 2},
		{[]string{"-opcode", "UD SEND Only", "-qp", "0x11"}, 0},
		{[]string{"-c", "3"}, 3},
		{[]string{"-c", "2", "-qp", "0x11"}, 2},
	} {
		st, out, errs := runCmd(t, nil, append(tc.args, path)...)
		if st != 0 || len(lines(out)) != tc.n {
			t.Errorf("%v: status %d, %d lines, want %d (%s)", tc.args, st, len(lines(out)), tc.n, errs)
		}
	}
	for _, bad := range [][]string{{"-opcode", "RC FOO"}, {"-qp", "0x1000000"}, {"-qp", "x"}, {"-speed", "fast"}, {"-speed", "100k"}, {"-c", "-1"}} {
		if st, _, errs := runCmd(t, nil, append(bad, path)...); st != 2 || errs == "" {
			t.Errorf("%v: status %d, stderr %q; want 2 and a message", bad, st, errs)
		}
	}
	for _, speed := range []string{"1g", "2.5G", "25Gb/s"} {
		if st, out, errs := runCmd(t, nil, "-speed", speed, path); st != 0 || len(lines(out)) != 12 {
			t.Errorf("-speed %s: status %d, %d lines (%s)", speed, st, len(lines(out)), errs)
		}
	}
}

// TestUnknownLinkType checks a capture of a link type rocedump does not
// decode: one line per frame saying so, exit status 2.
func TestUnknownLinkType(t *testing.T) {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, 0xa1b2c3d4)
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint16(b, 4)
	b = append(b, make([]byte, 8)...)
	b = binary.LittleEndian.AppendUint32(b, 65535)
	b = binary.LittleEndian.AppendUint32(b, 147) // LINKTYPE_USER0
	for i := 0; i < 3; i++ {
		b = binary.LittleEndian.AppendUint32(b, uint32(i))
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, 4)
		b = binary.LittleEndian.AppendUint32(b, 4)
		b = append(b, 1, 2, 3, 4)
	}
	path := filepath.Join(t.TempDir(), "user0.pcap")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, errs := runCmd(t, nil, path)
	if st != 2 || len(lines(out)) != 3 || !strings.Contains(out, "link type 147 not supported yet") || !strings.Contains(errs, "3 frames of a link type") {
		t.Errorf("status %d, out %q, stderr %q", st, out, errs)
	}
	st, out, _ = runCmd(t, nil, "-stats", path)
	if st != 2 || !strings.Contains(out, "unsupported 3") {
		t.Errorf("-stats: status %d, out %q", st, out)
	}
}
