package flow

import "github.com/roce-go/roce/ib"

// RecentPSNs is how many PSNs below the highest one sent a request flow
// remembers, one bit each: which of them its requests (and the responses
// of its RDMA READs) used. Pairing asks this set whether a response's
// PSN is one of the flow's (see the package documentation).
const RecentPSNs = 4096

// ackQueue is how many SEND, RDMA WRITE, FLUSH and ATOMIC WRITE packets
// a flow remembers until the ACK that covers them, for the latency from
// a request to its ACK: the ones with the highest PSNs.
const ackQueue = 128

// Causes of a go-back-N episode.
const (
	causeNone uint8 = iota
	causeNakSeq
	causeRNR
	causeTimeout
)

type pendingRead struct {
	psn    uint32
	length uint32
	cut    bool   // the capture cut the request's DMA length: its responses tell it
	got    uint32 // response packets seen
	mtu    uint32 // payload of the First response
	used   bool   // waiting for its responses
	done   bool   // over, remembered so that a re-request of its tail is known
	first  bool   // a response at the read's own PSN was seen
	t      int64  // capture time of the request, ns
}

type pendingAtomic struct {
	psn  uint32
	used bool
	t    int64
}

// unacked is a request packet waiting for the ACK that covers it.
type unacked struct {
	psn  uint32
	part uint8 // partFirst, partMiddle, partLast or partOnly
	t    int64 // when it was sent (first captured)
}

// What a packet is in its message.
const (
	partFirst uint8 = iota
	partMiddle
	partLast
	partOnly // Only, FLUSH, ATOMIC WRITE: a message of one packet
)

// requester is the request side of a flow: PSN tracking, retransmission
// episodes and what waits for a response.
type requester struct {
	psnInit        bool
	nextLo, nextHi uint32 // the expected next PSN range
	high           uint32 // one past the highest PSN used
	sent           [RecentPSNs / 64]uint64

	// Retransmission: the episode under way, and the NAK the peer flow
	// carried since the last episode began.
	inEpisode    bool
	episodeStart bool // the last resend began an episode
	cause        uint8
	rexLo, rexHi uint32 // PSNs that continue the episode
	nak          uint8

	reads   [MaxOutstanding]pendingRead
	atomics [MaxOutstanding]pendingAtomic

	// The packets waiting for their ACK, in PSN order, and the message
	// the ACKs have reached: it began at msgStart (its earliest packet)
	// and goes on at msgNext if msgOK (its First was acknowledged and
	// every PSN since).
	acks     [ackQueue]unacked
	ackHead  int
	ackN     int
	msgStart int64
	msgNext  uint32
	msgOK    bool

	// cutRead says that the last request was an RDMA READ whose DMA
	// length the capture cut, at PSN cutReadPSN: the next request says
	// how many PSNs it took.
	cutRead    bool
	cutReadPSN uint32
}

// rq returns the flow's request state, making it on the flow's first
// request (a flow that carries only responses has none).
func (f *state) rq() *requester {
	if f.req == nil {
		f.req = new(requester)
	}
	return f.req
}

// cutReadPSNs is how many PSNs an RDMA READ whose DMA length the capture
// cut may take, for the PSN analysis: the next request in order is the
// one at most this far ahead.
const cutReadPSNs = RecentPSNs

