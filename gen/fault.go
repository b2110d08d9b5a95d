package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
)

// Faults are the faults a phase suffers on demand, and the attributes of
// its queue pairs that say how the requester reacts to them, as an RC
// queue pair does (IBTA Vol 1, 9.7.5 and 9.9). Every fault needs RC and
// one of the operations write, write-imm, send, send-imm, send-inv and
// read; see the package documentation for what each one looks like.
type Faults struct {
	// Loss loses each data packet (requests and RDMA READ responses,
	// resent ones included) with this probability; LossEvery loses every
	// LossEvery-th; LossBurst loses LossBurst data packets in a row from
	// the LossBurstAt-th on (1 is the phase's first data packet).
	Loss        float64
	LossEvery   int
	LossBurst   int
	LossBurstAt int
	// LossAfter places the losses (of data packets and of ACKs) after
	// the capture point: the capture shows the packet, its receiver
	// never gets it. By default they happen before it, and the capture
	// does not show the lost packet.
	LossAfter bool
	// AckLoss loses each Acknowledge that acknowledges (not the NAKs)
	// with this probability.
	AckLoss float64
	// Dup duplicates each request with this probability: the capture
	// shows it twice, back to back, and the responder gets both.
	Dup float64
	// RNR makes the responder answer a packet that needs a receive WQE
	// (SEND First or Only, RDMA WRITE with immediate Last or Only) with
	// an RNR NAK, with this probability; RNREvery answers every
	// RNREvery-th such packet so. RNRTimer is the RNR NAK's timer code
	// (IBTA Vol 1, Table 46: 12 is 0.64 ms), the time the requester waits
	// before it sends the packet again.
	RNR      float64
	RNREvery int
	RNRTimer uint8
	// Timeout is the queue pair's local ACK timeout, 4.096 µs *
	// 2^Timeout (14: 67.1 ms), after which the requester resends from
	// the first unacknowledged PSN; 1 to 31.
	Timeout uint8
	// RetryCnt is how many times the requester resends after a timeout,
	// a NAK PSN Sequence Error or a gap in READ responses without making
	// progress; RNRRetry how many times after an RNR NAK, 7 meaning
	// without end. When they run out the queue pair goes to the error
	// state and sends nothing more.
	RetryCnt uint8
	RNRRetry uint8
}

// DefaultFaults are no faults, and the queue pair attributes perftest
// sets: timeout 14, retry_cnt 7, rnr_retry 7, min_rnr_timer 12.
func DefaultFaults() Faults {
	return Faults{RNRTimer: 12, Timeout: 14, RetryCnt: 7, RNRRetry: 7}
}

// rnrForever is the rnr_retry value that retries without end.
const rnrForever = 7

// active reports whether any fault is asked for.
func (f *Faults) active() bool {
	return f.Loss > 0 || f.LossEvery > 0 || f.LossBurst > 0 || f.AckLoss > 0 || f.Dup > 0 ||
		f.RNR > 0 || f.RNREvery > 0
}

// lossAsked reports whether a loss of data packets or ACKs is asked for.
func (f *Faults) lossAsked() bool {
	return f.Loss > 0 || f.LossEvery > 0 || f.LossBurst > 0 || f.AckLoss > 0
}

// AETH syndromes of the responder's NAKs (IBTA Vol 1, 9.7.5.2.1).
const (
	nakSeqSyndrome = 0x60 // NAK, PSN Sequence Error
	rnrSyndrome    = 0x20 // RNR NAK; the low 5 bits are the timer
)

// The causes of a go-back-N episode, indexing Stats' episode counts.
const (
	causeNAK     = iota // a NAK PSN Sequence Error
	causeRNR            // an RNR NAK
	causeTimeout        // the local ACK timeout
	causeReadGap        // a READ response PSN past the one expected
)

// faultOps are the operations faults work with: no atomics, whose
// replays the responder would answer from a cache the generator lacks.
var faultOps = [numOps]bool{OpWrite: true, OpWriteImm: true, OpSend: true, OpSendImm: true, OpSendInv: true, OpRead: true}

