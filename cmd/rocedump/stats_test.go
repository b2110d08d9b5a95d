package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
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

// genCapture writes what gen makes of cfg to a pcap file and returns its
// path and gen's own counts.
func genCapture(t *testing.T, cfg gen.Config) (string, gen.Stats) {
	t.Helper()
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(&b, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gen.pcap")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, g.Stats()
}

// TestStatsDiagnosis: -stats on a generated capture with CE marks, CNPs
// and pauses: the JSON totals are the text summary line's numbers, every
// CE mark's delay to its CNP is gen's Delay, -cnp-interval and
// -pfc-storm reach the analysis, and bad values are refused.
func TestStatsDiagnosis(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery = 4096, 1024, 20, 4, 3
	cfg.PFCEvery, cfg.PFCPrio, cfg.PFCQuanta = 50, 3, 65535
	path, gs := genCapture(t, cfg)

	st, out, errs := runCmd(t, nil, "-stats", "-cnp-interval", "0", path)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	last := lines(out)[len(lines(out))-1]
	_, js, _ := runCmd(t, nil, "-stats", "-json", "-cnp-interval", "0", "-pfc-storm", "1us", path)
	var r flow.Report
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatal(err)
	}
	if r.Totals == nil {
		t.Fatal("no totals")
	}
	tt := r.Totals
	want := fmt.Sprintf("frames %d: RoCE %d, InfiniBand %d, MAC Control %d, not RoCE %d, malformed %d, unsupported %d, bad ICRC %d, ICRC unchecked %d, unreadable %d",
		tt.Frames, tt.RoCE, tt.InfiniBand, tt.MACControl, tt.NotRoCE, tt.Malformed, tt.Unsupported, tt.BadICRC, tt.ICRCUnchecked, tt.Unreadable)
	if last != want || tt.Frames != gs.Frames || tt.MACControl != gs.PFC {
		t.Errorf("text %q\njson %q\ngen %+v", last, want, gs)
	}
	if r.CNPInterval >= 0 || r.PFCStorm != time.Microsecond {
		t.Errorf("thresholds %v %v", r.CNPInterval, r.PFCStorm)
	}
	var ce, delays uint64
	for _, f := range r.Flows {
		if f.Latency != nil && f.Latency.CEToCNP != nil {
			l := f.Latency.CEToCNP
			delays += l.Count
			if l.Min < cfg.Delay || l.Max > cfg.Delay+time.Microsecond {
				t.Errorf("flow %s > %s qp %#x: CE to CNP %+v, gen's delay %v", f.Src, f.Dst, f.QP, l, cfg.Delay)
			}
		}
		ce += f.CE
	}
	// CNPs that come before their connection's first ACK (a few per
	// QP) cannot be told whose they are yet: they give no delay.
	if ce != uint64(gs.CE) || delays > uint64(gs.CNPs) || delays+uint64(2*cfg.QPs) < uint64(gs.CNPs) {
		t.Errorf("%d CE marks, %d CE-to-CNP delays; gen wrote %d CE marks, %d CNPs", ce, delays, gs.CE, gs.CNPs)
	}
	if len(r.PFC) == 0 || !r.PFC[0].Storm || r.PFC[0].LongestPause == 0 {
		t.Errorf("PFC %+v", r.PFC)
	}
	if !strings.Contains(out, "latency ce-to-cnp") || !strings.Contains(out, "longest") {
		t.Errorf("text report:\n%s", out)
	}
	for _, bad := range [][]string{{"-cnp-interval", "-1us"}, {"-cnp-interval", "x"}, {"-pfc-storm", "0"}} {
		if st, _, errs := runCmd(t, nil, append(bad, "-stats", path)...); st != 2 || errs == "" {
			t.Errorf("%v: status %d, stderr %q", bad, st, errs)
		}
	}
}