// request runs the PSN analysis of a request, counts retransmissions and
// records what waits for a response.
func (f *state) request(p *Packet, now int64) {
	s := &f.s
	r := f.rq()
	op := p.IB.BTH.OpCode
	psn := p.IB.BTH.PSN
	n := uint32(1) // PSNs the request takes: its responses' for a READ
	lo, hi := uint32(1), uint32(1)
	cutRead := op.Is(ib.ClassReadRequest) && p.IB.Captured(ib.HeaderRETH) < ib.RETHLen
	switch {
	case cutRead:
		hi = cutReadPSNs
	case op.Is(ib.ClassReadRequest):
		l := p.IB.RETH.DMALen
		if mtu := s.MTU; mtu != 0 {
			n = max((l+mtu-1)/mtu, 1)
			lo, hi = n, n
		} else {
			lo, hi = minPackets(l), maxPackets(l)
			n = lo
		}
	}
	lo, hi = (psn+lo)&psnMask, (psn+hi)&psnMask
	if !r.psnInit {
		r.psnInit = true
		r.high = psn
		r.use(psn, n)
		r.nextLo, r.nextHi = lo, hi
		r.cutRead, r.cutReadPSN = cutRead, psn
		f.record(p, psn, now)
		return
	}
	d := psnDiff(psn, r.nextLo)
	span := psnDiff(r.nextHi, r.nextLo)
	switch {
	case d >= 0 && d <= span: // in order
		if r.cutRead { // the cut READ before this took the PSNs up to this one
			r.use(r.cutReadPSN, uint32(psnDiff(psn, r.cutReadPSN)))
		}
		r.use(psn, n)
		r.nextLo, r.nextHi = lo, hi
		r.inEpisode = false
		r.cutRead, r.cutReadPSN = cutRead, psn
	case d > span: // ahead: PSNs skipped
		s.PSNGaps++
		s.PSNMissing += uint64(psnDiff(psn, r.nextHi))
		r.use(psn, n)
		r.nextLo, r.nextHi = lo, hi
		r.inEpisode = false
		r.cutRead, r.cutReadPSN = cutRead, psn
	default: // behind the expected PSN
		// back-1 is the distance from the highest PSN used (r.high is
		// one past it): out of order from 1 to Window behind it.
		back := psnDiff(r.high, psn)
		if back > 0 && back <= Window+1 && !r.isSent(psn) {
			s.OutOfOrder++
			r.mark(psn)
			switch {
			case r.inEpisode && psnDiff(psn, r.rexLo) < 0:
				// Back before the episode's resends: a resend of a
				// packet the capture never saw begins the next one.
				r.inEpisode = false
			case r.inEpisode:
				r.rexLo, r.rexHi = lo, hi
			}
		} else {
			f.retransmitted(psn, lo, hi)
			if op.Is(ib.ClassReadRequest) && f.reRead(psn) {
				f.record(p, psn, now) // the tail of an earlier read: a read of its own
			}
			return // otherwise its read or atomic is already pending
		}
	}
	f.record(p, psn, now)
}

// retransmitted counts a request sent again, and the go-back-N episode
// it begins or continues: an episode begins with a resend that does not
// follow the previous resend (one that goes back, or skips ahead after a
// NAK), and its cause is the NAK the peer flow carried since the
// previous episode began, if any, else a timeout. A resend that skips
// ahead with no NAK since continues the episode: the PSNs it skips were
// resent too, and lost before the capture point.
func (f *state) retransmitted(psn, lo, hi uint32) {
	s := &f.s
	r := f.req
	s.Duplicates++
	s.Retransmitted++
	r.episodeStart = !r.inEpisode || psnDiff(psn, r.rexLo) < 0 || psnDiff(psn, r.rexHi) > 0 && r.nak != causeNone
	if r.episodeStart {
		r.inEpisode = true
		r.cause = r.nak
		if r.cause == causeNone {
			r.cause = causeTimeout
		}
		r.nak = causeNone
		switch r.cause {
		case causeNakSeq:
			s.GBNNakSeq++
		case causeRNR:
			s.GBNRNR++
		default:
			s.GBNTimeout++
		}
	}
	r.rexLo, r.rexHi = lo, hi
	switch r.cause {
	case causeNakSeq:
		s.RetransmittedNakSeq++
	case causeRNR:
		s.RetransmittedRNR++
	default:
		s.RetransmittedTimeout++
	}
}

// use records that PSNs psn to psn+n-1 are the flow's: it moves the
// highest PSN up, forgetting what falls out of the remembered range,
// and marks them.
func (r *requester) use(psn, n uint32) {
	end := (psn + n) & psnMask
	if d := psnDiff(end, r.high); d > 0 {
		if d >= RecentPSNs {
			r.sent = [RecentPSNs / 64]uint64{}
		} else {
			for q := r.high; q != end; q = (q + 1) & psnMask {
				r.sent[q%RecentPSNs/64] &^= 1 << (q % 64)
			}
		}
		r.high = end
	}
	for i := uint32(0); i < n && i < RecentPSNs; i++ {
		r.mark((psn + i) & psnMask)
	}
}

func (r *requester) mark(psn uint32) { r.sent[psn%RecentPSNs/64] |= 1 << (psn % 64) }

