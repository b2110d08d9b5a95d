package gen

import (
	"fmt"
	"strings"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
)

// ULP is the upper-layer protocol the connections of a phase carry.
type ULP uint8

// The upper-layer protocols.
const (
	ULPNone ULP = iota // the RDMA operations of Config.Op, nothing above them
	ULPNVMe            // NVMe over Fabrics on RDMA (NVMe/RDMA): see the package documentation
	ULPISER            // iSCSI Extensions for RDMA (iSER): see the package documentation
	numULPs
)

// ulpSpec is what the generator knows of one upper-layer protocol: a
// session over RDMA-CM connections whose commands are exchanges of
// RDMA messages (ulpMsg), which the protocol lays out and the engine
// below numbers, paces and sends. Adding a protocol is its file (the
// functions below and its state on Generator and qpState) and a row of
// ulps.
type ulpSpec struct {
	name  string // the name ParseULP accepts (rocegen -ulp)
	usage string // what -ulp's usage says the protocol plays
	port  uint16 // the CM port when Config.CMPort is 0; 0: DefaultCMPort
	// queues are the queue pairs of the phase before its QPs ones (NVMe's
	// admin queue).
	queues int
	what   string // what next builds, for its errors: "an NVMe capsule"
	// check checks the settings of a phase of the protocol.
	check func(c *Config) error
	// begin readies a phase after its CM stage was set up and returns
	// the number of commands it sends (0 when its connections are
	// rejected). nil for ULPNone: a protocol with begin connects with
	// RDMA-CM.
	begin func(g *Generator) int
	// connect (connectG, when it needs the generator: its seed) readies
	// the protocol's state of q for a new connection.
	connect  func(q *qpState)
	connectG func(g *Generator, q *qpState)
	// next lays out command k's messages (ulpState.add) and sets g.q to
	// the queue pair that carries them.
	next func(g *Generator, k int) error
	// cmREQ, cmREP and cmREJ return the private data of q's CM REQ (in
	// its IP-CM private data), REP and REJ, nil for none.
	cmREQ, cmREP, cmREJ func(g *Generator, q *qpState) []byte
}

// ulps are the upper-layer protocols, by ULP.
var ulps = [numULPs]ulpSpec{
	ULPNone: {name: "none"},
	ULPNVMe: {name: "nvme", port: NVMePort, queues: 1, what: "an NVMe capsule",
		usage: "NVMe/RDMA: CM to port 4420, Connect and Identify on an admin queue,\nthen on -qps I/O queues -messages commands each, by -op: read, write, send (in-capsule data) or send-inv (a Read, SEND with Invalidate)",
		check: (*Config).checkNVMe, begin: (*Generator).nvmeBegin, connect: nvmeConnect, next: (*Generator).nvmeCommand,
		cmREQ: (*Generator).nvmeCMRequest, cmREP: (*Generator).nvmeCMAccept, cmREJ: (*Generator).nvmeCMReject},
	ULPISER: {name: "iser", port: ISERPort, what: "an iSER message",
		usage: "iSER: CM to port 3260, a Login on each of -qps connections, then -messages SCSI commands each,\nby -op: read (READ(10) or (16), the target RDMA WRITEs) or write (WRITE(10) or (16), the target RDMA READs)",
		check: (*Config).checkISER, begin: (*Generator).iserBegin, connectG: (*Generator).iserConnect, next: (*Generator).iserCommand,
		cmREQ: (*Generator).iserCMData, cmREP: (*Generator).iserCMData},
}

// String returns the name ParseULP accepts: "none", "nvme", ...
func (u ULP) String() string {
	if u < numULPs {
		return ulps[u].name
	}
	return fmt.Sprintf("ULP(%d)", u)
}

// ParseULP returns the upper-layer protocol named s, in any case.
func ParseULP(s string) (ULP, error) {
	for i := range ulps {
		if strings.EqualFold(s, ulps[i].name) {
			return ULP(i), nil
		}
	}
	return 0, errs.Kind(ErrConfig, fmt.Sprintf("unknown upper-layer protocol %q (want %s)", s, ulpList(" or ", false)))
}

// ulpList returns the names of the protocols, the last after last and
// the others after ", "; with usage, each but ULPNone's followed by its
// usage in parentheses and the last after ", or ".
func ulpList(last string, usage bool) string {
	var b strings.Builder
	for i := range ulps {
		switch {
		case i == 0:
		case i < len(ulps)-1:
			b.WriteString(", ")
		case usage:
			b.WriteString(", or ")
		default:
			b.WriteString(last)
		}
		b.WriteString(ulps[i].name)
		if usage && i > 0 {
			b.WriteString(" (" + ulps[i].usage + ")")
		}
	}
	return b.String()
}

