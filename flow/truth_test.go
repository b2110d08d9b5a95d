package flow_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests in this file build captures whose truth is known from the
// scenario: each connection's script says when every packet is sent and
// what it answers, and the expectations are written from that script.

// rc is an RC opcode, named from the table.
func rc(op ib.Operation) ib.Opcode { return ib.MakeOpcode(ib.RC, op) }

// capture collects frames at chosen times; frames sorts them by time
// (stably, so equal times keep the order they were added in).
type capture struct {
	t  testing.TB
	fs []frame
}

func (c *capture) frames() []frame {
	slices.SortStableFunc(c.fs, func(a, b frame) int { return int(a.t - b.t) })
	return c.fs
}

// conn is an RC connection between hostA (requester QP req) and hostB
// (responder QP resp). The UDP source ports differ between directions.
type conn struct {
	c         *capture
	req, resp uint32
	p0        uint32        // first PSN
	t0        time.Duration // when its script starts
}

// send adds a frame from A to B (request) or B to A (response) at t0+at.
func (k *conn) frame(at time.Duration, fromA bool, op ib.Opcode, psn uint32, ecnCP uint8, fill func(p *ib.Packet)) []byte {
	t := k.c.t
	t.Helper()
	var f roce.Frame
	f.Encap = ib.RoCEv2IPv4
	src, dst, qp, sport := hostA, hostB, k.resp, uint16(49152+k.req%1000)
	f.Src, f.Dst = macA, macB
	if !fromA {
		src, dst, qp, sport = hostB, hostA, k.req, uint16(61000+k.resp%1000)
		f.Src, f.Dst = macB, macA
	}
	f.SrcPort = sport
	f.GRH.SGID, f.GRH.DGID, f.GRH.HopLmt = gid(src), gid(dst), 64
	f.GRH.TClass = 26<<2 | ecnCP
	f.Packet.BTH = ib.BTH{OpCode: op, PKey: 0xffff, DestQP: qp, PSN: (k.p0 + psn) & (1<<24 - 1)}
	if fill != nil {
		fill(&f.Packet)
	}
	b, err := f.AppendTo(nil)
	require.NoError(t, err)
	k.c.fs = append(k.c.fs, frame{k.t0 + at, b})
	return b
}

// Requests: psn is relative to the connection's first PSN.
func (k *conn) write(at time.Duration, psn uint32) {
	k.frame(at, true, rc(ib.RDMAWriteOnly), psn, ect0, func(p *ib.Packet) { read(64)(p); p.Payload = make([]byte, 64) })
}
func (k *conn) writeCE(at time.Duration, psn uint32) []byte {
	return k.frame(at, true, rc(ib.RDMAWriteOnly), psn, ceMarked, func(p *ib.Packet) { read(64)(p); p.Payload = make([]byte, 64) })
}
func (k *conn) send(at time.Duration, psn uint32, op ib.Operation, n int) {
	k.frame(at, true, rc(op), psn, ect0, payload(n))
}
func (k *conn) readReq(at time.Duration, psn, n uint32) {
	k.frame(at, true, rc(ib.RDMAReadRequest), psn, ect0, read(n))
}
func (k *conn) fetchAdd(at time.Duration, psn uint32) {
	k.frame(at, true, rc(ib.FetchAdd), psn, ect0, nil)
}

// Responses.
func (k *conn) ack(at time.Duration, psn uint32) { k.aeth(at, psn, 0x1f) }
func (k *conn) nakSeq(at time.Duration, psn uint32) {
	k.aeth(at, psn, synNak|uint8(ib.NakPSNSequenceError))
}
func (k *conn) rnr(at time.Duration, psn uint32) { k.aeth(at, psn, synRNR|14) }
func (k *conn) aeth(at time.Duration, psn uint32, syn uint8) {
	k.frame(at, false, rc(ib.Acknowledge), psn, 0, aeth(syn, 0))
}
func (k *conn) readResp(at time.Duration, psn uint32, op ib.Operation, n int, ecnCP uint8) []byte {
	fill := payload(n)
	if op != ib.RDMAReadResponseMiddle {
		fill = aeth(0x1f, n)
	}
	return k.frame(at, false, rc(op), psn, ecnCP, fill)
}
func (k *conn) atomicAck(at time.Duration, psn uint32) {
	k.frame(at, false, rc(ib.AtomicAcknowledge), psn, 0, aeth(0x1f, 0))
}

// cnpTo adds, at t0+at, the CNP that the receiver of the CE-marked frame
// ce sends to QP qp.
func (k *conn) cnpTo(at time.Duration, ce []byte, qp uint32) {
	b, err := cnp.Reply(nil, ce, qp, nil)
	require.NoError(k.c.t, err)
	k.c.fs = append(k.c.fs, frame{k.t0 + at, b})
}

func analyzeCfg(t testing.TB, cfg flow.Config, fs []frame) *flow.Report {
	t.Helper()
	an := flow.New(cfg)
	var rec dump.Record
	start := time.Unix(1700000000, 0)
	for i, f := range fs {
		ci := gopacket.CaptureInfo{Timestamp: start.Add(f.t), Length: len(f.data), CaptureLength: len(f.data)}
		rec.Decode(i+1, ci, capfile.LinkTypeEthernet, f.data)
		require.Contains(t, []dump.Kind{dump.KindRoCE, dump.KindMACControl}, rec.Kind, "frame %d: %v", i+1, rec.Err)
		an.AddRecord(&rec)
	}
	return an.Report()
}