// isSent reports whether psn is one of the flow's remembered PSNs.
func (r *requester) isSent(psn uint32) bool {
	if !r.psnInit {
		return false
	}
	if back := psnDiff(r.high, psn); back <= 0 || back > RecentPSNs {
		return false
	}
	return r.sent[psn%RecentPSNs/64]&(1<<(psn%64)) != 0
}

// readPSN learns from a response of the read rd at psn the PSNs the
// read took, which its request did not tell when the MTU was not known
// then: psn is one of them; a First response's payload, the MTU, says
// that the read took ceil(L/MTU) from its own; a Last or Only that it
// ends at psn. When rd is the flow's last request, the next request is
// expected after them.
func (r *requester) readPSN(rd *pendingRead, psn uint32, op ib.Opcode, payload uint32) {
	start, n := psn, uint32(1)
	end := false
	switch {
	case op.Is(ib.ClassFirst) && payload > 0 && !rd.cut && psn == rd.psn:
		start, n, end = rd.psn, max((rd.length+payload-1)/payload, 1), true
	case op.Is(ib.ClassLast | ib.ClassOnly):
		end = true
	}
	r.use(start, n)
	next := (start + n) & psnMask
	if rd.psn != r.cutReadPSN || psnDiff(next, r.nextLo) < 0 || psnDiff(next, r.nextHi) > 0 {
		return
	}
	r.nextLo = next
	if end {
		r.nextHi = next
	}
}

// skipped reports whether psn is one of the remembered PSNs below the
// flow's highest that no request of the capture used: a PSN gap skipped
// it.
func (r *requester) skipped(psn uint32) bool {
	if !r.psnInit {
		return false
	}
	back := psnDiff(r.high, psn)
	return back > 0 && back <= RecentPSNs && !r.isSent(psn)
}

// owns reports whether psn is a PSN the flow's requests used, or one a
// pending RDMA READ's responses may carry.
func (r *requester) owns(psn uint32) bool {
	if r.isSent(psn) {
		return true
	}
	for i := range r.reads {
		rd := &r.reads[i]
		if rd.used {
			if off := psnDiff(psn, rd.psn); off >= 0 && off < int32(rd.maxPackets()) {
				return true
			}
		}
	}
	return false
}

// ownsAll reports whether the flow owns every PSN of ev.
func (r *requester) ownsAll(ev []uint32) bool {
	for _, e := range ev {
		if !r.owns(e) {
			return false
		}
	}
	return true
}

// maxPackets is the most response packets the read can take: those of
// its length, or, when the capture cut its DMA length, cutReadPSNs.
func (rd *pendingRead) maxPackets() uint32 {
	if rd.cut {
		return cutReadPSNs
	}
	return maxPackets(rd.length)
}

// maxPackets is the most response packets a read of n bytes can take
// (at the smallest path MTU, 256 bytes).
func maxPackets(n uint32) uint32 {
	if n == 0 {
		return 1
	}
	return (n + 255) / 256
}

func minPackets(n uint32) uint32 {
	if n == 0 {
		return 1
	}
	return (n + 4095) / 4096
}

// record remembers an RDMA READ or atomic request until its response,
// and a packet an ACK will cover until that ACK.
func (f *state) record(p *Packet, psn uint32, now int64) {
	s := &f.s
	r := f.req
	switch op := p.IB.BTH.OpCode; {
	case op.Is(ib.ClassReadRequest):
		s.Reads++
		slot := oldestRead(&r.reads)
		if r.reads[slot].used {
			s.ReadsUnanswered++
		}
		r.reads[slot] = pendingRead{psn: psn, length: p.IB.RETH.DMALen, cut: p.IB.Captured(ib.HeaderRETH) < ib.RETHLen, used: true, t: now}
	case op.Is(ib.ClassAtomic):
		s.Atomics++
		slot := -1
		for i := range r.atomics {
			if !r.atomics[i].used {
				slot = i
				break
			}
		}
		if slot < 0 { // full: drop the one furthest behind
			slot = 0
			for i := range r.atomics {
				if psnDiff(r.atomics[i].psn, r.atomics[slot].psn) < 0 {
					slot = i
				}
			}
			s.AtomicsUnanswered++
		}
		r.atomics[slot] = pendingAtomic{psn: psn, used: true, t: now}
	case op.Is(ib.ClassSend | ib.ClassWrite | ib.ClassFlush | ib.ClassAtomicWrite):
		if f.transport == ib.UC {
			return // no acknowledgements
		}
		part := partOnly
		switch {
		case op.Is(ib.ClassFirst):
			part = partFirst
		case op.Is(ib.ClassMiddle):
			part = partMiddle
		case op.Is(ib.ClassLast):
			part = partLast
		}
		r.pushAck(f, unacked{psn: psn, part: part, t: now})
	}
}

