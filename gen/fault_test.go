package gen

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ib"
)

// withOptions returns DefaultConfig with the options set, by name.
func withOptions(t *testing.T, kv ...string) Config {
	t.Helper()
	c := DefaultConfig()
	for i := 0; i < len(kv); i += 2 {
		if err := c.Set(kv[i], kv[i+1]); err != nil {
			t.Fatalf("%s %s: %v", kv[i], kv[i+1], err)
		}
	}
	return c
}

// TestFaultsRefused: combinations the faults cannot have are refused,
// with the options named.
func TestFaultsRefused(t *testing.T) {
	for _, tc := range []struct {
		kv   []string
		name string
	}{
		{[]string{"transport", "uc", "loss", "0.1"}, "loss"},
		{[]string{"transport", "ud", "op", "send", "size", "1K", "dup", "0.1"}, "dup"},
		{[]string{"op", "cmp-swap", "loss-every", "3"}, "cmp-swap"},
		{[]string{"op", "flush", "ack-loss", "0.5"}, "flush"},
		{[]string{"ulp", "nvme", "op", "read", "size", "4K", "loss", "0.1"}, "ulp"},
		{[]string{"rnr", "0.5"}, "rnr"}, // RDMA WRITE takes no receive WQE
		{[]string{"op", "read", "rnr-every", "2"}, "rnr-every"},
		{[]string{"op", "send", "rnr", "1"}, "rnr-retry 7"},
		{[]string{"op", "send", "rnr-every", "1"}, "rnr-retry 7"},
		{[]string{"loss-where", "after"}, "loss-where"},
		{[]string{"loss", "0.1", "ack-timeout", "0"}, "ack-timeout"},
	} {
		_, err := New(withOptions(t, tc.kv...))
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%q: %v, want an ErrConfig naming %s", tc.kv, err, tc.name)
		}
	}
	for _, kv := range [][2]string{{"loss", "1.5"}, {"loss-burst", "3"}, {"loss-burst", "3@0"}, {"loss-where", "middle"},
		{"retry-cnt", "8"}, {"rnr-retry", "9"}, {"rnr-timer", "32"}, {"ack-timeout", "32"}} {
		c := DefaultConfig()
		if err := c.Set(kv[0], kv[1]); !errors.Is(err, ErrConfig) {
			t.Errorf("%s %s: %v, want ErrConfig", kv[0], kv[1], err)
		}
	}
}

// TestFaultOptionsRoundTrip: every fault option's text form sets it back.
func TestFaultOptionsRoundTrip(t *testing.T) {
	c := withOptions(t, "loss", "0.25", "loss-every", "9", "loss-burst", "4@17", "loss-where", "after", "ack-loss", "0.5",
		"dup", "0.125", "op", "send", "rnr", "0.5", "rnr-every", "3", "rnr-timer", "5", "ack-timeout", "10", "retry-cnt", "2", "rnr-retry", "1")
	want := Faults{Loss: 0.25, LossEvery: 9, LossBurst: 4, LossBurstAt: 17, LossAfter: true, AckLoss: 0.5, Dup: 0.125,
		RNR: 0.5, RNREvery: 3, RNRTimer: 5, Timeout: 10, RetryCnt: 2, RNRRetry: 1}
	if c.Faults != want {
		t.Fatalf("got %+v, want %+v", c.Faults, want)
	}
	d := DefaultConfig()
	for _, o := range faultOptions {
		if err := d.Set(o.Name, c.Get(o.Name)); err != nil {
			t.Fatalf("%s %q: %v", o.Name, c.Get(o.Name), err)
		}
	}
	if d.Faults != want {
		t.Fatalf("round trip: %+v, want %+v", d.Faults, want)
	}
}