// lat is the expected summary of samples (each one sample), up to 100
// of them: P99 is then the largest.
func lat(samples ...time.Duration) *flow.Latency {
	l := &flow.Latency{Count: uint64(len(samples)), Min: slices.Min(samples), Max: slices.Max(samples)}
	var sum time.Duration
	for _, s := range samples {
		sum += s
	}
	l.Avg = sum / time.Duration(len(samples))
	l.P99 = l.Max
	return l
}

func peerOf(k *conn, fromA bool) string {
	if fromA {
		return fmt.Sprintf("10.0.0.2 > 10.0.0.1 qp 0x%06x", k.req)
	}
	return fmt.Sprintf("10.0.0.1 > 10.0.0.2 qp 0x%06x", k.resp)
}

// TestManyQPs: 300 connections between one host pair, first PSNs drawn
// at random but for seven that start one apart just below 2^24 (they
// wrap, and each owns all but one of the PSNs of the next), their
// scripts interleaved 37 ns apart. Each one writes twice (one coalesced
// ACK), reads 3000 bytes at MTU 1024 (three responses), fetches and
// adds, and sends a two-packet message. Beside them, pairs of
// connections whose PSNs overlap: the first ACK of the later one
// carries a PSN that both own, so it waits until its read response
// tells them apart.
func TestManyQPs(t *testing.T) {
	c := &capture{t: t}
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 300
	var conns []*conn
	for i := 0; i < n; i++ {
		k := &conn{c: c, req: 0x100 + uint32(i), resp: 0x800 + uint32(i), p0: rng.Uint32N(1 << 24), t0: time.Duration(i) * 37}
		if i < 7 { // wrapping, each one PSN below the one before
			k.p0 = 1<<24 - 1 - uint32(i)
		}
		conns = append(conns, k)
		k.write(0, 0)
		k.write(1*usec, 1)
		k.ack(10*usec, 1) // covers both writes: 10 and 9 µs
		k.readReq(11*usec, 2, 3000)
		k.readResp(20*usec, 2, ib.RDMAReadResponseFirst, 1024, 0)
		k.readResp(21*usec, 3, ib.RDMAReadResponseMiddle, 1024, 0)
		k.readResp(22*usec, 4, ib.RDMAReadResponseLast, 952, 0)
		k.fetchAdd(23*usec, 5)
		k.atomicAck(30*usec, 5)
		k.send(31*usec, 6, ib.SendFirst, 1024)
		k.send(32*usec, 7, ib.SendLast, 10)
		k.ack(40*usec, 7) // 9 and 8 µs
	}
	// Overlapping pairs: Y writes PSNs P-6 .. P+1 from 0 µs and is
	// acknowledged at 60 µs; X starts at 10 µs with PSN P, as above.
	var ys, xs []*conn
	for i := 0; i < 5; i++ {
		P := rng.Uint32N(1 << 24)
		base := 100*usec + time.Duration(i)*200*usec
		y := &conn{c: c, req: 0x2000 + uint32(i), resp: 0x3000 + uint32(i), p0: (P - 6) & (1<<24 - 1), t0: base}
		for j := uint32(0); j < 8; j++ {
			y.write(time.Duration(j)*usec, j)
		}
		y.ack(60*usec, 7) // 60 .. 53 µs
		x := &conn{c: c, req: 0x4000 + uint32(i), resp: 0x5000 + uint32(i), p0: P, t0: base + 10*usec}
		x.write(0, 0)
		x.write(1*usec, 1)
		x.ack(10*usec, 1) // PSN P+1: Y's last write too
		x.readReq(11*usec, 2, 3000)
		x.readResp(20*usec, 2, ib.RDMAReadResponseFirst, 1024, 0) // only X owns P+2
		x.readResp(21*usec, 3, ib.RDMAReadResponseMiddle, 1024, 0)
		x.readResp(22*usec, 4, ib.RDMAReadResponseLast, 952, 0)
		ys, xs = append(ys, y), append(xs, x)
	}
	r := analyze(t, c.frames())
	require.Len(t, r.Flows, 2*(n+10))
	for _, k := range conns {
		req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
		want := flow.Stats{Frames: 6, Bytes: req.Bytes, Messages: 3, Reads: 1, ReadsMatched: 1, Atomics: 1, AtomicsMatched: 1, MTU: 1024}
		assert.Equal(t, want, req.Stats, "request flow of QP %#x (first PSN %#x)", k.req, k.p0)
		assert.Equal(t, peerOf(k, true), req.Peer)
		if assert.NotNil(t, req.SrcQP) {
			assert.Equal(t, k.req, *req.SrcQP)
		}
		assert.Equal(t, &flow.Latencies{
			Ack: lat(10*usec, 9*usec, 9*usec, 8*usec), ReadFirst: lat(9 * usec), ReadLast: lat(11 * usec), Atomic: lat(7 * usec),
			Completion: lat(10*usec, 9*usec, 11*usec, 9*usec),
		}, req.Latency, "QP %#x", k.req)
		resp := find(t, r, "10.0.0.2", "10.0.0.1", k.req)
		assert.Equal(t, flow.Stats{Frames: 6, Bytes: resp.Bytes, Messages: 1, MTU: 1024, Answers: true}, resp.Stats, "response flow of QP %#x", k.req)
		assert.Equal(t, peerOf(k, false), resp.Peer)
	}
	for i := range xs {
		x, y := xs[i], ys[i]
		req := find(t, r, "10.0.0.1", "10.0.0.2", x.resp)
		assert.Equal(t, flow.Stats{Frames: 3, Bytes: req.Bytes, Messages: 2, Reads: 1, ReadsMatched: 1, MTU: 1024}, req.Stats, "X %d", i)
		assert.Equal(t, peerOf(x, true), req.Peer, "X %d", i)
		assert.Equal(t, &flow.Latencies{
			Ack: lat(10*usec, 9*usec), ReadFirst: lat(9 * usec), ReadLast: lat(11 * usec), Completion: lat(10*usec, 9*usec, 11*usec),
		}, req.Latency, "X %d", i)
		req = find(t, r, "10.0.0.1", "10.0.0.2", y.resp)
		assert.Equal(t, flow.Stats{Frames: 8, Bytes: req.Bytes, Messages: 8}, req.Stats, "Y %d", i)
		assert.Equal(t, peerOf(y, true), req.Peer, "Y %d", i)
		l := lat(60*usec, 59*usec, 58*usec, 57*usec, 56*usec, 55*usec, 54*usec, 53*usec)
		assert.Equal(t, &flow.Latencies{Ack: l, Completion: l}, req.Latency, "Y %d", i)
	}
}

