package reassembly

import "github.com/roce-go/roce/ib"

// stream is one PSN space of a direction: its requests, or its READ
// responses.
//
// It is exact or free. Exact: the packet at PSN next (or up to slack
// after it, after a READ whose response count is not known yet) is the
// one to take. Free: any PSN from next on may begin a message (after a
// READ response message ends, after a gap was given up, at the start);
// a Middle or Last waits for its First.
type stream struct {
	started bool
	exact   bool
	next    uint32
	slack   uint32
	readPSN uint32 // with slack: the READ Request whose PSNs the MTU will say the end of
	readLen uint32 // its DMA length; 0 when slack has no READ to resolve

	// The message being put together.
	open     bool
	firstPSN uint32
	first    Mark
	packets  int
	buf      []byte
	n        int // payload bytes carried, kept or not
	cut      bool
	clipped  bool
	reth     ib.RETH
	hasRETH  bool

	// Packets that came ahead of their turn, at ring[psn & (len(ring)-1)].
	ring    []slot
	waiting int
	bytes   int
}

// slot is a packet waiting for the PSNs before it.
type slot struct {
	used bool
	in   packet
	data []byte
}

// add places packet in of stream which.
func (a *Assembler[K]) add(key K, d *direction, which Stream, in *packet, payload []byte) {
	s := &d.s[which]
	if !s.started { // requests follow on from the first one captured; READ responses may begin anywhere
		s.started, s.exact, s.next = true, which == Requests, in.psn
	}
	if s.slack > 0 && s.readLen > 0 && d.mtu != 0 { // the MTU has come to say where the READ's PSNs end
		s.next, s.slack = (s.readPSN+max(1, (s.readLen+d.mtu-1)/d.mtu))&psnMask, 0
		a.purge(s, (s.readPSN+1)&psnMask, s.next)
	}
	for {
		off := dist(s.next, in.psn)
		switch {
		case off < 0:
			a.stats.Duplicates++
			return
		case s.acceptable(uint32(off), in.op, a.cfg.Window):
			a.dropBefore(s, in.psn)
			a.take(key, d, which, in, payload)
			a.drain(key, d, which)
			return
		case int(off) < a.cfg.Window:
			a.wait(s, in, payload)
			for s.bytes > a.cfg.MaxBuffered && s.waiting > 0 {
				a.skip(key, d, which)
			}
			return
		case s.waiting > 0:
			a.skip(key, d, which) // then place the packet again
		default:
			a.stats.Skipped++ // nothing waits: the gap reaches the packet
			a.abandon(s)
			s.exact, s.next = false, in.psn
		}
	}
}

// acceptable says whether the packet off PSNs after next is the one to
// take: the expected one, or, where what comes next can only begin a
// message (a free stream, the PSNs a READ of unknown MTU may end at), the
// first to begin one.
func (s *stream) acceptable(off uint32, op ib.Opcode, window int) bool {
	if s.exact && s.slack == 0 {
		return off == 0
	}
	limit := uint32(window - 1)
	if s.exact {
		limit = s.slack
	}
	return off <= limit && startsMessage(op)
}

// startsMessage says whether a packet can begin what follows a gap or the
// end of a READ response: a First or Only, or a request of no message
// (RDMA READ Request, atomics, FLUSH, ATOMIC WRITE, RESYNC).
func startsMessage(op ib.Opcode) bool {
	return op.Is(ib.ClassFirst|ib.ClassOnly) || !op.Is(ib.ClassMiddle|ib.ClassLast|ib.ClassReadResponse)
}

// take handles the packet whose turn it is.
func (a *Assembler[K]) take(key K, d *direction, which Stream, in *packet, payload []byte) {
	s := &d.s[which]
	op := in.op
	switch {
	case op.Is(ib.ClassFirst):
		a.abandon(s)
		s.open, s.firstPSN, s.first, s.packets = true, in.psn, in.at, 0
		s.buf, s.n, s.cut, s.clipped = s.buf[:0], 0, false, false
		s.reth, s.hasRETH = in.reth, in.hasRETH
		a.appendData(s, in, payload)
	case op.Is(ib.ClassMiddle | ib.ClassLast):
		if !s.open {
			a.stats.Orphans++
			break
		}
		a.appendData(s, in, payload)
		if op.Is(ib.ClassLast) {
			s.open = false
			a.emit(key, which, s, in)
		}
	case op.Is(ib.ClassOnly):
		a.abandon(s)
		a.emitOnly(key, which, in, payload)
	default: // a request of no message: a message cannot be open across it
		a.abandon(s)
	}
	s.exact, s.next, s.slack, s.readLen = true, (in.psn+1)&psnMask, 0, 0
	switch {
	case which == Responses && !s.open:
		s.exact = false // the next READ's responses begin at any later PSN
	case op.Is(ib.ClassReadRequest):
		s.next, s.slack = a.readPSNs(d, in)
		if s.slack > 0 && in.hasRETH {
			s.readPSN, s.readLen = in.psn, in.reth.DMALen
		}
		a.purge(s, (in.psn+1)&psnMask, s.next)
	}
}

// purge drops the packets waiting at PSNs from up to (not including) to,
// which a READ Request's responses use: they are no requests of the
// stream.
func (a *Assembler[K]) purge(s *stream, from, to uint32) {
	for q, n := from, 0; s.waiting > 0 && q != to && n < len(s.ring); q, n = (q+1)&psnMask, n+1 {
		if w := s.waitingAt(q); w != nil {
			s.release(w)
			a.stats.Duplicates++
		}
	}
}

