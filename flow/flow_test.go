package flow_test

import (
	"bytes"
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

var (
	hostA = [4]byte{10, 0, 0, 1}
	hostB = [4]byte{10, 0, 0, 2}
	macA  = [6]byte{2, 0, 0, 0, 0, 0xa}
	macB  = [6]byte{2, 0, 0, 0, 0, 0xb}
)

const (
	qpReq  = 0x11 // requester QP on A
	qpResp = 0x22 // responder QP on B
)

func gid(ip [4]byte) [16]byte {
	var g [16]byte
	g[10], g[11] = 0xff, 0xff
	copy(g[12:], ip[:])
	return g
}

// frame is one captured frame of a crafted capture.
type frame struct {
	t    time.Duration // since the start
	data []byte
}

// pkt builds a RoCEv2/IPv4 frame from src to dst with the given BTH and
// headers set by fill.
func pkt(t testing.TB, src, dst [4]byte, op ib.Opcode, qp, psn uint32, ecn uint8, fill func(p *ib.Packet)) []byte {
	t.Helper()
	var f roce.Frame
	f.Encap = ib.RoCEv2IPv4
	f.Src, f.Dst = macA, macB
	if src == hostB {
		f.Src, f.Dst = macB, macA
	}
	f.GRH.SGID, f.GRH.DGID, f.GRH.HopLmt = gid(src), gid(dst), 64
	f.GRH.TClass = 26<<2 | ecn
	f.Packet.BTH = ib.BTH{OpCode: op, PKey: 0xffff, DestQP: qp, PSN: psn}
	if fill != nil {
		fill(&f.Packet)
	}
	b, err := f.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func payload(n int) func(p *ib.Packet) {
	return func(p *ib.Packet) { p.Payload = make([]byte, n) }
}

func read(n uint32) func(p *ib.Packet) {
	return func(p *ib.Packet) { p.RETH = ib.RETH{VA: 0x1000, RKey: 7, DMALen: n} }
}

func aeth(syn uint8, n int) func(p *ib.Packet) {
	return func(p *ib.Packet) { p.AETH.Syndrome = syn; p.Payload = make([]byte, n) }
}

// Opcodes, from the table: RC unless said.
var (
	opSendFirst  = ib.MakeOpcode(ib.RC, ib.SendFirst)
	opSendLast   = ib.MakeOpcode(ib.RC, ib.SendLast)
	opWriteOnly  = ib.MakeOpcode(ib.RC, ib.RDMAWriteOnly)
	opReadReq    = ib.MakeOpcode(ib.RC, ib.RDMAReadRequest)
	opReadFirst  = ib.MakeOpcode(ib.RC, ib.RDMAReadResponseFirst)
	opReadMiddle = ib.MakeOpcode(ib.RC, ib.RDMAReadResponseMiddle)
	opReadLast   = ib.MakeOpcode(ib.RC, ib.RDMAReadResponseLast)
	opReadOnly   = ib.MakeOpcode(ib.RC, ib.RDMAReadResponseOnly)
	opAck        = ib.MakeOpcode(ib.RC, ib.Acknowledge)
	opAtomicAck  = ib.MakeOpcode(ib.RC, ib.AtomicAcknowledge)
	opCmpSwap    = ib.MakeOpcode(ib.RC, ib.CmpSwap)
	opFetchAdd   = ib.MakeOpcode(ib.RC, ib.FetchAdd)
	opUDSendOnly = ib.MakeOpcode(ib.UD, ib.SendOnly)
)

const (
	synNak        uint8 = 3 << 5
	synRNR        uint8 = 1 << 5
	ceMarked      uint8 = 3
	ect0          uint8 = 2
	usec                = time.Microsecond
	quantum100Gps       = 5120 // picoseconds per quantum at 100 Gb/s
)

// crafted is a capture with known PSN gaps, duplicates, out-of-order
// packets, NAKs of every code, RNR NAKs, matched and unmatched read
// responses and atomic acknowledgements, CE marks, CNPs and pauses.
func crafted(t testing.TB) []frame {
	A, B := hostA, hostB
	var fs []frame
	at := time.Duration(0)
	add := func(b []byte) { fs = append(fs, frame{at, b}); at += usec }
	w := func(psn uint32, ecn uint8) {
		add(pkt(t, A, B, opWriteOnly, qpResp, psn, ecn, func(p *ib.Packet) { read(64)(p); p.Payload = make([]byte, 64) }))
	}
	w(100, ect0)
	w(101, ceMarked)
	add(pkt(t, B, A, opAck, qpReq, 101, 0, aeth(0x1f, 0))) // pairs the flows
	w(104, ect0)                                           // gap: 102 and 103 missing
	w(102, ceMarked)                                       // out of order
	w(102, ect0)                                           // duplicate
	add(pkt(t, A, B, opSendFirst, qpResp, 105, ceMarked, payload(1024)))
	add(pkt(t, A, B, opSendLast, qpResp, 106, ect0, payload(10)))
	for code := uint8(0); code <= 4; code++ {
		add(pkt(t, B, A, opAck, qpReq, 105, 0, aeth(synNak|code, 0)))
	}
	add(pkt(t, B, A, opAck, qpReq, 106, 0, aeth(synRNR|14, 0)))
	add(pkt(t, B, A, opAck, qpReq, 106, 0, aeth(synRNR|14, 0)))
	// A read of 3000 bytes at MTU 1024: three responses, PSNs 107-109.
	add(pkt(t, A, B, opReadReq, qpResp, 107, ect0, read(3000)))
	add(pkt(t, B, A, opReadFirst, qpReq, 107, 0, aeth(0x1f, 1024)))
	add(pkt(t, B, A, opReadMiddle, qpReq, 108, 0, payload(1024)))
	add(pkt(t, B, A, opReadLast, qpReq, 109, 0, aeth(0x1f, 952)))
	w(110, ect0) // in order after the read
	// The ICRC of the last frame broken.
	fs[len(fs)-1].data[len(fs[len(fs)-1].data)-1] ^= 0xff
	add(pkt(t, A, B, opReadReq, qpResp, 111, ect0, read(100)))
	add(pkt(t, B, A, opReadOnly, qpReq, 111, 0, aeth(0x1f, 100)))
	add(pkt(t, A, B, opReadReq, qpResp, 112, ect0, read(5000))) // never answered; 5 PSNs
	add(pkt(t, A, B, opCmpSwap, qpResp, 117, ect0, nil))
	add(pkt(t, B, A, opAtomicAck, qpReq, 117, 0, aeth(0x1f, 0)))
	add(pkt(t, A, B, opFetchAdd, qpResp, 118, ect0, nil)) // never answered
	add(pkt(t, B, A, opAtomicAck, qpReq, 500, 0, aeth(0x1f, 0)))
	add(pkt(t, B, A, opReadOnly, qpReq, 600, 0, aeth(0x1f, 8)))
	// Four CNPs from B to A for the requester QP, built by cnp.Reply
	// from a CE-marked frame of the flow.
	ce := pkt(t, A, B, opWriteOnly, qpResp, 101, ceMarked, func(p *ib.Packet) { read(64)(p); p.Payload = make([]byte, 64) })
	for i := 0; i < 4; i++ {
		c, err := cnp.Reply(nil, ce, qpReq, nil)
		if err != nil {
			t.Fatal(err)
		}
		add(c)
	}
	// A UD flow from QP 0x33 on A to QP 0x44 on B, and two CNPs back.
	for i := uint32(0); i < 3; i++ {
		add(pkt(t, A, B, opUDSendOnly, 0x44, 7+i, ceMarked, func(p *ib.Packet) {
			p.DETH = ib.DETH{QKey: 0x11111111, SrcQP: 0x33}
			p.Payload = make([]byte, 256)
		}))
	}
	ud := fs[len(fs)-1].data
	for i := 0; i < 2; i++ {
		c, err := cnp.Reply(nil, ud, 0x33, nil)
		if err != nil {
			t.Fatal(err)
		}
		add(c)
	}
	// Pauses from B: priority 3 paused at 0, re-paused at 100 µs (the
	// timer restarts), resumed at 200 µs, paused 1000 quanta at 1 ms;
	// priority 7 paused 4660 quanta at 0; an 802.3x PAUSE at 2 ms.
	base := at
	at = base
	add(pfc.AppendPFC(nil, macB, 1<<3|1<<7, [8]uint16{3: 65535, 7: 4660}))
	at = base + 100*usec
	add(pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{3: 65535}))
	at = base + 200*usec
	add(pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{}))
	at = base + 1000*usec
	add(pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{3: 1000}))
	at = base + 2000*usec
	add(pfc.AppendPause(nil, macB, 100))
	return fs
}

