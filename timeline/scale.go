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

// tickWidths are niceWidths and longer steps of days, up to 274 years,
// so that an axis as long as MaxSpan has about ten labels.
var tickWidths = func() []int64 {
	w := niceWidths
	for _, d := range []int64{1000, 2000, 5000, 10000, 20000, 50000, 100000} {
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
	least := max((span-1)/TargetBins+1, 1) // ceil(span/TargetBins), without overflow
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
	for _, w := range tickWidths {
		if w >= (span-1)/10+1 { // w*10 >= span, without overflow
			return w
		}
	}
	return tickWidths[len(tickWidths)-1]
}

// unit is a unit of time for labels.
type unit struct {
	d    int64
	name string
}

// units of time, largest first, for labels.
var units = []unit{
	{int64(24 * time.Hour), "d"}, {int64(time.Hour), "h"}, {int64(time.Minute), "min"},
	{int64(time.Second), "s"}, {int64(time.Millisecond), "ms"}, {int64(time.Microsecond), "µs"}, {1, "ns"},
}

// unitFor returns the largest unit from ns to s that v reaches.
func unitFor(v int64) unit {
	for _, u := range units[3:] {
		if v >= u.d {
			return u
		}
	}
	return units[len(units)-1]
}

// offsetLabel writes the time v nanoseconds after the start of an axis
// of the given span and step: below a minute in the unit the span
// reaches, with the decimals the step needs ("0", "0.25 ms", "1.50 ms");
// from a minute on as a clock does ("1 h 30 min").
func offsetLabel(v, step, span int64) string {
	if v == 0 {
		return "0"
	}
	if span >= int64(time.Minute) {
		return clockLabel(v)
	}
	return durationIn(v, unitFor(span), step)
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

// durationIn writes v nanoseconds in unit u with the decimals needed to
// show multiples of res (at most 9).
func durationIn(v int64, u unit, res int64) string {
	dec := 0
	for r := res % u.d; r != 0 && dec < 9; dec++ {
		r = r * 10 % u.d
	}
	return strconv.FormatFloat(float64(v)/float64(u.d), 'f', dec, 64) + " " + u.name
}

// durationText writes d in the largest unit from ns to s it reaches,
// with the decimals needed to show multiples of res, or with res 0 those
// d itself needs, at most three: durationText(1500*time.Microsecond, 0)
// is "1.5 ms". From a minute on (with res 0 or whole seconds) it writes
// d as a clock does, to the second: "1 h 30 min".
func durationText(d, res time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	if d >= time.Minute && (res == 0 || res%time.Second == 0) {
		return sign + clockLabel(int64(d))
	}
	u := unitFor(int64(max(d, res)))
	if res > 0 {
		return sign + durationIn(int64(d), u, int64(res))
	}
	s := durationIn(int64(d), u, int64(d))
	if i := strings.IndexByte(s, '.'); i >= 0 && strings.IndexByte(s, ' ')-i > 4 {
		s = strconv.FormatFloat(float64(d)/float64(u.d), 'f', 3, 64) + " " + u.name
	}
	return sign + s
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
