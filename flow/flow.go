package flow

import (
	"net/netip"
	"strconv"
	"time"

	"github.com/roce-go/roce/cnp"
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
	// ICRCUnchecked says the capture cut the frame before its ICRC, so
	// it could not be checked: such a packet is not counted ICRC-bad.
	ICRCUnchecked bool
	// PayloadLen is, for a packet the capture cut (ICRCUnchecked), the
	// length its payload had on the wire (roce.Frame.PayloadLen); the
	// MTU and read analyses use it instead of len(IB.Payload).
	PayloadLen int
	// SrcPort is the UDP source port of a RoCEv2 packet, 0 otherwise.
	// Pairing uses it only to choose between request flows the PSNs
	// cannot tell apart (see the package documentation).
	SrcPort uint16
	// DstPort is the UDP destination port of a RoCEv2 packet (4791), 0
	// otherwise: a packet with a DstPort is a UDP packet, whose 5-tuple
	// the source-port analysis counts (see UDP source ports and ECMP).
	DstPort uint16
	// FlowLabel is the IPv6 flow label of a RoCEv2/IPv6 packet, 0
	// otherwise (and for an IPv6 packet with no label).
	FlowLabel uint32
	// bareLen is, for a packet of a Batch whose payload was not kept
	// (IB.Payload nil), the payload's length plus one; 0 otherwise.
	bareLen int
}

// payloadLen is the payload's length on the wire.
func (p *Packet) payloadLen() uint32 {
	n := len(p.IB.Payload)
	if p.bareLen > 0 { // a Batch's packet, whose payload was not kept
		n = p.bareLen - 1
	}
	if p.ICRCUnchecked && p.PayloadLen > n {
		n = p.PayloadLen
	}
	return uint32(n)
}

// DefaultPFCStorm is the pause that makes a PFC storm when
// Config.PFCStorm is 0: a priority paused without a break for longer
// than 100 ms, the usual default of switch PFC watchdogs.
const DefaultPFCStorm = 100 * time.Millisecond

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
	// CNPInterval is the least time the notification point leaves
	// between two CNPs to one QP: CNPs closer together are pacing
	// violations, and CE marks that arrive sooner than this after a CNP
	// are taken as answered by none. 0 means cnp.DefaultInterval (4 µs);
	// a negative value means the receiver does not pace.
	CNPInterval time.Duration
	// PFCStorm is the continuous pause of one priority beyond which the
	// priority is flagged as in a storm. 0 means DefaultPFCStorm.
	PFCStorm time.Duration
	// MaxCMConnections caps the CM connections tracked (REQs beyond it
	// are counted in CMReport.Untracked); 0 means
	// DefaultMaxCMConnections. MaxCMPending caps the REQs waiting for
	// their REP or REJ: a REQ beyond it evicts the oldest (counted in
	// CMReport.Evicted); 0 means DefaultMaxCMPending.
	MaxCMConnections int
	MaxCMPending     int
	// ECMPPaths, when not 0, asks for the ECMP what-if: every 5-tuple of
	// the tracked flows hashed onto that many paths with each of
	// ecmp.Hashes (Report.ECMP). New takes a negative value as 0 and
	// one above MaxECMPPaths as MaxECMPPaths.
	ECMPPaths int
	// Events, if set, is called with each CE mark, CNP, NAK,
	// retransmission and PFC pause the analysis finds, during the call
	// that adds the packet (see Event). The Event is reused: it is
	// valid only during the call.
	Events func(e *Event)
}

// Analyzer accumulates per-flow and per-priority statistics, one packet
// at a time. Its memory is bounded by Config.MaxFlows and
// Config.MaxPFCSources whatever the number of packets; in steady state
// (no new flow, no first request on a flow, no first latency sample of a
// kind on a flow) Add and AddMACControl allocate nothing. It is not safe for concurrent use.
type Analyzer struct {
	cfg   Config
	flows map[Key]*state
	order []*state // in order of first packet
	// unpaired lists the request flows a response may pair with (see
	// reindex), ud the UD flows between two hosts, newest first.
	unpaired flowIndex
	ud       map[pairKey]*state
	visits   uint64 // request flows pairing looked at (tests)
	other    state
	otherN   int    // packets in other
	last     *state // the flow of the last packet, and of the one before it that went to another
	prev     *state // (never the other bucket)
	pfcSrc   map[[6]byte]*pfcSource
	pfcList  []*pfcSource
	base     time.Time // time origin of pause accounting
	hasBase  bool
	t0       time.Time // the first packet's time: the origin of clock
	hasT0    bool
	pkt      Packet   // reused by AddRecord
	cm       *cmTable // the CM connections, from the first CM MAD on
	evt      Event    // reused by the Events hook
}

type pairKey struct{ Src, Dst Addr }