// analyze feeds frames through dump.Record and flow.Analyzer.AddRecord.
func analyze(t testing.TB, fs []frame) *flow.Report {
	an := flow.New(flow.Config{})
	var rec dump.Record
	start := time.Unix(1700000000, 0)
	for i, f := range fs {
		ci := gopacket.CaptureInfo{Timestamp: start.Add(f.t), Length: len(f.data), CaptureLength: len(f.data)}
		rec.Decode(i+1, ci, capfile.LinkTypeEthernet, f.data)
		if rec.Kind != dump.KindRoCE && rec.Kind != dump.KindMACControl {
			t.Fatalf("frame %d: %v %v", i+1, rec.Kind, rec.Err)
		}
		an.AddRecord(&rec)
	}
	return an.Report()
}

func find(t testing.TB, r *flow.Report, src, dst string, qp uint32) *flow.FlowReport {
	t.Helper()
	for i := range r.Flows {
		if f := &r.Flows[i]; f.Src == src && f.Dst == dst && f.QP == qp {
			return f
		}
	}
	t.Fatalf("no flow %s > %s qp %#x in %+v", src, dst, qp, r.Flows)
	return nil
}

func TestCrafted(t *testing.T) {
	fs := crafted(t)
	r := analyze(t, fs)
	if len(r.Flows) != 4 || r.OtherFlows { // the CNPs to qpReq share the response flow's key
		t.Fatalf("%d flows (other %v), want 4", len(r.Flows), r.OtherFlows)
	}
	req := find(t, r, "10.0.0.1", "10.0.0.2", qpResp)
	resp := find(t, r, "10.0.0.2", "10.0.0.1", qpReq)
	ud := find(t, r, "10.0.0.1", "10.0.0.2", 0x44)
	udCNP := find(t, r, "10.0.0.2", "10.0.0.1", 0x33)

	var reqBytes uint64
	for _, f := range fs[:] {
		var fr roce.Frame
		if fr.Decode(f.data) == nil && fr.Packet.BTH.DestQP == qpResp && fr.GRH.SGID == gid(hostA) {
			reqBytes += uint64(len(f.data))
		}
	}
	s := req.Stats
	want := flow.Stats{
		Frames: 13, Bytes: reqBytes, Messages: 7, MTU: 1024,
		PSNGaps: 1, PSNMissing: 2, Duplicates: 1, OutOfOrder: 1,
		Reads: 3, ReadsMatched: 2, ReadsUnanswered: 1, ReadResponsesUnmatched: 1,
		Atomics: 2, AtomicsMatched: 1, AtomicsUnanswered: 1, AtomicAcksUnmatched: 1,
		CE: 3, ICRCBad: 1, CNPsToSender: 4,
		// 102 sent again with no NAK before it: a timeout.
		Retransmitted: 1, RetransmittedTimeout: 1, GBNTimeout: 1,
	}
	if s != want {
		t.Errorf("request flow:\n got %+v\nwant %+v", s, want)
	}
	if req.SrcQP == nil || *req.SrcQP != qpReq || req.Peer != "10.0.0.2 > 10.0.0.1 qp 0x000011" {
		t.Errorf("request flow: requester QP %v, peer %q", req.SrcQP, req.Peer)
	}
	// The response flow: ACKs, NAKs (codes 0-4), RNR NAKs, read
	// responses, atomic acknowledgements, and the CNPs (same key).
	rs := resp.Stats
	// The four CNPs come 1 µs apart: three closer than 4 µs to the one
	// before.
	if rs.Frames != 1+5+2+3+1+1+1+1+4 || rs.RNRNAKs != 2 || rs.NAKTotal != 5 || rs.CNPs != 4 || rs.BECN != 4 || rs.Messages != 3 ||
		!rs.Answers || rs.CNPPacingViolations != 3 {
		t.Errorf("response flow: %+v", rs)
	}
	for c := 0; c <= 4; c++ {
		if rs.NAKs[c] != 1 {
			t.Errorf("NAK code %d: %d, want 1", c, rs.NAKs[c])
		}
	}
	if len(resp.NAKs) != 5 || resp.NAKs[2].Name != "Remote Access Error" {
		t.Errorf("NAK list %+v", resp.NAKs)
	}
	if ud.Stats.Frames != 3 || ud.Stats.Messages != 3 || ud.Stats.CE != 3 || ud.Stats.CNPsToSender != 2 || ud.Transport != "UD" {
		t.Errorf("UD flow: %+v", ud)
	}
	if udCNP.Stats.CNPs != 2 || udCNP.Transport != "CNP" {
		t.Errorf("UD CNP flow: %+v", udCNP)
	}
	// Pauses, at 100 Gb/s (5.12 ns a quantum).
	if len(r.PFC) != 3 {
		t.Fatalf("PFC %+v", r.PFC)
	}
	p3, p7, pause := r.PFC[0], r.PFC[1], r.PFC[2]
	ns := func(ps int64) time.Duration { return time.Duration(ps / 1000) }
	if p3.Priority != 3 || p3.Frames != 4 || p3.XOFF != 3 || p3.XON != 1 || p3.Quanta != 65535*2+1000 ||
		p3.QuantaTime != ns((65535*2+1000)*quantum100Gps) || p3.Paused != 200*usec+ns(1000*quantum100Gps) {
		t.Errorf("priority 3: %+v", p3)
	}
	if p7.Priority != 7 || p7.Frames != 1 || p7.XOFF != 1 || p7.Quanta != 4660 || p7.Paused != ns(4660*quantum100Gps) {
		t.Errorf("priority 7: %+v", p7)
	}
	if pause.Priority != 8 || pause.Frames != 1 || pause.Quanta != 100 || pause.Paused != ns(100*quantum100Gps) || pause.Source != "02:00:00:00:00:0b" {
		t.Errorf("PAUSE: %+v", pause)
	}
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", text.Bytes())
}