// wqeAt gives, for each operation, the positions of its packets that
// consume a receive WQE, which an RNR NAK may refuse.
var wqeAt = [numOps][4]bool{
	OpWriteImm: {posLast: true, posOnly: true},
	OpSend:     {posFirst: true, posOnly: true},
	OpSendImm:  {posFirst: true, posOnly: true},
	OpSendInv:  {posFirst: true, posOnly: true},
}

// checkFaults refuses faults the phase cannot have, naming the options.
func (c *Config) checkFaults() error {
	f := &c.Faults
	for _, v := range [...]struct {
		name string
		v    float64
	}{{"loss", f.Loss}, {"ack-loss", f.AckLoss}, {"dup", f.Dup}, {"rnr", f.RNR}} {
		if !(v.v >= 0 && v.v <= 1) {
			return configErr("%s: %v is not a fraction from 0 to 1", v.name, v.v)
		}
	}
	for _, v := range [...]struct {
		name string
		v    int
	}{{"loss-every", f.LossEvery}, {"loss-burst", f.LossBurst}, {"rnr-every", f.RNREvery}} {
		if v.v < 0 {
			return configErr("%s: %d is negative", v.name, v.v)
		}
	}
	if f.LossBurst > 0 && f.LossBurstAt < 1 {
		return configErr("loss-burst: the first packet lost is number %d (want 1 or more)", f.LossBurstAt)
	}
	if f.RNRTimer > 31 || f.Timeout > 31 || f.RetryCnt > 7 || f.RNRRetry > 7 {
		return configErr("rnr-timer %d, ack-timeout %d, retry-cnt %d or rnr-retry %d out of range", f.RNRTimer, f.Timeout, f.RetryCnt, f.RNRRetry)
	}
	if f.LossAfter && !f.lossAsked() {
		return configErr("loss-where: no loss asked for (loss, loss-every, loss-burst or ack-loss)")
	}
	if !f.active() {
		return nil
	}
	switch {
	case c.Transport != ib.RC:
		return configErr("loss, ack-loss, dup, rnr: faults need transport rc (UC and UD do not resend, XRC is not modelled), not %v", c.Transport)
	case c.ULP != ULPNone:
		return configErr("loss, ack-loss, dup, rnr: faults do not combine with ulp %v", c.ULP)
	case !faultOps[c.Op]:
		return configErr("loss, ack-loss, dup, rnr: faults need op write, write-imm, send, send-imm, send-inv or read, not %v", c.Op)
	case f.Timeout == 0:
		return configErr("ack-timeout 0 waits for ever: want 1 to 31")
	case (f.RNR > 0 || f.RNREvery > 0) && !wqeAt[c.Op][posOnly]:
		return configErr("rnr, rnr-every: op %v consumes no receive WQE, so the responder has no reason for an RNR NAK (want send, send-imm, send-inv or write-imm)", c.Op)
	case (f.RNR == 1 || f.RNREvery == 1) && f.RNRRetry == rnrForever:
		return configErr("rnr 1 or rnr-every 1 with rnr-retry 7 (retry without end) never ends")
	}
	return nil
}

// lossBurstString is the text form of option loss-burst.
func (f *Faults) lossBurstString() string {
	if f.LossBurst == 0 {
		return "0"
	}
	return strconv.Itoa(f.LossBurst) + "@" + strconv.Itoa(f.LossBurstAt)
}

func (f *Faults) setLossBurst(v string) error {
	n, at, ok := strings.Cut(v, "@")
	bad := errs.Kind(ErrConfig, fmt.Sprintf("bad loss burst %q (want N@K: N data packets in a row from the Kth, or 0)", v))
	c, err := strconv.ParseUint(n, 10, 31)
	if err != nil {
		return bad
	}
	if !ok {
		if c != 0 {
			return bad
		}
		f.LossBurst, f.LossBurstAt = 0, 0
		return nil
	}
	k, err := strconv.ParseUint(at, 10, 31)
	if err != nil || k < 1 {
		return bad
	}
	f.LossBurst, f.LossBurstAt = int(c), int(k)
	return nil
}