// readPSNs returns the PSN after an RDMA READ Request's responses and the
// slack of not knowing the path MTU.
func (a *Assembler[K]) readPSNs(d *direction, in *packet) (next, slack uint32) {
	if !in.hasRETH { // the capture cut the DMA length
		return (in.psn + 1) & psnMask, uint32(a.cfg.Window - 1)
	}
	l := in.reth.DMALen
	n := func(mtu uint32) uint32 { return max(1, (l+mtu-1)/mtu) }
	if d.mtu != 0 {
		return (in.psn + n(d.mtu)) & psnMask, 0
	}
	lo, hi := n(4096), n(256)
	return (in.psn + lo) & psnMask, min(hi-lo, uint32(a.cfg.Window-1))
}

// appendData adds a packet's payload to the open message.
func (a *Assembler[K]) appendData(s *stream, in *packet, payload []byte) {
	s.packets++
	s.n += len(payload)
	if s.cut {
		return // what follows a cut would not sit where it belongs
	}
	if room := a.cfg.MaxMessage - len(s.buf); len(payload) > room {
		payload, s.clipped = payload[:room], true
	}
	s.buf = append(s.buf, payload...)
	s.cut = in.cut
}

// abandon closes the open message, if any, undelivered.
func (a *Assembler[K]) abandon(s *stream) {
	if s.open {
		s.open = false
		a.stats.Abandoned++
	}
}

// emit delivers the message that packet in (its Last) ends.
func (a *Assembler[K]) emit(key K, which Stream, s *stream, in *packet) {
	m := &a.msg
	*m = Message[K]{Key: key, Stream: which, Opcode: in.op, FirstPSN: s.firstPSN, LastPSN: in.psn,
		Packets: s.packets, First: s.first, Last: in.at, Payload: s.buf, Len: s.n, Cut: s.cut, Clipped: s.clipped,
		RETH: s.reth, HasRETH: s.hasRETH, Imm: in.imm, RKey: in.rkey}
	a.stats.Messages++
	a.deliver(m)
}

// emitOnly delivers the message of one packet, its payload not copied.
func (a *Assembler[K]) emitOnly(key K, which Stream, in *packet, payload []byte) {
	m := &a.msg
	*m = Message[K]{Key: key, Stream: which, Opcode: in.op, FirstPSN: in.psn, LastPSN: in.psn,
		Packets: 1, First: in.at, Last: in.at, Payload: payload, Len: len(payload), Cut: in.cut,
		RETH: in.reth, HasRETH: in.hasRETH, Imm: in.imm, RKey: in.rkey}
	if len(payload) > a.cfg.MaxMessage {
		m.Payload, m.Clipped = payload[:a.cfg.MaxMessage], true
	}
	a.stats.Messages++
	a.deliver(m)
}

// wait keeps a packet that came ahead of its turn.
func (a *Assembler[K]) wait(s *stream, in *packet, payload []byte) {
	if s.ring == nil {
		size := 1
		for size < a.cfg.Window {
			size <<= 1
		}
		s.ring = make([]slot, size)
	}
	w := &s.ring[in.psn&uint32(len(s.ring)-1)]
	if w.used {
		a.stats.Duplicates++
		return
	}
	w.used, w.in, w.data = true, *in, append(w.data[:0], payload...)
	s.waiting++
	s.bytes += len(payload)
	a.stats.Waited++
}

// waitingAt returns the packet waiting at PSN psn, or nil.
func (s *stream) waitingAt(psn uint32) *slot {
	if s.waiting == 0 {
		return nil
	}
	if w := &s.ring[psn&uint32(len(s.ring)-1)]; w.used && w.in.psn == psn {
		return w
	}
	return nil
}

// release frees a waiting slot.
func (s *stream) release(w *slot) {
	w.used = false
	s.waiting--
	s.bytes -= len(w.data)
}

// drain takes the waiting packets whose turn has come.
func (a *Assembler[K]) drain(key K, d *direction, which Stream) {
	s := &d.s[which]
	for s.waiting > 0 {
		var w *slot
		if s.exact && s.slack == 0 {
			w = s.waitingAt(s.next)
		} else {
			limit := uint32(len(s.ring) - 1)
			if s.exact {
				limit = s.slack
			}
			for k := uint32(0); k <= limit && w == nil; k++ {
				if x := s.waitingAt((s.next + k) & psnMask); x != nil && startsMessage(x.in.op) {
					w = x
				}
			}
		}
		if w == nil {
			return
		}
		in := w.in
		s.release(w)
		a.dropBefore(s, in.psn)
		a.take(key, d, which, &in, w.data)
	}
}

// dropBefore drops, as orphans, the packets waiting before PSN psn (the
// First that begins a message after them has come: their own First will
// not).
func (a *Assembler[K]) dropBefore(s *stream, psn uint32) {
	for q := s.next; s.waiting > 0 && q != psn; q = (q + 1) & psnMask {
		if w := s.waitingAt(q); w != nil {
			s.release(w)
			a.stats.Orphans++
		}
	}
}

// skip gives up the gap before the first waiting packet: the open message
// is abandoned, the Middles and Lasts waiting before the first packet
// that begins a message are orphans, and that packet is taken, with
// those after it whose turn it then is. If none waits, the stream is
// free from the PSN after the last orphan.
func (a *Assembler[K]) skip(key K, d *direction, which Stream) {
	s := &d.s[which]
	a.stats.Skipped++
	a.abandon(s)
	q := s.next
	for s.waitingAt(q) == nil {
		q = (q + 1) & psnMask
	}
	s.exact, s.next = false, q
	for ; s.waiting > 0; q = (q + 1) & psnMask {
		w := s.waitingAt(q)
		if w == nil {
			continue
		}
		in := w.in
		s.release(w)
		if startsMessage(in.op) {
			s.next = in.psn
			a.take(key, d, which, &in, w.data)
			a.drain(key, d, which)
			return
		}
		a.stats.Orphans++
		s.next = (q + 1) & psnMask
	}
}