// TestPSNWrap checks that PSNs wrap at 2^24 without a gap.
func TestPSNWrap(t *testing.T) {
	var fs []frame
	for _, psn := range []uint32{1<<24 - 2, 1<<24 - 1, 0, 1, 3} {
		fs = append(fs, frame{0, pkt(t, hostA, hostB, opWriteOnly, qpResp, psn, 0, read(0))})
	}
	s := analyze(t, fs).Flows[0].Stats
	if s.PSNGaps != 1 || s.PSNMissing != 1 || s.Duplicates != 0 || s.OutOfOrder != 0 {
		t.Errorf("%+v", s)
	}
}

// TestMaxFlows checks that flows beyond the cap go to the other bucket.
func TestMaxFlows(t *testing.T) {
	an := flow.New(flow.Config{MaxFlows: 10})
	var rec dump.Record
	for qp := uint32(0); qp < 100; qp++ {
		b := pkt(t, hostA, hostB, opWriteOnly, qp, 1, 0, read(0))
		rec.Decode(int(qp)+1, gopacket.CaptureInfo{Length: len(b)}, capfile.LinkTypeEthernet, b)
		an.AddRecord(&rec)
	}
	r := an.Report()
	if len(r.Flows) != 10 || !r.OtherFlows || r.Other.Frames != 90 {
		t.Errorf("%d flows, other %+v", len(r.Flows), r.Other)
	}
}