var lossWhere = [2]string{"before", "after"}

// faultOptions are the options of Faults, in the order of a help text.
var faultOptions = []Option{
	{Name: "loss", Usage: "RC: lose this fraction of data packets (requests and READ responses), at random; the requester goes back N",
		set: func(c *Config, v string) (err error) { c.Faults.Loss, err = parseFraction(v); return err },
		get: func(c *Config) string { return strconv.FormatFloat(c.Faults.Loss, 'g', -1, 64) }},
	{Name: "loss-every", Usage: "RC: lose every Nth data packet (0: none)",
		set: func(c *Config, v string) (err error) { c.Faults.LossEvery, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.Faults.LossEvery) }},
	{Name: "loss-burst", Usage: "RC: lose N data packets in a row from the Kth on, written N@K (0: none)",
		set: func(c *Config, v string) error { return c.Faults.setLossBurst(v) },
		get: func(c *Config) string { return c.Faults.lossBurstString() }},
	{Name: "loss-where", Usage: "where packets are lost: before the capture point (absent from the capture) or after it (seen, then lost)",
		set: func(c *Config, v string) error {
			switch strings.ToLower(v) {
			case lossWhere[0]:
				c.Faults.LossAfter = false
			case lossWhere[1]:
				c.Faults.LossAfter = true
			default:
				return errs.Kind(ErrConfig, fmt.Sprintf("bad place %q (want before or after)", v))
			}
			return nil
		},
		get: func(c *Config) string { return lossWhere[b2i(c.Faults.LossAfter)] }},
	{Name: "ack-loss", Usage: "RC: lose this fraction of ACKs, at random; the requester times out and resends",
		set: func(c *Config, v string) (err error) { c.Faults.AckLoss, err = parseFraction(v); return err },
		get: func(c *Config) string { return strconv.FormatFloat(c.Faults.AckLoss, 'g', -1, 64) }},
	{Name: "dup", Usage: "RC: duplicate this fraction of requests, at random (the capture shows both copies)",
		set: func(c *Config, v string) (err error) { c.Faults.Dup, err = parseFraction(v); return err },
		get: func(c *Config) string { return strconv.FormatFloat(c.Faults.Dup, 'g', -1, 64) }},
	{Name: "rnr", Usage: "RC SEND, WRITE with immediate: answer this fraction of the packets that need a receive WQE with an RNR NAK",
		set: func(c *Config, v string) (err error) { c.Faults.RNR, err = parseFraction(v); return err },
		get: func(c *Config) string { return strconv.FormatFloat(c.Faults.RNR, 'g', -1, 64) }},
	{Name: "rnr-every", Usage: "RC SEND, WRITE with immediate: answer every Nth packet that needs a receive WQE with an RNR NAK (0: none)",
		set: func(c *Config, v string) (err error) { c.Faults.RNREvery, err = parseInt(v); return err },
		get: func(c *Config) string { return strconv.Itoa(c.Faults.RNREvery) }},
	{Name: "rnr-timer", Usage: "RNR NAK timer code, 0-31 (IBTA Table 46: 12 is 0.64 ms, 1 is 10 us, 0 is 655.36 ms)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 5); c.Faults.RNRTimer = uint8(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.Faults.RNRTimer)) }},
	{Name: "ack-timeout", Usage: "local ACK timeout of the queue pairs, 4.096 us * 2^N (1-31; 14 is 67.1 ms)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 5); c.Faults.Timeout = uint8(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.Faults.Timeout)) }},
	{Name: "retry-cnt", Usage: "resends after timeouts and NAKs without progress before the queue pair goes to error (0-7)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 3); c.Faults.RetryCnt = uint8(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.Faults.RetryCnt)) }},
	{Name: "rnr-retry", Usage: "resends after RNR NAKs without progress before the queue pair goes to error (0-7; 7: without end)",
		set: func(c *Config, v string) error { n, err := parseUint(v, 3); c.Faults.RNRRetry = uint8(n); return err },
		get: func(c *Config) string { return strconv.Itoa(int(c.Faults.RNRRetry)) }},
}

func init() { options = append(options, faultOptions...) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// faultState is what the faults of a phase keep: their draws and counts
// and, per queue pair, the requester's and the responder's view.
type faultState struct {
	f         Faults
	pcg       rand.PCG
	rnd       *rand.Rand
	qp        []qpFault // by queue pair index in the phase
	firstQP   uint32
	psns      uint32 // PSNs per message
	timeoutPS int64
	rnrPS     int64
	dataN     int // data packets sent, for loss-every and loss-burst
	wqeN      int // WQE-consuming packets received in order, for rnr-every

	// A duplicate request waiting to go out right after its original.
	echo    []byte
	echoReq reqInfo
	hasEcho bool
	echoCE  bool
}

// reqInfo is what the responder needs of a request it receives.
type reqInfo struct {
	q      *qpState
	psn    uint32
	n      uint32 // PSNs it takes: its responses' for a READ
	pos    int
	ackReq bool
	size   int // a READ's length
}

// qpFault is one queue pair's state under faults.
type qpFault struct {
	// The requester.
	base, baseSent uint32 // the PSN and q.sent of the phase's first message
	una, nxt       uint32 // first unacknowledged PSN, next new one
	timerAt        int64  // when the local ACK timer fires; never when off
	rsActive       bool   // going back N: resending from rsNext up to rsEnd, from rsAt
	rsNext, rsEnd  uint32
	rsAt           int64
	rsCause        int
	rsSeen         bool // the episode has resent a packet the capture had shown
	waitGap        bool // a READ response gap's resend is under way
	retries        uint8
	rnrRetries     uint8
	dead           bool // in the error state

	// The responder.
	epsn    uint32 // expected PSN
	nakSent bool   // a NAK (or RNR NAK) of this episode has gone out

	// What the capture has shown of the requests.
	capInit  bool
	capFirst uint32              // the lowest PSN shown
	capHigh  uint32              // one past the highest PSN shown
	unseen   map[uint32]struct{} // PSNs below capHigh the capture skipped
}

const never = math.MaxInt64

// psnSub returns a-b as a signed 24-bit distance.
func psnSub(a, b uint32) int32 { return int32(a-b) << 8 >> 8 }

// faultBegin readies the faults of the phase starting, if it has any.
func (g *Generator) faultBegin() {
	g.ft = nil
	c := &g.ph.cfg
	if !c.Faults.active() {
		return
	}
	ft := &faultState{f: c.Faults, firstQP: c.LocalQP, qp: make([]qpFault, len(g.ph.qps))}
	ft.pcg.Seed(c.Seed, uint64(g.pi)<<32|0xfa17)
	ft.rnd = rand.New(&ft.pcg)
	ft.psns = uint32(packets(c.Size, c.MTU))
	ft.timeoutPS = 4096 * 1000 << c.Faults.Timeout
	ft.rnrPS = int64((&ib.AETH{Syndrome: rnrSyndrome | c.Faults.RNRTimer}).RNRDelay()) * 1000
	for i, q := range g.ph.qps {
		qf := &ft.qp[i]
		*qf = qpFault{base: q.psn, baseSent: q.sent, una: q.psn, nxt: q.psn, epsn: q.psn, timerAt: never,
			retries: c.Faults.RetryCnt, rnrRetries: c.Faults.RNRRetry}
	}
	g.ft = ft
}

func (ft *faultState) of(q *qpState) *qpFault { return &ft.qp[q.local-ft.firstQP] }

// lose draws whether the next data packet is lost, and whether before
// the capture point (unseen).
func (ft *faultState) lose() (lost, unseen bool) {
	f := &ft.f
	ft.dataN++
	lost = f.LossEvery > 0 && ft.dataN%f.LossEvery == 0 ||
		f.LossBurst > 0 && ft.dataN >= f.LossBurstAt && ft.dataN < f.LossBurstAt+f.LossBurst
	if f.Loss > 0 && ft.rnd.Float64() < f.Loss {
		lost = true
	}
	return lost, lost && !f.LossAfter
}

// hideFrame takes the frame just built out of the capture: it was lost
// before the capture point. Its time on the wire stays a hole.
func (g *Generator) hideFrame() {
	g.hide = true
	g.stats.Frames--
	g.stats.Bytes -= len(g.out)
	switch g.kind {
	case KindRequest:
		g.stats.Requests--
	default:
		g.stats.Responses--
	}
}

// skipDead moves the request stream past the messages of queue pairs in
// the error state: they are never sent.
func (g *Generator) skipDead() {
	ft := g.ft
	if g.reqI < g.reqN && ft.of(g.q).dead {
		g.reqI = g.reqN
	}
	for g.reqI >= g.reqN && g.msg < g.msgs && ft.of(g.ph.qps[g.msg%g.ph.cfg.QPs]).dead {
		g.msg++
	}
}

// faultReqAt returns when the next request (new or resent) can go, t
// being the earliest the wire and PFC allow, or never.
func (g *Generator) faultReqAt(t int64) int64 {
	g.skipDead()
	best := int64(never)
	for i := range g.ft.qp {
		if qf := &g.ft.qp[i]; qf.rsActive {
			best = min(best, max(t, qf.rsAt))
		}
	}
	if g.reqI < g.reqN || g.msg < g.msgs {
		q := g.q
		if g.reqI >= g.reqN {
			q = g.ph.qps[g.msg%g.ph.cfg.QPs]
		}
		at := t
		if qf := g.ft.of(q); qf.rsActive { // its resend goes first
			at = max(t, qf.rsAt)
		}
		best = min(best, at)
	}
	return best
}

// faultAt returns when the next fault event is due: a duplicate waiting
// to go out, or a local ACK timer.
func (g *Generator) faultAt() int64 {
	if g.ft.hasEcho {
		return g.now
	}
	at := int64(never)
	for i := range g.ft.qp {
		at = min(at, g.ft.qp[i].timerAt)
	}
	if at == never {
		return never
	}
	return max(g.now, at)
}

// faultTick sends the duplicate waiting, or fires the timers due at t.
func (g *Generator) faultTick(t int64) {
	ft := g.ft
	if ft.hasEcho {
		ft.hasEcho = false
		g.buf = append(g.buf[:0], ft.echo...)
		g.finish(g.buf, t, KindRequest)
		g.stats.Duplicated++
		if ft.echoCE {
			g.stats.CE++
		}
		g.receive(ft.of(ft.echoReq.q), &ft.echoReq)
		return
	}
	g.hide = true // no frame
	for i := range ft.qp {
		qf := &ft.qp[i]
		if qf.timerAt > t {
			continue
		}
		qf.timerAt = never
		if qf.dead || qf.una == qf.nxt {
			continue
		}
		if !g.retry(qf) {
			continue
		}
		g.stats.Timeouts++
		qf.waitGap = false
		g.goBack(qf, qf.una, causeTimeout, t)
		qf.timerAt = after(t, ft.timeoutPS)
	}
}

// retry spends one of the queue pair's retries, or puts it in the error
// state when none is left.
func (g *Generator) retry(qf *qpFault) bool {
	if qf.retries == 0 {
		g.qpError(qf)
		return false
	}
	qf.retries--
	return true
}

func (g *Generator) qpError(qf *qpFault) {
	qf.dead, qf.rsActive, qf.timerAt = true, false, never
	g.stats.QPErrors++
}

// goBack starts a go-back-N episode: the requester resends from PSN
// from up to the last it sent, from time at on.
func (g *Generator) goBack(qf *qpFault, from uint32, cause int, at int64) {
	qf.rsActive, qf.rsNext, qf.rsEnd, qf.rsAt = true, from, qf.nxt, at
	qf.rsCause, qf.rsSeen = cause, false
	*g.stats.episodes()[cause]++
}

// acked moves the first unacknowledged PSN up to to, when that is
// progress: the retry counts start again, and so does the timer.
func (g *Generator) acked(qf *qpFault, to uint32) {
	if psnSub(to, qf.una) <= 0 || psnSub(to, qf.nxt) > 0 {
		return
	}
	qf.una = to
	qf.retries, qf.rnrRetries = g.ft.f.RetryCnt, g.ft.f.RNRRetry
	qf.waitGap = false
	qf.timerAt = never
	if qf.una != qf.nxt {
		qf.timerAt = after(g.now, g.ft.timeoutPS)
	}
	if qf.rsActive && psnSub(qf.rsNext, qf.una) < 0 {
		qf.rsNext = qf.una
	}
	if qf.rsActive && psnSub(qf.rsEnd, qf.rsNext) <= 0 {
		qf.rsActive = false
	}
}

// emitFaultRequest sends the next request of a phase with faults: the
// next resend of a go-back-N episode due, else the next new packet.
func (g *Generator) emitFaultRequest(ts int64) {
	ft := g.ft
	var rq *qpFault
	var q *qpState
	for i := range ft.qp {
		if qf := &ft.qp[i]; qf.rsActive && qf.rsAt <= ts && (rq == nil || qf.rsAt < rq.rsAt) {
			rq, q = qf, g.ph.qps[i]
		}
	}
	if rq != nil {
		g.resend(q, rq, ts)
		return
	}
	c := &g.ph.cfg
	if g.reqI >= g.reqN {
		g.startMessage()
	}
	q = g.q
	i := g.reqI
	g.reqI++
	r := reqInfo{q: q, psn: (g.msgPSN + uint32(i)) & psnMask, n: 1, pos: position(i, g.reqN), size: g.msgSize}
	if c.Op == OpRead {
		r.n = ft.psns
	}
	p := g.prepare(fwd, q)
	g.fillRequest(p, q, i, r.pos, r.psn)
	r.ackReq = p.BTH.AckReq
	g.sendFaultRequest(ft.of(q), &r, ts, false)
}

// resend sends the next packet of the queue pair's go-back-N episode:
// the packet at that PSN again or, inside an RDMA READ whose first
// responses came, a READ Request for the rest of it.
func (g *Generator) resend(q *qpState, qf *qpFault, ts int64) {
	ft, c := g.ft, &g.ph.cfg
	psn := qf.rsNext
	off := (psn - qf.base) & psnMask
	k, j := off/ft.psns, off%ft.psns
	r := reqInfo{q: q, psn: psn, n: 1, pos: position(int(j), int(ft.psns)), size: c.Size}
	if c.Op == OpRead {
		r.n, r.pos = ft.psns-j, posOnly
		r.size = max(c.Size-int(j)*c.MTU, 0)
	}
	qf.rsNext = (psn + r.n) & psnMask
	if qf.rsNext == qf.rsEnd {
		qf.rsActive = false
	}
	sent, size := q.sent, g.msgSize
	q.sent, g.msgSize = qf.baseSent+k+1, c.Size
	p := g.prepare(fwd, q)
	g.fillRequest(p, q, int(j), r.pos, psn)
	q.sent, g.msgSize = sent, size
	if c.Op == OpRead {
		p.RETH.VA += uint64(j) * uint64(c.MTU)
		p.RETH.DMALen = uint32(r.size)
	}
	r.ackReq = p.BTH.AckReq
	g.stats.Resent++
	g.sendFaultRequest(qf, &r, ts, true)
}

// sendFaultRequest builds the prepared request r and plays its faults:
// its loss, what the capture shows of it, the requester's timer, the
// responder's reaction and its duplicate.
func (g *Generator) sendFaultRequest(qf *qpFault, r *reqInfo, ts int64, resent bool) {
	ft := g.ft
	ce := g.markCE()
	if !g.build(ts, KindRequest) {
		return
	}
	lost, unseen := ft.lose()
	if lost {
		g.stats.Lost++
	}
	if unseen {
		g.stats.LostUnseen++
		g.hideFrame()
	} else {
		g.shown(qf, r, resent)
	}
	if end := (r.psn + r.n) & psnMask; psnSub(end, qf.nxt) > 0 {
		qf.nxt = end
	}
	if qf.timerAt == never {
		qf.timerAt = after(g.now, ft.timeoutPS)
	}
	switch {
	case !lost:
		g.afterData(rev, ce, r.q.local, r.q)
	case ce && !unseen:
		g.stats.CE++ // seen CE, but no CNP: the responder never got it
	}
	if unseen {
		return
	}
	g.maybeCorrupt(g.out)
	if !lost {
		g.receive(qf, r)
		if ft.f.Dup > 0 && ft.rnd.Float64() < ft.f.Dup {
			ft.echo = append(ft.echo[:0], g.out...)
			ft.echoReq, ft.hasEcho, ft.echoCE = *r, true, ce
		}
	}
}

// shown records what the capture shows of a request: a PSN gap when it
// is past the next PSN the capture expects, a late packet when it fills
// such a gap, a retransmission the capture can tell when it resends a
// packet the capture showed.
func (g *Generator) shown(qf *qpFault, r *reqInfo, resent bool) {
	end := (r.psn + r.n) & psnMask
	if !qf.capInit {
		qf.capInit, qf.capFirst, qf.capHigh = true, r.psn, end
		return
	}
	if psnSub(r.psn, qf.capFirst) < 0 { // before the first the capture showed
		qf.markUnseen(end, qf.capFirst)
		qf.capFirst = r.psn
		g.stats.OutOfOrder++
		return
	}
	d := psnSub(r.psn, qf.capHigh)
	switch {
	case d == 0:
		qf.capHigh = end
		return
	case d > 0:
		g.stats.PSNGaps++
		g.stats.PSNMissing += int(d)
		qf.markUnseen(qf.capHigh, r.psn)
		qf.capHigh = end
		return
	}
	if _, ok := qf.unseen[r.psn]; ok {
		delete(qf.unseen, r.psn)
		g.stats.OutOfOrder++
		return
	}
	if resent {
		g.stats.ResentSeen++
		if !qf.rsSeen {
			qf.rsSeen = true
			g.stats.EpisodesShown++
		}
	}
}

// markUnseen records that the capture skipped the PSNs from lo up to hi.
func (qf *qpFault) markUnseen(lo, hi uint32) {
	if qf.unseen == nil {
		qf.unseen = map[uint32]struct{}{}
	}
	for p := lo; p != hi; p = (p + 1) & psnMask {
		qf.unseen[p] = struct{}{}
	}
}

// receive plays the responder's reaction to request r (IBTA Vol 1,
// 9.7.5.1): in sequence it is carried out and answered, unless it needs
// a receive WQE the responder refuses with an RNR NAK; ahead of the
// expected PSN it is dropped, the first such of an episode answered by
// a NAK PSN Sequence Error; behind it, a duplicate, it is acknowledged
// again (a READ is read again, from its PSN).
func (g *Generator) receive(qf *qpFault, r *reqInfo) {
	ft, c, q := g.ft, &g.ph.cfg, r.q
	at := after(g.now, g.ph.delayPS)
	d := psnSub(r.psn, qf.epsn)
	switch {
	case d == 0:
		if wqeAt[c.Op][r.pos] && ft.rnrDraw() {
			ev := g.push(KindAck, at, q)
			ev.psn, ev.msn, ev.syn = r.psn, q.msn, rnrSyndrome|ft.f.RNRTimer
			qf.nakSent = true
			g.stats.RNRNAKs++
			return
		}
		qf.epsn, qf.nakSent = (r.psn+r.n)&psnMask, false
		size := g.msgSize
		g.msgSize = r.size
		g.answer(q, r.psn, r.pos == posLast || r.pos == posOnly, r.ackReq, 0)
		g.msgSize = size
	case d > 0:
		if !qf.nakSent {
			qf.nakSent = true
			ev := g.push(KindAck, at, q)
			ev.psn, ev.msn, ev.syn = qf.epsn, q.msn, nakSeqSyndrome
			g.stats.NAKs++
		}
	case c.Op == OpRead:
		ev := g.push(KindReadResponse, at, q)
		ev.psn, ev.msn, ev.n, ev.size = r.psn, q.msn, int(r.n), r.size
	case r.ackReq:
		ev := g.push(KindAck, at, q)
		ev.psn, ev.msn = (qf.epsn-1)&psnMask, q.msn
	}
}

// rnrDraw draws whether the responder lacks the receive WQE of the
// packet it got in sequence.
func (ft *faultState) rnrDraw() bool {
	f := &ft.f
	if f.RNR == 0 && f.RNREvery == 0 {
		return false
	}
	ft.wqeN++
	rnr := f.RNREvery > 0 && ft.wqeN%f.RNREvery == 0
	if f.RNR > 0 && ft.rnd.Float64() < f.RNR {
		rnr = true
	}
	return rnr
}

// emitFaultAck builds a queued Acknowledge (ACK, NAK or RNR NAK) of a
// phase with faults, plays its loss and the requester's reaction.
func (g *Generator) emitFaultAck(ev *event, ts int64) {
	ft, c, q := g.ft, &g.ph.cfg, ev.q
	p := g.prepare(rev, q)
	p.BTH.OpCode = ib.MakeOpcode(c.Transport, ib.Acknowledge)
	p.BTH.DestQP = q.local
	p.BTH.PSN = ev.psn
	syn := ev.syn
	if syn == 0 {
		syn = ackSyndrome
	}
	p.AETH = ib.AETH{Syndrome: syn, MSN: ev.msn}
	if !g.build(ts, KindAck) {
		return
	}
	lost := false
	if ev.syn == 0 && ft.f.AckLoss > 0 && ft.rnd.Float64() < ft.f.AckLoss {
		lost = true
		g.stats.AcksLost++
		if !ft.f.LossAfter {
			g.hideFrame()
		}
	}
	if !g.hide {
		g.maybeCorrupt(g.out)
	}
	qf := ft.of(q)
	if lost || qf.dead {
		return
	}
	switch ev.syn & 0x60 {
	case 0: // ACK
		g.acked(qf, (ev.psn+1)&psnMask)
	case nakSeqSyndrome:
		g.acked(qf, ev.psn)
		if g.retry(qf) {
			g.goBack(qf, ev.psn, causeNAK, g.now)
		}
	case rnrSyndrome:
		g.acked(qf, ev.psn)
		if qf.rnrRetries == 0 {
			g.qpError(qf)
			return
		}
		if qf.rnrRetries != rnrForever {
			qf.rnrRetries--
		}
		g.goBack(qf, ev.psn, causeRNR, after(g.now, ft.rnrPS))
		qf.timerAt = never // the requester waits for the RNR timer instead
	}
}

// emitFaultReadResponse builds the next packet of the active READ
// response burst of a phase with faults, plays its loss and the
// requester's reaction: a response past the PSN it expects makes it ask
// again from the first one missing.
func (g *Generator) emitFaultReadResponse(ts int64) {
	ft, c := g.ft, &g.ph.cfg
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
	lost, unseen := ft.lose()
	if lost {
		g.stats.Lost++
	}
	switch {
	case unseen:
		g.stats.LostUnseen++
		g.hideFrame()
	case lost:
		if ce {
			g.stats.CE++
		}
	default:
		g.afterData(fwd, ce, q.remote, q)
	}
	if !unseen {
		g.maybeCorrupt(g.out)
	}
	qf := ft.of(q)
	if lost || qf.dead {
		return
	}
	psn := p.BTH.PSN
	switch d := psnSub(psn, qf.una); {
	case d == 0:
		g.acked(qf, (psn+1)&psnMask)
	case d > 0 && !qf.waitGap && psnSub(psn, qf.nxt) < 0:
		qf.waitGap = true
		if g.retry(qf) {
			g.goBack(qf, qf.una, causeReadGap, g.now)
		}
	}
}

// episodes returns the episode counts of s by cause.
func (s *Stats) episodes() [4]*int {
	return [4]*int{causeNAK: &s.EpisodesNAK, causeRNR: &s.EpisodesRNR, causeTimeout: &s.EpisodesTimeout, causeReadGap: &s.EpisodesReadGap}
}
