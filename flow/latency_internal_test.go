package flow

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestQuantileRandom compares the 99th percentile of the histogram with
// the exact one, the ceil(0.99 n)-th smallest of the sorted samples, on
// random data of several shapes and sizes: equal up to 799 samples,
// within 1/16 of it beyond, and always in [min, max].
func TestQuantileRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 99))
	shapes := []struct {
		name string
		draw func() int64
	}{
		{"uniform-1us", func() int64 { return 1000 + rng.Int64N(1000) }},
		{"exponential", func() int64 { return int64(rng.ExpFloat64() * 5000) }},
		{"lognormal-wide", func() int64 { return int64(math.Exp(rng.NormFloat64()*4 + 10)) }},
		{"two-values", func() int64 { return []int64{56924, 57072}[rng.IntN(2)] }},
		{"tiny", func() int64 { return rng.Int64N(20) }},
		{"huge", func() int64 { return math.MaxInt64 - rng.Int64N(1<<50) }},
		{"one-outlier-tail", func() int64 {
			if rng.IntN(50) == 0 {
				return 1e9 + rng.Int64N(1e9)
			}
			return 10000 + rng.Int64N(100)
		}},
	}
	sizes := []int{1, 2, 7, 8, 9, 99, 100, 101, 199, 200, 201, 799, 800, 801, 1000, 5000, 100000}
	for _, sh := range shapes {
		for _, n := range sizes {
			for trial := 0; trial < 3; trial++ {
				var h hist
				v := make([]int64, n)
				for i := range v {
					v[i] = sh.draw()
					h.add(v[i])
				}
				slices.Sort(v)
				rank := int(math.Ceil(0.99 * float64(n)))
				want := v[rank-1]
				l := h.summary()
				got := int64(l.P99)
				if got < v[0] || got > v[n-1] || int64(l.Min) != v[0] || int64(l.Max) != v[n-1] {
					t.Fatalf("%s n %d: p99 %d outside [min %d, max %d] (summary %+v)", sh.name, n, got, v[0], v[n-1], l)
				}
				if n < 800 && got != want {
					t.Fatalf("%s n %d: p99 %d, exact %d", sh.name, n, got, want)
				}
				if d := got - want; d < 0 && -d > want/16 || d > 0 && d > want/16 {
					t.Fatalf("%s n %d: p99 %d, exact %d: off by more than 1/16", sh.name, n, got, want)
				}
			}
		}
	}
}

// TestQuantileEdges: the case (99 samples at 57.072 µs and one
// at 56.924 µs: the 99th smallest is 57.072 µs), ranks at the
// boundaries, and every bucket's bounds.
func TestQuantileEdges(t *testing.T) {
	var h hist
	h.add(56924)
	for i := 0; i < 99; i++ {
		h.add(57072)
	}
	if l := h.summary(); l.P99 != 57072 || l.Avg != 57070 {
		t.Errorf("100 samples: %+v, want p99 57072", l)
	}
	for _, n := range []uint64{1, 99, 100, 101, 199, 200, 1000, 1 << 40, math.MaxUint64} {
		want := uint64(math.Ceil(0.99 * float64(n)))
		if n > 1<<40 { // float64 loses the last digits: check the identity
			want = n/100*99 + (n%100*99+99)/100
		}
		if got := p99Rank(n); got != want {
			t.Errorf("p99Rank(%d) = %d, want %d", n, got, want)
		}
	}
	// The buckets tile [0, MaxInt64] and each is at most 1/8 of its
	// start wide.
	next := int64(0)
	for i := 0; i < nBuckets; i++ {
		lo, hi := bucketBounds(i)
		if lo != next || hi < lo || (lo >= subCount && hi-lo+1 > lo/subCount) {
			t.Fatalf("bucket %d: [%d, %d] after %d", i, lo, hi, next)
		}
		if bucket(uint64(lo)) != i || bucket(uint64(hi)) != i {
			t.Fatalf("bucket %d: [%d, %d] maps to %d, %d", i, lo, hi, bucket(uint64(lo)), bucket(uint64(hi)))
		}
		next = hi + 1
	}
	if next != math.MinInt64 { // wrapped past MaxInt64
		t.Fatalf("buckets end at %d", next-1)
	}
}

// TestQuantileWiden: a bucket past 2^32-1 samples moves the counts to
// 64 bits, and the rank search goes on counting them.
// TestMeanFarSamples: the mean of samples near the longest duration is
// exact, never outside [min, max]: a 64-bit sum of four of them wraps.
func TestMeanFarSamples(t *testing.T) {
	var h hist
	big := int64(math.MaxInt64 - 6)
	for i := int64(0); i < 4; i++ {
		h.add(big + i)
	}
	l := h.summary()
	if want := time.Duration(big + 1); l.Avg != want || l.Min > l.Avg || l.Avg > l.Max {
		t.Errorf("4 samples from %d: avg %d, want %d (min %d max %d)", big, l.Avg, want, l.Min, l.Max)
	}
	h = hist{}
	for i := 0; i < 1000; i++ {
		h.add(math.MaxInt64)
	}
	if l := h.summary(); l.Avg != math.MaxInt64 {
		t.Errorf("1000 samples of MaxInt64: avg %d", l.Avg)
	}
}

func TestQuantileWiden(t *testing.T) {
	var h hist
	h.add(5000)
	i := bucket(1000)
	h.b[i] = math.MaxUint32 - 1
	h.n += math.MaxUint32 - 1 // as if added
	h.min = 1000
	h.add(1000)
	if h.wide != nil {
		t.Fatal("widened too soon")
	}
	h.add(1000)
	if h.wide == nil || h.wide[i] != math.MaxUint32+1 || h.wide[bucket(5000)] != 1 {
		t.Fatalf("not widened: %v", h.wide != nil)
	}
	if q := h.quantile(p99Rank(h.n)); q < 960 || q > 1040 {
		t.Errorf("p99 %d, want about 1000", q)
	}
}