// ulp returns the row of the phase's protocol (Config.Check has checked
// that there is one).
func (c *Config) ulp() *ulpSpec { return &ulps[c.ULP] }

// queuePairs returns the number of queue pairs of the phase: QPs, and
// those the protocol has before them.
func (c *Config) queuePairs() int { return c.QPs + c.ulp().queues }

// withCM reports whether the phase's connections go through RDMA-CM.
func (c *Config) withCM() bool { return c.CM || c.ulp().begin != nil }

// ulpQueue is the protocol's side of one queue pair's RDMA connection
// that qpState does not keep: the target's (responder's) requests.
type ulpQueue struct {
	tpsn uint32 // the next PSN of the target's requests
	hmsn uint32 // the host's MSN: the target's requests it has completed
}

// ulpMsgKind is what one message of a command's exchange is.
type ulpMsgKind uint8

const (
	umSend     ulpMsgKind = iota // body in a SEND (SEND with Invalidate when inv)
	umWrite                      // the target's RDMA WRITE of the data to the host
	umReadReq                    // the target's RDMA READ Request of the host's data
	umReadResp                   // the host's RDMA READ Responses
	umAck                        // an Acknowledge of message ref
)

// ulpMsg is one RDMA message of a command's exchange.
type ulpMsg struct {
	kind ulpMsgKind
	dir  int
	wait bool // sent Delay after the frame before: it answers it
	inv  bool // umSend: SEND with Invalidate of rkey
	ref  int  // umAck, umReadResp: the message answered
	// body: umSend, the bytes of the message (the protocol's, which stay
	// as they are until it is sent)
	body []byte
	size int    // umWrite, umReadReq, umReadResp: the data's length
	data []byte // umWrite, umReadResp: the data, nil for payload bytes
	va   uint64
	rkey uint32
	// Filled in when the message is sent.
	psn, last uint32 // its first and last PSN
	msn       uint32 // the responder's MSN once it completed the message
}

// ulpState is what a Generator keeps of a protocol's phase: the commands
// still to send and the exchange of the one under way.
type ulpState struct {
	k, n   int // next command and commands of the phase
	msgs   [8]ulpMsg
	nm, mi int // messages of the command, message under way
	pi, pn int // packet under way of its message, packets of it
	due    int64
}

// add appends message m to the command's exchange and returns its index
// (for ref).
func (s *ulpState) add(m ulpMsg) int {
	s.msgs[s.nm] = m
	s.nm++
	return s.nm - 1
}

// ulpBegin readies the protocol's phase: after the CM stage, its
// commands in place of the request stream.
func (g *Generator) ulpBegin() {
	s := &g.ulp
	s.k, s.n, s.nm, s.mi = 0, 0, 0, 0
	u := g.ph.cfg.ulp()
	if u.begin == nil {
		return
	}
	g.msgs = 0 // the exchanges replace the request stream
	s.n = u.begin(g)
	s.due = g.now
}

// ulpConnect readies q's protocol state for a new connection: the
// target's requests start at the REQ's StartingPSN.
func (g *Generator) ulpConnect(q *qpState) {
	u := g.ph.cfg.ulp()
	if u.begin == nil {
		return
	}
	q.ulp = ulpQueue{tpsn: q.cm.rpsn}
	q.msn = 0
	if u.connect != nil {
		u.connect(q)
	}
	if u.connectG != nil {
		u.connectG(g, q)
	}
}

// ulpActive reports whether the phase has protocol messages to send.
func (g *Generator) ulpActive() bool { return g.ulp.mi < g.ulp.nm || g.ulp.k < g.ulp.n }

// ulpAt returns when the next protocol message may go.
func (g *Generator) ulpAt() int64 {
	s := &g.ulp
	at := max(g.now, s.due)
	if s.mi < s.nm && s.msgs[s.mi].dir == fwd && g.ph.pauses {
		at = max(at, g.pauseUntil) // the host waits out a pause
	}
	return at
}

