package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// faultCases are generated captures with each fault, alone and combined
// with the other options, by their rocegen flags.
var faultCases = []struct {
	name string
	args []string
}{
	{"loss-every-before", []string{"loss-every", "10", "messages", "4"}},
	{"loss-every-after", []string{"loss-every", "10", "messages", "4", "loss-where", "after"}},
	{"loss-fraction", []string{"loss", "0.05", "messages", "20", "size", "16K", "qps", "2"}},
	{"loss-burst", []string{"loss-burst", "3@5", "messages", "3"}},
	{"send-loss-mtu", []string{"op", "send", "loss", "0.03", "messages", "10", "size", "8K", "qps", "2", "mtu", "2048"}},
	{"ack-loss", []string{"ack-loss", "0.5", "size", "4K", "qps", "6", "ack-timeout", "8"}},
	{"ack-loss-after", []string{"ack-loss", "0.5", "size", "4K", "qps", "6", "ack-timeout", "8", "loss-where", "after"}},
	{"ack-loss-qp-error", []string{"ack-loss", "1", "messages", "2", "size", "4K", "retry-cnt", "3", "ack-timeout", "6"}},
	{"dup", []string{"dup", "0.2", "messages", "10", "size", "16K"}},
	{"rnr-every", []string{"op", "send", "rnr-every", "3", "messages", "6", "size", "8K", "rnr-timer", "5"}},
	{"rnr-qp-error", []string{"op", "send", "rnr", "1", "rnr-retry", "2", "messages", "2", "rnr-timer", "1"}},
	{"read-loss", []string{"op", "read", "loss-every", "7", "messages", "4"}},
	{"read-loss-after", []string{"op", "read", "loss-every", "5", "messages", "2", "size", "8K", "mtu", "1024", "loss-where", "after"}},
	{"combined", []string{"op", "write-imm", "rnr-every", "4", "loss", "0.02", "qps", "3", "mtu", "1024", "size", "8K",
		"messages", "5", "ce-every", "7", "pfc-every", "20", "cm", "true"}},
}

// TestStatsFaults generates a capture with each fault and checks that
// rocedump -stats -json counts what rocegen says it did: the PSN gaps,
// PSNs missing and late packets the capture shows, the retransmissions
// and their go-back-N episodes by cause, the NAKs and RNR NAKs. Tshark
// is the second oracle: the AETH syndromes of the NAKs and RNR NAKs, and
// the retransmissions counted from its PSNs (a request PSN it showed
// before), must agree too.
func TestStatsFaults(t *testing.T) {
	for _, c := range faultCases {
		t.Run(c.name, func(t *testing.T) {
			cfg := gen.DefaultConfig()
			for i := 0; i < len(c.args); i += 2 {
				if err := cfg.Set(c.args[i], c.args[i+1]); err != nil {
					t.Fatal(err)
				}
			}
			path, s := writeFaults(t, cfg)
			st, out, errs := runCmd(t, nil, "-stats", "-json", path)
			if st != 0 {
				t.Fatalf("status %d: %s", st, errs)
			}
			var rep flow.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			var sum flow.Stats
			for _, f := range rep.Flows {
				if f.Transport != "RC" {
					continue
				}
				x := &f.Stats
				sum.PSNGaps += x.PSNGaps
				sum.PSNMissing += x.PSNMissing
				sum.OutOfOrder += x.OutOfOrder
				sum.Duplicates += x.Duplicates
				sum.Retransmitted += x.Retransmitted
				sum.GBNNakSeq += x.GBNNakSeq
				sum.GBNRNR += x.GBNRNR
				sum.GBNTimeout += x.GBNTimeout
				sum.NAKTotal += x.NAKTotal
				for _, n := range f.NAKs {
					if n.Code == int(ib.NakPSNSequenceError) {
						sum.NAKs[ib.NakPSNSequenceError] += n.Count
					}
				}
				sum.RNRNAKs += x.RNRNAKs
			}
			t.Logf("rocegen %+v", s)
			check := func(what string, got uint64, want int) {
				t.Helper()
				if got != uint64(want) {
					t.Errorf("%s: rocedump %d, rocegen %d", what, got, want)
				}
			}
			check("psn_gaps", sum.PSNGaps, s.PSNGaps)
			check("psn_missing", sum.PSNMissing, s.PSNMissing)
			check("psn_out_of_order", sum.OutOfOrder, s.OutOfOrder)
			check("retransmitted", sum.Retransmitted, s.ResentSeen+s.Duplicated)
			check("psn_duplicates", sum.Duplicates, s.ResentSeen+s.Duplicated)
			check("naks", sum.NAKTotal, s.NAKs)
			check("naks PSN Sequence Error", sum.NAKs[ib.NakPSNSequenceError], s.NAKs)
			check("rnr_naks", sum.RNRNAKs, s.RNRNAKs)
			episodes := s.EpisodesNAK + s.EpisodesRNR + s.EpisodesTimeout + s.EpisodesReadGap
			switch {
			case s.Duplicated > 0:
				// A duplicate looks like a resend of its own to
				// the capture, the requester told by nothing.
				check("gbn_episodes_timeout", sum.GBNTimeout, s.Duplicated)
			case s.EpisodesShown == episodes:
				check("gbn_episodes_nak_seq", sum.GBNNakSeq, s.EpisodesNAK)
				check("gbn_episodes_rnr_nak", sum.GBNRNR, s.EpisodesRNR)
				check("gbn_episodes_timeout", sum.GBNTimeout, s.EpisodesTimeout+s.EpisodesReadGap)
			default:
				check("gbn_episodes", sum.GBNNakSeq+sum.GBNRNR+sum.GBNTimeout, s.EpisodesShown)
			}
			if episodes == 0 && s.Duplicated == 0 {
				t.Errorf("no fault happened: %+v", s)
			}
			tsharkFaults(t, path, cfg, s)
		})
	}
}