type opCount struct {
	op ib.Opcode
	n  uint64
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

	req *requester // the flow's requests, from its first one (or its CM connection)

	reqQP     uint32 // requester QP: DETH SrcQP, or the QP of the paired flow
	hasReqQP  bool
	peer      *state
	ix        idxKey // the list of unpaired request flows f is in, if ixIn
	ixIn      bool
	ixPrev    *state // neighbours in that list
	ixNext    *state
	nextUD    *state // next UD flow with the same addresses, if isUD
	isUD      bool
	pend      *pending // responses waiting for the flow to be paired
	resps     uint64   // responses seen (for the pairing back-off)
	misses    uint32   // pairing attempts that found no candidate
	ambiguous int      // request flows the responses fit, when several
	sport     uint16   // the UDP source port of every packet of the flow, or 0 (none, or several)
	conn      *conn    // the CM connection whose REP names this flow
	udp       udpPorts // the UDP source ports of its packets
	cmStart   bool     // the PSN analysis started at the PSN the CM negotiated

	cong congestion
	lat  [numLatencies]*hist // allocated on a kind's first sample
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
	if cfg.CNPInterval == 0 {
		cfg.CNPInterval = cnp.DefaultInterval
	}
	if cfg.PFCStorm <= 0 {
		cfg.PFCStorm = DefaultPFCStorm
	}
	if cfg.MaxCMConnections <= 0 {
		cfg.MaxCMConnections = DefaultMaxCMConnections
	}
	cfg.ECMPPaths = min(max(cfg.ECMPPaths, 0), MaxECMPPaths)
	if cfg.MaxCMPending <= 0 {
		cfg.MaxCMPending = DefaultMaxCMPending
	}
	return &Analyzer{
		cfg:    cfg,
		flows:  make(map[Key]*state),
		ud:     make(map[pairKey]*state),
		pfcSrc: make(map[[6]byte]*pfcSource),
	}
}

const psnMask = 1<<24 - 1

// psnDiff returns a-b as a signed 24-bit distance.
func psnDiff(a, b uint32) int32 {
	return int32((a-b)&psnMask<<8) >> 8
}

// clock returns the time t as the analysis counts it: nanoseconds from
// 2^62 ns (146 years) before the first packet, exact and positive for
// every time within 146 years of it, whatever the year (nanoseconds
// since 1970 wrap in 2262 and are negative before 1970); times further
// away count as 146 years from it.
func (a *Analyzer) clock(t time.Time) int64 {
	if !a.hasT0 {
		a.t0, a.hasT0 = t, true
	}
	return int64(max(min(t.Sub(a.t0), 1<<62), -1<<62)) + 1<<62
}

// Add accounts for one transport packet.
func (a *Analyzer) Add(p *Packet) {
	f := a.flowOf(p)
	f.count(p)
	if f.sport != p.SrcPort {
		f.sport = 0 // the flow's packets come from several ports: no tie-break
	}
	now := a.clock(p.Time)
	op := p.IB.BTH.OpCode
	if c := f.conn; c != nil && c.state == CMRequested {
		c.state = CMEstablished // the first data after the REP
	}
	if isCM(p) {
		a.cmPacket(p)
	}
	if op == ib.OpCNP {
		f.s.CNPs++
		if f != &a.other {
			a.cnp(f, p, now)
		} else if a.cfg.Events != nil {
			a.cnpEvent(p, nil, 0, false)
		}
		return
	}
	if p.HasECN && p.ECN == uint8(ecn.CE) {
		if f != &a.other {
			f.cong.mark(now, a.cfg.CNPInterval)
		}
		if a.cfg.Events != nil {
			a.cfg.Events(a.emit(EventCE, p.Time, keyOf(p)))
		}
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
		if p.IB.Captured(ib.HeaderDETH) == ib.DETHLen {
			f.reqQP, f.hasReqQP = p.IB.DETH.SrcQP, true
			if !f.isUD { // a CNP to its SrcQP answers it: see cnpTarget
				pk := pairKey{f.key.Src, f.key.Dst}
				f.isUD, f.nextUD = true, a.ud[pk]
				a.ud[pk] = f
			}
		}
		return
	}
	if f == &a.other {
		return
	}
	if op.IsRequest() {
		resent := f.s.Retransmitted
		f.request(p, now)
		if f.peer == nil {
			a.reindex(f)
		}
		if f.s.Retransmitted != resent && a.cfg.Events != nil {
			e := a.emit(EventRetransmit, p.Time, f.key)
			e.Cause, e.EpisodeStart = causeNames[f.req.cause], f.req.episodeStart
			a.cfg.Events(e)
		}
		return
	}
	a.response(f, p, now)
}

// flowOf returns the state of the flow p belongs to, creating it (or
// taking the "other" bucket) on its first packet.
func (a *Analyzer) flowOf(p *Packet) *state {
	k := Key{Src: p.Src, Dst: p.Dst, QP: p.IB.BTH.DestQP}
	f := a.last
	if f == nil || f.key != k {
		// The flow before the last: requests and their responses
		// alternate between two flows.
		if g := a.prev; g != nil && g.key == k {
			f = g
		} else if f = a.flows[k]; f == nil {
			f = a.newFlow(k, p)
		}
		if a.last != &a.other {
			a.prev = a.last
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
	switch {
	case p.ICRCUnchecked:
		s.ICRCUnchecked++
	case !p.ICRCGood:
		s.ICRCBad++
	}
	if p.DstPort != 0 {
		f.countUDP(p)
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
		if n := p.payloadLen(); n > s.MTU {
			s.MTU = n
		}
	}
}

// newFlow creates the state of a new flow, or returns the "other" bucket
// when the table is full.
func (a *Analyzer) newFlow(k Key, p *Packet) *state {
	if len(a.flows) >= a.cfg.MaxFlows {
		return &a.other
	}
	f := &state{key: k, transport: p.IB.BTH.OpCode.Transport(), first: p.Time, sport: p.SrcPort}
	a.flows[k] = f
	a.order = append(a.order, f)
	if a.cm != nil {
		a.cmFlow(f)
	}
	return f
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
