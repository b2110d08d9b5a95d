package flow

import "time"

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
	ce      [ceQueue]int64
	ceHead  int
	ceN     int
	blind   int   // marks waiting after the queue's, their times not kept
	trigger int64 // when the last CE mark that caused a CNP came
	hasTrig bool
	// unpaced: a CNP answering this flow's marks came less than the
	// pacing interval after the one before, so the receiver does not pace
	// as assumed, the marks it answers are not known, and none of this
	// flow's CNPs is timed from then on.
	unpaced bool

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
	// earlyViolation: one of those broke the pacing (unpaced, once the
	// target is known).
	earlyViolation bool
}

// mark queues a CE mark seen at now as one that causes a CNP, unless
// the receiver, pacing its CNPs at interval (negative: not pacing),
// would not answer it: it comes less than interval after the last mark
// that caused one.
func (c *congestion) mark(now int64, interval time.Duration) {
	if interval > 0 && c.hasTrig && now-c.trigger < int64(interval) {
		return
	}
	c.trigger, c.hasTrig = now, true
	if c.ceN == ceQueue || c.blind > 0 {
		c.blind++ // after the queue's marks: answered after them
		return
	}
	c.ce[(c.ceHead+c.ceN)%ceQueue] = now
	c.ceN++
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
	tc := &t.cong
	tc.unpaced = tc.unpaced || violation
	if tc.ceN == 0 || tc.unpaced {
		tc.take()
		if a.cfg.Events != nil {
			a.cnpEvent(p, t, 0, false)
		}
		return
	}
	d := now - tc.ce[tc.ceHead]
	t.sample(latCEToCNP, d)
	tc.pop()
	if a.cfg.Events != nil {
		a.cnpEvent(p, t, d, true)
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
	tc.unpaced = tc.unpaced || g.earlyViolation
	for blind := g.early - g.earlyN; blind > 0; blind-- {
		tc.take()
	}
	for ; g.earlyN > 0; g.earlyN-- {
		at := g.earlyT[g.earlyH]
		g.earlyH = (g.earlyH + 1) % earlyQueue
		switch {
		case tc.ceN > 0 && tc.ce[tc.ceHead] <= at && !tc.unpaced:
			t.sample(latCEToCNP, at-tc.ce[tc.ceHead])
			tc.pop()
		case tc.ceN == 0 || tc.ce[tc.ceHead] <= at:
			tc.take()
		}
	}
	g.early, g.earlyH, g.earlyViolation = 0, 0, false
}

// pop takes the oldest waiting CE mark off the queue.
func (c *congestion) pop() {
	c.ceHead = (c.ceHead + 1) % ceQueue
	c.ceN--
}

// take takes the oldest waiting mark, timed or blind, without timing it.
func (c *congestion) take() {
	switch {
	case c.ceN > 0:
		c.pop()
	case c.blind > 0:
		c.blind--
	}
}
