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
	tc.ceHead = (tc.ceHead + 1) % ceQueue
	tc.ceN--
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
	for f := a.pairs[pairKey{c.key.Dst, c.key.Src}]; f != nil; f = f.samePair {
		if f.hasReqQP && f.reqQP == c.key.QP && f.peer == nil {
			g.target = f
			return f
		}
	}
	g.tmiss++
	return nil
}

// settle drops, from the CE marks waiting on flow t, those the CNPs
// carried by c before the two were paired answered.
func settle(c, t *state) {
	tc := &t.cong
	for ; c.cong.early > 0 && tc.ceN > 0; c.cong.early-- {
		tc.ceHead = (tc.ceHead + 1) % ceQueue
		tc.ceN--
	}
	c.cong.early = 0
}
