package gen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocev2"
)

// Kind says what a generated frame is.
type Kind uint8

// The kinds of frames a Generator writes.
const (
	KindRequest      Kind = iota // a request: SEND, RDMA WRITE, RDMA READ Request, atomics, FLUSH, ATOMIC WRITE
	KindAck                      // an Acknowledge
	KindAtomicAck                // an ATOMIC Acknowledge
	KindReadResponse             // an RDMA READ Response (also the answer to a FLUSH)
	KindCNP                      // a RoCEv2 congestion notification packet
	KindPFC                      // an 802.1Qbb PFC frame
	KindCM                       // an RDMA-CM message: a CM MAD in a UD SEND Only to QP 1 (Config.CM)
)

var kindNames = [...]string{"request", "ack", "atomic-ack", "read-response", "cnp", "pfc", "cm"}

// String returns the kind's name: "request", "ack", "cnp"...
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Stats counts what a Generator has written so far.
type Stats struct {
	Frames    int // every frame
	Bytes     int // their lengths, without FCS
	Requests  int // KindRequest frames
	Responses int // KindAck, KindAtomicAck and KindReadResponse frames
	CE        int // data packets marked CE
	CNPs      int // KindCNP frames (fewer than CE when paced)
	PFC       int // KindPFC frames
	CM        int // KindCM frames
	BadICRC   int // RoCE frames written with a wrong ICRC

	// What the faults (Config.Faults) did. Lost counts the data packets
	// lost (requests and RDMA READ responses), LostUnseen those of them
	// lost before the capture point, which the capture lacks; AcksLost
	// the ACKs lost (before or after the capture point, as the data);
	// Duplicated the requests sent twice. NAKs counts the NAKs PSN
	// Sequence Error the responder sent, RNRNAKs its RNR NAKs, Timeouts
	// the local ACK timeouts after which the requester resent. Resent
	// counts the request packets sent again (a READ Request for the rest
	// of a read included), in go-back-N episodes counted by cause:
	// EpisodesNAK, EpisodesRNR, EpisodesTimeout and EpisodesReadGap (a
	// READ response past the PSN the requester expected). QPErrors counts
	// the queue pairs that ran out of retries and went to the error
	// state.
	Lost, LostUnseen, AcksLost, Duplicated    int
	NAKs, RNRNAKs, Timeouts, Resent           int
	EpisodesNAK, EpisodesRNR, EpisodesTimeout int
	EpisodesReadGap, QPErrors                 int

	// What the capture shows of the requests of a phase with faults,
	// queue pair by queue pair: PSNGaps, a request past the PSN after
	// the highest one the capture showed (PSNMissing, the PSNs
	// skipped); OutOfOrder, a request that fills such a gap (a resend of
	// a packet lost before the capture point); ResentSeen, a resend of a
	// packet the capture showed before; EpisodesShown, the episodes with
	// such a resend. The capture cannot tell a duplicate from a resend:
	// an analysis sees ResentSeen + Duplicated retransmissions.
	PSNGaps, PSNMissing, OutOfOrder, ResentSeen int
	EpisodesShown                               int
}

// Packet positions within a message.
const (
	posFirst = iota
	posMiddle
	posLast
	posOnly
)

const psnMask = 0xFFFFFF

// ackSyndrome is the AETH syndrome of every acknowledgement: ACK with
// credit code 31, "no credit information".
const ackSyndrome = 0x1F

// requestOps gives, for each Op, the operation of the First, Middle,
// Last and Only packets of its messages (indexed by position);
// single-packet operations repeat one operation.
var requestOps = [numOps][4]ib.Operation{
	OpWrite:       {ib.RDMAWriteFirst, ib.RDMAWriteMiddle, ib.RDMAWriteLast, ib.RDMAWriteOnly},
	OpWriteImm:    {ib.RDMAWriteFirst, ib.RDMAWriteMiddle, ib.RDMAWriteLastWithImmediate, ib.RDMAWriteOnlyWithImmediate},
	OpSend:        {ib.SendFirst, ib.SendMiddle, ib.SendLast, ib.SendOnly},
	OpSendImm:     {ib.SendFirst, ib.SendMiddle, ib.SendLastWithImmediate, ib.SendOnlyWithImmediate},
	OpSendInv:     {ib.SendFirst, ib.SendMiddle, ib.SendLastWithInvalidate, ib.SendOnlyWithInvalidate},
	OpRead:        {ib.RDMAReadRequest, ib.RDMAReadRequest, ib.RDMAReadRequest, ib.RDMAReadRequest},
	OpCmpSwap:     {ib.CmpSwap, ib.CmpSwap, ib.CmpSwap, ib.CmpSwap},
	OpFetchAdd:    {ib.FetchAdd, ib.FetchAdd, ib.FetchAdd, ib.FetchAdd},
	OpFlush:       {ib.Flush, ib.Flush, ib.Flush, ib.Flush},
	OpAtomicWrite: {ib.AtomicWrite, ib.AtomicWrite, ib.AtomicWrite, ib.AtomicWrite},
}