// TestRetransmission: one connection whose PSNs wrap, with a go-back-N
// after a NAK PSN Sequence Error, one after an RNR NAK, one after a
// timeout, and reordering.
func TestRetransmission(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 1<<24 - 3}
	for i := uint32(0); i < 4; i++ { // PSN 3 is 0 after the wrap
		k.write(time.Duration(i)*usec, i)
	}
	k.nakSeq(10*usec, 1) // expects 1: 0 arrived (10 µs)
	k.write(11*usec, 1)  // go-back-N: 1, 2, 3 again
	k.write(12*usec, 2)
	k.write(13*usec, 3)
	k.write(14*usec, 4)
	k.ack(20*usec, 4) // 1, 2, 3 sent first at 1, 2, 3 µs: 19, 18, 17; 4: 6
	k.send(21*usec, 5, ib.SendOnly, 100)
	k.rnr(25*usec, 5)
	k.send(40*usec, 5, ib.SendOnly, 100) // after the RNR wait
	k.ack(45*usec, 5)                    // 24
	k.write(50*usec, 6)
	k.write(51*usec, 7)
	k.write(1050*usec, 6) // no answer: a timeout, then 6 and 7 again
	k.write(1051*usec, 7)
	k.ack(1060*usec, 7) // 1010, 1009
	k.write(1100*usec, 8)
	k.write(1101*usec, 10) // 9 skipped ...
	k.write(1102*usec, 9)  // ... and late
	k.ack(1110*usec, 10)   // 10, 9, 8
	r := analyze(t, c.frames())
	require.Len(t, r.Flows, 2)
	req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	want := flow.Stats{
		Frames: 17, Bytes: req.Bytes, Messages: 17,
		PSNGaps: 1, PSNMissing: 1, OutOfOrder: 1, Duplicates: 6,
		Retransmitted: 6, RetransmittedNakSeq: 3, RetransmittedRNR: 1, RetransmittedTimeout: 2,
		GBNNakSeq: 1, GBNRNR: 1, GBNTimeout: 1,
	}
	assert.Equal(t, want, req.Stats)
	l := lat(10*usec, 19*usec, 18*usec, 17*usec, 6*usec, 24*usec, 1010*usec, 1009*usec, 10*usec, 9*usec, 8*usec)
	assert.Equal(t, &flow.Latencies{Ack: l, Completion: l}, req.Latency)
	resp := find(t, r, "10.0.0.2", "10.0.0.1", k.req)
	wantResp := flow.Stats{Frames: 6, Bytes: resp.Bytes, NAKTotal: 1, RNRNAKs: 1, Answers: true}
	wantResp.NAKs[ib.NakPSNSequenceError] = 1
	assert.Equal(t, wantResp, resp.Stats)
	assert.Equal(t, []flow.NAKCount{{Code: 0, Name: "PSN Sequence Error", Count: 1}}, resp.NAKs)
}

