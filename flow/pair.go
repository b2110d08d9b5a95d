package flow

import (
	"encoding/binary"

	"github.com/roce-go/roce/ib"
)

// maxEvidence is how many response PSNs an unpaired flow remembers to
// tell its candidate request flows apart.
const maxEvidence = 4

// maxQueued is how many responses an unpaired flow keeps until it is
// paired; older ones are dropped, and count as unmatched.
const maxQueued = 16

// response is what the request flow needs of one response packet.
type response struct {
	t       int64
	psn     uint32
	op      ib.Opcode
	payload uint32
	aeth    ib.AETH
	hasAETH bool
}

// pending is what an unpaired response flow keeps: the PSNs of earlier
// responses, which every candidate must own, and the responses not yet
// applied to a request flow.
type pending struct {
	ev  [maxEvidence]uint32
	nev int
	q   [maxQueued]response
	qh  int
	qn  int
}

// response accounts for an acknowledgement, atomic acknowledgement or
// read response on f, the flow back to the requester: the NAKs it
// carries, and the request it answers on the paired flow.
func (a *Analyzer) response(f *state, p *Packet, now int64) {
	s := &f.s
	h := &p.IB.BTH
	rs := response{t: now, psn: h.PSN, op: h.OpCode, payload: p.payloadLen()}
	if p.IB.Captured(ib.HeaderAETH) > 0 { // the syndrome, its first byte, was captured
		rs.aeth, rs.hasAETH = p.IB.AETH, true
		switch p.IB.AETH.Type() {
		case ib.Nak:
			c, _ := p.IB.AETH.NakCode()
			s.NAKs[c&31]++
			s.NAKTotal++
		case ib.RNRNak:
			s.RNRNAKs++
		}
	}
	f.resps++
	if f.peer == nil && f.conn == nil { // a CM connection's flows wait for their peer
		nakSeq := false
		if rs.hasAETH && rs.aeth.Type() == ib.Nak {
			c, _ := rs.aeth.NakCode()
			nakSeq = c == ib.NakPSNSequenceError
		}
		a.pair(f, h.PSN, nakSeq)
	}
	if t := rs.aeth.Type(); rs.hasAETH && (t == ib.Nak || t == ib.RNRNak) && a.cfg.Events != nil {
		a.nakEvent(f, p)
	}
	if f.peer == nil {
		f.queue(rs)
		return
	}
	if f.conn != nil {
		s.Answers = true
	}
	f.peer.answer(&rs)
}

// queue keeps a response of an unpaired flow until the flow is paired.
func (f *state) queue(rs response) {
	if !rs.op.Is(ib.ClassReadResponse | ib.ClassAtomicAck | ib.ClassAck) {
		return
	}
	if f.pend == nil {
		f.pend = new(pending)
	}
	pd := f.pend
	if pd.qn == maxQueued {
		f.unmatched(&pd.q[pd.qh])
		pd.qh = (pd.qh + 1) % maxQueued
		pd.qn--
	}
	pd.q[(pd.qh+pd.qn)%maxQueued] = rs
	pd.qn++
}

// unmatched counts a response no request flow answers for.
func (f *state) unmatched(rs *response) {
	switch {
	case rs.op.Is(ib.ClassReadResponse):
		f.s.ReadResponsesUnmatched++
	case rs.op.Is(ib.ClassAtomicAck):
		f.s.AtomicAcksUnmatched++
	}
}