// pushAck queues a packet until its ACK, in PSN order: a late packet
// (out of order) goes before those with higher PSNs. When the queue is
// full, the packet with the lowest PSN is forgotten.
func (r *requester) pushAck(f *state, u unacked) {
	if r.ackN == ackQueue { // full: forget the oldest
		f.popAck(0, false)
	}
	i := r.ackN
	for ; i > 0; i-- {
		if prev := &r.acks[(r.ackHead+i-1)%ackQueue]; psnDiff(prev.psn, u.psn) < 0 {
			break
		}
		r.acks[(r.ackHead+i)%ackQueue] = r.acks[(r.ackHead+i-1)%ackQueue]
	}
	r.acks[(r.ackHead+i)%ackQueue] = u
	r.ackN++
}

// popAck takes the packet with the lowest PSN off the ACK queue, an
// acknowledgement at now covering it (acked) or not (forgotten). It
// follows the message the packet belongs to: an acknowledged Last or
// Only completes it, timed from its earliest packet, when its First
// (or Only) and every PSN since went through this queue.
func (f *state) popAck(now int64, acked bool) {
	r := f.req
	u := r.acks[r.ackHead]
	r.ackHead = (r.ackHead + 1) % ackQueue
	r.ackN--
	if acked {
		f.sample(latAck, now-u.t)
	}
	switch {
	case r.msgOK && psnDiff(u.psn, r.msgNext) < 0:
		return // behind the message under way: a stray, not part of it
	case u.part == partFirst || u.part == partOnly:
		r.msgStart, r.msgOK = u.t, true
	case r.msgOK && u.psn == r.msgNext:
		r.msgStart = min(r.msgStart, u.t)
	default:
		r.msgOK = false // a PSN of the message never came through
	}
	r.msgNext = (u.psn + 1) & psnMask
	if u.part == partLast || u.part == partOnly {
		if r.msgOK && acked {
			f.sample(latCompletion, now-r.msgStart)
		}
		r.msgOK = false
	}
}

// reRead reports whether a READ Request sent again at psn asks for the
// tail of an earlier read (what a requester sends when part of the
// responses was lost: the PSN of the first one missing, with the VA and
// length of the rest): psn is one of that read's response PSNs, not
// its first. The earlier read, if it still waits, is then over,
// incomplete.
func (f *state) reRead(psn uint32) bool {
	for i := range f.req.reads {
		if rd := &f.req.reads[i]; (rd.used || rd.done) && rd.psn == psn {
			return false // the same read sent again
		}
	}
	for i := range f.req.reads {
		rd := &f.req.reads[i]
		if !rd.used && !rd.done {
			continue
		}
		n := maxPackets(rd.length)
		if mtu := max(f.s.MTU, rd.mtu); mtu != 0 {
			n = max((rd.length+mtu-1)/mtu, 1)
		}
		if off := psnDiff(psn, rd.psn); off > 0 && off < int32(n) {
			if rd.used {
				f.s.ReadsIncomplete++
				rd.used, rd.done = false, true
			}
			return true
		}
	}
	return false
}

// oldestRead returns the slot for a new read: a free one, else the
// remembered read furthest behind, else the waiting one furthest behind.
func oldestRead(r *[MaxOutstanding]pendingRead) int {
	done, used := -1, -1
	for i := range r {
		switch {
		case r[i].used:
			if used < 0 || psnDiff(r[i].psn, r[used].psn) < 0 {
				used = i
			}
		case r[i].done:
			if done < 0 || psnDiff(r[i].psn, r[done].psn) < 0 {
				done = i
			}
		default:
			return i
		}
	}
	if done >= 0 {
		return done
	}
	return used
}
