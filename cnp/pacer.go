package cnp

import (
	"math/bits"
	"time"
)

// DefaultInterval is the default minimum time between two CNPs for one
// queue pair: 4 µs, the min_time_between_cnps that NVIDIA ConnectX NICs
// ship. Source: public `mlxconfig -d <dev> query` dumps of ConnectX-5
// adapters (firmware 16.35, MFT 4.30) published in HPC cluster
// documentation on GitHub list MIN_TIME_BETWEEN_CNPS_P1 = 4, beside
// CNP_DSCP_P1 = 48 and CNP_802P_PRIO_P1 = 6; NVIDIA's register layout in
// mstflint (tools_open_roce_cc_ecn) gives the field's unit as
// microseconds. Confidence: fair for ConnectX-5 and later firmware, and
// it matches the "commonly cited ~4 µs" of the project's fact sheet; but
// the default lives in firmware, not in the kernel source, the same
// mstflint layout text says "Default: 0" (apparently stale), and the DCQCN
// paper (Zhu et al., SIGCOMM 2015) uses 50 µs. Read
// /sys/class/net/<if>/ecn/roce_np/min_time_between_cnps to compare with a
// given NIC.
const DefaultInterval = 4 * time.Microsecond

// DefaultCapacity is the number of queue pairs a Pacer made with a
// capacity of 0 tracks: 4096 entries, 64 KiB.
const DefaultCapacity = 4096

// window is how many consecutive slots a queue pair may occupy, starting
// at its hash: lookups and evictions scan exactly this many.
const window = 8

// slot is one tracked queue pair.
type slot struct {
	last int64  // when its last CNP was allowed, in the caller's nanoseconds
	qp   uint32 // queue pair number
	used bool
}

// Pacer allows at most one CNP per queue pair per interval, on a clock
// the caller supplies. It is what a notification point consults before
// sending a CNP.
//
// It tracks queue pairs in a fixed table allocated once by NewPacer:
// open addressing, where a queue pair lives in one of the 8 slots that
// follow its hash. The memory is bounded by the capacity whatever the
// number of queue pairs seen. Eviction: a queue pair whose last CNP is at
// least one interval old is as good as absent (its next CNP would be
// allowed anyway), so its slot is reused freely; when all 8 slots of a
// queue pair's neighbourhood hold queue pairs still inside their
// interval, the one whose last CNP is oldest is evicted. An evicted queue
// pair's next CNP is allowed early: under overload the pacer errs
// towards sending CNPs, never towards silencing a congested flow.
//
// A Pacer is not safe for concurrent use; give each goroutine (or each
// port) its own.
type Pacer struct {
	interval int64
	slots    []slot
	shift    uint
	n        int
}

// NewPacer returns a Pacer with room for capacity queue pairs (rounded up
// to a power of two, at least 8; 0 means DefaultCapacity) allowing one CNP
// per queue pair per interval. An interval of zero or less allows every
// CNP.
func NewPacer(capacity int, interval time.Duration) *Pacer {
	if capacity <= 0 {
		capacity = DefaultCapacity
	}
	capacity = max(capacity, window)
	shift := uint(bits.Len(uint(capacity - 1)))
	return &Pacer{
		interval: int64(interval),
		slots:    make([]slot, 1<<shift),
		shift:    shift,
	}
}

// Allow reports whether a CNP for queue pair qp may be sent at time now
// (nanoseconds on any clock that only moves forward, such as
// time.Now().UnixNano() or a monotonic counter), and if so records it.
// It allows the first CNP of a queue pair, refuses later ones until the
// interval has passed since the last one allowed, then allows again. A
// clock that steps backwards past a queue pair's last CNP counts as a new
// start and allows it. It allocates nothing.
func (p *Pacer) Allow(qp uint32, now int64) bool {
	if p.interval <= 0 {
		return true
	}
	mask := uint32(len(p.slots) - 1)
	h := (qp * 0x9e3779b1) >> (32 - p.shift) // Fibonacci hashing
	free, stalest := -1, -1
	for i := range uint32(window) {
		j := int((h + i) & mask)
		s := &p.slots[j]
		if !s.used {
			if free < 0 {
				free = j
			}
			continue
		}
		d := now - s.last
		if s.qp == qp {
			if d >= p.interval || d < 0 {
				s.last = now
				return true
			}
			return false
		}
		if free < 0 && (d >= p.interval || d < 0) {
			free = j // idle: its next CNP would be allowed anyway
		}
		if stalest < 0 || s.last < p.slots[stalest].last {
			stalest = j
		}
	}
	if free < 0 {
		free = stalest
	}
	s := &p.slots[free]
	if !s.used {
		p.n++
	}
	*s = slot{last: now, qp: qp, used: true}
	return true
}

// Len returns the number of queue pairs tracked, idle ones not yet
// reused included. It never exceeds Cap.
func (p *Pacer) Len() int { return p.n }

// Cap returns the number of queue pairs the table can hold.
func (p *Pacer) Cap() int { return len(p.slots) }

// Interval returns the minimum time between two CNPs for one queue pair.
func (p *Pacer) Interval() time.Duration { return time.Duration(p.interval) }

// Forget drops every queue pair whose last CNP is at least one interval
// older than now, and returns how many remain. Allow reuses such slots by
// itself; Forget is for callers that want Len to count only queue pairs
// inside their interval.
func (p *Pacer) Forget(now int64) int {
	for i := range p.slots {
		s := &p.slots[i]
		if d := now - s.last; s.used && (d >= p.interval || d < 0) {
			*s = slot{}
			p.n--
		}
	}
	return p.n
}
