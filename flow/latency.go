package flow

import (
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
// power of two split in 2^subBits buckets of equal width, up to
// 2^maxExp ns (about 18 minutes); larger values land in the last bucket.
const (
	subBits  = 3
	subCount = 1 << subBits
	maxExp   = 40
	nBuckets = (maxExp-subBits+1)*subCount + subCount
)

// hist is a fixed-size log-linear histogram of durations in
// nanoseconds, with the exact count, sum, minimum and maximum.
type hist struct {
	n, sum   uint64
	min, max int64
	b        [nBuckets]uint64
}

// bucket returns the bucket of v ns.
func bucket(v uint64) int {
	if v < subCount {
		return int(v)
	}
	e := bits.Len64(v) - 1 // v is in [2^e, 2^(e+1))
	if e > maxExp {
		return nBuckets - 1
	}
	sub := int(v>>(uint(e)-subBits)) & (subCount - 1)
	return (e-subBits+1)*subCount + sub
}

// bucketMid returns the middle of bucket i, in ns.
func bucketMid(i int) int64 {
	if i < subCount {
		return int64(i)
	}
	e := i/subCount + subBits - 1
	sub := i % subCount
	lo := int64(1)<<e + int64(sub)<<(e-subBits)
	return lo + int64(1)<<(e-subBits)/2
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
	h.sum += uint64(v)
	h.b[bucket(uint64(v))]++
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

// Latency summarizes the durations of one kind measured on a flow.
// P99 is the ceil(0.99 Count)-th smallest sample: exactly Max for up to
// 100 samples; beyond, read from a histogram of 8 buckets per power of
// two (a fixed 2.5 KB per kind and flow, exact below 16 ns): the middle
// of the sample's bucket, within 1/16 (6.25%) of its true value, and
// clamped to [Min, Max]. The other values are exact.
type Latency struct {
	Count uint64        `json:"count"`
	Min   time.Duration `json:"min_ns"`
	Avg   time.Duration `json:"avg_ns"`
	Max   time.Duration `json:"max_ns"`
	P99   time.Duration `json:"p99_ns"`
}

func (h *hist) summary() *Latency {
	if h == nil || h.n == 0 {
		return nil
	}
	l := &Latency{Count: h.n, Min: time.Duration(h.min), Max: time.Duration(h.max), Avg: time.Duration(h.sum / h.n)}
	rank := (h.n*99 + 99) / 100 // ceil(0.99 n)
	if rank == h.n {            // up to 100 samples: the largest
		l.P99 = l.Max
		return l
	}
	var c uint64
	for i := range h.b {
		if c += h.b[i]; c >= rank {
			p := bucketMid(i)
			p = max(min(p, h.max), h.min)
			l.P99 = time.Duration(p)
			break
		}
	}
	return l
}

// Latencies are the latencies measured on a request flow, from capture
// timestamps; a kind with no sample is left out.
type Latencies struct {
	// Ack is from a SEND, RDMA WRITE, FLUSH or ATOMIC WRITE packet (its
	// first transmission) to the ACK that covers it.
	Ack *Latency `json:"ack,omitempty"`
	// ReadFirst and ReadLast are from an RDMA READ Request to its first
	// and to its last response.
	ReadFirst *Latency `json:"read_first,omitempty"`
	ReadLast  *Latency `json:"read_last,omitempty"`
	// Atomic is from a CmpSwap or FetchAdd to its ATOMIC Acknowledge.
	Atomic *Latency `json:"atomic,omitempty"`
	// Completion is the message completion time: from the first packet
	// of a SEND or RDMA WRITE message to the ACK that covers its last,
	// or from an RDMA READ Request to its last response.
	Completion *Latency `json:"completion,omitempty"`
	// CEToCNP is from a CE-marked packet of the flow to the CNP it
	// caused (see the package documentation).
	CEToCNP *Latency `json:"ce_to_cnp,omitempty"`
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
