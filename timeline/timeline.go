package timeline

import (
	"bytes"
	"time"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
)

// Defaults of Config.
const (
	DefaultFlows     = 8    // flows drawn
	DefaultMaxFlows  = 256  // flows binned
	DefaultMaxMarks  = 256  // marks kept per flow and kind
	DefaultMaxPauses = 1024 // pause intervals kept per priority
	DefaultMaxPFC    = 16   // priorities (of all sources) drawn
	// MaxBins is how many time bins a flow keeps while the capture is
	// read: when the capture outgrows them, neighbouring bins merge
	// (see the package documentation).
	MaxBins = 4096
)

// Config sets a Timeline up. Zero values take the defaults.
type Config struct {
	Flows     int // flows drawn: the Flows with the most bytes
	MaxFlows  int // flows whose throughput is binned; later flows are counted, not drawn
	MaxMarks  int // marks kept per flow and kind (CE, CNP, NAK, retransmission)
	MaxPauses int // pause intervals kept per PFC priority of a source
	MaxPFC    int // PFC priorities (of every source) drawn
	// Flow configures the analysis that classifies the packets (its
	// Events hook is the Timeline's).
	Flow flow.Config
	// Text sets the text line of its frame each mark holds; the zero
	// TextOptions gives the default line, times in UTC.
	Text dump.TextOptions
}

// MarkKind is the kind of a mark.
type MarkKind uint8

// The kinds of mark, in the order of the legend.
const (
	MarkCE MarkKind = iota
	MarkCNP
	MarkNAK
	MarkRetransmit
	numMarks
)

var markNames = [numMarks]string{"ce", "cnp", "nak", "retransmit"}

// String returns "ce", "cnp", "nak" or "retransmit", the class of the
// mark on the page.
func (k MarkKind) String() string { return markNames[k] }

// Mark is one event drawn on a flow's row.
type Mark struct {
	Kind  MarkKind
	Time  time.Time
	File  string // the capture it comes from, as given to AddRecord
	Frame int    // its frame number in that capture
	Line  string // the frame as rocedump prints it
	Note  string // what the analysis said of it
}

// Pause is one continuous pause of a PFC priority.
type Pause struct {
	Start, End time.Time
	// File and Frame are the frame whose arrival ended the pause (an
	// XON, or the frame after its timer ran out); Frame is 0 for a pause
	// still running at the end of the capture.
	File  string
	Frame int
}

// marks keeps the marks of one kind of one flow, thinning them out
// evenly over the capture once the cap is reached: of every stride marks
// seen, the first is kept.
type marks struct {
	kept   []Mark
	seen   uint64
	stride uint64
}

// want reports whether the next mark is to be kept, making room when the
// list is full.
func (m *marks) want(limit int) bool {
	if m.stride == 0 {
		m.stride = 1
	}
	n := m.seen
	m.seen++
	if n%m.stride != 0 {
		return false
	}
	if len(m.kept) == limit {
		// Keep every other mark: those whose number is a multiple of
		// the doubled stride.
		j := 0
		for i := 0; i < len(m.kept); i += 2 {
			m.kept[j] = m.kept[i]
			j++
		}
		m.kept = m.kept[:j]
		m.stride *= 2
		if n%m.stride != 0 {
			return false
		}
	}
	return true
}

// series is one flow's bins and marks.
type series struct {
	key           flow.Key
	transport     string
	frames, bytes uint64
	bins          []uint64 // bytes per bin of width Timeline.width from t0
	marks         [numMarks]marks
}

// pauseKey names a priority of a MAC Control source.
type pauseKey struct {
	src  [6]byte
	prio int
}

// pauseRow is one priority's pauses.
type pauseRow struct {
	key     pauseKey
	kept    []Pause
	n       uint64 // pauses seen
	dropped uint64
	total   time.Duration
}