// TestCongestion: CE-marked writes answered by CNPs 3 µs after the marks
// the receiver answers, pacing at the default 4 µs (marks within 4 µs of
// an answered one get none), one CNP too soon, and a CE-marked READ
// response answered by the requester.
func TestCongestion(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 500}
	ceAt := map[int]bool{0: true, 1: true, 2: true, 5: true, 9: true, 10: true}
	marked := map[int][]byte{}
	for i := 0; i < 20; i++ {
		at := time.Duration(i) * usec
		if ceAt[i] {
			marked[i] = k.writeCE(at, uint32(i))
		} else {
			k.write(at, uint32(i))
		}
		k.ack(at+usec/2, uint32(i))
	}
	// Marks at 0, 5 and 9 µs cause CNPs (1, 2 and 10 are within 4 µs of
	// the one before that did); each CNP 3 µs later.
	k.cnpTo(3*usec, marked[0], k.req)
	k.cnpTo(8*usec, marked[5], k.req)
	k.cnpTo(12*usec, marked[9], k.req)
	k.cnpTo(13*usec, marked[10], k.req) // 1 µs after the last: a pacing violation, so the receiver answers every mark: timed from mark 10
	// A read of 2048 bytes whose First response is marked; the requester
	// answers 2 µs later with a CNP to the responder's QP.
	k.readReq(30*usec, 20, 2048)
	ce := k.readResp(31*usec, 20, ib.RDMAReadResponseFirst, 1024, ceMarked)
	k.readResp(32*usec, 21, ib.RDMAReadResponseLast, 1024, 0)
	k.cnpTo(33*usec, ce, k.resp)
	r := analyze(t, c.frames())
	require.Len(t, r.Flows, 2)
	req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	assert.Equal(t, flow.Stats{Frames: 22, Bytes: req.Bytes, Messages: 20, CE: 6, CNPs: 1, BECN: 1, Reads: 1, ReadsMatched: 1, MTU: 1024,
		CNPsToSender: 4}, req.Stats)
	acks := make([]time.Duration, 20)
	for i := range acks {
		acks[i] = usec / 2
	}
	require.NotNil(t, req.Latency)
	assert.Equal(t, lat(acks...), req.Latency.Ack)
	assert.Equal(t, lat(3*usec, 3*usec, 3*usec, 3*usec), req.Latency.CEToCNP)
	resp := find(t, r, "10.0.0.2", "10.0.0.1", k.req)
	assert.Equal(t, flow.Stats{Frames: 26, Bytes: resp.Bytes, Messages: 1, MTU: 1024, CE: 1, CNPs: 4, BECN: 4, CNPPacingViolations: 1, CNPsToSender: 1,
		Answers: true}, resp.Stats)
	require.NotNil(t, resp.Latency)
	assert.Equal(t, lat(2*usec), resp.Latency.CEToCNP)

	// A receiver that does not pace answers every mark: with
	// CNPInterval negative, the four CNPs answer the first four marks.
	r = analyzeCfg(t, flow.Config{CNPInterval: -1}, c.frames())
	req = find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	assert.Equal(t, lat(3*usec, 7*usec, 10*usec, 8*usec), req.Latency.CEToCNP)
	assert.Zero(t, find(t, r, "10.0.0.2", "10.0.0.1", k.req).CNPPacingViolations)
}

// TestPFCStorm: priority 3 kept paused by 65535-quantum XOFFs every
// 300 µs (each lasts 335.54 µs at 100 Gb/s) from 0 to 150 ms, released
// at 150.1 ms, paused again briefly at 200 ms; priority 5 paused twice
// for 1000 quanta (5.12 µs).
func TestPFCStorm(t *testing.T) {
	var fs []frame
	for at := time.Duration(0); at <= 150*time.Millisecond; at += 300 * usec {
		fs = append(fs, frame{at, pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{3: 65535})})
	}
	xoffs := len(fs)
	fs = append(fs,
		frame{150*time.Millisecond + 100*usec, pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{})},
		frame{200 * time.Millisecond, pfc.AppendPFC(nil, macB, 1<<3|1<<5, [8]uint16{3: 100, 5: 1000})},
		frame{201 * time.Millisecond, pfc.AppendPFC(nil, macB, 1<<5, [8]uint16{5: 1000})},
	)
	r := analyzeCfg(t, flow.Config{}, fs)
	require.Len(t, r.PFC, 2)
	p3, p5 := r.PFC[0], r.PFC[1]
	assert.Equal(t, 3, p3.Priority)
	assert.Equal(t, uint64(xoffs+2), p3.Frames)
	assert.Equal(t, 150*time.Millisecond+100*usec, p3.LongestPause)
	assert.Equal(t, 150*time.Millisecond+100*usec+512, p3.Paused)
	assert.True(t, p3.Storm)
	assert.Equal(t, 5, p5.Priority)
	assert.Equal(t, 5120*time.Nanosecond, p5.LongestPause)
	assert.Equal(t, 2*5120*time.Nanosecond, p5.Paused)
	assert.False(t, p5.Storm)
	// A watchdog of 200 ms sees no storm.
	r = analyzeCfg(t, flow.Config{PFCStorm: 200 * time.Millisecond}, fs)
	assert.False(t, r.PFC[0].Storm)
	assert.Equal(t, 200*time.Millisecond, r.PFCStorm)
}

// Captures whose truth comes from the script, for the
// definitions of completion and ACK latency, READ matching with partial
// re-requests, the window edge, percentiles and CE to CNP.

// pairFirst opens k with a SEND Only at PSN 0 acknowledged 0.5 µs later,
// so that the two flows are paired before the script's case.
func (k *conn) pairFirst() { k.send(0, 0, ib.SendOnly, 100); k.ack(usec/2, 0) }

// TestLostFirst: the first packet of a message lost before the capture
// point: the capture sees its Middle and Last, then (after the NAK) the
// First, Middle and Last sent again. The message's completion is timed
// from its earliest captured packet, the Middle; each packet's ACK
// latency from its first capture.
func TestLostFirst(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 1<<24 - 2}
	k.pairFirst()
	// PSN 1, a SEND First at 1 µs, never reaches the capture point.
	k.send(2*usec, 2, ib.SendMiddle, 1024)
	k.send(3*usec, 3, ib.SendLast, 10)
	k.nakSeq(4*usec, 1)
	k.send(5*usec, 1, ib.SendFirst, 1024) // first capture: out of order
	k.send(6*usec, 2, ib.SendMiddle, 1024)
	k.send(7*usec, 3, ib.SendLast, 10)
	k.ack(10*usec, 3)
	r := analyze(t, c.frames())
	req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	assert.Equal(t, flow.Stats{Frames: 6, Bytes: req.Bytes, Messages: 3, MTU: 1024, PSNGaps: 1, PSNMissing: 1, OutOfOrder: 1,
		Duplicates: 2, Retransmitted: 2, RetransmittedNakSeq: 2, GBNNakSeq: 1}, req.Stats)
	assert.Equal(t, &flow.Latencies{
		Ack:        lat(usec/2, 5*usec, 8*usec, 7*usec), // PSN 0, then 1 (sent at 5), 2 (at 2), 3 (at 3)
		Completion: lat(usec/2, 8*usec),                 // from the Middle at 2 µs
	}, req.Latency)

	// The same at the very start of a flow: no earlier message, the
	// flows paired by the last ACK.
	c = &capture{t: t}
	k = &conn{c: c, req: 0x11, resp: 0x22, p0: 7}
	k.send(1*usec, 1, ib.SendMiddle, 1024)
	k.send(2*usec, 2, ib.SendLast, 10)
	k.nakSeq(3*usec, 0)
	k.send(4*usec, 0, ib.SendFirst, 1024)
	k.send(5*usec, 1, ib.SendMiddle, 1024)
	k.send(6*usec, 2, ib.SendLast, 10)
	k.ack(9*usec, 2)
	r = analyze(t, c.frames())
	req = find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	assert.Equal(t, &flow.Latencies{Ack: lat(5*usec, 8*usec, 7*usec), Completion: lat(8 * usec)}, req.Latency)
}

