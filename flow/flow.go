package flow

import (
	"net/netip"
	"strconv"
	"time"

	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// DefaultMaxFlows is the number of flows an Analyzer tracks when
// Config.MaxFlows is 0.
const DefaultMaxFlows = 4096

// DefaultMaxPFCSources is the number of MAC Control sources an Analyzer
// tracks when Config.MaxPFCSources is 0.
const DefaultMaxPFCSources = 256

// Window is how many PSNs below the highest one seen a flow remembers,
// to tell a duplicate from a late (out-of-order) packet.
const Window = 256

// MaxOutstanding is how many RDMA READ and how many atomic requests a
// flow keeps waiting for their responses; an older one is dropped (and
// counted unanswered) when a new one would exceed it.
const MaxOutstanding = 16

// maxOps is how many distinct opcodes a flow counts one by one.
const maxOps = 16

// AddrKind says what an Addr holds.
type AddrKind uint8

// The kinds of address.
const (
	AddrIP  AddrKind = 1 // an IPv4 address (held IPv4-mapped), IPv6 address or GID
	AddrLID AddrKind = 2 // an InfiniBand local identifier
)

// Addr is one end of a flow: an IP address or GID, or a LID.
type Addr struct {
	Kind AddrKind
	IP   [16]byte // AddrIP: the address, IPv4 as ::ffff:a.b.c.d
	LID  uint16   // AddrLID: the LID
}

// IPAddr returns an Addr holding a 16-byte address or GID.
func IPAddr(a [16]byte) Addr { return Addr{Kind: AddrIP, IP: a} }

// LIDAddr returns an Addr holding a LID.
func LIDAddr(lid uint16) Addr { return Addr{Kind: AddrLID, LID: lid} }

// String returns the address as text: "192.168.1.2", "fe80::1",
// "lid 0x0004".
func (a Addr) String() string {
	switch a.Kind {
	case AddrIP:
		return netip.AddrFrom16(a.IP).Unmap().String()
	case AddrLID:
		s := strconv.FormatUint(uint64(a.LID), 16)
		for len(s) < 4 {
			s = "0" + s
		}
		return "lid 0x" + s
	}
	return "?"
}

// Key identifies a flow: the source and destination addresses of its
// packets and their destination QP. The BTH names only the destination
// QP, so the requests of a connection (to the responder's QP) and its
// acknowledgements (to the requester's QP) are two flows, paired when
// the analysis can tell (see Stats.Peer).
type Key struct {
	Src, Dst Addr
	QP       uint32
}

// Packet is one transport packet handed to an Analyzer.
type Packet struct {
	Time     time.Time  // capture time
	Len      int        // bytes of the frame on the wire
	Src, Dst Addr       // network (or LID) addresses
	IB       *ib.Packet // the decoded transport packet; read during Add only
	ECN      uint8      // ECN codepoint, when HasECN
	HasECN   bool       // the packet has an IP ECN field (RoCEv2)
	ICRCGood bool       // the ICRC checked good
}

// Config sets an Analyzer up.
type Config struct {
	// MaxFlows caps the flows tracked one by one; the packets of flows
	// beyond it are counted together in Report.Other. 0 means
	// DefaultMaxFlows.
	MaxFlows int
	// MaxPFCSources caps the MAC Control sources tracked one by one;
	// frames from others are counted together under the MAC address
	// ff:ff:ff:ff:ff:ff. 0 means DefaultMaxPFCSources.
	MaxPFCSources int
	// Speed converts pause quanta to time; 0 means 100 Gb/s.
	Speed pfc.Speed
}

// Analyzer accumulates per-flow and per-priority statistics, one packet
// at a time. Its memory is bounded by Config.MaxFlows and
// Config.MaxPFCSources whatever the number of packets; in steady state
// (no new flow) Add and AddMACControl allocate nothing. It is not safe
// for concurrent use.
type Analyzer struct {
	cfg     Config
	flows   map[Key]*state
	order   []*state // in order of first packet
	pairs   map[pairKey]*state
	other   state
	otherN  int // packets in other
	last    *state
	pfcSrc  map[[6]byte]*pfcSource
	pfcList []*pfcSource
	base    time.Time // time origin of pause accounting
	hasBase bool
	pkt     Packet // reused by AddRecord
}

type pairKey struct{ Src, Dst Addr }

type opCount struct {
	op ib.Opcode
	n  uint64
}

type pendingRead struct {
	psn    uint32
	length uint32
	got    uint32 // response packets seen
	mtu    uint32 // payload of the First response
	used   bool
}

type pendingAtomic struct {
	psn  uint32
	used bool
}

// state is the running state of one flow.
type state struct {
	key       Key
	transport ib.Transport
	first     time.Time
	last      time.Time
	s         Stats

	ops      [maxOps]opCount
	nops     int
	opsOther uint64

	// PSN tracking of requests.
	psnInit        bool
	nextLo, nextHi uint32 // the expected next PSN range
	high           uint32 // one past the highest PSN seen
	seen           [Window / 64]uint64

	reads   [MaxOutstanding]pendingRead
	atomics [MaxOutstanding]pendingAtomic

	reqQP    uint32 // requester QP: DETH SrcQP, or the QP of the paired flow
	hasReqQP bool
	peer     *state
	tries    uint8
	samePair *state // next flow with the same addresses
}

// New returns an Analyzer.
func New(cfg Config) *Analyzer {
	if cfg.MaxFlows <= 0 {
		cfg.MaxFlows = DefaultMaxFlows
	}
	if cfg.MaxPFCSources <= 0 {
		cfg.MaxPFCSources = DefaultMaxPFCSources
	}
	if cfg.Speed == 0 {
		cfg.Speed = pfc.Speed100G
	}
	return &Analyzer{
		cfg:    cfg,
		flows:  make(map[Key]*state),
		pairs:  make(map[pairKey]*state),
		pfcSrc: make(map[[6]byte]*pfcSource),
	}
}

const psnMask = 1<<24 - 1

// psnDiff returns a-b as a signed 24-bit distance.
func psnDiff(a, b uint32) int32 {
	return int32((a-b)&psnMask<<8) >> 8
}

// Add accounts for one transport packet.
func (a *Analyzer) Add(p *Packet) {
	f := a.flowOf(p)
	f.count(p)
	op := p.IB.BTH.OpCode
	if op == ib.OpCNP {
		f.s.CNPs++
		return
	}
	if !op.Known() {
		return // reserved and vendor opcodes: counted, not analysed
	}
	tr := op.Transport()
	if f.transport == ib.CNP {
		// A CNP opened the flow (it shares the key of the responses to
		// the requester it slows down): the flow's transport is this one.
		f.transport = tr
	}
	if tr == ib.RD {
		return // RD: counted, not analysed
	}
	f.countMessage(p)
	if tr == ib.UD {
		if p.IB.Headers().Has(ib.HeaderDETH) {
			f.reqQP, f.hasReqQP = p.IB.DETH.SrcQP, true
		}
		return
	}
	if f == &a.other {
		return
	}
	if op.IsRequest() {
		f.request(p)
		return
	}
	a.response(f, p)
}

// flowOf returns the state of the flow p belongs to, creating it (or
// taking the "other" bucket) on its first packet.
func (a *Analyzer) flowOf(p *Packet) *state {
	k := Key{Src: p.Src, Dst: p.Dst, QP: p.IB.BTH.DestQP}
	f := a.last
	if f == nil || f.key != k {
		f = a.flows[k]
		if f == nil {
			f = a.newFlow(k, p)
		}
		a.last = f
	}
	if f == &a.other {
		a.otherN++
	}
	return f
}

// count adds p to the counters every packet updates, whatever its
// opcode: frames, bytes, the opcode, congestion marks and the ICRC.
func (f *state) count(p *Packet) {
	h := &p.IB.BTH
	s := &f.s
	f.last = p.Time
	s.Frames++
	s.Bytes += uint64(p.Len)
	f.countOp(h.OpCode)
	if p.HasECN && p.ECN == uint8(ecn.CE) {
		s.CE++
	}
	if h.FECN {
		s.FECN++
	}
	if h.BECN {
		s.BECN++
	}
	if !p.ICRCGood {
		s.ICRCBad++
	}
}

// countMessage counts the message a SEND, RDMA WRITE or RDMA READ
// response packet completes, and learns the path MTU from the payload
// of First and Middle packets, which carry exactly one MTU.
func (f *state) countMessage(p *Packet) {
	s := &f.s
	op := p.IB.BTH.OpCode
	if op.Is(ib.ClassEndsMessage) {
		s.Messages++
	}
	if op.Is(ib.ClassFullMTU) {
		if n := uint32(len(p.IB.Payload)); n > s.MTU {
			s.MTU = n
		}
	}
}

// response accounts for an acknowledgement, atomic acknowledgement or
// read response on f, the flow back to the requester: the NAKs it
// carries, and the request it answers on the paired flow.
func (a *Analyzer) response(f *state, p *Packet) {
	s := &f.s
	h := &p.IB.BTH
	if p.IB.Headers().Has(ib.HeaderAETH) {
		switch p.IB.AETH.Type() {
		case ib.Nak:
			c, _ := p.IB.AETH.NakCode()
			s.NAKs[c&31]++
		case ib.RNRNak:
			s.RNRNAKs++
		}
	}
	if f.peer == nil && f.tries < 8 {
		f.tries++
		a.pair(f, h.PSN)
	}
	req := f.peer
	switch {
	case h.OpCode.Is(ib.ClassReadResponse):
		if req == nil {
			s.ReadResponsesUnmatched++
			return
		}
		req.readResponse(h.PSN, h.OpCode.Operation(), uint32(len(p.IB.Payload)))
	case h.OpCode.Is(ib.ClassAtomicAck):
		if req == nil {
			s.AtomicAcksUnmatched++
			return
		}
		req.atomicAck(h.PSN)
	}
}

// newFlow creates the state of a new flow, or returns the "other" bucket
// when the table is full.
func (a *Analyzer) newFlow(k Key, p *Packet) *state {
	if len(a.flows) >= a.cfg.MaxFlows {
		return &a.other
	}
	f := &state{key: k, transport: p.IB.BTH.OpCode.Transport(), first: p.Time}
	a.flows[k] = f
	a.order = append(a.order, f)
	pk := pairKey{k.Src, k.Dst}
	f.samePair = a.pairs[pk]
	a.pairs[pk] = f
	return f
}

// pair looks for the request flow that the response flow f answers: a
// flow in the other direction whose recent request PSNs (or pending RDMA
// READ) cover psn. Exactly one must match.
func (a *Analyzer) pair(f *state, psn uint32) {
	var found *state
	for c := a.pairs[pairKey{f.key.Dst, f.key.Src}]; c != nil; c = c.samePair {
		if c.transport != f.transport || !c.psnInit || c == f {
			continue
		}
		if c.covers(psn) {
			if found != nil {
				return // ambiguous
			}
			found = c
		}
	}
	if found != nil && found.peer == nil {
		f.peer, found.peer = found, f
		// A connection is one QP on each side: each flow's QP is the
		// source QP of the other's packets.
		found.reqQP, found.hasReqQP = f.key.QP, true
		f.reqQP, f.hasReqQP = found.key.QP, true
		f.s.Answers = true
	}
}

// covers reports whether psn is one a response to f's requests may
// carry: within 2^22 below the next expected PSN, or inside a pending
// RDMA READ's response range.
func (f *state) covers(psn uint32) bool {
	if d := psnDiff(f.nextHi, psn); d >= 0 && d < 1<<22 {
		return true
	}
	for i := range f.reads {
		r := &f.reads[i]
		if r.used && psnDiff(psn, r.psn) >= 0 && psnDiff(psn, r.psn) < int32(maxPackets(r.length)) {
			return true
		}
	}
	return false
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

func (f *state) countOp(op ib.Opcode) {
	for i := 0; i < f.nops; i++ {
		if f.ops[i].op == op {
			f.ops[i].n++
			return
		}
	}
	if f.nops < maxOps {
		f.ops[f.nops] = opCount{op, 1}
		f.nops++
		return
	}
	f.opsOther++
}

// request runs the PSN analysis of a request and records RDMA READ and
// atomic requests.
func (f *state) request(p *Packet) {
	s := &f.s
	psn := p.IB.BTH.PSN
	lo, hi := (psn+1)&psnMask, (psn+1)&psnMask
	if p.IB.BTH.OpCode.Is(ib.ClassReadRequest) { // its responses use the next PSNs
		n := p.IB.RETH.DMALen
		if mtu := s.MTU; mtu != 0 {
			k := (n + mtu - 1) / mtu
			if k == 0 {
				k = 1
			}
			lo, hi = (psn+k)&psnMask, (psn+k)&psnMask
		} else {
			lo, hi = (psn+minPackets(n))&psnMask, (psn+maxPackets(n))&psnMask
		}
	}
	if !f.psnInit {
		f.psnInit = true
		f.high = (psn + 1) & psnMask
		f.mark(psn)
		f.nextLo, f.nextHi = lo, hi
		f.record(p, psn)
		return
	}
	d := psnDiff(psn, f.nextLo)
	span := psnDiff(f.nextHi, f.nextLo)
	switch {
	case d >= 0 && d <= span: // in order
		f.advance(psn)
		f.nextLo, f.nextHi = lo, hi
	case d > span: // ahead: PSNs skipped
		s.PSNGaps++
		s.PSNMissing += uint64(psnDiff(psn, f.nextHi))
		f.advance(psn)
		f.nextLo, f.nextHi = lo, hi
	default: // behind the expected PSN
		back := psnDiff(f.high, psn)
		if back > 0 && back <= Window && !f.isSeen(psn) {
			s.OutOfOrder++
			f.mark(psn)
		} else {
			s.Duplicates++
			return // a retransmission: its read or atomic is already pending
		}
	}
	f.record(p, psn)
}

// advance moves the highest PSN seen up to psn, forgetting PSNs that
// fall out of the window, and marks psn seen.
func (f *state) advance(psn uint32) {
	if d := psnDiff(psn, f.high); d >= 0 {
		if d >= Window {
			f.seen = [Window / 64]uint64{}
		} else {
			for q := f.high; q != (psn+1)&psnMask; q = (q + 1) & psnMask {
				f.seen[q%Window/64] &^= 1 << (q % 64)
			}
		}
		f.high = (psn + 1) & psnMask
	}
	f.mark(psn)
}

func (f *state) mark(psn uint32)        { f.seen[psn%Window/64] |= 1 << (psn % 64) }
func (f *state) isSeen(psn uint32) bool { return f.seen[psn%Window/64]&(1<<(psn%64)) != 0 }

// record remembers an RDMA READ or atomic request until its response.
func (f *state) record(p *Packet, psn uint32) {
	s := &f.s
	switch op := p.IB.BTH.OpCode; {
	case op.Is(ib.ClassReadRequest):
		s.Reads++
		slot := oldestRead(&f.reads)
		if f.reads[slot].used {
			s.ReadsUnanswered++
		}
		f.reads[slot] = pendingRead{psn: psn, length: p.IB.RETH.DMALen, used: true}
	case op.Is(ib.ClassAtomic):
		s.Atomics++
		slot := -1
		for i := range f.atomics {
			if !f.atomics[i].used {
				slot = i
				break
			}
		}
		if slot < 0 { // full: drop the one furthest behind
			slot = 0
			for i := range f.atomics {
				if psnDiff(f.atomics[i].psn, f.atomics[slot].psn) < 0 {
					slot = i
				}
			}
			s.AtomicsUnanswered++
		}
		f.atomics[slot] = pendingAtomic{psn: psn, used: true}
	}
}

func oldestRead(r *[MaxOutstanding]pendingRead) int {
	slot := 0
	for i := range r {
		if !r[i].used {
			return i
		}
		if psnDiff(r[i].psn, r[slot].psn) < 0 {
			slot = i
		}
	}
	return slot
}

// readResponse matches a read response packet (operation First,
// Middle, Last or Only) to a pending read of the requester flow f.
func (f *state) readResponse(psn uint32, op ib.Operation, payload uint32) {
	s := &f.s
	for i := range f.reads {
		r := &f.reads[i]
		if !r.used {
			continue
		}
		off := psnDiff(psn, r.psn)
		if off < 0 || off >= int32(maxPackets(r.length)) {
			continue
		}
		switch op {
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
			if r.mtu != 0 && r.got == (r.length+r.mtu-1)/r.mtu && uint32(off)+1 == r.got {
				s.ReadsMatched++
			} else {
				s.ReadsIncomplete++
			}
		case ib.RDMAReadResponseOnly:
			if off == 0 && r.got == 0 && (s.MTU == 0 || r.length <= s.MTU) {
				s.ReadsMatched++
			} else {
				s.ReadsIncomplete++
			}
		}
		r.used = false
		return
	}
	s.ReadResponsesUnmatched++
}

// atomicAck matches an ATOMIC Acknowledge to a pending atomic request.
func (f *state) atomicAck(psn uint32) {
	for i := range f.atomics {
		if a := &f.atomics[i]; a.used && a.psn == psn {
			a.used = false
			f.s.AtomicsMatched++
			return
		}
	}
	f.s.AtomicAcksUnmatched++
}
