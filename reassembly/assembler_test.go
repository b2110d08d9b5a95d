package reassembly_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/reassembly"
)

// sent is a message as the sender put it on the wire: the truth the
// reassembled messages are held against.
type sent struct {
	op       ib.Operation // of its last packet
	firstPSN uint32
	packets  []ib.Packet
	payload  []byte
	imm      uint32
	reth     ib.RETH
}

// sender builds the requests of one RC QP: messages cut into packets of
// one path MTU, PSNs from a start near the 24-bit wrap, RDMA READ
// Requests and atomics among them using their PSNs.
type sender struct {
	rng  *rand.Rand
	mtu  int
	psn  uint32
	msgs []sent      // the messages, in PSN order
	pkts []ib.Packet // every packet, in PSN order
}

func (s *sender) packet(op ib.Operation, payload []byte) ib.Packet {
	var p ib.Packet
	p.BTH.OpCode = ib.MakeOpcode(ib.RC, op)
	p.BTH.PSN = s.psn
	p.Payload = payload
	s.psn = (s.psn + 1) & (1<<24 - 1)
	return p
}

// message appends a SEND or RDMA WRITE of n bytes.
func (s *sender) message(write, imm bool, n int) {
	m := sent{firstPSN: s.psn, payload: make([]byte, n)}
	for i := range m.payload {
		m.payload[i] = byte(s.rng.Uint32())
	}
	if imm {
		m.imm = s.rng.Uint32()
	}
	if write {
		m.reth = ib.RETH{VA: s.rng.Uint64(), RKey: s.rng.Uint32(), DMALen: uint32(n)}
	}
	chunks := max(1, (n+s.mtu-1)/s.mtu)
	for i := range chunks {
		part := m.payload[i*s.mtu : min(n, (i+1)*s.mtu)]
		var op ib.Operation
		last := i == chunks-1
		switch {
		case chunks == 1 && !write:
			op = pick(imm, ib.SendOnlyWithImmediate, ib.SendOnly)
		case chunks == 1:
			op = pick(imm, ib.RDMAWriteOnlyWithImmediate, ib.RDMAWriteOnly)
		case i == 0:
			op = pick(write, ib.RDMAWriteFirst, ib.SendFirst)
		case !last:
			op = pick(write, ib.RDMAWriteMiddle, ib.SendMiddle)
		case write:
			op = pick(imm, ib.RDMAWriteLastWithImmediate, ib.RDMAWriteLast)
		default:
			op = pick(imm, ib.SendLastWithImmediate, ib.SendLast)
		}
		p := s.packet(op, part)
		if i == 0 && write {
			p.RETH = m.reth
		}
		if last && imm {
			p.ImmDt.Data = m.imm
		}
		m.op = op
		m.packets = append(m.packets, p)
		s.pkts = append(s.pkts, p)
	}
	s.msgs = append(s.msgs, m)
}

// read appends an RDMA READ Request of n bytes: it uses one PSN per
// response packet.
func (s *sender) read(n int) {
	p := s.packet(ib.RDMAReadRequest, nil)
	p.RETH = ib.RETH{VA: s.rng.Uint64(), RKey: s.rng.Uint32(), DMALen: uint32(n)}
	s.psn = (p.BTH.PSN + uint32(max(1, (n+s.mtu-1)/s.mtu))) & (1<<24 - 1)
	s.pkts = append(s.pkts, p)
}

// atomic appends a FetchAdd.
func (s *sender) atomic() { s.pkts = append(s.pkts, s.packet(ib.FetchAdd, nil)) }

func pick(c bool, a, b ib.Operation) ib.Operation {
	if c {
		return a
	}
	return b
}

// traffic makes n random requests.
func traffic(seed uint64, n int) *sender {
	s := &sender{rng: rand.New(rand.NewPCG(seed, 7)), mtu: 1024, psn: 1<<24 - 40}
	for range n {
		switch r := s.rng.IntN(10); {
		case r < 4:
			s.message(false, s.rng.IntN(3) == 0, s.rng.IntN(5000))
		case r < 7:
			s.message(true, s.rng.IntN(2) == 0, s.rng.IntN(5000))
		case r < 9:
			s.read(1 + s.rng.IntN(9000))
		default:
			s.atomic()
		}
	}
	return s
}

// got is what the assembler delivered.
type got struct {
	op       ib.Operation
	firstPSN uint32
	packets  int
	payload  []byte
	imm      uint32
	reth     ib.RETH
}

func assemble(cfg reassembly.Config, pkts []ib.Packet) ([]got, reassembly.Stats) {
	var out []got
	a := reassembly.New(cfg, func(m *reassembly.Message[string]) {
		g := got{op: m.Opcode.Operation(), firstPSN: m.FirstPSN, packets: m.Packets, payload: bytes.Clone(m.Payload)}
		if m.Opcode.Is(ib.ClassImmediate) {
			g.imm = m.Imm
		}
		if m.HasRETH {
			g.reth = m.RETH
		}
		out = append(out, g)
	})
	for i := range pkts {
		a.Add("qp", reassembly.Mark{Frame: i + 1}, &pkts[i])
	}
	a.Flush()
	return out, a.Stats()
}