// TestResentLast: message A's Last lost before the capture point while
// message B follows; after the NAK the capture sees A's Last, then B
// again. A is timed from its own First.
func TestResentLast(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 1000}
	k.pairFirst()
	k.send(1*usec, 1, ib.SendFirst, 1024) // A
	// PSN 2, A's Last at 2 µs, never reaches the capture point.
	k.send(3*usec, 3, ib.SendFirst, 1024) // B
	k.send(4*usec, 4, ib.SendLast, 10)
	k.nakSeq(5*usec, 2)                // covers PSN 1 (4 µs)
	k.send(6*usec, 2, ib.SendLast, 10) // A's Last: first capture
	k.send(7*usec, 3, ib.SendFirst, 1024)
	k.send(8*usec, 4, ib.SendLast, 10)
	k.ack(11*usec, 4)
	r := analyze(t, c.frames())
	req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	assert.Equal(t, flow.Stats{Frames: 7, Bytes: req.Bytes, Messages: 4, MTU: 1024, PSNGaps: 1, PSNMissing: 1, OutOfOrder: 1,
		Duplicates: 2, Retransmitted: 2, RetransmittedNakSeq: 2, GBNNakSeq: 1}, req.Stats)
	assert.Equal(t, &flow.Latencies{
		Ack:        lat(usec/2, 4*usec, 5*usec, 8*usec, 7*usec),
		Completion: lat(usec/2, 10*usec, 8*usec), // A from 1 µs, B from 3 µs, both to 11 µs
	}, req.Latency)
}

// TestAckCoverage: an ACK covers every outstanding PSN up to its own,
// whatever the order of their first captures: PSN 2's resend, captured
// after 3 and 4, is covered by the ACK of 3.
func TestAckCoverage(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 1<<24 - 3}
	k.write(0, 0)
	k.ack(usec/2, 0)
	k.write(1*usec, 1)
	// PSN 2 at 2 µs never reaches the capture point.
	k.write(3*usec, 3)
	k.write(4*usec, 4)
	k.nakSeq(5*usec, 2) // covers 1: 4 µs
	k.write(6*usec, 2)  // first capture
	k.write(7*usec, 3)
	k.write(8*usec, 4)
	k.ack(9*usec, 3)  // covers 2 (3 µs) and 3 (6 µs)
	k.ack(10*usec, 4) // covers 4 (6 µs)
	r := analyze(t, c.frames())
	req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	assert.Equal(t, flow.Stats{Frames: 7, Bytes: req.Bytes, Messages: 7, PSNGaps: 1, PSNMissing: 1, OutOfOrder: 1,
		Duplicates: 2, Retransmitted: 2, RetransmittedNakSeq: 2, GBNNakSeq: 1}, req.Stats)
	l := lat(usec/2, 4*usec, 3*usec, 6*usec, 6*usec)
	assert.Equal(t, &flow.Latencies{Ack: l, Completion: l}, req.Latency)
}

// reRead adds a READ Request for the tail of the read at PSN 2 (VA
// 0x1000): from PSN psn, n bytes.
func (k *conn) reRead(at time.Duration, psn, n uint32) {
	k.frame(at, true, rc(ib.RDMAReadRequest), psn, ect0, func(p *ib.Packet) {
		p.RETH = ib.RETH{VA: 0x1000 + uint64(psn-2)*1024, RKey: 7, DMALen: n}
	})
}