// readResponseOps gives the operation of an RDMA READ Response packet by
// its position in the response.
var readResponseOps = [4]ib.Operation{
	posFirst:  ib.RDMAReadResponseFirst,
	posMiddle: ib.RDMAReadResponseMiddle,
	posLast:   ib.RDMAReadResponseLast,
	posOnly:   ib.RDMAReadResponseOnly,
}

// requestOpcode returns the opcode of a request of op at position pos on
// transport t (single-packet operations ignore pos). ok is false for an
// operation without opcodes; whether t defines the opcode is for
// Opcode.Known to say.
func requestOpcode(t ib.Transport, op Op, pos int) (o ib.Opcode, ok bool) {
	if op >= numOps {
		return 0, false
	}
	return ib.MakeOpcode(t, requestOps[op][pos]), true
}

// segmented reports whether op's messages are split by the MTU.
func (o Op) segmented() bool { return o <= OpSendInv }

// position returns the position of packet i of n.
func position(i, n int) int {
	switch {
	case n == 1:
		return posOnly
	case i == 0:
		return posFirst
	case i == n-1:
		return posLast
	}
	return posMiddle
}

// packets returns how many packets of mtu bytes carry size bytes (one at
// least, for an empty message).
func packets(size, mtu int) int {
	if size <= mtu {
		return 1
	}
	return (size + mtu - 1) / mtu
}

// qpState is one connection, kept across the phases that use it.
type qpState struct {
	local, remote uint32 // requester and responder queue pairs
	srq           uint32 // XRC SRQ
	psn           uint32 // next request PSN
	msn           uint32 // responder's message sequence number
	sent          uint32 // messages started
	va            uint64 // base of the remote buffer
	rkey          uint32
	value         uint64    // the remote 64-bit word the atomics work on
	flow          uint32    // flow label (RoCEv1 and IPv6)
	srcPort       uint16    // UDP source port, both directions
	cm            cmConn    // the CM connection, with Config.CM
	ulp           ulpQueue  // the target's requests, with a Config.ULP (ulp.go)
	nv            nvmeQueue // the NVMe queue, with ULPNVMe
	is            iserQueue // the iSCSI connection, with ULPISER
}

// Directions of a frame.
const (
	fwd = 0 // requester to responder
	rev = 1 // responder to requester
)

type phase struct {
	cfg      Config
	qps      []*qpState
	pcg      rand.PCG
	rnd      *rand.Rand // draws from pcg
	tmpl     [2]roce.Frame
	tclass   uint8
	pauses   bool  // PFC frames pause the requests
	pausePS  int64 // one PFC pause, in picoseconds
	pacer    [2]*cnp.Pacer
	gapPS    int64
	delayPS  int64
	rateBits uint64
	slotPS   int64 // the time of every frame at PacketRate; 0: its wire time at Rate
}

// event is a frame (or a burst of READ responses) waiting for its time.
type event struct {
	kind   Kind
	at     int64  // picoseconds since the start
	seq    uint64 // the order it was queued in
	q      *qpState
	psn    uint32
	msn    uint32
	n, i   int    // READ responses: packets in the burst, next one
	size   int    // READ responses: bytes in the burst
	orig   uint64 // ATOMIC Acknowledge: the value before the operation
	syn    uint8  // Acknowledge with faults: a NAK's or RNR NAK's AETH syndrome, 0 for an ACK
	cnpLen int
	cnp    [cnpRoom]byte
}

// cnpRoom holds the longest CNP: IPv6 with two VLAN tags.
const cnpRoom = cnp.FrameLenIPv6 + 8

