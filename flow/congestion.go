package flow

import "time"

// ceQueue is how many CE marks of a flow wait for their CNP.
const ceQueue = 8

// congestion is a flow's ECN state: the CE marks waiting for the CNP
// they cause, and the CNPs the flow carries, for their pacing.
type congestion struct {
	ce      [ceQueue]int64
	ceHead  int
	ceN     int
	trigger int64 // when the last CE mark that caused a CNP came
	hasTrig bool

	lastCNP int64 // when the last CNP this flow carries came
	hasCNP  bool
	target  *state // the flow this flow's CNPs answer, once known
	tmiss   uint32 // CNPs whose target was not found
	early   int    // CNPs that came before their target was known
	// The times of the last ceQueue of those, oldest first: they take
	// their marks when the target is known (settle).
	earlyT [ceQueue]int64
	earlyH int
	earlyN int
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
	if c.ceN == ceQueue {
		c.ceHead = (c.ceHead + 1) % ceQueue
		c.ceN--
	}
	c.ce[(c.ceHead+c.ceN)%ceQueue] = now
	c.ceN++
}

// cnp accounts for a CNP carried by flow c at now: its pacing, and the
// CE mark it answers on the flow whose sender it slows down.
func (a *Analyzer) cnp(c *state, p *Packet, now int64) {
	g := &c.cong
	if iv := a.cfg.CNPInterval; iv > 0 && g.hasCNP && now-g.lastCNP < int64(iv) {
		c.s.CNPPacingViolations++
	}
	g.lastCNP, g.hasCNP = now, true
	t := a.cnpTarget(c)
	if t == nil {
		g.early++
		if g.earlyN == ceQueue {
			g.earlyH = (g.earlyH + 1) % ceQueue
			g.earlyN--
		}
		g.earlyT[(g.earlyH+g.earlyN)%ceQueue] = now
		g.earlyN++
		if a.cfg.Events != nil {
			a.cnpEvent(p, nil, 0, false)
		}
		return
	}
	tc := &t.cong
	if tc.ceN == 0 {
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
// (the first ones beyond the ceQueue whose times are kept take theirs
// without a delay).
func settle(c, t *state) {
	g, tc := &c.cong, &t.cong
	for blind := g.early - g.earlyN; blind > 0 && tc.ceN > 0; blind-- {
		tc.pop()
	}
	for ; g.earlyN > 0; g.earlyN-- {
		at := g.earlyT[g.earlyH]
		g.earlyH = (g.earlyH + 1) % ceQueue
		if tc.ceN > 0 && tc.ce[tc.ceHead] <= at {
			t.sample(latCEToCNP, at-tc.ce[tc.ceHead])
			tc.pop()
		}
	}
	g.early, g.earlyH = 0, 0
}

// pop takes the oldest waiting CE mark off the queue.
func (c *congestion) pop() {
	c.ceHead = (c.ceHead + 1) % ceQueue
	c.ceN--
}