// writeFaults writes the capture of cfg in a temporary directory and
// returns its path and what the generator did.
func writeFaults(t *testing.T, cfg gen.Config) (string, gen.Stats) {
	t.Helper()
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "faults.pcap")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := gen.Write(f, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	return path, g.Stats()
}

// tsharkFaults checks the frames against tshark: the syndromes of the
// NAKs (opcode 3, error code 0: PSN Sequence Error) and RNR NAKs
// (opcode 1, the timer asked for), each RNR NAK's packet sent again no
// sooner than the timer says (IBTA Vol 1, Table 46), and the
// retransmissions: requests at a PSN tshark showed before, per queue
// pair (a READ Request for the rest of a read is at a PSN of that
// read's responses, which it does not count here).
func tsharkFaults(t *testing.T, path string, cfg gen.Config, s gen.Stats) {
	t.Helper()
	names := []string{"frame.time_epoch", "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
		"infiniband.aeth.syndrome.opcode", "infiniband.aeth.syndrome.error_code", "infiniband.aeth.syndrome.timer"}
	frames := oracle.TsharkFields(t, path, names)
	first := func(m map[string][]string, k string) string {
		if v := m[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	naks, rnrs, rexmit := 0, 0, 0
	seen := map[string]bool{}
	rnrAt := map[string]float64{} // by QP and PSN: when its RNR NAK came
	wantTimer := strconv.Itoa(int(cfg.Faults.RNRTimer))
	rnrDelay := (&ib.AETH{Syndrome: 0x20 | cfg.Faults.RNRTimer}).RNRDelay()
	for _, m := range frames {
		op, err := strconv.Atoi(first(m, "infiniband.bth.opcode"))
		if err != nil || first(m, "infiniband.bth.destqp") == "0x000001" || ib.Opcode(op).Is(ib.ClassCNP) {
			continue // not RoCE, or CM, or a CNP
		}
		qp, psn := first(m, "infiniband.bth.destqp"), first(m, "infiniband.bth.psn")
		at, _ := strconv.ParseFloat(first(m, "frame.time_epoch"), 64)
		o := ib.Opcode(op)
		if o.IsRequest() {
			key := qp + " " + psn
			if seen[key] {
				rexmit++
			}
			seen[key] = true
			if t0, ok := rnrAt[key]; ok {
				if wait := time.Duration((at - t0) * 1e9); wait < rnrDelay-time.Microsecond {
					t.Errorf("qp %s psn %s sent again %v after its RNR NAK, sooner than the timer's %v", qp, psn, wait, rnrDelay)
				}
				delete(rnrAt, key)
			}
			continue
		}
		switch first(m, "infiniband.aeth.syndrome.opcode") {
		case "3":
			naks++
			if e := first(m, "infiniband.aeth.syndrome.error_code"); e != "0" {
				t.Errorf("NAK with error code %s, want 0 (PSN Sequence Error)", e)
			}
		case "1":
			rnrs++
			if tm := first(m, "infiniband.aeth.syndrome.timer"); tm != wantTimer {
				t.Errorf("RNR NAK timer %s, want %s", tm, wantTimer)
			}
			// The RNR NAK goes to the requester's QP, the resend to the
			// responder's: the requests of queue pair i go to RemoteQP+i.
			q, _ := strconv.ParseUint(qp, 0, 32)
			rnrAt["0x"+hex6(q-uint64(cfg.LocalQP)+uint64(cfg.RemoteQP))+" "+psn] = at
		}
	}
	if naks != s.NAKs || rnrs != s.RNRNAKs {
		t.Errorf("tshark: %d NAKs and %d RNR NAKs; rocegen %d and %d", naks, rnrs, s.NAKs, s.RNRNAKs)
	}
	if cfg.Op != gen.OpRead && rexmit != s.ResentSeen+s.Duplicated {
		t.Errorf("tshark: %d requests at a PSN shown before; rocegen %d resent + %d duplicated", rexmit, s.ResentSeen, s.Duplicated)
	}
}

func hex6(v uint64) string {
	s := strconv.FormatUint(v, 16)
	for len(s) < 6 {
		s = "0" + s
	}
	return s
}