// Generator produces the frames of a scenario one at a time, reusing one
// buffer. Create it with New, NewScenario or StreamScenario, call Next
// until it returns false, read each frame with Frame and CaptureInfo,
// then check Err. A Generator is not safe for concurrent use.
type Generator struct {
	src   phaseSource
	ph    *phase // the phase playing, nil before the first
	phase phase  // what ph points to once the first phase starts
	conns map[uint64]*qpState
	pi    int // phases started

	// The request stream of the current phase.
	msg, msgs  int
	q          *qpState
	reqI, reqN int
	msgPSN     uint32
	msgSize    int
	cur        event // the event being sent

	// Responses and PFC frames waiting for their time: a ring. CNPs
	// wait in a ring of their own, so that a burst of READ responses at
	// the head of the first does not hold them: each goes out when due.
	// seq numbers them all in the order they were queued, the order
	// between the two rings for frames due at the same time.
	ring       []event
	head, size int
	cnps       []event
	cnpHead    int
	cnpSize    int
	seq        uint64
	active     event // the READ response burst being sent
	hasActive  bool

	// The clock. Times are picoseconds since the current phase's zero,
	// which is base nanoseconds after start; limit is the latest time a
	// frame of this phase may have (see setLimit).
	now        int64 // the wire is free from now on
	pauseUntil int64
	start      time.Time
	startNs    int64 // start.UnixNano()
	base       int64
	limit      int64
	limitLast  bool // limit is LastTime's, not the clock's
	dataCount  int
	cm         cmState   // the CM stages of the phase (cm.go)
	ulp        ulpState  // the exchanges of the phase's Config.ULP (ulp.go)
	nv         nvmeState // the NVMe/RDMA state of the phase (nvme.go)
	is         iserState // the iSER state of the phase (iser.go)
	cnpOpt     cnp.Options
	ipID       [2]uint16

	frame   roce.Frame
	buf     []byte
	out     []byte
	ts      int64
	kind    Kind
	ft      *faultState // the faults of the phase (fault.go), nil without
	hide    bool        // the frame built is not in the capture, or there is none
	scratch [8]byte
	payload []byte
	stats   Stats
	done    bool
	err     error
}

// ErrTimeRange is wrapped by the errors of a Generator (Err) and of Write
// for a frame whose time the clock or the capture format cannot hold.
var ErrTimeRange = errors.New("roce: time out of range")

// New returns a Generator for one phase of traffic.
func New(cfg Config) (*Generator, error) { return NewScenario([]Config{cfg}) }

// NewScenario returns a Generator that plays the phases one after the
// other on one clock. The first phase's Start is the time the capture
// starts (a later phase's Start is ignored); each phase begins Gap after
// the last frame of the one before. Queue pairs with the same numbers in
// several phases are the same connections: their PSNs, MSNs and atomic
// values carry on. Every phase is checked here; StreamScenario plays a
// scenario too long to hold.
func NewScenario(phases []Config) (*Generator, error) {
	if len(phases) == 0 {
		return nil, configErr("no phases")
	}
	src := &slicePhases{cfgs: make([]Config, len(phases))}
	for pi, cfg := range phases {
		src.i = pi + 1
		if err := cfg.check(); err != nil {
			return nil, src.wrap(err)
		}
		src.cfgs[pi] = cfg
	}
	src.i = 0
	return newGenerator(src, &src.cfgs[0]), nil
}

// newGenerator returns a Generator playing the phases of src, the first
// of which is first.
func newGenerator(src phaseSource, first *Config) *Generator {
	g := &Generator{
		src:     src,
		conns:   map[uint64]*qpState{},
		start:   first.Start,
		startNs: first.Start.UnixNano(),
		ring:    make([]event, 64),
		cnps:    make([]event, 16),
		buf:     make([]byte, 0, 4096+512),
		cnpOpt:  cnp.DefaultOptions(),
	}
	g.phase.rnd = rand.New(&g.phase.pcg)
	g.setLimit()
	seedRnd := rand.New(rand.NewPCG(first.Seed, 0x5eed))
	g.payload = make([]byte, 8192)
	for i := range g.payload {
		g.payload[i] = byte(seedRnd.Uint32())
	}
	return g
}

// A phaseSource hands out the phases of a scenario one at a time.
type phaseSource interface {
	// next returns the next phase, checked, or io.EOF after the last.
	next() (Config, error)
	// wrap says in err which phase next returned last.
	wrap(err error) error
}

// slicePhases are the checked phases of NewScenario.
type slicePhases struct {
	cfgs []Config
	i    int // phases returned
}

func (s *slicePhases) next() (Config, error) {
	if s.i == len(s.cfgs) {
		return Config{}, io.EOF
	}
	s.i++
	return s.cfgs[s.i-1], nil
}

func (s *slicePhases) wrap(err error) error {
	if len(s.cfgs) == 1 {
		return err
	}
	return errs.Context("phase "+strconv.Itoa(s.i), err)
}

