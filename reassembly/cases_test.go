package reassembly_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/reassembly"
)

// responses returns the RDMA READ responses of the reads a sender made:
// for a READ at PSN p of n packets' worth, READ Response First at p,
// Middles and Last at p+n-1 (or an Only), each one MTU but the last;
// and the messages they make.
func responses(s *sender) ([]ib.Packet, []sent) {
	var pkts []ib.Packet
	var msgs []sent
	for _, r := range s.pkts {
		if r.BTH.OpCode.Operation() != ib.RDMAReadRequest {
			continue
		}
		l := int(r.RETH.DMALen)
		m := sent{firstPSN: r.BTH.PSN, payload: make([]byte, l)}
		for i := range m.payload {
			m.payload[i] = byte(s.rng.Uint32())
		}
		n := max(1, (l+s.mtu-1)/s.mtu)
		for i := range n {
			op := ib.RDMAReadResponseMiddle
			switch {
			case n == 1:
				op = ib.RDMAReadResponseOnly
			case i == 0:
				op = ib.RDMAReadResponseFirst
			case i == n-1:
				op = ib.RDMAReadResponseLast
			}
			var p ib.Packet
			p.BTH.OpCode = ib.MakeOpcode(ib.RC, op)
			p.BTH.PSN = (r.BTH.PSN + uint32(i)) & (1<<24 - 1)
			p.Payload = m.payload[i*s.mtu : min(l, (i+1)*s.mtu)]
			m.packets = append(m.packets, p)
			m.op = op
			pkts = append(pkts, p)
		}
		msgs = append(msgs, m)
	}
	return pkts, msgs
}

// TestReadResponses: the READ responses of a flow, duplicated and
// reordered within three places inside a read's responses, come out once
// each as their reads' data, in PSN order, although their PSNs jump from
// read to read.
func TestReadResponses(t *testing.T) {
	for seed := range uint64(40) {
		s := traffic(200+seed, 300)
		_, msgs := responses(s)
		rng := rand.New(rand.NewPCG(seed, 3))
		var capture []ib.Packet
		for k, m := range msgs {
			var part []ib.Packet
			for _, p := range m.packets {
				part = append(part, p)
				if rng.IntN(15) == 0 {
					part = append(part, p)
				}
			}
			for i := range part {
				if j := i + 1 + rng.IntN(3); rng.IntN(5) == 0 && j < len(part) && (k > 0 || i > 0) {
					part[i], part[j] = part[j], part[i]
				}
			}
			capture = append(capture, part...)
		}
		g, st := assemble(reassembly.Config{}, capture)
		w := want(msgs, nil, capture)
		for i := range w {
			w[i].reth = ib.RETH{} // a response carries no RETH: its read's is on the peer's flow
		}
		same(t, "responses", g, w)
		if st.Skipped+st.Abandoned+st.Orphans != 0 {
			t.Errorf("seed %d: stats %+v, want nothing given up", seed, st)
		}
	}
}

// TestPartialReRead: a READ response lost before the capture point is
// asked for again from its PSN (the requester's re-read of the tail),
// and the responder answers with a message from there: the first
// message is abandoned, the tail delivered, the next read whole.
func TestPartialReRead(t *testing.T) {
	s := &sender{rng: rand.New(rand.NewPCG(1, 1)), mtu: 1024, psn: 100}
	s.read(4000) // PSNs 100-103
	s.read(1000) // 104
	pkts, msgs := responses(s)
	tail := &sender{rng: s.rng, mtu: 1024, psn: 102}
	tail.read(2000) // the re-read of PSNs 102-103
	again, tailMsgs := responses(tail)
	capture := append(append(append([]ib.Packet{}, pkts[:2]...), again...), pkts[4:]...) // 102 and 103 lost, then the tail, then the next read
	g, st := assemble(reassembly.Config{}, capture)
	if len(g) != 2 || g[0].firstPSN != 102 || !bytes.Equal(g[0].payload, tailMsgs[0].payload) || g[1].firstPSN != 104 || !bytes.Equal(g[1].payload, msgs[1].payload) {
		t.Errorf("got %d messages %+v", len(g), g)
	}
	if st.Abandoned != 1 || st.Messages != 2 || st.Orphans != 0 {
		t.Errorf("stats %+v, want 1 abandoned, 2 messages", st)
	}
}

// sendOf returns the packets of one RC SEND of n bytes at PSN psn.
func sendOf(psn uint32, n int) ([]ib.Packet, []byte) {
	s := &sender{rng: rand.New(rand.NewPCG(uint64(n), 2)), mtu: 1024, psn: psn}
	s.message(false, false, n)
	return s.pkts, s.msgs[0].payload
}