// emitULP builds the next packet of the exchange under way, sent at ts,
// laying out the next command's when the last is over.
func (g *Generator) emitULP(ts int64) {
	c := &g.ph.cfg
	s := &g.ulp
	if s.mi >= s.nm {
		k := s.k
		s.k++
		s.nm, s.mi, s.pi, s.pn = 0, 0, 0, 0
		u := c.ulp()
		if err := u.next(g, k); err != nil {
			g.err = errs.Context("building "+u.what, err)
			return
		}
	}
	q := g.q
	m := &s.msgs[s.mi]
	if s.pi == 0 {
		g.ulpStart(q, m)
	}
	i := s.pi
	s.pi++
	pos := position(i, s.pn)
	p := g.prepare(m.dir, q)
	p.BTH.DestQP = q.remote
	if m.dir == rev {
		p.BTH.DestQP = q.local
	}
	p.BTH.PSN = (m.psn + uint32(i)) & psnMask
	kind := KindRequest
	data := true
	switch m.kind {
	case umSend:
		ops := requestOps[OpSend]
		if m.inv {
			ops = requestOps[OpSendInv]
			p.IETH.RKey = m.rkey
		}
		p.BTH.OpCode = ib.MakeOpcode(ib.RC, ops[pos])
		off := i * c.MTU
		p.Payload = m.body[off : off+min(c.MTU, len(m.body)-off)]
	case umWrite:
		p.BTH.OpCode = ib.MakeOpcode(ib.RC, requestOps[OpWrite][pos])
		p.RETH = ib.RETH{VA: m.va, RKey: m.rkey, DMALen: uint32(m.size)}
		p.Payload = g.ulpData(m, i)
	case umReadReq:
		p.BTH.OpCode = ib.MakeOpcode(ib.RC, ib.RDMAReadRequest)
		p.RETH = ib.RETH{VA: m.va, RKey: m.rkey, DMALen: uint32(m.size)}
	case umReadResp:
		kind = KindReadResponse
		p.BTH.OpCode = ib.MakeOpcode(ib.RC, readResponseOps[pos])
		if pos != posMiddle {
			p.AETH = ib.AETH{Syndrome: ackSyndrome, MSN: m.msn}
		}
		p.Payload = g.ulpData(m, i)
	case umAck:
		kind, data = KindAck, false
		p.BTH.OpCode = ib.MakeOpcode(ib.RC, ib.Acknowledge)
		p.AETH = ib.AETH{Syndrome: ackSyndrome, MSN: m.msn}
	}
	p.BTH.AckReq = kind == KindRequest && (pos == posLast || pos == posOnly)
	ce := data && g.markCE()
	if !g.build(ts, kind) {
		return
	}
	if data {
		sender := q.local
		if m.dir == rev {
			sender = q.remote
		}
		g.afterData(1-m.dir, ce, sender, q)
	}
	g.maybeCorrupt(g.out)
	s.due = g.now
	if s.pi == s.pn {
		s.mi++
		s.pi = 0
		if s.mi < s.nm && s.msgs[s.mi].wait {
			s.due = after(g.now, g.ph.delayPS)
		}
	}
}

// ulpStart numbers message m of q's exchange as its first packet goes:
// its PSNs from its sender's (an Acknowledge's and the READ Responses'
// from the message they answer) and the responder's MSN.
func (g *Generator) ulpStart(q *qpState, m *ulpMsg) {
	c := &g.ph.cfg
	s := &g.ulp
	s.pn = 1
	switch m.kind {
	case umSend:
		s.pn = packets(len(m.body), c.MTU)
	case umWrite, umReadResp:
		s.pn = packets(m.size, c.MTU)
	}
	if m.kind == umAck || m.kind == umReadResp {
		r := &s.msgs[m.ref]
		m.psn, m.last, m.msn = r.last, r.last, r.msn
		if m.kind == umReadResp {
			m.psn = r.psn
		}
		return
	}
	psns := s.pn
	if m.kind == umReadReq {
		psns = packets(m.size, c.MTU) // one PSN per response
	}
	next, msn := &q.psn, &q.msn // the host's requests, the target's MSN
	if m.dir == rev {
		next, msn = &q.ulp.tpsn, &q.ulp.hmsn
	}
	m.psn = *next
	m.last = (m.psn + uint32(psns) - 1) & psnMask
	*next = (*next + uint32(psns)) & psnMask
	*msn++
	m.msn = *msn
}

// ulpData returns the data of packet i of an RDMA WRITE or READ
// Response of message m.
func (g *Generator) ulpData(m *ulpMsg, i int) []byte {
	mtu := g.ph.cfg.MTU
	off := i * mtu
	n := min(mtu, m.size-off)
	if m.data != nil {
		return m.data[off : off+n]
	}
	start := (int(m.psn)*31 + i*17) & 4095
	return g.payload[start : start+n]
}