// setup readies phase number pi (from 0) of configuration cfg, already
// checked: its clock, pacers, frame templates and queue pairs. conns
// holds the queue pairs of the phases before, by requester and responder
// QP, so that a connection used again carries on. The phase's rnd and
// qps are kept from the phase before.
func (ph *phase) setup(pi int, cfg Config, conns map[uint64]*qpState) {
	rnd, qps := ph.rnd, ph.qps
	*ph = phase{cfg: cfg, rnd: rnd}
	ph.pcg.Seed(cfg.Seed, uint64(pi))
	ph.tclass = cfg.DSCP<<2 | uint8(cfg.ECN)
	ph.pauses = cfg.PFCPrio == int(cfg.PCP)
	ph.pausePS = int64(cfg.Rate.Picoseconds(cfg.PFCQuanta))
	ph.gapPS = int64(cfg.Gap) * 1000
	ph.delayPS = int64(cfg.Delay) * 1000
	ph.rateBits = uint64(cfg.Rate)
	if cfg.PacketRate > 0 {
		ph.slotPS = int64(1_000_000_000_000 / cfg.PacketRate)
	}
	if cfg.CNPInterval > 0 {
		ph.pacer[fwd] = cnp.NewPacer(cfg.queuePairs(), cfg.CNPInterval)
		ph.pacer[rev] = cnp.NewPacer(cfg.queuePairs(), cfg.CNPInterval)
	}
	for dir := range ph.tmpl {
		f := &ph.tmpl[dir]
		f.Encap = cfg.Encap
		f.Src, f.Dst = cfg.SrcMAC, cfg.DstMAC
		f.GRH.SGID, f.GRH.DGID = rocev2.GIDFromAddr(cfg.SrcIP), rocev2.GIDFromAddr(cfg.DstIP)
		if dir == rev {
			f.Src, f.Dst = f.Dst, f.Src
			f.GRH.SGID, f.GRH.DGID = f.GRH.DGID, f.GRH.SGID
		}
		if cfg.VLAN >= 0 {
			f.NumVLANs = 1
			f.VLANs[0] = roce.VLAN{TPID: hdr.EtherTypeDot1Q, PCP: cfg.PCP, ID: uint16(cfg.VLAN)}
		}
		f.GRH.HopLmt = cfg.HopLimit
		f.IPv4Flags = 0x4000 // DF
		f.UDPChecksum = cfg.Encap == ib.RoCEv2IPv6
	}
	if cap(qps) < cfg.queuePairs() {
		qps = make([]*qpState, cfg.queuePairs())
	}
	ph.qps = qps[:cfg.queuePairs()]
	for i := range ph.qps {
		local, remote := cfg.LocalQP+uint32(i), cfg.RemoteQP+uint32(i)
		key := uint64(local)<<24 | uint64(remote)
		q := conns[key]
		if q == nil {
			q = &qpState{local: local, remote: remote}
			q.psn = uint32(cfg.PSN)
			if cfg.PSN < 0 {
				q.psn = ph.rnd.Uint32() & psnMask
			}
			q.rkey = ph.rnd.Uint32()
			q.va = 0x7f0000000000 | uint64(ph.rnd.Uint32()&0xfffff)<<12
			q.value = ph.rnd.Uint64()
			q.flow = rocev2.CalcFlowLabel(local, remote)
			conns[key] = q
		}
		q.srcPort = rocev2.FlowLabelToUDPSrcPort(q.flow)
		if cfg.SrcPort != 0 {
			q.srcPort = cfg.SrcPort
		}
		q.srq = cfg.SRQ + uint32(i)
		ph.qps[i] = q
	}
}

// Next generates the next frame and reports whether there is one. It
// returns false at the end of the scenario or on an error (see Err).
// In steady state it allocates nothing.
func (g *Generator) Next() bool {
	for {
		if g.done || g.err != nil {
			return false
		}
		ringAt, activeAt, reqAt, cmAt, nvAt, faultAt := int64(never), int64(never), int64(never), int64(never), int64(never), int64(never)
		if g.ft != nil {
			faultAt = g.faultAt()
		}
		if g.cm.i < g.cm.n {
			cmAt = max(g.now, g.cm.due)
		}
		if g.ph != nil && g.ulpActive() && !g.cmOpening() {
			nvAt = g.ulpAt()
		}
		var ringHead *event
		if g.size > 0 {
			if h := &g.ring[g.head]; h.kind != KindReadResponse || !g.hasActive {
				ringAt, ringHead = max(g.now, h.at), h
			}
		}
		if g.cnpSize > 0 {
			// A CNP due before the ring's head (or at the same time and
			// queued first) goes ahead of it.
			if c := &g.cnps[g.cnpHead]; ringHead == nil || c.at < ringHead.at || c.at == ringHead.at && c.seq < ringHead.seq {
				ringAt, ringHead = max(g.now, c.at), c
			}
		}
		if g.hasActive {
			activeAt = g.now
		}
		if g.ph != nil && (g.reqI < g.reqN || g.msg < g.msgs || g.ft != nil) && !g.cmOpening() {
			reqAt = max(g.now, g.pauseUntil)
			if g.ft != nil {
				reqAt = g.faultReqAt(reqAt)
			}
		}
		next := min(ringAt, activeAt, reqAt, cmAt, nvAt, faultAt)
		if next == never {
			if g.ph != nil && g.cmEnd() {
				continue
			}
			if !g.nextPhase() {
				g.done = true
				return false
			}
			continue
		}
		if next > g.limit {
			g.err = g.timeErr()
			return false
		}
		switch {
		case cmAt == next:
			g.emitCM(cmAt)
		case ringAt == next && ringHead.kind == KindCNP:
			g.cur = *ringHead
			g.cnpHead = (g.cnpHead + 1) & (len(g.cnps) - 1)
			g.cnpSize--
			g.emitEvent(&g.cur, ringAt)
		case ringAt == next:
			ev := &g.ring[g.head]
			g.head = (g.head + 1) & (len(g.ring) - 1)
			g.size--
			if ev.kind == KindReadResponse {
				g.active, g.hasActive = *ev, true
				g.now = ringAt
				continue
			}
			g.cur = *ev // the ring slot may be reused while it is sent
			g.emitEvent(&g.cur, ringAt)
		case activeAt == next:
			g.emitReadResponse(activeAt)
		case nvAt == next:
			g.emitULP(nvAt)
		case faultAt == next:
			g.faultTick(faultAt)
		default:
			g.emitRequest(reqAt)
		}
		if g.hide && g.err == nil {
			g.hide = false
			continue
		}
		return g.err == nil
	}
}

