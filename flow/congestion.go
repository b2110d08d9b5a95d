package flow

import (
	"math"
	"time"
)

// ceQueue is how many CE marks of a flow wait for their CNP with their
// times; marks beyond it wait without (blind), so that no CNP is paired
// with a mark it does not answer.
const ceQueue = 32

// earlyQueue is how many CNPs that come before their flows are paired
// keep their times.
const earlyQueue = 8

// congestion is a flow's ECN state: the CE marks waiting for the CNP
// they cause, and the CNPs the flow carries, for their pacing.
type congestion struct {
	// The waiting marks, oldest first, each with whether it causes a
	// CNP if the receiver paces as assumed (trig); then blind more, whose
	// times are not kept.
	ce      [ceQueue]int64
	trig    [ceQueue]bool
	ceHead  int
	ceN     int
	blind   int
	trigger int64 // when the last CE mark that caused a CNP came
	hasTrig bool
	// unpaced: a CNP answering this flow's marks came less than the
	// pacing interval after the one before: the receiver answers every
	// mark, the marks the pacing would not answer included.
	unpaced bool
	// lost: a mark the pacing would not answer found the queue full and
	// was not kept; unknown: the flow turned out unpaced after one was,
	// so which mark each CNP answers is not known and none is timed.
	lost, unknown bool

	lastCNP int64 // when the last CNP this flow carries came
	hasCNP  bool
	target  *state // the flow this flow's CNPs answer, once known
	tmiss   uint32 // CNPs whose target was not found
	early   int    // CNPs that came before their target was known
	// The times of the last earlyQueue of those, oldest first: they
	// take their marks when the target is known (settle).
	earlyT [earlyQueue]int64
	earlyH int
	earlyN int
	// earlyViolation: one of those broke the pacing.
	earlyViolation bool
}

// mark queues a CE mark seen at now, noting whether it causes a CNP
// when the receiver paces its CNPs at interval (negative: not pacing):
// it does not if it comes less than interval after the last mark that
// caused one.
func (c *congestion) mark(now int64, interval time.Duration) {
	trig := interval <= 0 || !c.hasTrig || now-c.trigger >= int64(interval)
	if trig {
		c.trigger, c.hasTrig = now, true
	}
	if c.ceN == 0 && c.blind == 0 {
		c.lost = false // every mark before was answered or passed over
	}
	if c.ceN == ceQueue || c.blind > 0 {
		if trig || c.unpaced {
			c.blind++ // after the queue's marks: answered after them
		} else {
			c.lost = true
		}
		return
	}
	i := (c.ceHead + c.ceN) % ceQueue
	c.ce[i], c.trig[i] = now, trig
	c.ceN++
}

// answer takes the mark a CNP at time at answers, and returns its
// delay when the mark's time is known; violation says the CNP broke the
// pacing assumed. A receiver that paces passes over the marks that came
// within the interval after the one it answered; one that breaks the
// pacing answers every mark, in order.
func (c *congestion) answer(at int64, violation bool) (d int64, timed bool) {
	if violation && !c.unpaced {
		c.unpaced, c.unknown = true, c.lost
	}
	for !c.unpaced && c.ceN > 0 && !c.trig[c.ceHead] {
		c.pop() // passed over by the pacing: no CNP answers it
	}
	switch {
	case c.ceN > 0 && c.ce[c.ceHead] <= at:
		d = at - c.ce[c.ceHead]
		c.pop()
		return d, !c.unknown
	case c.ceN == 0 && c.blind > 0:
		c.blind--
	}
	return 0, false
}

// cnp accounts for a CNP carried by flow c at now: its pacing, and the
// CE mark it answers on the flow whose sender it slows down.
func (a *Analyzer) cnp(c *state, p *Packet, now int64) {
	g := &c.cong
	violation := false
	if iv := a.cfg.CNPInterval; iv > 0 && g.hasCNP && now-g.lastCNP < int64(iv) {
		c.s.CNPPacingViolations++
		violation = true
	}
	g.lastCNP, g.hasCNP = now, true
	t := a.cnpTarget(c)
	if t == nil {
		g.early++
		g.earlyViolation = g.earlyViolation || violation
		if g.earlyN == earlyQueue {
			g.earlyH = (g.earlyH + 1) % earlyQueue
			g.earlyN--
		}
		g.earlyT[(g.earlyH+g.earlyN)%earlyQueue] = now
		g.earlyN++
		if a.cfg.Events != nil {
			a.cnpEvent(p, nil, 0, false)
		}
		return
	}
	d, timed := t.cong.answer(now, violation)
	if timed {
		t.sample(latCEToCNP, d)
	} else {
		d = 0
	}
	if a.cfg.Events != nil {
		a.cnpEvent(p, t, d, timed)
	}
}

// cnpTarget returns the flow a CNP carried by c answers: the flow in the
// other direction whose packets come from c's QP. For RC, UC and XRC it
// is c's peer (the CNP shares the key of the traffic back to the
// sender); for UD the flow whose DETH SrcQP is c's QP.
func (a *Analyzer) cnpTarget(c *state) *state {
	if c.peer != nil {
		return c.peer
	}
	g := &c.cong
	if g.target != nil {
		return g.target
	}
	if g.tmiss >= 8 && c.s.CNPs&(c.s.CNPs-1) != 0 {
		return nil // searched often in vain: only at powers of two now
	}
	for f := a.ud[pairKey{c.key.Dst, c.key.Src}]; f != nil; f = f.nextUD {
		if f.hasReqQP && f.reqQP == c.key.QP && f.peer == nil {
			g.target = f
			return f
		}
	}
	g.tmiss++
	return nil
}

// settle gives the CNPs carried by c before the two flows were paired
// the CE marks waiting on flow t that they answer: each, in order, takes
// the oldest mark if that mark came before it, and its delay is sampled
// (the first ones beyond the earlyQueue whose times are kept take theirs
// without a delay).
func settle(c, t *state) {
	g, tc := &c.cong, &t.cong
	for blind := g.early - g.earlyN; blind > 0; blind-- {
		tc.answer(math.MaxInt64, g.earlyViolation) // their times not kept: untimed
	}
	for ; g.earlyN > 0; g.earlyN-- {
		at := g.earlyT[g.earlyH]
		g.earlyH = (g.earlyH + 1) % earlyQueue
		if d, timed := tc.answer(at, g.earlyViolation); timed {
			t.sample(latCEToCNP, d)
		}
	}
	g.early, g.earlyH, g.earlyViolation = 0, 0, false
}

// pop takes the oldest waiting CE mark off the queue.
func (c *congestion) pop() {
	c.ceHead = (c.ceHead + 1) % ceQueue
	c.ceN--
}