// TestAllocs checks that feeding a frame allocates nothing in steady
// state, with or without an Events hook, and that the frames fed were
// counted.
func TestAllocs(t *testing.T) {
	testAllocs(t, flow.Config{})
	var events [8]int
	testAllocs(t, flow.Config{Events: func(e *flow.Event) { events[e.Kind]++ }})
	// testAllocs feeds its CE-marked write once, then 1001 times (1000
	// runs and AllocsPerRun's warm-up), then 1001 times again with a
	// resend and a CNP.
	assert.Equal(t, 1+1001+1001, events[flow.EventCE], "CE events: one per CE-marked write")
	assert.Equal(t, 1001, events[flow.EventCNP], "CNP events: one per CNP")
	assert.Equal(t, 1001, events[flow.EventRetransmit], "retransmission events: one per resend")
}

func testAllocs(t *testing.T, cfg flow.Config) {
	an := flow.New(cfg)
	var rec, rec2, rec3 dump.Record
	w := pkt(t, hostA, hostB, opWriteOnly, qpResp, 1, ceMarked, read(64))
	ack := pkt(t, hostB, hostA, opAck, qpReq, 1, 0, aeth(0x1f, 0))
	p := pfc.AppendPFC(nil, macB, 1<<3, [8]uint16{3: 100})
	rec.Decode(1, gopacket.CaptureInfo{Length: len(w)}, capfile.LinkTypeEthernet, w)
	rec2.Decode(2, gopacket.CaptureInfo{Length: len(ack)}, capfile.LinkTypeEthernet, ack)
	rec3.Decode(3, gopacket.CaptureInfo{Length: len(p)}, capfile.LinkTypeEthernet, p)
	require.Equal(t, dump.KindRoCE, rec.Kind)
	require.Equal(t, dump.KindRoCE, rec2.Kind)
	require.Equal(t, dump.KindMACControl, rec3.Kind)
	an.AddRecord(&rec)
	an.AddRecord(&rec2)
	an.AddRecord(&rec3)
	psn := uint32(1)
	const runs = 1000
	n := testing.AllocsPerRun(runs, func() {
		psn++
		rec.RoCE.Packet.BTH.PSN = psn
		an.AddRecord(&rec)
		an.AddRecord(&rec2)
		an.AddRecord(&rec3)
	})
	assert.Zero(t, n, "allocations per frame")
	// AllocsPerRun calls the function once more than runs, to warm up.
	const fed = 1 + runs + 1
	r := an.Report()
	require.Len(t, r.Flows, 2)
	require.Len(t, r.PFC, 1)
	assert.EqualValues(t, fed, r.Flows[0].Frames, "WRITE frames")
	assert.EqualValues(t, fed, r.Flows[0].CE, "CE marks")
	assert.EqualValues(t, fed, r.Flows[1].Frames, "ACK frames")
	assert.EqualValues(t, fed, r.PFC[0].Frames, "PFC frames")
	// The other paths: a resend, an ACK covering it, a CNP answering a
	// CE mark (latency samples once their histograms exist).
	var recs [3]dump.Record
	cn, err := cnp.Reply(nil, w, qpReq, nil)
	require.NoError(t, err)
	for i, b := range [][]byte{w, ack, cn} {
		recs[i].Decode(i+1, gopacket.CaptureInfo{Length: len(b)}, capfile.LinkTypeEthernet, b)
	}
	recs[1].RoCE.Packet.BTH.PSN = psn
	n = testing.AllocsPerRun(runs, func() {
		for i := range recs {
			an.AddRecord(&recs[i])
		}
	})
	assert.Zero(t, n, "allocations per resend, ACK and CNP")
}