// Frame returns the frame Next generated. It aliases the Generator's
// buffer: copy it to keep it past the next call to Next.
func (g *Generator) Frame() []byte { return g.out }

// Kind returns what the frame Next generated is.
func (g *Generator) Kind() Kind { return g.kind }

// Time returns the timestamp of the frame Next generated.
func (g *Generator) Time() time.Time { return g.start.Add(time.Duration(g.base + g.ts/1000)) }

// Free returns the time the frame Next generated leaves the wire free:
// its timestamp plus its time on the wire at the phase's rate. The next
// frame is at Free or later.
func (g *Generator) Free() time.Time { return g.start.Add(time.Duration(g.base + g.now/1000)) }

// Start returns the time the capture starts: the first phase's Start.
// Every frame is at Start or later.
func (g *Generator) Start() time.Time { return g.start }

// CaptureInfo returns the capture metadata of the frame Next generated,
// as a gopacket writer takes it: its timestamp (Time) and its length,
// captured whole. Write writes them with capfile.Writer.
func (g *Generator) CaptureInfo() gopacket.CaptureInfo {
	return gopacket.CaptureInfo{Timestamp: g.Time(), CaptureLength: len(g.out), Length: len(g.out)}
}

// Stats returns the counts of what has been generated so far.
func (g *Generator) Stats() Stats { return g.stats }

// Err returns the error that stopped Next, if any: a frame whose time the
// clock cannot hold (ErrTimeRange: later than LastTime, or about 106
// days after the end of the phase before), a phase of StreamScenario
// that does not parse or check, or a failure of the module's encoders.
func (g *Generator) Err() error { return g.err }

// late is where the clock saturates: after every limit, before never.
const late = math.MaxInt64 - 1

// after returns t+d, or late when that is late or later. t and d are not
// negative.
func after(t, d int64) int64 {
	if t >= late-d {
		return late
	}
	return t + d
}

// setLimit sets the latest time a frame of the phase starting at base may
// have: the last the clock holds, or LastTime if that is sooner.
func (g *Generator) setLimit() {
	g.limit, g.limitLast = late-1, false
	if left := LastTime.UnixNano() - g.startNs - g.base; left < (late-1)/1000 {
		g.limit, g.limitLast = left*1000+999, true
	}
}

// timeErr is the error of a frame due after the limit.
func (g *Generator) timeErr() error {
	var err error
	if g.limitLast {
		err = fmt.Errorf("%w: frame %d would be after %s, the last time of int64 nanoseconds since 1970",
			ErrTimeRange, g.stats.Frames+1, LastTime.Format(time.RFC3339Nano))
	} else {
		err = fmt.Errorf("%w: frame %d would be more than %v after the end of the phase before, the most the generator's clock (int64 picoseconds) holds",
			ErrTimeRange, g.stats.Frames+1, time.Duration(math.MaxInt64/1000))
	}
	return g.src.wrap(err)
}

// nextPhase starts the next phase, reporting false after the last and on
// an error.
func (g *Generator) nextPhase() bool {
	cfg, err := g.src.next()
	if err == io.EOF {
		return false
	}
	if err != nil {
		g.err = err
		return false
	}
	// The phase's zero is the last whole nanosecond of the clock: frames
	// keep their nanoseconds, and the new phase has the whole range of
	// the picosecond clock.
	shift := g.now / 1000
	if g.now >= late || shift > LastTime.UnixNano()-g.startNs-g.base {
		g.limitLast = g.now < late
		g.err = g.timeErr()
		return false
	}
	g.base += shift
	g.now -= shift * 1000
	if g.pauseUntil < late { // a pause over before the zero is no pause
		g.pauseUntil = max(g.pauseUntil-shift*1000, 0)
	}
	g.setLimit()
	g.phase.setup(g.pi, cfg, g.conns)
	g.pi++
	g.ph = &g.phase
	g.msg, g.msgs = 0, g.ph.cfg.Messages*g.ph.cfg.QPs
	g.reqI, g.reqN = 0, 0
	g.dataCount = 0
	g.now = after(g.now, g.ph.gapPS)
	g.cmBegin()
	g.ulpBegin()
	g.faultBegin()
	return true
}