// pair looks for the request flow that the response flow f answers: a
// flow in the other direction, of the same transport and not yet
// paired, that owns psn (it sent a request with that PSN, or waits for a
// read whose responses may carry it) and every PSN of the evidence. One
// such flow is f's peer. Several: psn joins the evidence and the choice
// waits for a later response. None with the evidence but some without:
// the evidence restarts from psn. A flow that finds no candidate at all
// tries at its first 8 responses, then at each power of two. For a NAK
// PSN Sequence Error (expected), which carries the PSN the responder
// expects, a flow whose PSNs skipped psn owns it too (the capture missed
// that request), and psn joins no evidence.
func (a *Analyzer) pair(f *state, psn uint32, expected bool) {
	if f.misses >= 8 && f.resps&(f.resps-1) != 0 {
		return
	}
	var ev []uint32
	if f.pend != nil {
		ev = f.pend.ev[:f.pend.nev]
	}
	// The candidates owning psn (any), of those the ones owning the
	// evidence too (all), and of each the ones on f's UDP source port.
	// Only the unpaired request flows indexed under psn's block, the
	// two after it and the wide ones can own psn (see reindex).
	var any, all, anyPort, allPort tally
	b := psn >> blockBits
	for _, blk := range [...]uint32{b, (b + 1) % nBlocks, (b + 2) % nBlocks, wideBlock} {
		k := idxKey{f.key.Dst, f.key.Src, f.transport, blk}
		for c := *a.unpaired.slot(&k); c != nil; c = c.ixNext {
			if c.ix != k {
				continue // another list in the same slot
			}
			a.visits++
			if c == f || !c.req.owns(psn) && !(expected && c.req.skipped(psn)) {
				continue
			}
			port := f.sport != 0 && c.sport == f.sport
			any.add(c, port, &anyPort)
			if c.req.ownsAll(ev) {
				all.add(c, port, &allPort)
			}
		}
	}
	switch {
	case all.n == 1:
		a.link(f, all.c)
	case all.n > 1 && allPort.n == 1:
		a.link(f, allPort.c)
	case all.n > 1:
		if !expected {
			f.evidence(psn, false)
		}
		f.ambiguous = all.n
	case any.n == 1:
		a.link(f, any.c)
	case any.n > 1 && anyPort.n == 1:
		a.link(f, anyPort.c)
	case any.n > 1:
		if !expected {
			f.evidence(psn, true)
		}
		f.ambiguous = any.n
	default:
		f.misses++
	}
}

// tally counts pairing candidates and keeps the last one.
type tally struct {
	n int
	c *state
}

// add counts c, and counts it in port too when it sends from the
// response flow's UDP source port. That port breaks a tie between
// candidates the PSNs cannot tell apart: RoCEv2 senders derive it from the
// connection (Linux and rdma-core fold a flow label computed from both QP
// numbers, the same in both directions), so a connection often uses one
// port both ways; where the directions differ, no candidate matches and
// the tie stands.
func (t *tally) add(c *state, onPort bool, port *tally) {
	t.n++
	t.c = c
	if onPort {
		port.n++
		port.c = c
	}
}

// evidence adds psn to the PSNs every candidate must own, or restarts
// them from psn.
func (f *state) evidence(psn uint32, restart bool) {
	if f.pend == nil {
		f.pend = new(pending)
	}
	pd := f.pend
	if restart {
		pd.nev = 0
	}
	if pd.nev == maxEvidence {
		copy(pd.ev[:], pd.ev[1:])
		pd.nev--
	}
	pd.ev[pd.nev] = psn
	pd.nev++
}

// link pairs the response flow f with the request flow req, and applies
// the responses f kept meanwhile.
func (a *Analyzer) link(f, req *state) {
	f.peer, req.peer = req, f
	a.reindex(req)
	a.reindex(f)
	// A connection is one QP on each side: each flow's QP is the source
	// QP of the other's packets.
	req.reqQP, req.hasReqQP = f.key.QP, true
	f.reqQP, f.hasReqQP = req.key.QP, true
	f.s.Answers = true
	f.ambiguous = 0
	settle(f, req)
	settle(req, f)
	if pd := f.pend; pd != nil {
		for ; pd.qn > 0; pd.qn-- {
			req.answer(&pd.q[pd.qh])
			pd.qh = (pd.qh + 1) % maxQueued
		}
		f.pend = nil
	}
}