// TestPartialReRead: a read of 4096 bytes at MTU 1024 (PSNs 2-5) whose
// responses are partly lost before the capture point; the requester asks
// again for the tail, from the first PSN missing. The re-request is a
// read of its own, matched by its responses; the first read is
// incomplete.
func TestPartialReRead(t *testing.T) {
	// prefix pairs the flows and sets the MTU: an RDMA WRITE of two
	// packets, acknowledged.
	prefix := func(k *conn) {
		k.frame(0, true, rc(ib.RDMAWriteFirst), 0, ect0, func(p *ib.Packet) { read(1124)(p); p.Payload = make([]byte, 1024) })
		k.frame(1*usec, true, rc(ib.RDMAWriteLast), 1, ect0, payload(100))
		k.ack(usec+usec/2, 1)
		k.readReq(2*usec, 2, 4096)
		k.readResp(3*usec, 2, ib.RDMAReadResponseFirst, 1024, 0)
		k.readResp(4*usec, 3, ib.RDMAReadResponseMiddle, 1024, 0)
	}
	t.Run("middle-lost", func(t *testing.T) {
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 5000}
		prefix(k)
		// PSN 4, a Middle at 5 µs, never reaches the capture point.
		k.readResp(6*usec, 5, ib.RDMAReadResponseLast, 1024, 0) // 3 of 4: incomplete
		k.reRead(7*usec, 4, 2048)
		k.readResp(8*usec, 4, ib.RDMAReadResponseFirst, 1024, 0)
		k.readResp(9*usec, 5, ib.RDMAReadResponseLast, 1024, 0)
		k.write(10*usec, 6)
		k.ack(11*usec, 6)
		r := analyze(t, c.frames())
		req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
		assert.Equal(t, flow.Stats{Frames: 5, Bytes: req.Bytes, Messages: 2, MTU: 1024,
			Reads: 2, ReadsMatched: 1, ReadsIncomplete: 1,
			Duplicates: 1, Retransmitted: 1, RetransmittedTimeout: 1, GBNTimeout: 1}, req.Stats)
		assert.Equal(t, &flow.Latencies{
			Ack: lat(usec+usec/2, usec/2, usec), ReadFirst: lat(usec, usec), ReadLast: lat(4*usec, 2*usec),
			Completion: lat(usec+usec/2, 4*usec, 2*usec, usec),
		}, req.Latency)
		resp := find(t, r, "10.0.0.2", "10.0.0.1", k.req)
		assert.Equal(t, flow.Stats{Frames: 7, Bytes: resp.Bytes, Messages: 2, MTU: 1024, Answers: true}, resp.Stats)
	})
	t.Run("tail-lost", func(t *testing.T) {
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 1<<24 - 4} // the read's PSNs wrap
		prefix(k)
		// PSNs 4 and 5 never reach the capture point; the requester
		// times out and asks for them.
		k.reRead(20*usec, 4, 2048) // the first read: 2 of 4, incomplete
		k.readResp(21*usec, 4, ib.RDMAReadResponseFirst, 1024, 0)
		k.readResp(22*usec, 5, ib.RDMAReadResponseLast, 1024, 0)
		r := analyze(t, c.frames())
		req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
		assert.Equal(t, flow.Stats{Frames: 4, Bytes: req.Bytes, Messages: 1, MTU: 1024,
			Reads: 2, ReadsMatched: 1, ReadsIncomplete: 1,
			Duplicates: 1, Retransmitted: 1, RetransmittedTimeout: 1, GBNTimeout: 1}, req.Stats)
		assert.Equal(t, &flow.Latencies{
			Ack: lat(usec+usec/2, usec/2), ReadFirst: lat(usec, usec), ReadLast: lat(2 * usec),
			Completion: lat(usec+usec/2, 2*usec),
		}, req.Latency)
	})
	t.Run("sent-again-whole", func(t *testing.T) {
		// The same READ Request sent again (a timeout) is the same read:
		// it waits on, and the responses sent again match it.
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 77}
		prefix(k)
		k.readReq(20*usec, 2, 4096)
		k.readResp(21*usec, 2, ib.RDMAReadResponseFirst, 1024, 0)
		k.readResp(22*usec, 3, ib.RDMAReadResponseMiddle, 1024, 0)
		k.readResp(23*usec, 4, ib.RDMAReadResponseMiddle, 1024, 0)
		k.readResp(24*usec, 5, ib.RDMAReadResponseLast, 1024, 0)
		r := analyze(t, c.frames())
		req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
		assert.Equal(t, flow.Stats{Frames: 4, Bytes: req.Bytes, Messages: 1, MTU: 1024, Reads: 1, ReadsMatched: 1,
			Duplicates: 1, Retransmitted: 1, RetransmittedTimeout: 1, GBNTimeout: 1}, req.Stats)
		require.NotNil(t, req.Latency)
		assert.Equal(t, lat(22*usec), req.Latency.ReadLast)
	})
}

// TestWindowEdge: PSNs 0 to 300 but 43 and 44, then 44 (exactly Window
// behind the highest, never seen: out of order) and 43 (Window+1
// behind: too old to tell, a duplicate). The PSNs wrap on the way.
func TestWindowEdge(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 1<<24 - 100}
	at := time.Duration(0)
	for psn := uint32(0); psn <= 300; psn++ {
		if psn != 43 && psn != 44 {
			k.write(at, psn)
			at += 100
		}
	}
	require.Equal(t, uint32(flow.Window), uint32(300-44))
	k.write(at, 44)
	k.write(at+100, 43)
	r := analyze(t, c.frames())
	req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
	assert.Equal(t, flow.Stats{Frames: 301, Bytes: req.Bytes, Messages: 301, PSNGaps: 1, PSNMissing: 2, OutOfOrder: 1,
		Duplicates: 1, Retransmitted: 1, RetransmittedTimeout: 1, GBNTimeout: 1}, req.Stats)
}

