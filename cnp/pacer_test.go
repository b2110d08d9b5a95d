package cnp_test

import (
	"testing"
	"time"

	"github.com/roce-go/roce/cnp"
)

func TestPacerInterval(t *testing.T) {
	const us = int64(time.Microsecond)
	p := cnp.NewPacer(0, 0+cnp.DefaultInterval)
	if p.Interval() != 4*time.Microsecond || p.Cap() != cnp.DefaultCapacity {
		t.Fatalf("defaults: interval %v, capacity %d", p.Interval(), p.Cap())
	}
	t0 := int64(1_000_000_000)
	steps := []struct {
		qp   uint32
		at   int64
		want bool
	}{
		{7, t0, true},               // first CNP
		{7, t0 + 1, false},          // 1 ns later
		{7, t0 + 4*us - 1, false},   // just inside the interval
		{8, t0 + 4*us - 1, true},    // another QP is independent
		{7, t0 + 4*us, true},        // exactly one interval: allowed
		{7, t0 + 5*us, false},       // the interval restarts from the last allowed CNP
		{7, t0 + 8*us - 1, false},   //
		{7, t0 + 8*us, true},        //
		{8, t0 + 8*us - 1, true},    // 8's interval ran from t0+4us-1
		{7, t0 + 100*us, true},      // long idle
		{7, t0 + 50*us, true},       // clock stepped back: a new start
		{7, t0 + 50*us + 10, false}, //
	}
	for i, s := range steps {
		if got := p.Allow(s.qp, s.at); got != s.want {
			t.Fatalf("step %d: Allow(%d, t0+%dns) = %v, want %v", i, s.qp, s.at-t0, got, s.want)
		}
	}
	if p.Len() != 2 {
		t.Fatalf("Len = %d, want 2", p.Len())
	}
}

func TestPacerZeroInterval(t *testing.T) {
	p := cnp.NewPacer(8, 0)
	for i := range 100 {
		if !p.Allow(1, int64(i)) {
			t.Fatal("a zero interval refused a CNP")
		}
	}
}

// TestPacerEvictsStalest fills a table of 8 (one neighbourhood) with QPs
// still inside their interval: a new QP evicts the one whose last CNP is
// the oldest, and only that one.
func TestPacerEvictsStalest(t *testing.T) {
	p := cnp.NewPacer(8, 1000)
	if p.Cap() != 8 {
		t.Fatalf("Cap = %d", p.Cap())
	}
	for qp := uint32(1); qp <= 8; qp++ {
		if !p.Allow(qp, int64(qp)) { // QP n's last CNP at time n
			t.Fatalf("first CNP of %d refused", qp)
		}
	}
	if !p.Allow(9, 10) {
		t.Fatal("new QP refused on a full table")
	}
	if p.Len() != 8 {
		t.Fatalf("Len = %d, want 8", p.Len())
	}
	for qp := uint32(2); qp <= 9; qp++ {
		if p.Allow(qp, 11) {
			t.Fatalf("QP %d was evicted; only QP 1 (the stalest) should be", qp)
		}
	}
	if !p.Allow(1, 12) { // evicted, so allowed again: now QP 2 goes
		t.Fatal("evicted QP 1 still tracked")
	}
	if p.Allow(4, 13) || !p.Allow(2, 13) {
		t.Fatal("second eviction did not pick QP 2")
	}
}

// TestPacerIdle: QPs idle for an interval are dropped first and Forget
// clears them.
func TestPacerIdle(t *testing.T) {
	p := cnp.NewPacer(8, 1000)
	for qp := uint32(1); qp <= 7; qp++ {
		p.Allow(qp, 0)
	}
	p.Allow(100, 900)
	// At 1500 QPs 1-7 are idle and 100 is not: new QPs take idle slots
	// and 100 stays tracked.
	for qp := uint32(200); qp < 207; qp++ {
		if !p.Allow(qp, 1500) {
			t.Fatalf("QP %d refused", qp)
		}
	}
	if p.Allow(100, 1600) {
		t.Fatal("QP 100 (inside its interval) was evicted in favour of idle slots")
	}
	if p.Len() != 8 {
		t.Fatalf("Len = %d, want 8", p.Len())
	}
	if n := p.Forget(1950); n != 7 { // 100 is idle from 1900
		t.Fatalf("Forget(1950) kept %d, want 7", n)
	}
	if n := p.Forget(2500); n != 0 || p.Len() != 0 {
		t.Fatalf("Forget(2500) kept %d (Len %d), want 0", n, p.Len())
	}
}

// TestPacerMillionQPs: a million distinct QPs, all inside the interval,
// keep the table within its capacity; each first CNP is allowed, and the
// most recent QPs are still paced.
func TestPacerMillionQPs(t *testing.T) {
	p := cnp.NewPacer(4096, time.Second)
	const n = 1_000_000
	for i := range uint32(n) {
		qp := i * 16 // spread over the 24-bit space
		if !p.Allow(qp&0xffffff, int64(i)) {
			t.Fatalf("first CNP of QP %#x refused", qp)
		}
		if p.Len() > p.Cap() {
			t.Fatalf("Len %d > Cap %d", p.Len(), p.Cap())
		}
	}
	if p.Len() < p.Cap()*3/4 {
		t.Errorf("Len %d: the table of %d is mostly unused", p.Len(), p.Cap())
	}
	// Of the last 100 QPs, all (being the freshest) are still tracked.
	var paced int
	for i := uint32(n - 100); i < n; i++ {
		if !p.Allow((i*16)&0xffffff, n) {
			paced++
		}
	}
	if paced != 100 {
		t.Errorf("%d of the 100 most recent QPs still paced, want 100", paced)
	}
}