// answer applies a response to the request flow f: the requests its
// AETH acknowledges, the NAK that will explain a resend, and the read or
// atomic it answers.
func (f *state) answer(rs *response) {
	r := f.rq()
	if rs.hasAETH {
		switch rs.aeth.Type() {
		case ib.Ack:
			f.acked(rs.psn, rs.t, true)
		case ib.RNRNak:
			f.acked(rs.psn, rs.t, false)
			r.nak = causeRNR
		case ib.Nak:
			if c, _ := rs.aeth.NakCode(); c == ib.NakPSNSequenceError {
				// The responder expects rs.psn: everything before it
				// arrived.
				f.acked(rs.psn, rs.t, false)
				r.nak = causeNakSeq
			}
		}
	}
	switch {
	case rs.op.Is(ib.ClassReadResponse):
		f.readResponse(rs)
	case rs.op.Is(ib.ClassAtomicAck):
		f.atomicAck(rs.psn, rs.t)
	}
}

// acked takes the latency of every packet an acknowledgement covers: up
// to psn, or up to the one before it (NAKs).
func (f *state) acked(psn uint32, now int64, inclusive bool) {
	r := f.req
	for r.ackN > 0 {
		d := psnDiff(r.acks[r.ackHead].psn, psn)
		if d > 0 || d == 0 && !inclusive {
			return
		}
		f.popAck(now, true)
	}
}

// readResponse matches a read response packet to a pending read of the
// requester flow f.
func (f *state) readResponse(rs *response) {
	s := &f.s
	psn, payload := rs.psn, rs.payload
	for i := range f.req.reads {
		r := &f.req.reads[i]
		if !r.used {
			continue
		}
		off := psnDiff(psn, r.psn)
		if off < 0 || off >= int32(r.maxPackets()) {
			continue
		}
		f.req.readPSN(r, psn, rs.op, payload)
		if off == 0 && !r.first {
			r.first = true
			f.sample(latReadFirst, rs.t-r.t)
		}
		switch rs.op.Operation() {
		case ib.RDMAReadResponseFirst:
			r.got, r.mtu = 1, payload
			if payload > s.MTU {
				s.MTU = payload
			}
			return
		case ib.RDMAReadResponseMiddle:
			r.got++
			if payload > s.MTU {
				s.MTU = payload
			}
			return
		case ib.RDMAReadResponseLast:
			r.got++
			if r.mtu != 0 && (r.cut || r.got == (r.length+r.mtu-1)/r.mtu) && uint32(off)+1 == r.got {
				s.ReadsMatched++
			} else {
				s.ReadsIncomplete++
			}
		case ib.RDMAReadResponseOnly:
			if off == 0 && r.got == 0 && (r.cut || s.MTU == 0 || r.length <= s.MTU) {
				s.ReadsMatched++
			} else {
				s.ReadsIncomplete++
			}
		}
		f.sample(latReadLast, rs.t-r.t)
		f.sample(latCompletion, rs.t-r.t)
		r.used, r.done = false, true
		return
	}
	s.ReadResponsesUnmatched++
}

// atomicAck matches an ATOMIC Acknowledge to a pending atomic request.
func (f *state) atomicAck(psn uint32, now int64) {
	for i := range f.req.atomics {
		if a := &f.req.atomics[i]; a.used && a.psn == psn {
			a.used = false
			f.s.AtomicsMatched++
			f.sample(latAtomic, now-a.t)
			return
		}
	}
	f.s.AtomicAcksUnmatched++
}

// unmatchedInto counts, in s, a response still queued at the end.
func (f *state) unmatchedInto(s *Stats, rs *response) {
	switch {
	case rs.op.Is(ib.ClassReadResponse):
		s.ReadResponsesUnmatched++
	case rs.op.Is(ib.ClassAtomicAck):
		s.AtomicAcksUnmatched++
	}
}

// The unpaired request flows are indexed by the block of 2^blockBits
// PSNs that holds the last PSN they may own; those whose pending reads
// reach further from their highest PSN go under wideBlock.
const (
	blockBits = 12 // RecentPSNs
	nBlocks   = 1 << (24 - blockBits)
	wideBlock = nBlocks
)

// idxKey names a list of unpaired request flows: their addresses, their
// transport and a PSN block.
type idxKey struct {
	src, dst Addr
	tr       ib.Transport
	blk      uint32
}

