package timeline

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
)

// capped is a writer that refuses more than n bytes.
type capped struct {
	bytes.Buffer
	n int
}

var errTooLong = errors.New("page too long")

func (c *capped) Write(p []byte) (int, error) {
	if c.Len()+len(p) > c.n {
		return 0, errTooLong
	}
	return c.Buffer.Write(p)
}

// farPage draws the frames of a generated capture at the given offsets
// from start.
func farPage(t *testing.T, start time.Time, at []time.Duration) (*Page, string, error) {
	t.Helper()
	g, err := gen.New(gen.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	tl := New(Config{})
	var rec dump.Record
	for i, d := range at {
		if !g.Next() {
			t.Fatal("the generator ran out of frames")
		}
		fr := g.Frame()
		ts := start.Add(d)
		if d == maxAxis { // far past what a Duration holds
			ts = start.AddDate(1000, 0, 0)
		}
		rec.Decode(i+1, gopacket.CaptureInfo{Timestamp: ts, Length: len(fr), CaptureLength: len(fr)}, capfile.LinkTypeEthernet, fr)
		tl.AddRecord(&rec, "far.pcapng")
	}
	p := tl.Page()
	w := &capped{n: 1 << 20}
	err = p.WriteHTML(w)
	return p, w.String(), err
}

// maxAxis in farPage's offsets stands for 1000 years.
const maxAxis = time.Duration(1<<63 - 1)

var dates = regexp.MustCompile(`-?\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9}`)

// TestFarTimes: a page whatever the timestamps, small and finite. Two
// frames 1000 years apart made the page loop for ever writing its axis
// (ticks past int64 nanoseconds) or ask for 73 TB of bins; frames past
// 2262, where int64 nanoseconds since 1970 wrap, and across that wrap,
// draw the page they draw in 2026 (but for the dates); frames more than
// 292 years (what a Duration holds) after the first are counted, named
// on the page and not drawn.
func TestFarTimes(t *testing.T) {
	offsets := []time.Duration{0, 300 * time.Microsecond, 700 * time.Microsecond, 2 * time.Millisecond}
	_, want, err := farPage(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), offsets)
	if err != nil {
		t.Fatal(err)
	}
	want = dates.ReplaceAllString(want, "DATE")
	for _, start := range []time.Time{
		time.Date(3000, 3, 1, 12, 0, 0, 0, time.UTC),
		time.Unix(0, 1<<63-1).Add(-time.Millisecond), // the wrap of int64 nanoseconds, 2262, within the capture
		time.Date(-29719, 4, 5, 22, 13, 20, 5000, time.UTC),
		capfile.MaxTime.Add(-3 * time.Millisecond),
	} {
		p, got, err := farPage(t, start, offsets)
		if err != nil {
			t.Fatalf("start %v: %v", start, err)
		}
		if got := dates.ReplaceAllString(got, "DATE"); got != want {
			t.Errorf("start %v: the page differs from 2026's (%d bytes, %d)", start, len(got), len(want))
		}
		if p.Span != 2*time.Millisecond || !p.Start.Equal(start) {
			t.Errorf("start %v: span %v from %v", start, p.Span, p.Start)
		}
	}
	for _, c := range []struct {
		name  string
		start time.Time
		at    []time.Duration
		span  time.Duration
		drawn uint64 // frames on the axis
	}{
		{"1000 years apart", time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), []time.Duration{0, maxAxis}, 0, 1},
		{"290 years apart", time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), []time.Duration{0, 290 * 8766 * time.Hour}, 290 * 8766 * time.Hour, 2},
		{"MinTime and MaxTime", capfile.MinTime, []time.Duration{0, time.Second, maxAxis}, time.Second, 2},
		{"the longest axis", time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), []time.Duration{0, time.Hour, maxAxis - 1}, maxAxis - 1, 3},
	} {
		if c.name == "MinTime and MaxTime" {
			c.at[2] = capfile.MaxTime.Sub(capfile.MinTime) // saturates: MaxTime is past the axis
		}
		p, page, err := farPage(t, c.start, c.at)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(page) > 64<<10 || len(p.Flows) != 1 || len(p.Flows[0].Rates) > TargetBins+1 {
			t.Errorf("%s: a page of %d bytes, %d flows, %d bins", c.name, len(page), len(p.Flows), len(p.Flows[0].Rates))
		}
		if p.Span != c.span || p.Flows[0].Frames != c.drawn || p.FramesPastAxis != uint64(len(c.at))-c.drawn {
			t.Errorf("%s: span %v, %d frames drawn, %d past the axis; want %v, %d", c.name, p.Span, p.Flows[0].Frames, p.FramesPastAxis, c.span, c.drawn)
		}
		if past := p.FramesPastAxis > 0; past != regexp.MustCompile(`after the first frame (is|are) not drawn`).MatchString(page) {
			t.Errorf("%s: %d frames past the axis, and the page says %v", c.name, p.FramesPastAxis, !past)
		}
	}
}

