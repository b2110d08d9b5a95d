package pfc

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

var allSpeeds = []Speed{Speed1G, Speed10G, Speed25G, Speed40G, Speed50G, Speed100G, Speed200G, Speed400G, Speed800G}

// TestQuantumLength checks the length of one quantum, 512 bit times, at
// every named speed against values worked out by hand.
func TestQuantumLength(t *testing.T) {
	want := map[Speed]uint64{ // picoseconds
		Speed1G: 512_000, Speed10G: 51_200, Speed25G: 20_480, Speed40G: 12_800, Speed50G: 10_240,
		Speed100G: 5_120, Speed200G: 2_560, Speed400G: 1_280, Speed800G: 640,
	}
	for _, s := range allSpeeds {
		if got := s.Picoseconds(1); got != want[s] {
			t.Errorf("%v: one quantum = %d ps, want %d", s, got, want[s])
		}
		// Exact at every named speed, for every q.
		if got := s.Picoseconds(MaxQuanta); got != MaxQuanta*want[s] {
			t.Errorf("%v: 0xFFFF quanta = %d ps, want %d", s, got, MaxQuanta*want[s])
		}
	}
}

func TestConversions(t *testing.T) {
	for _, tt := range []struct {
		s    Speed
		q    uint16
		ps   uint64
		d    time.Duration
		name string
	}{
		{Speed100G, 0xffff, 335_539_200, 335_539 * time.Nanosecond, "335.5392 us, .2 ns rounds down"},
		{Speed100G, 1, 5_120, 5 * time.Nanosecond, "5.12 ns"},
		{Speed100G, 5, 25_600, 26 * time.Nanosecond, "25.6 ns rounds up"},
		{Speed100G, 19532, 100_003_840, 100_004 * time.Nanosecond, "100.00384 us"},
		{Speed800G, 0xffff, 41_942_400, 41_942 * time.Nanosecond, "41.9424 us"},
		{Speed800G, 1, 640, 1 * time.Nanosecond, "0.64 ns rounds up to 1"},
		{Speed800G, 3, 1_920, 2 * time.Nanosecond, "1.92 ns"},
		{Speed1G, 0xffff, 33_553_920_000, 33_553_920 * time.Nanosecond, "33.55392 ms"},
		{Speed25G, 3, 61_440, 61 * time.Nanosecond, "61.44 ns"},
		{Speed(2_500_000_000), 1, 204_800, 205 * time.Nanosecond, "204.8 ns at 2.5G"},
		{Speed(3_000_000_000), 1, 170_666, 171 * time.Nanosecond, "170.666... ns at 3G, ps truncated"},
		{Speed100G, 0, 0, 0, "zero"},
		{0, 0xffff, 0, 0, "zero speed"},
		{1, 0xffff, math.MaxUint64, 33_553_920 * time.Second, "1 b/s saturates ps"},
	} {
		if got := tt.s.Picoseconds(tt.q); got != tt.ps {
			t.Errorf("%s: %v.Picoseconds(%d) = %d, want %d", tt.name, tt.s, tt.q, got, tt.ps)
		}
		if got := tt.s.Duration(tt.q); got != tt.d {
			t.Errorf("%s: %v.Duration(%d) = %v, want %v", tt.name, tt.s, tt.q, got, tt.d)
		}
	}
	for _, tt := range []struct {
		s    Speed
		d    time.Duration
		q    uint16
		f    float64
		name string
	}{
		{Speed100G, 100 * time.Microsecond, 19532, 19531.25, "19531.25 rounds up"},
		{Speed100G, 5120 * time.Nanosecond, 1000, 1000, "exact"},
		{Speed100G, 5121 * time.Nanosecond, 1001, 1000.1953125, "just over"},
		{Speed100G, 1, 1, 0.1953125, "1 ns needs a quantum"},
		{Speed100G, 335_539 * time.Nanosecond, 0xffff, 65534.9609375, "MaxPause"},
		{Speed100G, 335_540 * time.Nanosecond, 0xffff, 65535.15625, "beyond max saturates"},
		{Speed100G, time.Hour, 0xffff, 7.03125e11, "far beyond max"},
		{Speed100G, math.MaxInt64, 0xffff, 1.8014398509481984e18, "MaxInt64"},
		{Speed1G, 512 * time.Nanosecond, 1, 1, "1G"},
		{Speed800G, time.Nanosecond, 2, 1.5625, "800G"},
		{Speed100G, 0, 0, 0, "zero is XON"},
		{Speed100G, -time.Second, 0, -1.953125e8, "negative"},
		{0, time.Second, 0, 0, "zero speed"},
	} {
		if got := tt.s.Quanta(tt.d); got != tt.q {
			t.Errorf("%s: %v.Quanta(%v) = %d, want %d", tt.name, tt.s, tt.d, got, tt.q)
		}
		if got := tt.s.QuantaFloat(tt.d); got != tt.f {
			t.Errorf("%s: %v.QuantaFloat(%v) = %v, want %v", tt.name, tt.s, tt.d, got, tt.f)
		}
	}
	if got := Speed100G.MaxPause(); got != 335_539*time.Nanosecond {
		t.Errorf("MaxPause = %v", got)
	}
}

// TestQuantaAtLeast checks the promise of Quanta: the pause it gives
// lasts at least the time asked, and one quantum less would not.
func TestQuantaAtLeast(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range allSpeeds {
		max := s.MaxPause()
		for range 20000 {
			d := time.Duration(rng.Int64N(int64(max) + 1))
			q := s.Quanta(d)
			if s.Duration(q) < d {
				t.Fatalf("%v: Quanta(%v) = %d lasts %v", s, d, q, s.Duration(q))
			}
			if q > 0 && s.Picoseconds(q-1) >= uint64(d)*1000 {
				t.Fatalf("%v: Quanta(%v) = %d, but %d would do", s, d, q, q-1)
			}
		}
	}
}

func TestSpeedString(t *testing.T) {
	for s, want := range map[Speed]string{Speed100G: "100Gb/s", Speed800G: "800Gb/s", 2_500_000_000: "2.5Gb/s", Speed1G / 10: "0.1Gb/s"} {
		if got := s.String(); got != want {
			t.Errorf("%d: %q, want %q", uint64(s), got, want)
		}
	}
}