// candidate reports whether f is a request flow that a response may
// still pair with: RC or XRC, with requests, no peer, no CM connection.
func (f *state) candidate() bool {
	return f.peer == nil && f.conn == nil && f.req != nil && f.req.psnInit &&
		(f.transport == ib.RC || f.transport == ib.XRC)
}

// block returns the block under which a request flow is indexed. The
// flow owns PSNs from RecentPSNs below r.high (one past its highest)
// up to the end of its pending reads' responses. When those reads lie
// within RecentPSNs of r.high, the last PSN it may own is at most
// 2*RecentPSNs-1 past any PSN it owns: a flow owning psn is indexed
// under psn's block or one of the two after it. Otherwise it is wide.
func (r *requester) block() uint32 {
	ext := int32(0)
	for i := range r.reads {
		rd := &r.reads[i]
		if !rd.used {
			continue
		}
		s := psnDiff(rd.psn, r.high)
		e := s + int32(maxPackets(rd.length))
		if s < -RecentPSNs || e > RecentPSNs {
			return wideBlock
		}
		ext = max(ext, e)
	}
	return ((r.high + uint32(ext) - 1) & psnMask) >> blockBits
}

// reindex puts f in the list of unpaired request flows it belongs to
// now, or takes it out of every list when it is no longer a candidate.
func (a *Analyzer) reindex(f *state) {
	ok := f.candidate()
	var k idxKey
	if ok {
		k = idxKey{f.key.Src, f.key.Dst, f.transport, f.req.block()}
		if f.ixIn && f.ix == k {
			return
		}
	}
	if f.ixIn {
		if f.ixPrev != nil {
			f.ixPrev.ixNext = f.ixNext
		} else {
			*a.unpaired.slot(&f.ix) = f.ixNext
		}
		if f.ixNext != nil {
			f.ixNext.ixPrev = f.ixPrev
		}
		f.ixPrev, f.ixNext, f.ixIn = nil, nil, false
		a.unpaired.n--
	}
	if ok {
		a.unpaired.insert(f, k)
	}
}

// flowIndex is a hash table of the unpaired request flows by idxKey,
// chained through the flows: a slot's chain may hold several lists,
// told apart by each flow's ix. It has at least twice as many slots as
// flows indexed, and grows (the one allocation) only when that many
// more are: with a fixed set of flows, moving them from list to list
// allocates nothing.
type flowIndex struct {
	slots []*state
	n     int // flows indexed
}

func (x *flowIndex) slot(k *idxKey) **state {
	if len(x.slots) == 0 {
		x.grow() // a lookup before any flow was indexed
	}
	return &x.slots[k.hash()&uint64(len(x.slots)-1)]
}

// insert puts f at the head of list k.
func (x *flowIndex) insert(f *state, k idxKey) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow()
	}
	f.ix, f.ixIn = k, true
	sl := x.slot(&k)
	f.ixPrev, f.ixNext = nil, *sl
	if f.ixNext != nil {
		f.ixNext.ixPrev = f
	}
	*sl = f
	x.n++
}

// grow doubles the table, moving every chain's flows to their new slots.
func (x *flowIndex) grow() {
	old := x.slots
	x.slots = make([]*state, max(64, 2*len(old)))
	x.n = 0
	for _, head := range old {
		for f := head; f != nil; {
			next := f.ixNext
			x.insert(f, f.ix)
			f = next
		}
	}
}

// hash mixes every field of the key (a multiply-xorshift of each word).
func (k *idxKey) hash() uint64 {
	h := uint64(k.tr)<<32 | uint64(k.blk)
	for _, ad := range [2]*Addr{&k.src, &k.dst} {
		h = mix(h ^ binary.LittleEndian.Uint64(ad.IP[:8]))
		h = mix(h ^ binary.LittleEndian.Uint64(ad.IP[8:]))
		h = mix(h ^ uint64(ad.LID)<<8 ^ uint64(ad.Kind))
	}
	return h
}

func mix(h uint64) uint64 {
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>29
}