// TestFarTimesAnalysis: a capture with CE marks, CNPs and PFC pauses
// (as TestBrowser's) gives the same page and the same -stats summary
// (text and JSON) whenever it was taken: in 2026, in the year 3000,
// across 2262-04-11T23:47:16.854775807Z (where int64 nanoseconds since
// 1970 wrap), before the year 1, next to MaxTime; only the dates differ.
func TestFarTimesAnalysis(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery = 16384, 1024, 40, 3, 9
	cfg.PFCEvery, cfg.PFCPrio, cfg.PFCQuanta = 100, int(cfg.PCP), 3000
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	var times []time.Time
	for g.Next() {
		frames = append(frames, bytes.Clone(g.Frame()))
		times = append(times, g.Time())
	}
	start, span := times[0], times[len(times)-1].Sub(times[0])
	var runGap func(time.Time, int64) (string, string, string)
	run := func(at time.Time) (page, text, js string) { return runGap(at, 0) }
	runGap = func(at time.Time, gap int64) (page, text, js string) {
		shift := at.Unix() - start.Unix()
		tl := New(Config{})
		var rec dump.Record
		for i, fr := range frames {
			ts := time.Unix(times[i].Unix()+shift, int64(times[i].Nanosecond()))
			if i >= len(frames)/2 {
				ts = time.Unix(ts.Unix()+gap, int64(ts.Nanosecond()))
			}
			rec.Decode(i+1, gopacket.CaptureInfo{Timestamp: ts, Length: len(fr), CaptureLength: len(fr)}, capfile.LinkTypeEthernet, fr)
			tl.AddRecord(&rec, "congestion.pcap")
		}
		var p, tx, j bytes.Buffer
		if err := tl.WriteHTML(&p); err != nil {
			t.Fatal(err)
		}
		rep := tl.Analyzer().Report()
		if err := rep.WriteText(&tx); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteJSON(&j); err != nil {
			t.Fatal(err)
		}
		page = clocks.ReplaceAllString(dates.ReplaceAllString(p.String(), "DATE"), "\nCLOCK ") // the frames' lines in the marks' titles
		return page, tx.String(), rfc3339.ReplaceAllString(j.String(), "DATE")
	}
	wantPage, wantText, wantJSON := run(start)
	if !strings.Contains(wantText, "ce-to-cnp") || !strings.Contains(wantJSON, `"paused_ns"`) || !strings.Contains(wantPage, `class="pause"`) {
		t.Fatalf("the capture shows no congestion:\n%s", wantText)
	}
	for _, at := range []time.Time{
		time.Date(3000, 3, 1, 12, 0, 0, 0, time.UTC),
		time.Unix(0, 1<<63-1).Add(-span / 2), // across the wrap
		time.Date(-5, 3, 1, 12, 0, 0, 0, time.UTC),
		capfile.MaxTime.Add(-span - time.Second),
	} {
		page, text, js := run(at)
		if page != wantPage {
			t.Errorf("at %v: the page differs from 2026's", at)
		}
		if text != wantText {
			t.Errorf("at %v: -stats\n%s\nwant\n%s", at, text, wantText)
		}
		if js != wantJSON {
			t.Errorf("at %v: -stats -json\n%s\nwant\n%s", at, js, wantJSON)
		}
	}
	// Half the capture 200 days later, or 300 years (past what the page
	// draws): the PFC summary is that of the capture in one piece (no
	// pause lasts that long; picoseconds since the first PFC frame, which
	// counted its pauses, overflow 64 bits after 106 days).
	want := pfcLines(wantText)
	for _, gap := range []int64{200 * 86400, 300 * 31556952} {
		_, text, _ := runGap(start, gap)
		if got := pfcLines(text); got != want {
			t.Errorf("gap of %d s: %s, want %s", gap, got, want)
		}
	}
}

// pfcLines returns the PFC lines of a -stats text summary.
func pfcLines(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "pfc ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

var clocks = regexp.MustCompile(`\n\d\d:\d\d:\d\d\.\d{6} `)

var rfc3339 = regexp.MustCompile(`"-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"`)