// Timeline collects what a congestion timeline draws, one decoded frame
// at a time, in bounded memory: MaxFlows flows of MaxBins bins, MaxMarks
// marks per flow and kind, MaxPauses intervals per priority. It is not
// safe for concurrent use.
type Timeline struct {
	cfg      Config
	an       *flow.Analyzer
	cur      *dump.Record
	file     string
	line     []byte
	t0       time.Time // the first frame's time
	tEnd     time.Time // the latest frame time on the axis
	has0     bool
	width    int64 // bin width, ns: 1, 2, 10, 20, 100, ...
	flows    map[flow.Key]*series
	order    []*series
	pauses   map[pauseKey]*pauseRow
	porder   []*pauseRow
	files    []string // the captures, in order of first frame
	seenFile map[string]bool
	lastFile string

	frames                   uint64           // frames added
	beyondFrames, beyondByte uint64           // frames and bytes of flows beyond MaxFlows
	lost                     [numMarks]uint64 // marks of flows beyond MaxFlows
	pastFrames, pastBytes    uint64           // frames and bytes past the axis (MaxSpan after the first)
	pastMarks                [numMarks]uint64 // marks past the axis
}

// MaxSpan is the longest time axis a page draws, what a time.Duration
// holds: 2^63-1 ns, about 292 years from the first frame. Frames later
// than that (a capture's timestamps reach billions of years) are counted
// and named on the page, not drawn; the analysis (Analyzer) takes them
// all.
const MaxSpan = time.Duration(1<<63 - 1)

// New returns an empty Timeline.
func New(cfg Config) *Timeline {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.Flows, DefaultFlows)
	def(&cfg.MaxFlows, DefaultMaxFlows)
	def(&cfg.MaxMarks, DefaultMaxMarks)
	def(&cfg.MaxPauses, DefaultMaxPauses)
	def(&cfg.MaxPFC, DefaultMaxPFC)
	t := &Timeline{cfg: cfg, width: 1, flows: make(map[flow.Key]*series), pauses: make(map[pauseKey]*pauseRow),
		seenFile: make(map[string]bool)}
	fc := cfg.Flow
	fc.Events = t.event
	t.an = flow.New(fc)
	return t
}

// Analyzer returns the analysis the Timeline feeds: its Report is the
// -stats summary of the frames added.
func (t *Timeline) Analyzer() *flow.Analyzer { return t.an }

// AddRecord adds one decoded frame from the capture named file (a name
// shown on the page; pass the same string for every frame of a
// capture). Frames are expected in time order (dump.Merge hands them so);
// a frame earlier than the first one counts in the first bin.
func (t *Timeline) AddRecord(r *dump.Record, file string) {
	t.frames++
	if file != t.lastFile {
		t.noteFile(file)
	}
	if !t.has0 {
		t.t0, t.tEnd, t.has0 = r.Time, r.Time, true
	}
	// The time since the first frame, exact up to MaxSpan, where Sub
	// saturates: past the axis. (Before the first frame: the first bin.)
	if rel := r.Time.Sub(t.t0); rel == MaxSpan {
		t.pastFrames++
		t.pastBytes += uint64(r.Len)
	} else {
		if r.Time.After(t.tEnd) {
			t.tEnd = r.Time
		}
		if k, ok := flow.KeyOf(r); ok {
			t.count(k, r, int64(max(rel, 0)))
		}
	}
	t.cur, t.file = r, file
	t.an.AddRecord(r)
	t.cur = nil
}

// noteFile remembers the names of the captures, in order of first frame.
func (t *Timeline) noteFile(file string) {
	t.lastFile = file
	if !t.seenFile[file] {
		t.seenFile[file] = true
		t.files = append(t.files, file)
	}
}

// count adds a packet of flow k, rel ns after the first frame, to its
// bins.
func (t *Timeline) count(k flow.Key, r *dump.Record, rel int64) {
	s := t.flows[k]
	if s == nil {
		if len(t.order) >= t.cfg.MaxFlows {
			t.beyondFrames++
			t.beyondByte += uint64(r.Len)
			return
		}
		s = &series{key: k, transport: r.RoCE.Packet.BTH.OpCode.Transport().String()}
		t.flows[k] = s
		t.order = append(t.order, s)
	}
	s.frames++
	s.bytes += uint64(r.Len)
	i := t.bin(rel)
	for int64(len(s.bins)) <= i {
		s.bins = append(s.bins, 0)
	}
	s.bins[i] += uint64(r.Len)
}

