package dump

import (
	"io"

	"github.com/roce-go/roce/capfile"
)

// MergeInput is one capture of Merge.
type MergeInput struct {
	Source *capfile.Source
	// Options decode and filter this capture's frames and give its
	// Progress and Unreadable callbacks; its Count and Workers are not
	// used (Merge's count and workers are).
	Options Options
}

// Merge reads several captures at once and hands fn their frames that
// match each capture's filter in time order, as one capture would hold
// them after a chronological merge (mergecap without -a): the frame with
// the earliest timestamp first, and of frames with the same timestamp
// the one of the capture given last, as mergecap (Wireshark 4.0) orders
// them, so that Merge and an analysis of mergecap's output agree frame
// for frame; within a capture, frames keep
// their order, so a capture whose timestamps go back in time is taken as
// it is (its later frames wait until their turn). fn is told which
// capture (the index in in) the Record comes from; Record.Number is its
// number in that capture. Captures taken on several hosts of one fabric
// interleave in time, and an analysis of PSNs, acknowledgements, CNPs
// and pauses needs the order in which things happened, whichever file
// holds them: hence a merge by time, not one capture after the other.
//
// Each capture is decoded on a pipeline of its own (see
// Options.Workers), with workers/len(in) decoding goroutines (at least
// one) besides its reader; fn is called on the calling goroutine. count,
// when positive, stops Merge after that many frames handed to fn in all.
// Merge returns each capture's Stats and the error that ended reading
// it (nil at its end, io.ErrUnexpectedEOF for a capture cut short): one
// capture's error ends that capture only. err is fn's error, which
// stops Merge. Every capture is open at once: memory is that of
// len(in) pipelines.
func Merge(in []MergeInput, workers, count int, fn func(i int, r *Record) error) (stats []Stats, errs []error, err error) {
	per := max(workers/max(len(in), 1), 1)
	ms := make([]mergeIn, len(in))
	h := mergeHeap{}
	for i := range in {
		m := &ms[i]
		m.idx, m.opt = i, in[i].Options
		m.p = startPipelineRecs(in[i].Source, &m.opt, per, false, nil, true)
		defer m.p.stop()
		if m.advance(); !m.done {
			h.push(m)
		}
	}
	handed := 0
	for len(h) > 0 && (count <= 0 || handed < count) {
		m := h[0]
		s, r := &m.b.slots[m.i], &m.b.res[m.i]
		countSlot(&m.st, &m.opt, s, r)
		handed++
		if err = fn(m.idx, &m.b.recs[m.i]); err != nil {
			break
		}
		m.i++
		if m.advance(); m.done {
			h.pop()
		} else {
			h.fix()
		}
	}
	stats, errs = make([]Stats, len(in)), make([]error, len(in))
	for i := range ms {
		stats[i], errs[i] = ms[i].st, ms[i].err
	}
	return stats, errs, err
}

// mergeIn is one capture of a Merge: its pipeline, and the batch and
// slot of its next matching frame.
type mergeIn struct {
	idx  int
	opt  Options
	p    *pipeline
	b    *batch
	i    int // the next slot of b
	st   Stats
	err  error
	done bool
}

// advance moves to the next frame that matches, counting the frames
// and records passed on the way; done is set at the end of the capture.
func (m *mergeIn) advance() {
	for !m.done {
		if m.b == nil {
			m.b = <-m.p.order
			<-m.b.done
			if m.b.pan != nil {
				panic(m.b.pan)
			}
			m.i = 0
		}
		for ; m.i < len(m.b.slots); m.i++ {
			s, r := &m.b.slots[m.i], &m.b.res[m.i]
			if s.rerr == nil && r.match {
				return
			}
			countSlot(&m.st, &m.opt, s, r)
		}
		if m.b.err != nil { // the reader has stopped after this batch
			if m.b.err != io.EOF {
				m.err = m.b.err
			}
			m.done = true
			return
		}
		m.p.free <- m.b
		m.b = nil
	}
}

// before orders the next frames of two captures: by time, then the
// later capture first (mergecap's order).
func (m *mergeIn) before(o *mergeIn) bool {
	t, u := m.b.slots[m.i].ts, o.b.slots[o.i].ts
	if !t.Equal(u) {
		return t.Before(u)
	}
	return m.idx > o.idx
}

// mergeHeap is a binary min-heap of captures by their next frame.
type mergeHeap []*mergeIn

func (h *mergeHeap) push(m *mergeIn) {
	*h = append(*h, m)
	a := *h
	for i := len(a) - 1; i > 0; {
		up := (i - 1) / 2
		if !a[i].before(a[up]) {
			break
		}
		a[i], a[up] = a[up], a[i]
		i = up
	}
}

// pop removes the top.
func (h *mergeHeap) pop() {
	a := *h
	a[0] = a[len(a)-1]
	*h = a[:len(a)-1]
	h.fix()
}

// fix restores the order after the top changed.
func (h *mergeHeap) fix() {
	a := *h
	for i := 0; ; {
		l, least := 2*i+1, i
		if l < len(a) && a[l].before(a[least]) {
			least = l
		}
		if l+1 < len(a) && a[l+1].before(a[least]) {
			least = l + 1
		}
		if least == i {
			return
		}
		a[i], a[least] = a[least], a[i]
		i = least
	}
}

// Add adds the counts of o to s.
func (s *Stats) Add(o Stats) {
	s.Frames += o.Frames
	s.Matched += o.Matched
	s.RoCE += o.RoCE
	s.BadICRC += o.BadICRC
	s.Truncated += o.Truncated
	s.NotRoCE += o.NotRoCE
	s.Malformed += o.Malformed
	s.Unsupported += o.Unsupported
	s.UnsupportedERF += o.UnsupportedERF
	s.MACControl += o.MACControl
	s.InfiniBand += o.InfiniBand
	s.Unreadable += o.Unreadable
}