// push queues an event at its ring's tail (CNPs in their own) and
// returns it for filling in.
func (g *Generator) push(kind Kind, at int64, q *qpState) *event {
	ring, head, size := &g.ring, &g.head, &g.size
	if kind == KindCNP {
		ring, head, size = &g.cnps, &g.cnpHead, &g.cnpSize
	}
	if *size == len(*ring) {
		// Grow: a burst of responses outran the ring. Rare, and bounded
		// by the scenario.
		r := make([]event, 2*len(*ring))
		for i := 0; i < *size; i++ {
			r[i] = (*ring)[(*head+i)&(len(*ring)-1)]
		}
		*ring, *head = r, 0
	}
	ev := &(*ring)[(*head+*size)&(len(*ring)-1)]
	*size++
	g.seq++
	*ev = event{kind: kind, at: at, q: q, seq: g.seq}
	return ev
}

// prepare sets the frame's outer headers for a frame of queue pair q
// going in direction dir, and clears its packet.
func (g *Generator) prepare(dir int, q *qpState) *ib.Packet {
	ph := g.ph
	t := &ph.tmpl[dir]
	f := &g.frame
	f.Dst, f.Src = t.Dst, t.Src
	f.VLANs, f.NumVLANs = t.VLANs, t.NumVLANs
	f.Encap = t.Encap
	f.GRH = t.GRH
	f.GRH.TClass = ph.tclass
	if f.Encap != ib.RoCEv2IPv4 {
		f.GRH.FlowLabel = q.flow
	}
	f.IPv4ID = g.ipID[dir]
	g.ipID[dir]++
	f.IPv4Flags = t.IPv4Flags
	f.SrcPort, f.DstPort = q.srcPort, hdr.RoCEv2Port
	f.UDPChecksum = t.UDPChecksum
	f.Packet = ib.Packet{}
	f.Packet.BTH.PKey = ph.cfg.PKey
	f.Packet.BTH.MigReq = ph.cfg.Transport != ib.UD
	return &f.Packet
}

// wirePS returns how long a frame of n bytes occupies the wire: the frame,
// its FCS, the preamble and the inter-frame gap at the line rate, or the
// slot of every frame at the packet rate.
func (g *Generator) wirePS(n int) int64 {
	if g.ph.slotPS > 0 {
		return g.ph.slotPS
	}
	return int64(wireBits(n) * 1_000_000_000_000 / g.ph.rateBits)
}

// build encodes the prepared frame, sent at ts.
func (g *Generator) build(ts int64, kind Kind) bool {
	var err error
	g.buf, err = g.frame.AppendTo(g.buf[:0])
	if err != nil {
		g.err = errs.Context(fmt.Sprintf("building a %v frame", kind), err)
		return false
	}
	g.finish(g.buf, ts, kind)
	return true
}

// finish records the frame b sent at ts.
func (g *Generator) finish(b []byte, ts int64, kind Kind) {
	g.out, g.ts, g.kind = b, ts, kind
	g.now = after(ts, g.wirePS(len(b)))
	g.stats.Frames++
	g.stats.Bytes += len(b)
	switch kind {
	case KindRequest:
		g.stats.Requests++
	case KindAck, KindAtomicAck, KindReadResponse:
		g.stats.Responses++
	case KindCNP:
		g.stats.CNPs++
	case KindPFC:
		g.stats.PFC++
	case KindCM:
		g.stats.CM++
	}
}

// markCE decides whether the next data packet is CE-marked, and marks the
// prepared frame.
func (g *Generator) markCE() bool {
	c := &g.ph.cfg
	g.dataCount++
	ce := c.CEEvery > 0 && g.dataCount%c.CEEvery == 0
	if c.CEFraction > 0 && g.ph.rnd.Float64() < c.CEFraction {
		ce = true
	}
	if ce {
		g.frame.GRH.TClass = g.frame.GRH.TClass&^3 | uint8(ecn.CE)
	}
	return ce
}

