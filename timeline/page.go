package timeline

import (
	"slices"
	"time"

	"github.com/roce-go/roce/flow"
)

// Page is what a timeline page shows, computed from a Timeline: the
// drawn flows with their throughput per bin and their marks, the paused
// intervals per PFC priority, and the time axis.
type Page struct {
	Files      []string
	Start, End time.Time     // the first and the latest frame
	Span       time.Duration // End - Start
	Bin        time.Duration // the width of a drawn bin
	Frames     uint64
	Flows      []FlowRow
	Pauses     []PauseRow
	// FlowsNotDrawn counts the flows beyond Config.Flows (by bytes),
	// FlowsNotBinned those beyond Config.MaxFlows (whose frames and
	// bytes are in BeyondFrames and BeyondBytes).
	FlowsNotDrawn, FlowsNotBinned int
	BeyondFrames, BeyondBytes     uint64
	PFCNotDrawn                   int // priorities beyond Config.MaxPFC
	// FramesPastAxis and BytesPastAxis count the frames later than
	// MaxSpan after the first, which are not drawn (their marks are in
	// Totals, not in Drawn).
	FramesPastAxis, BytesPastAxis uint64
	// Totals counts the marks of each kind the analysis reported; Drawn
	// those on the page. The others were thinned out (Config.MaxMarks),
	// fell on flows not drawn, or on flows not binned.
	Totals, Drawn [numMarks]uint64
}

// FlowRow is one flow of the page.
type FlowRow struct {
	Key           flow.Key
	Transport     string
	Frames, Bytes uint64
	// Rates is the throughput of each drawn bin, in bits per second
	// (frame lengths on the wire).
	Rates []float64
	Peak  float64
	Marks []Mark // every kind, in time order
	// Seen counts the marks of each kind the flow had, kept or not.
	Seen [numMarks]uint64
}

// PauseRow is one PFC priority of one source.
type PauseRow struct {
	Source   [6]byte
	Priority int // 0-7; 8 for 802.3x PAUSE
	Pauses   []Pause
	Count    uint64        // pauses, drawn or not
	Paused   time.Duration // their total length
}

// Page computes the page from what was added so far; the Timeline
// stays usable.
func (t *Timeline) Page() *Page {
	p := &Page{Files: t.files, Frames: t.frames, BeyondFrames: t.beyondFrames, BeyondBytes: t.beyondByte,
		FramesPastAxis: t.pastFrames, BytesPastAxis: t.pastBytes}
	if !t.has0 {
		p.Bin = time.Microsecond
		return p
	}
	p.Start, p.End = t.t0.UTC(), t.tEnd.UTC()
	p.Span = p.End.Sub(p.Start) // under MaxSpan: later frames are past the axis
	bin := binWidth(max(int64(p.Span), 1), t.width)
	p.Bin = time.Duration(bin)
	nbins := int(max(int64(p.Span)/bin+1, 1))
	drawn := slices.Clone(t.order)
	slices.SortStableFunc(drawn, func(a, b *series) int {
		switch {
		case a.bytes > b.bytes:
			return -1
		case a.bytes < b.bytes:
			return 1
		}
		return 0
	})
	if len(drawn) > t.cfg.Flows {
		p.FlowsNotDrawn = len(drawn) - t.cfg.Flows
		drawn = drawn[:t.cfg.Flows]
	}
	p.FlowsNotBinned = flowsBeyond(t)
	for k := range t.lost {
		p.Totals[k] = t.lost[k] + t.pastMarks[k]
	}
	for _, s := range t.order {
		for k := range s.marks {
			p.Totals[k] += s.marks[k].seen
		}
	}
	per := bin / t.width
	for _, s := range drawn {
		row := FlowRow{Key: s.key, Transport: s.transport, Frames: s.frames, Bytes: s.bytes, Rates: make([]float64, nbins)}
		for i, b := range s.bins {
			row.Rates[min(int64(i)/per, int64(nbins-1))] += float64(b)
		}
		for i := range row.Rates {
			row.Rates[i] *= 8 / p.Bin.Seconds()
			row.Peak = max(row.Peak, row.Rates[i])
		}
		for k := range s.marks {
			row.Marks = append(row.Marks, s.marks[k].kept...)
			row.Seen[k] = s.marks[k].seen
			p.Drawn[k] += uint64(len(s.marks[k].kept))
		}
		slices.SortStableFunc(row.Marks, func(a, b Mark) int { return a.Time.Compare(b.Time) })
		p.Flows = append(p.Flows, row)
	}
	p.Pauses = t.pauseRows(p)
	return p
}

// flowsBeyond counts the flows the analysis tracked that the Timeline
// did not bin.
func flowsBeyond(t *Timeline) int {
	n := 0
	for _, f := range t.an.Report().Flows {
		if t.flows[f.Key] == nil {
			n++
		}
	}
	return n
}

// pauseRows returns the pause rows, the pauses still running included,
// sorted by source (in order of first pause) and priority.
func (t *Timeline) pauseRows(p *Page) []PauseRow {
	running := map[pauseKey]Pause{}
	for _, e := range t.an.RunningPauses() {
		running[pauseKey{e.Source, e.Priority}] = Pause{Start: e.Start, End: e.End}
		if t.pauses[pauseKey{e.Source, e.Priority}] == nil {
			k := pauseKey{e.Source, e.Priority}
			t.pauses[k] = &pauseRow{key: k}
			t.porder = append(t.porder, t.pauses[k])
		}
	}
	var rows []PauseRow
	for _, r := range t.porder {
		row := PauseRow{Source: r.key.src, Priority: r.key.prio, Pauses: slices.Clone(r.kept), Count: r.n, Paused: r.total}
		if run, ok := running[r.key]; ok {
			row.Count++
			row.Paused += run.End.Sub(run.Start)
			if len(row.Pauses) < t.cfg.MaxPauses {
				row.Pauses = append(row.Pauses, run)
			}
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b PauseRow) int {
		if c := slices.Compare(a.Source[:], b.Source[:]); c != 0 {
			return c
		}
		return a.Priority - b.Priority
	})
	if len(rows) > t.cfg.MaxPFC {
		p.PFCNotDrawn = len(rows) - t.cfg.MaxPFC
		rows = rows[:t.cfg.MaxPFC]
	}
	return rows
}