// capture returns the frames of cfg as a pcap file's bytes.
func capture(t *testing.T, cfg Config) []byte {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := Write(&b, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFaultAttributesChangeNothing: the queue pair attributes alone
// (timeout, retry counts, RNR timer) leave the output as it was.
func TestFaultAttributesChangeNothing(t *testing.T) {
	for _, op := range []string{"write", "send", "read"} {
		base := capture(t, withOptions(t, "op", op, "qps", "3", "messages", "2", "ce-every", "5"))
		set := capture(t, withOptions(t, "op", op, "qps", "3", "messages", "2", "ce-every", "5",
			"ack-timeout", "3", "retry-cnt", "1", "rnr-retry", "0", "rnr-timer", "1", "loss", "0", "dup", "0"))
		if !bytes.Equal(base, set) {
			t.Errorf("%s: the capture changed", op)
		}
	}
}

// sent is a frame of the capture: its time, when it left the wire, its
// kind, PSN and AETH.
type sent struct {
	at   time.Time
	free time.Time
	kind Kind
	psn  uint32
	aeth ib.AETH
}

// runFaults returns the frames of cfg and the generator's counts.
func runFaults(t *testing.T, cfg Config) ([]sent, Stats) {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []sent
	var f roce.Frame
	for g.Next() {
		if err := f.Decode(g.Frame()); err != nil {
			if g.Kind() == KindCNP || g.Kind() == KindPFC {
				continue
			}
			t.Fatal(err)
		}
		out = append(out, sent{g.Time(), g.Free(), g.Kind(), f.Packet.BTH.PSN, f.Packet.AETH})
	}
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	return out, g.Stats()
}

// TestFaultTimeoutRetries: with every ACK lost (after the capture point,
// so that the capture shows them) the requester resends
// both messages after each local ACK timeout, 4.096 µs * 2^6 = 262.144 µs
// after the timer started (at the first send, then at each timeout),
// retry-cnt times, then goes to the error state and sends nothing more.
func TestFaultTimeoutRetries(t *testing.T) {
	frames, s := runFaults(t, withOptions(t, "ack-loss", "1", "messages", "2", "size", "4K", "retry-cnt", "3", "ack-timeout", "6", "loss-where", "after"))
	if s.Timeouts != 3 || s.Resent != 6 || s.QPErrors != 1 || s.EpisodesTimeout != 3 || s.AcksLost != 8 {
		t.Fatalf("stats %+v: want 3 timeouts, 6 resent, 1 queue pair in error, 8 ACKs lost (2 per round)", s)
	}
	var firsts []time.Time // the first request of each round
	for i, f := range frames {
		if f.kind == KindRequest && (i == 0 || frames[i-1].kind != KindRequest) {
			firsts = append(firsts, f.at)
		}
	}
	const timeout = 262144 * time.Nanosecond
	if len(firsts) != 4 {
		t.Fatalf("%d rounds of requests, want 4", len(firsts))
	}
	if d := firsts[1].Sub(frames[0].free); d != timeout {
		t.Errorf("first resend %v after the first request left the wire, want %v", d, timeout)
	}
	for i := 2; i < len(firsts); i++ {
		if d := firsts[i].Sub(firsts[i-1]); d != timeout {
			t.Errorf("round %d: %v after the one before, want %v", i, d, timeout)
		}
	}
	if last := frames[len(frames)-1]; last.kind != KindAck {
		t.Errorf("the capture ends with a %v, want the (lost) ACK of the last resend", last.kind)
	}
}

// TestFaultRNR: an RNR NAK carries the refused packet's PSN and the
// timer code, and the requester sends that packet again when the timer
// (IBTA Vol 1, Table 46: code 5 is 60 µs) has run from the NAK's end.
func TestFaultRNR(t *testing.T) {
	frames, s := runFaults(t, withOptions(t, "op", "send", "size", "8K", "messages", "4", "rnr-every", "2", "rnr-timer", "5"))
	// The 2nd packet needing a WQE is refused, the 4th (the 2nd's
	// resend is the 3rd) and the 6th: 3 RNR NAKs for 4 messages.
	if s.RNRNAKs != 3 || s.EpisodesRNR != 3 || s.QPErrors != 0 {
		t.Fatalf("stats %+v", s)
	}
	n := 0
	for i, f := range frames {
		if f.kind != KindAck || f.aeth.Type() != ib.RNRNak {
			continue
		}
		n++
		if f.aeth.Value() != 5 {
			t.Errorf("RNR NAK timer %d, want 5", f.aeth.Value())
		}
		for _, r := range frames[i+1:] {
			if r.kind == KindRequest {
				if r.psn != f.psn || r.at.Sub(f.free) != 60*time.Microsecond {
					t.Errorf("after the RNR NAK of PSN %d: PSN %d %v later, want the same PSN 60µs later", f.psn, r.psn, r.at.Sub(f.free))
				}
				break
			}
		}
	}
	if n != 3 {
		t.Errorf("%d RNR NAKs in the capture", n)
	}
}

// TestFaultNAK: a packet lost before the capture point is missing from
// it; the next one draws a NAK PSN Sequence Error of the lost PSN, and
// the requester resends from it everything it had sent.
func TestFaultNAK(t *testing.T) {
	frames, s := runFaults(t, withOptions(t, "size", "16K", "mtu", "1024", "loss-burst", "1@4", "psn", "100"))
	if s.Lost != 1 || s.LostUnseen != 1 || s.NAKs != 1 || s.EpisodesNAK != 1 || s.QPErrors != 0 {
		t.Fatalf("stats %+v", s)
	}
	var psns []uint32
	nak := -1
	for _, f := range frames {
		switch {
		case f.kind == KindRequest:
			psns = append(psns, f.psn)
		case f.aeth.Type() == ib.Nak:
			if f.psn != 103 {
				t.Errorf("NAK of PSN %d, want 103", f.psn)
			}
			nak = len(psns)
		}
	}
	if nak < 0 {
		t.Fatal("no NAK")
	}
	// 100-102, 104 up to the NAK, then 103 and everything after it again.
	for i, p := range psns[:nak] {
		want := uint32(100 + i)
		if i >= 3 {
			want++
		}
		if p != want {
			t.Fatalf("before the NAK: PSNs %v", psns[:nak])
		}
	}
	last := psns[nak-1]
	for i, p := range psns[nak : nak+int(last-102)] {
		if p != uint32(103+i) {
			t.Fatalf("after the NAK: PSNs %v, want 103 to %d again", psns[nak:], last)
		}
	}
	if s.Resent != int(last-102) {
		t.Errorf("resent %d, want %d", s.Resent, last-102)
	}
}