// afterData runs after a data packet sent by senderQP in direction dir
// has been built: the CNP its CE mark causes, the PFC frame its count
// causes, and then the bad ICRC it may get.
func (g *Generator) afterData(dir int, ce bool, senderQP uint32, q *qpState) {
	ph := g.ph
	at := after(g.now, ph.delayPS)
	if ce {
		g.stats.CE++
		if p := ph.pacer[dir]; p == nil || p.Allow(senderQP, g.base+g.ts/1000) {
			ev := g.push(KindCNP, at, q)
			b, err := cnp.Reply(ev.cnp[:0], g.out, senderQP, &g.cnpOpt)
			if err != nil {
				g.err = errs.Context("building a CNP", err)
			}
			ev.cnpLen = len(b)
		}
	}
	if ph.cfg.PFCEvery > 0 && g.dataCount%ph.cfg.PFCEvery == 0 {
		g.push(KindPFC, at, nil)
	}
}

// maybeCorrupt flips one ICRC bit of the RoCE frame b with the configured
// probability, and fixes a UDP checksum so that only the ICRC is wrong.
func (g *Generator) maybeCorrupt(b []byte) {
	ph := g.ph
	if ph.cfg.BadICRC == 0 || ph.rnd.Float64() >= ph.cfg.BadICRC {
		return
	}
	bit := ph.rnd.IntN(32)
	b[len(b)-4+bit/8] ^= 1 << (bit % 8)
	g.stats.BadICRC++
	if ph.cfg.Encap == ib.RoCEv2IPv6 {
		ip := b[hdr.EthernetLen+hdr.VLANTagLen*ph.tmpl[0].NumVLANs:]
		if udp := hdr.UDP(ip[hdr.IPv6Len:]); udp.Checksum() != 0 {
			udp.FixChecksum(ip)
		}
	}
}

// emitRequest builds the next request packet, starting a message if need
// be, and queues the response it asks for.
func (g *Generator) emitRequest(ts int64) {
	c := &g.ph.cfg
	if g.ft != nil {
		g.emitFaultRequest(ts)
		return
	}
	if g.reqI >= g.reqN {
		g.startMessage()
	}
	q := g.q
	i := g.reqI
	g.reqI++
	pos := position(i, g.reqN)
	p := g.prepare(fwd, q)
	psn := (g.msgPSN + uint32(i)) & psnMask
	orig := g.fillRequest(p, q, i, pos, psn)
	ce := g.markCE()
	if !g.build(ts, KindRequest) {
		return
	}
	g.afterData(rev, ce, q.local, q) // the responder's CNP goes to the requester's QP
	if c.Transport == ib.RC || c.Transport == ib.XRC {
		g.answer(q, psn, pos == posLast || pos == posOnly, p.BTH.AckReq, orig)
	}
	g.maybeCorrupt(g.out)
}

// fillRequest fills the prepared packet p with request i (at position
// pos, with PSN psn) of the current message of q: the BTH, the extended
// headers the opcode carries and the payload. For an atomic it returns
// the remote value before the operation, which the ATOMIC Acknowledge
// carries.
func (g *Generator) fillRequest(p *ib.Packet, q *qpState, i, pos int, psn uint32) (orig uint64) {
	c := &g.ph.cfg
	op, _ := requestOpcode(c.Transport, c.Op, pos)
	p.BTH.OpCode = op
	p.BTH.DestQP = q.remote
	p.BTH.PSN = psn
	reliable := c.Transport == ib.RC || c.Transport == ib.XRC
	last := pos == posLast || pos == posOnly
	p.BTH.AckReq = reliable && (last || c.AckEvery > 0 && (i+1)%c.AckEvery == 0)
	p.XRCETH.XRCSRQ = q.srq
	p.DETH.QKey, p.DETH.SrcQP = c.QKey, q.local
	p.RETH = ib.RETH{VA: q.va, RKey: q.rkey, DMALen: uint32(g.msgSize)}
	p.ImmDt.Data = q.sent
	p.IETH.RKey = q.rkey
	switch c.Op {
	case OpCmpSwap:
		orig = q.value
		p.AtomicETH = ib.AtomicETH{VA: q.va, RKey: q.rkey, CompareData: q.value, SwapData: q.value + 0x100}
		q.value += 0x100
	case OpFetchAdd:
		orig = q.value
		p.AtomicETH = ib.AtomicETH{VA: q.va, RKey: q.rkey, SwapData: 1}
		q.value++
	case OpFlush:
		p.FETH.PLT = 1 // global visibility, of the range in the RETH
	case OpAtomicWrite:
		p.RETH.DMALen = 8
		q.value++
		binary.BigEndian.PutUint64(g.scratch[:], q.value)
		p.Payload = g.scratch[:]
	}
	if c.Op.segmented() {
		off := i * c.MTU
		n := min(c.MTU, g.msgSize-off)
		start := (int(q.sent)*61 + i*29) & 4095
		p.Payload = g.payload[start : start+n]
	}
	return orig
}

