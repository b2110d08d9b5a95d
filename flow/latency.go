package flow

import (
	"math"
	"math/bits"
	"time"
)

// The latencies a flow measures.
const (
	latAck        = iota // request packet to the ACK that covers it
	latReadFirst         // RDMA READ Request to its first response
	latReadLast          // RDMA READ Request to its last response
	latAtomic            // atomic request to its ATOMIC Acknowledge
	latCompletion        // first packet of a message to its ACK or last READ response
	latCEToCNP           // CE mark to the CNP it caused
	numLatencies
)

// The histogram: values below 2^subBits ns one bucket each, then each
// power of two from 2^subBits to 2^62 split in 2^subBits buckets of
// equal width: every duration a time.Duration holds has its bucket, and
// a bucket starting at lo is at most lo/2^subBits wide.
const (
	subBits  = 3
	subCount = 1 << subBits
	maxExp   = 62
	nBuckets = (maxExp-subBits+1)*subCount + subCount
)

// topK is how many of the largest samples a histogram keeps exactly.
const topK = 8

// hist summarizes durations in nanoseconds: the exact count, sum (128
// bits: sumHi, sum), minimum and maximum, the topK largest samples, and
// a log-linear histogram of them all. Its bucket counts are 32 bits wide until one
// would overflow, then 64 (wide, allocated then).
type hist struct {
	n, sum   uint64
	sumHi    uint64 // the sum's high 64 bits: n samples up to 2^63 ns each never overflow it
	min, max int64
	ntop     int
	top      [topK]int64 // the largest samples, ascending
	b        [nBuckets]uint32
	wide     *[nBuckets]uint64
}

// bucket returns the bucket of v ns (v >= 0).
func bucket(v uint64) int {
	if v < subCount {
		return int(v)
	}
	e := bits.Len64(v) - 1 // v is in [2^e, 2^(e+1)), e <= 62
	sub := int(v>>(uint(e)-subBits)) & (subCount - 1)
	return (e-subBits+1)*subCount + sub
}

// bucketBounds returns the smallest and the largest value of bucket i.
func bucketBounds(i int) (lo, hi int64) {
	if i < subCount {
		return int64(i), int64(i)
	}
	e := i/subCount + subBits - 1
	sub := i % subCount
	w := int64(1) << (e - subBits)
	lo = int64(1)<<e + int64(sub)*w
	return lo, lo + (w - 1)
}

func (h *hist) add(v int64) {
	if v < 0 {
		v = 0 // timestamps out of order in the capture
	}
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	var carry uint64
	h.sum, carry = bits.Add64(h.sum, uint64(v), 0)
	h.sumHi += carry
	h.keepTop(v)
	i := bucket(uint64(v))
	if h.wide != nil {
		h.wide[i]++
		return
	}
	if h.b[i] == math.MaxUint32 {
		h.widen()
		h.wide[i]++
		return
	}
	h.b[i]++
}

// keepTop keeps v if it is among the topK largest samples.
func (h *hist) keepTop(v int64) {
	i := h.ntop
	if h.ntop < topK {
		h.ntop++
	} else {
		if v <= h.top[0] {
			return
		}
		copy(h.top[:], h.top[1:]) // drop the smallest
		i = topK - 1
	}
	for i > 0 && h.top[i-1] > v {
		h.top[i] = h.top[i-1]
		i--
	}
	h.top[i] = v
}

// widen moves the bucket counts to 64 bits, once a bucket holds 2^32-1.
func (h *hist) widen() {
	h.wide = new([nBuckets]uint64)
	for i, c := range h.b {
		h.wide[i] = uint64(c)
	}
}

func (h *hist) count(i int) uint64 {
	if h.wide != nil {
		return h.wide[i]
	}
	return uint64(h.b[i])
}

// sample adds a latency of kind k, allocating its histogram on its
// first sample.
func (f *state) sample(k int, v int64) {
	h := f.lat[k]
	if h == nil {
		h = new(hist)
		f.lat[k] = h
	}
	h.add(v)
}

// Latency summarizes the durations of one kind measured on a flow:
// Count, Min, Avg (the mean) and Max exactly, and P99, the 99th
// percentile, exact up to 799 samples and within 1/16 beyond, never
// outside [Min, Max] (the package documentation defines it and proves
// the bound).
type Latency struct {
	Count uint64        `json:"count"`
	Min   time.Duration `json:"min_ns"`
	Avg   time.Duration `json:"avg_ns"`
	Max   time.Duration `json:"max_ns"`
	P99   time.Duration `json:"p99_ns"`
}

// quantile returns the rank-th smallest sample (1 <= rank <= n):
// exactly when it is one of the topK largest, else estimated from its
// bucket (see the package documentation).
func (h *hist) quantile(rank uint64) int64 {
	if above := h.n - rank; above < uint64(h.ntop) {
		return h.top[h.ntop-1-int(above)]
	}
	var c uint64
	for i := 0; i < nBuckets; i++ {
		if c += h.count(i); c >= rank {
			lo, hi := bucketBounds(i)
			// The sample is in the bucket, in [min, max], and no larger
			// than the smallest of the topK kept (there are at least
			// topK samples above it): the middle of what is left.
			lo, hi = max(lo, h.min), min(hi, h.max, h.top[0])
			return lo + (hi-lo)/2
		}
	}
	return h.max // not reached: the counts sum to n
}

// mean returns the sum over the count, rounded down: between min and
// max, since the sum is exact.
func (h *hist) mean() uint64 {
	q, _ := bits.Div64(h.sumHi, h.sum, h.n) // sumHi < n: each sample is below 2^63
	return q
}

func (h *hist) summary() *Latency {
	if h == nil || h.n == 0 {
		return nil
	}
	l := &Latency{Count: h.n, Min: time.Duration(h.min), Max: time.Duration(h.max), Avg: time.Duration(h.mean())}
	l.P99 = time.Duration(h.quantile(p99Rank(h.n)))
	return l
}

// p99Rank is ceil(0.99 n), without overflow.
func p99Rank(n uint64) uint64 {
	q, r := n/100, n%100
	return q*99 + (r*99+99)/100
}

// Latencies are the latencies measured on a request flow, from capture
// timestamps; a kind with no sample is left out. The package
// documentation defines each kind (section Latency).
type Latencies struct {
	Ack       *Latency `json:"ack,omitempty"`        // a request packet to the response that covers it
	ReadFirst *Latency `json:"read_first,omitempty"` // an RDMA READ Request to its first response
	ReadLast  *Latency `json:"read_last,omitempty"`  // an RDMA READ Request to its Last or Only response
	Atomic    *Latency `json:"atomic,omitempty"`     // a CmpSwap or FetchAdd to its ATOMIC Acknowledge
	// Completion is the message completion time of SEND, RDMA WRITE and
	// RDMA READ messages.
	Completion *Latency `json:"completion,omitempty"`
	CEToCNP    *Latency `json:"ce_to_cnp,omitempty"` // a CE mark of the flow to the CNP that answers it
}

func (f *state) latencies() *Latencies {
	l := Latencies{
		Ack: f.lat[latAck].summary(), ReadFirst: f.lat[latReadFirst].summary(), ReadLast: f.lat[latReadLast].summary(),
		Atomic: f.lat[latAtomic].summary(), Completion: f.lat[latCompletion].summary(), CEToCNP: f.lat[latCEToCNP].summary(),
	}
	if l == (Latencies{}) {
		return nil
	}
	return &l
}