// TestPercentileEdges: n writes, each acknowledged after a latency of
// the script; p99 must be the ceil(0.99 n)-th smallest of them, exactly
// up to 799 samples and within 1/16 beyond, never outside [min, max].
func TestPercentileEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	cases := map[string][]time.Duration{}
	// The issue's case: 99 samples at 57.072 µs, one at 56.924 µs.
	issue := []time.Duration{56924}
	for i := 0; i < 99; i++ {
		issue = append(issue, 57072)
	}
	cases["issue"] = issue
	for _, n := range []int{1, 99, 100, 101, 150, 799, 800, 801, 2000} {
		v := make([]time.Duration, n)
		for i := range v {
			v[i] = time.Duration(1000 + rng.IntN(200000))
		}
		cases[fmt.Sprint("random-", n)] = v
		d := make([]time.Duration, n)
		for i := range d {
			d[i] = time.Duration(i+1) * usec
		}
		rng.Shuffle(n, func(i, j int) { d[i], d[j] = d[j], d[i] })
		cases[fmt.Sprint("distinct-", n)] = d
	}
	for name, lats := range cases {
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 100}
		at := time.Duration(0)
		for i, l := range lats {
			k.write(at, uint32(i))
			k.ack(at+l, uint32(i))
			at += l + usec
		}
		r := analyze(t, c.frames())
		req := find(t, r, "10.0.0.1", "10.0.0.2", k.resp)
		require.NotNil(t, req.Latency, name)
		got := req.Latency.Ack
		sorted := slices.Clone(lats)
		slices.Sort(sorted)
		n := len(sorted)
		want := sorted[(99*n+99)/100-1] // ceil(0.99 n), n < 10^5
		assert.Equal(t, uint64(n), got.Count, name)
		assert.Equal(t, sorted[0], got.Min, name)
		assert.Equal(t, sorted[n-1], got.Max, name)
		if n < 800 {
			assert.Equal(t, want, got.P99, "%s: n %d", name, n)
		} else {
			assert.InDelta(t, float64(want), float64(got.P99), float64(want)/16, "%s: n %d", name, n)
		}
		assert.True(t, got.P99 >= got.Min && got.P99 <= got.Max, "%s: p99 %v outside [%v, %v]", name, got.P99, got.Min, got.Max)
	}
}

// TestFirstCNP: CNPs that come before the first ACK (the flows are not
// paired yet) still time the marks they answer: a single CE mark, 100 of
// them, and three before the first ACK.
func TestFirstCNP(t *testing.T) {
	t.Run("one", func(t *testing.T) {
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 10}
		k.cnpTo(2*usec, k.writeCE(0, 0), k.req)
		k.ack(3*usec, 0)
		req := find(t, analyze(t, c.frames()), "10.0.0.1", "10.0.0.2", k.resp)
		require.NotNil(t, req.Latency)
		assert.Equal(t, lat(2*usec), req.Latency.CEToCNP)
		assert.Equal(t, uint64(1), req.CNPsToSender)
	})
	t.Run("hundred", func(t *testing.T) {
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 10}
		var want []time.Duration
		for i := 0; i < 100; i++ {
			at := time.Duration(i) * 10 * usec
			k.cnpTo(at+2*usec, k.writeCE(at, uint32(i)), k.req)
			k.ack(at+5*usec, uint32(i))
			want = append(want, 2*usec)
		}
		req := find(t, analyze(t, c.frames()), "10.0.0.1", "10.0.0.2", k.resp)
		require.NotNil(t, req.Latency)
		assert.Equal(t, lat(want...), req.Latency.CEToCNP)
	})
	t.Run("three-before-the-ack", func(t *testing.T) {
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 10}
		for i := 0; i < 3; i++ {
			at := time.Duration(i) * 5 * usec
			k.cnpTo(at+usec, k.writeCE(at, uint32(i)), k.req)
		}
		k.ack(12*usec, 2)
		req := find(t, analyze(t, c.frames()), "10.0.0.1", "10.0.0.2", k.resp)
		require.NotNil(t, req.Latency)
		assert.Equal(t, lat(usec, usec, usec), req.Latency.CEToCNP)
	})
}

// TestManyMarksWaiting: a notification point that answers every CE mark
// 10 µs after it, marks every 320 ns (31 waiting at a time) or every 200
// ns (50, more than the analyser keeps the times of). Every delay given
// is the true 10 µs: a CNP never takes the time of a mark it does not
// answer. Assumed to pace at 4 µs, the receiver shows with its second
// CNP that it does not, and the marks the pacing would have passed over
// are answered in order (they are kept, up to 32); when some were not
// kept, no CNP is timed after that.
func TestManyMarksWaiting(t *testing.T) {
	build := func(every time.Duration) []frame {
		c := &capture{t: t}
		k := &conn{c: c, req: 0x11, resp: 0x22, p0: 10}
		for i := 0; i < 100; i++ {
			at := time.Duration(i) * every
			k.cnpTo(at+10*usec, k.writeCE(at, uint32(i)), k.req)
			k.ack(at+usec, uint32(i))
		}
		return c.frames()
	}
	for _, tc := range []struct {
		name     string
		every    time.Duration
		interval time.Duration
		min, max uint64 // samples
		violates uint64
	}{
		{"31 waiting, every mark answered", 320 * time.Nanosecond, -1, 100, 100, 0},
		{"31 waiting, pacing assumed", 320 * time.Nanosecond, 0, 100, 100, 99}, // 0: cnp.DefaultInterval
		{"50 waiting, every mark answered", 200 * time.Nanosecond, -1, 32, 99, 0},
		{"50 waiting, pacing assumed", 200 * time.Nanosecond, 0, 1, 1, 99},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := analyzeCfg(t, flow.Config{CNPInterval: tc.interval}, build(tc.every))
			req := find(t, rep, "10.0.0.1", "10.0.0.2", 0x22)
			require.NotNil(t, req.Latency)
			l := req.Latency.CEToCNP
			require.NotNil(t, l)
			assert.Equal(t, 10*usec, l.Min, "no CNP is timed from a mark it does not answer")
			assert.Equal(t, 10*usec, l.Max)
			assert.GreaterOrEqual(t, l.Count, tc.min)
			assert.LessOrEqual(t, l.Count, tc.max)
			assert.Equal(t, uint64(100), req.CNPsToSender)
			resp := find(t, rep, "10.0.0.2", "10.0.0.1", 0x11)
			assert.Equal(t, tc.violates, resp.CNPPacingViolations)
		})
	}
}