// answer queues the responder's answer to a request of q with PSN psn
// on RC or XRC: the READ responses of a READ (one empty one for a
// FLUSH), the ATOMIC Acknowledge of an atomic, otherwise an Acknowledge
// when the request asked for one (ackReq), counting a message when it
// was the last packet of its message (last).
func (g *Generator) answer(q *qpState, psn uint32, last, ackReq bool, orig uint64) {
	c := &g.ph.cfg
	at := after(g.now, g.ph.delayPS)
	switch c.Op {
	case OpRead, OpFlush:
		q.msn++
		ev := g.push(KindReadResponse, at, q)
		ev.psn, ev.msn, ev.n, ev.size = psn, q.msn, packets(g.msgSize, c.MTU), g.msgSize
		if c.Op == OpFlush {
			ev.n, ev.size = 1, 0
		}
	case OpCmpSwap, OpFetchAdd:
		q.msn++
		ev := g.push(KindAtomicAck, at, q)
		ev.psn, ev.msn, ev.orig = psn, q.msn, orig
	default:
		if ackReq {
			if last {
				q.msn++
			}
			ev := g.push(KindAck, at, q)
			ev.psn, ev.msn = psn, q.msn
		}
	}
}

// startMessage moves the request stream to the next message.
func (g *Generator) startMessage() {
	c := &g.ph.cfg
	q := g.ph.qps[g.msg%c.QPs]
	g.msg++
	g.q = q
	q.sent++
	g.msgSize = c.Size
	g.reqI, g.reqN = 0, 1
	psns := 1
	switch {
	case c.Op.segmented():
		g.reqN = packets(c.Size, c.MTU)
		psns = g.reqN
	case c.Op == OpRead:
		psns = packets(c.Size, c.MTU) // a READ takes one PSN per response
	case c.Op == OpCmpSwap, c.Op == OpFetchAdd, c.Op == OpAtomicWrite:
		g.msgSize = 8
	}
	g.msgPSN = q.psn
	q.psn = (q.psn + uint32(psns)) & psnMask
}

// emitReadResponse builds the next packet of the active READ response burst.
func (g *Generator) emitReadResponse(ts int64) {
	if g.ft != nil {
		g.emitFaultReadResponse(ts)
		return
	}
	ph := g.ph
	c := &ph.cfg
	ev := &g.active
	q := ev.q
	k := ev.i
	ev.i++
	if ev.i >= ev.n {
		g.hasActive = false
	}
	p := g.prepare(rev, q)
	p.BTH.OpCode = ib.MakeOpcode(c.Transport, readResponseOps[position(k, ev.n)])
	p.BTH.DestQP = q.local
	p.BTH.PSN = (ev.psn + uint32(k)) & psnMask
	p.AETH = ib.AETH{Syndrome: ackSyndrome, MSN: ev.msn}
	off := k * c.MTU
	n := min(c.MTU, ev.size-off)
	start := (int(ev.psn)*31 + k*17) & 4095
	p.Payload = g.payload[start : start+n]
	ce := g.markCE()
	if !g.build(ts, KindReadResponse) {
		return
	}
	g.afterData(fwd, ce, q.remote, q) // the requester's CNP goes to the responder's QP
	g.maybeCorrupt(g.out)
}

// emitEvent builds a queued single frame.
func (g *Generator) emitEvent(ev *event, ts int64) {
	ph := g.ph
	c := &ph.cfg
	if g.ft != nil && ev.kind == KindAck {
		g.emitFaultAck(ev, ts)
		return
	}
	switch ev.kind {
	case KindAck, KindAtomicAck:
		q := ev.q
		p := g.prepare(rev, q)
		p.BTH.OpCode = ib.MakeOpcode(c.Transport, ib.Acknowledge)
		if ev.kind == KindAtomicAck {
			p.BTH.OpCode = ib.MakeOpcode(c.Transport, ib.AtomicAcknowledge)
			p.AtomicAckETH.OrigRemData = ev.orig
		}
		p.BTH.DestQP = q.local
		p.BTH.PSN = ev.psn
		p.AETH = ib.AETH{Syndrome: ackSyndrome, MSN: ev.msn}
		if g.build(ts, ev.kind) {
			g.maybeCorrupt(g.out)
		}
	case KindCNP:
		g.buf = append(g.buf[:0], ev.cnp[:ev.cnpLen]...)
		g.finish(g.buf, ts, KindCNP)
		g.maybeCorrupt(g.out)
	case KindPFC:
		var times [pfc.NumPriorities]uint16
		times[c.PFCPrio] = c.PFCQuanta
		g.buf = pfc.AppendPFC(g.buf[:0], c.DstMAC, pfc.Priorities(1)<<c.PFCPrio, times)
		g.finish(g.buf, ts, KindPFC)
		if ph.pauses {
			g.pauseUntil = max(g.pauseUntil, after(g.now, ph.pausePS))
		}
	}
}
