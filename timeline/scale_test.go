package timeline

import (
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
)

// TestBins: the drawn bin width for captures from a microsecond to ten
// hours. A flow's bins widen 1, 2, 10, 20, 100 ns ... until the span fits
// in 4096 of them; the page takes the smallest round width giving at
// most 300 bins that is a multiple of that. Each expectation is worked
// out by hand from those two rules: for 2 ms, 2e6/200 = 10000 bins are
// too many and 2e6/1000 = 2000 fit, so collected bins are 1 µs; 2e6/300
// is 6667 ns, and the first round width at least that and a multiple of
// 1 µs is 10 µs.
func TestBins(t *testing.T) {
	g, err := gen.New(gen.DefaultConfig())
	if err != nil || !g.Next() {
		t.Fatal(err)
	}
	frame := append([]byte(nil), g.Frame()...)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		span, fine, bin time.Duration
	}{
		{time.Microsecond, 1, 5},                                        // 1000 fit; 4 ns → 5 ns
		{10 * time.Microsecond, 10, 50},                                 // 5000 of 2 ns too many; 34 ns → 50 ns
		{2 * time.Millisecond, time.Microsecond, 10 * time.Microsecond}, // above
		{time.Second, time.Millisecond, 5 * time.Millisecond},           // 5000 of 200 µs too many; 3.34 ms → 5 ms
		{time.Minute, 20 * time.Millisecond, 200 * time.Millisecond},    // 6000 of 10 ms too many; 200 ms
		{time.Hour, time.Second, 20 * time.Second},                      // 3600 of 1 s fit; 12 s → 20 s
		{3 * time.Hour, 10 * time.Second, time.Minute},                  // 5400 of 2 s too many; 36 s → 1 min
		{10 * time.Hour, 10 * time.Second, 2 * time.Minute},             // 3600 of 10 s; 120 s → 2 min
	} {
		tl := New(Config{})
		var rec dump.Record
		for i, at := range []time.Duration{0, tc.span / 3, tc.span} {
			rec.Decode(i+1, gopacket.CaptureInfo{Timestamp: start.Add(at), Length: len(frame), CaptureLength: len(frame)}, capfile.LinkTypeEthernet, frame)
			tl.AddRecord(&rec, "x.pcap")
		}
		p := tl.Page()
		if time.Duration(tl.width) != tc.fine || p.Bin != tc.bin || p.Span != tc.span {
			t.Errorf("span %v: collected bins %v, drawn %v (span %v); want %v and %v", tc.span, time.Duration(tl.width), p.Bin, p.Span, tc.fine, tc.bin)
		}
		if n := len(p.Flows[0].Rates); n > TargetBins+1 {
			t.Errorf("span %v: %d bins drawn", tc.span, n)
		}
		var sum float64
		for _, r := range p.Flows[0].Rates {
			sum += r * p.Bin.Seconds() / 8
		}
		if int(sum+0.5) != 3*len(frame) {
			t.Errorf("span %v: the bins hold %.0f bytes, want %d", tc.span, sum, 3*len(frame))
		}
	}
}

// TestLabels: axis labels in the unit the span reaches, with the
// decimals the step needs, and as a clock from a minute on.
func TestLabels(t *testing.T) {
	us, ms, s := int64(time.Microsecond), int64(time.Millisecond), int64(time.Second)
	min, h := int64(time.Minute), int64(time.Hour)
	for _, tc := range []struct {
		v, step, span int64
		want          string
	}{
		{0, 200, 1000, "0"},
		{400, 200, 900, "400 ns"},
		{250 * us, 250 * us, 900 * us, "250 µs"},
		{1500 * us, 500 * us, 3 * ms, "1.5 ms"},
		{2 * ms, 500 * us, 3 * ms, "2.0 ms"},
		{250 * us, 50 * us, 2 * ms, "0.25 ms"},
		{20 * s, 5 * s, 50 * s, "20 s"},
		{90 * s, 30 * s, 5 * min, "1 min 30 s"},
		{90 * min, 30 * min, 10 * h, "1 h 30 min"},
		{26 * h, 2 * h, 3 * 24 * h, "1 d 2 h"},
	} {
		if got := offsetLabel(tc.v, tc.step, tc.span); got != tc.want {
			t.Errorf("offsetLabel(%d, %d, %d) = %q, want %q", tc.v, tc.step, tc.span, got, tc.want)
		}
	}
	for _, tc := range []struct {
		step, span int64
	}{{200, 1500}, {500 * us, 4 * ms}, {10 * s, 90 * s}, {30 * min, 4 * h}, {6 * h, 2 * 24 * h}} {
		if got := tickStep(tc.span); got != tc.step {
			t.Errorf("tickStep(%d) = %d, want %d", tc.span, got, tc.step)
		}
	}
	for _, tc := range []struct {
		d, res time.Duration
		want   string
	}{
		{215040 * time.Nanosecond, 0, "215.04 µs"},
		{1234567, 0, "1.235 ms"},
		{10 * time.Microsecond, 10 * time.Microsecond, "10 µs"},
		{2083 * time.Microsecond, 0, "2.083 ms"},
		{500 * 24 * time.Hour, 500 * 24 * time.Hour, "500 d"},
		{90*time.Minute + 1500*time.Millisecond, 0, "1 h 30 min 1 s"},
	} {
		if got := durationText(tc.d, tc.res); got != tc.want {
			t.Errorf("durationText(%v, %v) = %q, want %q", tc.d, tc.res, got, tc.want)
		}
	}
}