// want is what the assembler should deliver of the messages whose
// packets all reached the capture: each once, in PSN order, from the
// first PSN captured on (a stream begins at its first packet).
func want(msgs []sent, lost map[uint32]bool, capture []ib.Packet) []got {
	var out []got
	for _, m := range msgs {
		whole := int32((m.firstPSN-capture[0].BTH.PSN)<<8) >= 0
		for _, p := range m.packets {
			whole = whole && !lost[p.BTH.PSN]
		}
		if whole {
			if m.payload == nil {
				m.payload = []byte{}
			}
			out = append(out, got{op: m.op, firstPSN: m.firstPSN, packets: len(m.packets), payload: m.payload, imm: m.imm, reth: m.reth})
		}
	}
	return out
}

func same(t *testing.T, what string, g, w []got) {
	t.Helper()
	if len(g) != len(w) {
		t.Fatalf("%s: %d messages, want %d", what, len(g), len(w))
	}
	for i := range g {
		if g[i].payload == nil {
			g[i].payload = []byte{}
		}
		if fmt.Sprint(g[i]) != fmt.Sprint(w[i]) {
			t.Fatalf("%s: message %d:\n got %v %d %d %x %+v\nwant %v %d %d %x %+v", what, i, g[i].op, g[i].firstPSN, g[i].packets, g[i].imm, g[i].reth,
				w[i].op, w[i].firstPSN, w[i].packets, w[i].imm, w[i].reth)
		}
	}
}

// TestInOrder: traffic captured as sent, across the PSN wrap and with
// READs before the MTU is known, comes out as the messages sent, with
// nothing waited, dropped or given up.
func TestInOrder(t *testing.T) {
	s := traffic(1, 400)
	g, st := assemble(reassembly.Config{}, s.pkts)
	same(t, "in order", g, want(s.msgs, nil, s.pkts))
	if st.Messages != len(s.msgs) || st.Waited+st.Duplicates+st.Skipped+st.Abandoned+st.Orphans != 0 || st.Packets != len(s.pkts) {
		t.Errorf("stats %+v, want %d messages of %d packets and nothing else", st, len(s.msgs), len(s.pkts))
	}
}

// TestGoBackN: a reliable connection seen at a point where packets are
// lost before it (missing, then resent with all that followed them),
// lost after it (seen, then resent), duplicated and reordered within a
// few PSNs: every message comes out once, equal to what was sent, in
// PSN order.
func TestGoBackN(t *testing.T) {
	for seed := range uint64(40) {
		s, capture := goBackN(seed)
		g, st := assemble(reassembly.Config{}, capture)
		same(t, fmt.Sprintf("seed %d", seed), g, want(s.msgs, nil, capture))
		if st.Skipped != 0 || st.Abandoned != 0 || st.Orphans != 0 || st.Duplicates == 0 {
			t.Errorf("seed %d: stats %+v: want duplicates and nothing given up", seed, st)
		}
	}
}

// goBackN returns random traffic and a capture of it with losses before
// and after the capture point (each followed by go-back-N), duplicates
// and reordering.
func goBackN(seed uint64) (*sender, []ib.Packet) {
	s := traffic(seed, 300)
	rng := rand.New(rand.NewPCG(seed, 99))
	var capture []ib.Packet
	for i := 0; i < len(s.pkts); {
		p := s.pkts[i]
		switch r := rng.IntN(100); { // (the first packets as sent: a stream begins at the first captured)
		case i < 10:
			capture = append(capture, p)
			i++
		case r < 3: // lost before the capture point: what follows is sent, then all again from p
			ahead := min(len(s.pkts), i+1+rng.IntN(20))
			capture = append(capture, s.pkts[i+1:ahead]...)
			capture = append(capture, s.pkts[i:ahead]...)
			i = ahead
		case r < 6: // seen, lost after the capture point: resent with what followed
			ahead := min(len(s.pkts), i+1+rng.IntN(20))
			capture = append(capture, s.pkts[i:ahead]...)
			capture = append(capture, s.pkts[i:ahead]...)
			i = ahead
		case r < 9: // duplicated
			capture = append(capture, p, p)
			i++
		default:
			capture = append(capture, p)
			i++
		}
	}
	for i := 1; i < len(capture); i++ { // reorder neighbours within three places, after the first
		if j := i + 1 + rng.IntN(3); rng.IntN(20) == 0 && j < len(capture) {
			capture[i], capture[j] = capture[j], capture[i]
		}
	}
	return s, capture
}

// TestUnreliableLoss: packets lost for good (UC, or a capture that drops
// them): the messages they belong to are not delivered, every other one
// is, in order; the gap is given up when the window fills or at Flush.
func TestUnreliableLoss(t *testing.T) {
	for seed := range uint64(30) {
		s := traffic(100+seed, 300)
		rng := rand.New(rand.NewPCG(seed, 5))
		lost := map[uint32]bool{}
		var capture []ib.Packet
		for _, p := range s.pkts {
			if rng.IntN(40) == 0 {
				lost[p.BTH.PSN] = true
				continue
			}
			capture = append(capture, p)
		}
		for _, window := range []int{0, 16} {
			g, st := assemble(reassembly.Config{Window: window}, capture)
			same(t, fmt.Sprintf("seed %d window %d", seed, window), g, want(s.msgs, lost, capture))
			if len(lost) > 0 && st.Skipped == 0 {
				t.Errorf("seed %d: stats %+v: %d PSNs lost, none given up", seed, st, len(lost))
			}
		}
	}
}