// psnView is what a per-flow summary says about PSNs, pairing and
// answers: what must not change when the capture keeps only the
// headers.
type psnView struct {
	Frames, Bytes, Messages                              uint64
	MTU                                                  uint32
	Gaps, Missing, Dups, OOO, Retransmitted              uint64
	Reads, ReadsMatched, ReadsIncomplete, ReadsUnmatched uint64
	Atomics, AtomicsMatched, NAKs, RNRNAKs, CE, CNPs     uint64
	Peer                                                 string
}

func psnViews(t *testing.T, path string) (map[string]psnView, flow.Report) {
	t.Helper()
	st, out, errs := runCmd(t, nil, "-stats", "-json", path)
	if st != 0 {
		t.Fatalf("%s: status %d: %s", path, st, errs)
	}
	var r flow.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	m := map[string]psnView{}
	for _, f := range r.Flows {
		s := f.Stats
		m[f.Transport+" "+f.Src+" > "+f.Dst+" "+strconv.FormatUint(uint64(f.QP), 16)] = psnView{
			s.Frames, s.Bytes, s.Messages, s.MTU, s.PSNGaps, s.PSNMissing, s.Duplicates, s.OutOfOrder, s.Retransmitted,
			s.Reads, s.ReadsMatched, s.ReadsIncomplete, s.ReadResponsesUnmatched, s.Atomics, s.AtomicsMatched,
			s.NAKTotal, s.RNRNAKs, s.CE, s.CNPs, f.Peer}
	}
	return m, r
}

// TestStatsSnapLength: every shipped capture and generated ones (writes,
// reads, atomics, CE marks and CNPs), cut by editcap -s N to N bytes a
// frame for several N that keep the headers, give the same per-flow
// PSN, pairing and answer counts as the whole capture, and exit 0.
func TestStatsSnapLength(t *testing.T) {
	editcap := oracle.Need(t, "editcap")
	paths := []string{}
	for _, c := range captures {
		paths = append(paths, filepath.Join(capDir, c.name))
	}
	for _, set := range []func(c *gen.Config){
		func(c *gen.Config) { c.Size, c.MTU, c.QPs, c.Messages, c.CEEvery = 4096, 1024, 4, 5, 4 },
		func(c *gen.Config) { c.Op, c.Size, c.MTU, c.QPs, c.Messages, c.PSN = gen.OpRead, 3000, 1024, 4, 3, -1 },
		func(c *gen.Config) { c.Op, c.QPs, c.Messages = gen.OpCmpSwap, 3, 4 },
		func(c *gen.Config) { c.Op, c.Size, c.MTU, c.Encap, c.VLAN = gen.OpSend, 2048, 512, ib.RoCEv2IPv6, 10 },
	} {
		cfg := gen.DefaultConfig()
		set(&cfg)
		p, _ := genCapture(t, cfg)
		q := filepath.Join(t.TempDir(), filepath.Base(p))
		if err := os.Rename(p, q); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, q)
	}
	unchecked := 0
	for _, path := range paths {
		full, _ := psnViews(t, path)
		for _, n := range []int{96, 128, 200} {
			cut := filepath.Join(t.TempDir(), "cut.pcap")
			if out, err := exec.Command(editcap, "-s", strconv.Itoa(n), path, cut).CombinedOutput(); err != nil {
				t.Fatalf("editcap: %v: %s", err, out)
			}
			got, r := psnViews(t, cut)
			if !reflect.DeepEqual(got, full) {
				for k, v := range full {
					if got[k] != v {
						t.Errorf("%s -s %d: flow %s\n cut %+v\nfull %+v", filepath.Base(path), n, k, got[k], v)
					}
				}
				if len(got) != len(full) {
					t.Errorf("%s -s %d: %d flows, whole capture %d", filepath.Base(path), n, len(got), len(full))
				}
			}
			unchecked += r.Totals.ICRCUnchecked
			if r.Totals.Malformed != 0 {
				t.Errorf("%s -s %d: %d malformed", filepath.Base(path), n, r.Totals.Malformed)
			}
		}
	}
	if unchecked < 500 {
		t.Errorf("only %d frames cut: the test cuts too little", unchecked)
	}
	t.Logf("%d frames cut after their headers", unchecked)
}
