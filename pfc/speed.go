package pfc

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/roce-go/roce/internal/errs"
)

// QuantumBits is the length of one pause quantum in bit times (IEEE
// 802.3 Annex 31B): a quantum lasts 512 divided by the link speed.
const QuantumBits = 512

// MaxQuanta is the longest pause a frame can ask for, 0xFFFF quanta.
const MaxQuanta = 0xFFFF

// Speed is a link speed in bits per second. Its methods convert between
// pause quanta and time at that speed; a zero Speed has no quantum, and
// they return 0 for it.
type Speed uint64

// Common Ethernet link speeds. A quantum lasts 512 ns at 1 Gb/s, 51.2 ns
// at 10 Gb/s, 20.48 ns at 25 Gb/s, 12.8 ns at 40 Gb/s, 10.24 ns at
// 50 Gb/s, 5.12 ns at 100 Gb/s, 2.56 ns at 200 Gb/s, 1.28 ns at
// 400 Gb/s and 0.64 ns at 800 Gb/s: a whole number of picoseconds at
// each of them.
const (
	Speed1G   Speed = 1_000_000_000
	Speed10G  Speed = 10 * Speed1G
	Speed25G  Speed = 25 * Speed1G
	Speed40G  Speed = 40 * Speed1G
	Speed50G  Speed = 50 * Speed1G
	Speed100G Speed = 100 * Speed1G
	Speed200G Speed = 200 * Speed1G
	Speed400G Speed = 400 * Speed1G
	Speed800G Speed = 800 * Speed1G
)

// String returns the speed in Gb/s, for example "100Gb/s" or "2.5Gb/s".
func (s Speed) String() string {
	return strconv.FormatFloat(float64(s)/1e9, 'f', -1, 64) + "Gb/s"
}

// Picoseconds returns the length of q quanta in picoseconds, q*512e12/s.
// It is exact when s divides q*512e12, as every named Speed does, and
// rounded down otherwise. It saturates at math.MaxUint64 (only below
// 2 b/s).
func (s Speed) Picoseconds(q uint16) uint64 {
	if s == 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(q)*QuantumBits, 1e12)
	if hi >= uint64(s) {
		return math.MaxUint64
	}
	ps, _ := bits.Div64(hi, lo, uint64(s))
	return ps
}

// Duration returns the length of q quanta rounded to the nearest
// nanosecond (halves round up): 0xFFFF quanta at 100 Gb/s last
// 335539.2 ns and give 335.539 µs. Use Picoseconds for the exact value.
// Since Quanta rounds up, s.Duration(s.Quanta(d)) >= d for every d up
// to s.MaxPause().
func (s Speed) Duration(q uint16) time.Duration {
	if s == 0 {
		return 0
	}
	num := uint64(q) * QuantumBits * 1e9 // < 2^55
	return time.Duration((num + uint64(s)/2) / uint64(s))
}

// Quanta returns the number of quanta that pause for at least d: d*s/512
// rounded up, so that a request to pause "for 100 µs" is never cut
// short (100 µs at 100 Gb/s is 19531.25 quanta, so 19532). It saturates
// at MaxQuanta; see MaxPause. A d of zero or less gives 0, which resumes
// (XON).
func (s Speed) Quanta(d time.Duration) uint16 {
	if d <= 0 || s == 0 {
		return 0
	}
	const div = QuantumBits * 1e9 // bit times per quantum, times ns per second
	hi, lo := bits.Mul64(uint64(d), uint64(s))
	if hi >= div {
		return MaxQuanta
	}
	q, r := bits.Div64(hi, lo, div)
	if r != 0 {
		q++
	}
	return uint16(min(q, MaxQuanta))
}

// QuantaFloat returns d*s/512 unrounded (as exact as a float64 allows):
// 100 µs at 100 Gb/s gives 19531.25.
func (s Speed) QuantaFloat(d time.Duration) float64 {
	return float64(d) * float64(s) / (QuantumBits * 1e9)
}

// MaxPause returns the longest pause one frame can ask for at speed s,
// MaxQuanta quanta, as Duration rounds it: 335.539 µs at 100 Gb/s.
func (s Speed) MaxPause() time.Duration { return s.Duration(MaxQuanta) }

// ParseSpeed reads a link speed in bits per second: a number with an
// optional k, M, G or T (powers of 1000) and an optional "b/s" or "bps",
// for example "100G", "25Gb/s", "2.5G", "400000Mbps". It accepts 1 Mb/s to
// 10 Tb/s; the error, an ErrBadValue, names the text otherwise.
func ParseSpeed(s string) (Speed, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(s, "bps"), "b/s")
	mult := 1.0
	if n := len(t); n > 0 {
		if m, ok := speedUnits[t[n-1]]; ok {
			mult, t = m, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || v*mult < 1e6 || v*mult > 1e13 {
		return 0, errs.Kind(ErrBadValue, "bad link speed "+strconv.Quote(s)+" (want 1M to 10T bits per second, as 100G or 25Gb/s)")
	}
	return Speed(math.Round(v * mult)), nil
}

// speedUnits are the multipliers ParseSpeed accepts.
var speedUnits = map[byte]float64{'k': 1e3, 'K': 1e3, 'm': 1e6, 'M': 1e6, 'g': 1e9, 'G': 1e9, 't': 1e12, 'T': 1e12}