// TestAllocsEdgePaths: these paths allocate nothing in steady state: a late packet put in PSN order among those waiting for
// their ACK, a READ whose tail is asked for again, a CNP that comes
// before its flows are paired, and an unpaired request flow moving from
// one PSN block of the pairing index to the next.
func TestAllocsEdgePaths(t *testing.T) {
	an := flow.New(flow.Config{CNPInterval: -1}) // every mark answered, whatever the (zero) times
	var recs []dump.Record
	add := func(b []byte) {
		var r dump.Record
		r.Decode(len(recs)+1, gopacket.CaptureInfo{Length: len(b)}, capfile.LinkTypeEthernet, b)
		require.Equal(t, dump.KindRoCE, r.Kind)
		recs = append(recs, r)
	}
	A, B := hostA, hostB
	w := func(p *ib.Packet) { read(64)(p); p.Payload = make([]byte, 64) }
	add(pkt(t, A, B, opWriteOnly, qpResp, 0, ect0, w))                                  // +0
	add(pkt(t, A, B, opWriteOnly, qpResp, 2, ect0, w))                                  // +2: a gap
	add(pkt(t, A, B, opWriteOnly, qpResp, 1, ceMarked, w))                              // +1: late
	add(pkt(t, B, A, opAck, qpReq, 2, 0, aeth(0x1f, 0)))                                // covers all three
	add(pkt(t, A, B, opReadReq, qpResp, 3, ect0, read(2048)))                           // PSNs +3, +4
	add(pkt(t, B, A, opReadFirst, qpReq, 3, 0, aeth(0x1f, 1024)))                       // then +4 lost
	add(pkt(t, A, B, opReadReq, qpResp, 4, ect0, func(p *ib.Packet) { read(1024)(p) })) // its tail
	add(pkt(t, B, A, opReadOnly, qpReq, 4, 0, aeth(0x1f, 1024)))                        // matched
	add(pkt(t, A, B, opWriteOnly, 0x77, 0, ect0, w))                                    // a flow never answered
	ce := pkt(t, A, B, opWriteOnly, 0x78, 0, ceMarked, w)                               // and one whose CNP
	add(ce)                                                                             // comes before
	cn, err := cnp.Reply(nil, ce, 0x79, nil)                                            // its first ACK
	require.NoError(t, err)
	add(cn)
	add(pkt(t, B, A, opAck, 0x79, 0, 0, aeth(0x1f, 0)))
	const stride = 5
	base := uint32(0)
	run := func() {
		for i := range recs {
			r := &recs[i]
			switch r.RoCE.Packet.BTH.DestQP {
			case qpResp, qpReq:
				r.RoCE.Packet.BTH.PSN = (r.RoCE.Packet.BTH.PSN + stride) & (1<<24 - 1)
			case 0x77:
				r.RoCE.Packet.BTH.PSN = (base * 997) & (1<<24 - 1) // a new block every few runs
			}
			an.AddRecord(r)
		}
		base++
	}
	run()
	run() // the MTU is known from here on
	before := *find(t, an.Report(), "10.0.0.1", "10.0.0.2", qpResp)
	assert.Zero(t, testing.AllocsPerRun(1000, run), "allocations per run")
	r := an.Report()
	req := find(t, r, "10.0.0.1", "10.0.0.2", qpResp)
	const fed = 1001 // AllocsPerRun's runs and its warm-up
	assert.EqualValues(t, 2*fed, req.Reads-before.Reads, "reads: each READ and its re-request")
	assert.EqualValues(t, fed, req.ReadsMatched-before.ReadsMatched)
	assert.EqualValues(t, fed, req.ReadsIncomplete-before.ReadsIncomplete)
	assert.EqualValues(t, fed, req.OutOfOrder-before.OutOfOrder)
	assert.Zero(t, req.ReadResponsesUnmatched)
	require.NotNil(t, req.Latency)
	assert.EqualValues(t, 3*fed, req.Latency.Ack.Count-before.Latency.Ack.Count)
	cnpd := find(t, r, "10.0.0.1", "10.0.0.2", 0x78)
	require.NotNil(t, cnpd.Latency)
	assert.EqualValues(t, fed+2, cnpd.Latency.CEToCNP.Count, "every CE mark answered")
	assert.Empty(t, find(t, r, "10.0.0.1", "10.0.0.2", 0x77).Peer)
}

// TestResponsesOnly: responses whose requests the capture never saw
// (no request flow at all) pair with nothing and count as unmatched.
func TestResponsesOnly(t *testing.T) {
	c := &capture{t: t}
	k := &conn{c: c, req: 0x11, resp: 0x22, p0: 5}
	k.ack(0, 0)
	k.readResp(usec, 1, ib.RDMAReadResponseOnly, 100, 0)
	k.atomicAck(2*usec, 2)
	r := analyze(t, c.frames())
	require.Len(t, r.Flows, 1)
	resp := find(t, r, "10.0.0.2", "10.0.0.1", k.req)
	assert.Empty(t, resp.Peer)
	assert.Equal(t, [2]uint64{1, 1}, [2]uint64{resp.ReadResponsesUnmatched, resp.AtomicAcksUnmatched})
}