// TestCut: a message one of whose packets the capture cut is delivered
// marked Cut, its payload ending where the cut packet's captured bytes
// end; Len counts every captured byte.
func TestCut(t *testing.T) {
	pkts, payload := sendOf(7, 3000)
	pkts[1].BTH.Truncated = true
	pkts[1].Payload = pkts[1].Payload[:10]
	var m reassembly.Message[int]
	a := reassembly.New(reassembly.Config{}, func(x *reassembly.Message[int]) { m = *x; m.Payload = bytes.Clone(x.Payload) })
	for i := range pkts {
		a.Add(1, reassembly.Mark{Frame: i + 1}, &pkts[i])
	}
	if !m.Cut || m.Clipped || !bytes.Equal(m.Payload, payload[:1034]) || m.Len != 1034+(3000-2048) || m.Packets != 3 || m.First.Frame != 1 || m.Last.Frame != 3 {
		t.Errorf("got %+v (%d bytes), want cut after 1034 bytes, Len %d", m, len(m.Payload), 1034+952)
	}
}

// TestClipped: a message longer than MaxMessage keeps its first
// MaxMessage bytes; Len is its whole length.
func TestClipped(t *testing.T) {
	for _, n := range []int{3000, 900} { // several packets; an Only
		pkts, payload := sendOf(7, n)
		var m reassembly.Message[int]
		a := reassembly.New(reassembly.Config{MaxMessage: 100}, func(x *reassembly.Message[int]) { m = *x; m.Payload = bytes.Clone(x.Payload) })
		for i := range pkts {
			a.Add(1, reassembly.Mark{}, &pkts[i])
		}
		if !m.Clipped || m.Cut || !bytes.Equal(m.Payload, payload[:100]) || m.Len != n {
			t.Errorf("%d bytes: got %+v", n, m)
		}
	}
}

// TestMaxBuffered: behind a gap that will not fill, waiting packets hold
// at most MaxBuffered bytes: past it the gap is given up and what waited
// is delivered then, not at Flush.
func TestMaxBuffered(t *testing.T) {
	var pkts []ib.Packet
	for i := range 20 {
		p, _ := sendOf(uint32(10+3*i), 3000) // 3 packets each
		pkts = append(pkts, p...)
	}
	delivered := 0
	a := reassembly.New(reassembly.Config{MaxBuffered: 4096}, func(*reassembly.Message[int]) { delivered++ })
	a.Add(1, reassembly.Mark{}, &pkts[0])
	for i := 4; i < len(pkts); i++ { // PSNs 11-13 lost for good
		a.Add(1, reassembly.Mark{}, &pkts[i])
	}
	st := a.Stats()
	if delivered != 18 || st.Skipped != 1 || st.Abandoned != 1 || st.Orphans != 2 { // the first SEND abandoned, the second's Middle and Last orphans
		t.Errorf("before Flush: %d delivered, stats %+v; want 18 delivered after one gap given up", delivered, st)
	}
}

// TestUD: UD SEND Only packets are messages as they come, whatever
// their PSNs.
func TestUD(t *testing.T) {
	var got []uint32
	a := reassembly.New(reassembly.Config{}, func(m *reassembly.Message[int]) { got = append(got, m.FirstPSN) })
	for _, psn := range []uint32{5, 3, 3, 9} {
		var p ib.Packet
		p.BTH.OpCode, p.BTH.PSN, p.Payload = ib.MakeOpcode(ib.UD, ib.SendOnly), psn, []byte{1}
		a.Add(1, reassembly.Mark{}, &p)
	}
	if len(got) != 4 || got[1] != 3 || got[2] != 3 {
		t.Errorf("got %v, want every packet", got)
	}
}

// TestZeroAllocs: once its buffers have grown, the Assembler allocates
// nothing per packet, messages waiting out of order included.
func TestZeroAllocs(t *testing.T) {
	var round []ib.Packet
	psn := uint32(0)
	for range 10 {
		p, _ := sendOf(psn, 2500)
		p[0], p[1] = p[1], p[0] // the Middle before the First
		round = append(round, p...)
		psn += 3
	}
	n := 0
	a := reassembly.New(reassembly.Config{}, func(*reassembly.Message[int]) { n++ })
	var only ib.Packet // the stream begins in order, at PSN 0
	only.BTH.OpCode, only.BTH.PSN = ib.MakeOpcode(ib.RC, ib.SendOnly), 1<<24-1
	a.Add(1, reassembly.Mark{}, &only)
	add := func() {
		for i := range round {
			a.Add(1, reassembly.Mark{Frame: i}, &round[i])
			round[i].BTH.PSN = (round[i].BTH.PSN + 30) & (1<<24 - 1)
		}
	}
	for range 64 { // until every slot of the window has held a packet
		add()
	}
	if allocs := testing.AllocsPerRun(100, add); allocs != 0 {
		t.Errorf("%v allocations per round", allocs)
	}
	if st := a.Stats(); n != 1+1650 || st.Waited != 1650 || st.Orphans+st.Duplicates != 0 {
		t.Errorf("%d messages, stats %+v; want 1651 reassembled", n, st)
	}
}
