package timeline

import (
	"strconv"
	"strings"
	"time"
)

// niceWidths are the bin widths and tick steps a page uses, in
// nanoseconds: 1, 2 and 5 times a power of ten up to 20 s, then the
// steps of a clock (30 s, 1, 2, 5, 10, 15 and 30 min, 1, 2, 3, 6 and 12 h)
// and whole days.
var niceWidths = func() []int64 {
	var w []int64
	for p := int64(1); p <= int64(10*time.Second); p *= 10 {
		w = append(w, p, 2*p, 5*p)
	}
	w = w[:len(w)-1] // 50 s is no clock step
	for _, d := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute,
		15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour} {
		w = append(w, int64(d))
	}
	for _, d := range []int64{1, 2, 5, 10, 20, 50, 100, 200, 500} {
		w = append(w, d*int64(24*time.Hour))
	}
	return w
}()

// TargetBins is the most bins a page draws across its time axis.
const TargetBins = 300

// binWidth returns the width of the bins a page draws for a capture of
// span nanoseconds held in bins of fine nanoseconds: the smallest nice
// width that gives at most TargetBins bins and is a whole number of fine
// bins (so that each drawn bin sums whole collected bins, exactly).
func binWidth(span, fine int64) int64 {
	least := max((span+TargetBins-1)/TargetBins, 1)
	for _, w := range niceWidths {
		if w >= least && w%fine == 0 {
			return w
		}
	}
	// Beyond the table (a capture of centuries): whole fine bins.
	return (least + fine - 1) / fine * fine
}

// tickStep returns the step between two labels of a time axis over span
// nanoseconds: the smallest nice width giving at most 10 intervals.
func tickStep(span int64) int64 {
	for _, w := range niceWidths {
		if w*10 >= span {
			return w
		}
	}
	return niceWidths[len(niceWidths)-1]
}

// units of time, largest first, for labels.
var units = []struct {
	d    int64
	name string
}{
	{int64(24 * time.Hour), "d"}, {int64(time.Hour), "h"}, {int64(time.Minute), "min"},
	{int64(time.Second), "s"}, {int64(time.Millisecond), "ms"}, {int64(time.Microsecond), "µs"}, {1, "ns"},
}

// offsetLabel writes the time v nanoseconds after the start of the axis
// for an axis of the given step: below a minute in the largest unit the
// step reaches, with the decimals the step needs ("0", "250 µs",
// "1.5 ms"); from a minute on as a clock does ("1 h 30 min").
func offsetLabel(v, step int64) string {
	if v == 0 {
		return "0"
	}
	if step >= int64(time.Minute) || step >= int64(time.Second) && v >= int64(time.Minute) {
		return clockLabel(v)
	}
	return durationText(time.Duration(v), time.Duration(step))
}

// clockLabel writes v as days, hours, minutes and seconds, leaving out
// the zero ones: "1 h 30 min", "2 min 30 s".
func clockLabel(v int64) string {
	var parts []string
	for _, u := range units[:4] {
		if q := v / u.d; q > 0 {
			parts = append(parts, strconv.FormatInt(q, 10)+" "+u.name)
			v -= q * u.d
		}
	}
	return strings.Join(parts, " ")
}

// durationText writes d in the largest unit from ns to s that res reaches,
// with the decimals res needs: durationText(1500*time.Microsecond,
// 500*time.Microsecond) is "1.5 ms"; durationText(d, 0) picks the unit from
// d itself, with up to three significant decimals.
func durationText(d, res time.Duration) string {
	if res <= 0 {
		res = d
	}
	if res <= 0 {
		return "0"
	}
	neg := d < 0
	if neg {
		d = -d
	}
	for _, u := range units[3:] {
		if int64(res) >= u.d || u.d == 1 {
			dec := 0
			for r := int64(res) % u.d; r != 0 && dec < 9; dec++ {
				r = r * 10 % u.d
			}
			if res == d {
				dec = min(dec, 3)
			}
			s := strconv.FormatFloat(float64(d)/float64(u.d), 'f', dec, 64)
			if neg {
				s = "-" + s
			}
			return s + " " + u.name
		}
	}
	return ""
}

// rateText writes a throughput in bits per second: "12.5 Gb/s".
func rateText(bps float64) string {
	for _, u := range []struct {
		v    float64
		name string
	}{{1e12, "Tb/s"}, {1e9, "Gb/s"}, {1e6, "Mb/s"}, {1e3, "kb/s"}} {
		if bps >= u.v {
			return strconv.FormatFloat(bps/u.v, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(bps, 'g', 3, 64) + " b/s"
}

// bytesText writes a byte count: "1.25 MB".
func bytesText(n uint64) string {
	for _, u := range []struct {
		v    float64
		name string
	}{{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}} {
		if float64(n) >= u.v {
			return strconv.FormatFloat(float64(n)/u.v, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatUint(n, 10) + " B"
}