// bin returns the bin of rel ns after the first frame, widening the
// bins first if the capture has outgrown them (up to 10^16 ns wide, 4096
// of which hold MaxSpan).
func (t *Timeline) bin(rel int64) int64 {
	for rel/t.width >= MaxBins {
		t.widen()
	}
	return rel / t.width
}

// widen merges neighbouring bins: 1 ns bins into 2 ns, 2 into 10, 10
// into 20, ..., so that every width is 1 or 2 times a power of ten.
func (t *Timeline) widen() {
	f := int64(2)
	if leading(t.width) == 2 {
		f = 5
	}
	t.width *= f
	for _, s := range t.order {
		n := (int64(len(s.bins)) + f - 1) / f
		for i := int64(0); i < n; i++ {
			var sum uint64
			for j := i * f; j < min((i+1)*f, int64(len(s.bins))); j++ {
				sum += s.bins[j]
			}
			s.bins[i] = sum
		}
		s.bins = s.bins[:n]
	}
}

// leading returns the leading decimal digit of v > 0.
func leading(v int64) int64 {
	for v >= 10 {
		v /= 10
	}
	return v
}

// event takes the analysis' classifications.
func (t *Timeline) event(e *flow.Event) {
	switch e.Kind {
	case flow.EventCE:
		t.mark(MarkCE, e.Flow, e, "CE mark")
	case flow.EventCNP:
		k, note := e.Flow, "CNP, for a sender not identified"
		if e.HasSender {
			k, note = e.Sender, "CNP to this flow's sender"
		}
		if e.HasDelay {
			note += ", " + e.Delay.String() + " after the CE mark it answers"
		}
		t.mark(MarkCNP, k, e, note)
	case flow.EventNAK:
		k, note := e.Flow, "NAK "+e.AETH.String()
		if e.HasSender {
			k = e.Sender
			note += ", to this flow's requester"
		}
		t.mark(MarkNAK, k, e, note)
	case flow.EventRetransmit:
		note := "retransmission (go-back-N episode cause: " + e.Cause + ")"
		if e.EpisodeStart {
			note = "retransmission, beginning a go-back-N episode (cause: " + e.Cause + ")"
		}
		t.mark(MarkRetransmit, e.Flow, e, note)
	case flow.EventPause:
		t.pause(e, t.file, t.cur.Number)
	}
}

// mark keeps a mark of kind k on flow key, if there is room.
func (t *Timeline) mark(kind MarkKind, key flow.Key, e *flow.Event, note string) {
	s := t.flows[key]
	if s == nil {
		t.lost[kind]++
		return
	}
	if t.has0 && e.Time.Sub(t.t0) == MaxSpan {
		t.pastMarks[kind]++
		return
	}
	m := &s.marks[kind]
	if !m.want(t.cfg.MaxMarks) {
		return
	}
	t.line = t.cfg.Text.AppendText(t.line[:0], t.cur)
	m.kept = append(m.kept, Mark{Kind: kind, Time: e.Time, File: t.file, Frame: t.cur.Number,
		Line: string(bytes.TrimSuffix(t.line, []byte("\n"))), Note: note})
}

// pause keeps a pause interval.
func (t *Timeline) pause(e *flow.Event, file string, frame int) {
	k := pauseKey{e.Source, e.Priority}
	p := t.pauses[k]
	if p == nil {
		p = &pauseRow{key: k}
		t.pauses[k] = p
		t.porder = append(t.porder, p)
	}
	p.n++
	p.total += e.End.Sub(e.Start)
	if len(p.kept) >= t.cfg.MaxPauses {
		p.dropped++
		return
	}
	p.kept = append(p.kept, Pause{Start: e.Start, End: e.End, File: file, Frame: frame})
}
