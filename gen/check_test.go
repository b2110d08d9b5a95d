package gen_test

// The checker: it decodes every generated frame with the module's
// decoders (roce.Frame, cnp, pfc) and rebuilds, from the wire alone, what
// each queue pair did, then compares that with what the Config asked for.
// Nothing here reads the generator's internals: the expected opcode names,
// segment sizes, PSN, ACK and MSN rules are written out independently.

import (
	"encoding/binary"
	"testing"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocev2"
)

// genFrame is one generated frame, copied.
type genFrame struct {
	b    []byte
	ci   gopacket.CaptureInfo
	kind gen.Kind
}

// generate runs a scenario to its end and returns copies of its frames.
func generate(t testing.TB, phases ...gen.Config) []genFrame {
	t.Helper()
	g, err := gen.NewScenario(phases)
	if err != nil {
		t.Fatal(err)
	}
	var out []genFrame
	for g.Next() {
		out = append(out, genFrame{append([]byte(nil), g.Frame()...), g.CaptureInfo(), g.Kind()})
	}
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	if s := g.Stats(); s.Frames != len(out) {
		t.Errorf("Stats.Frames %d, generated %d", s.Frames, len(out))
	}
	return out
}

// opNames are the IBTA names of each operation's opcodes, by position:
// first, middle, last, only.
var opNames = map[gen.Op][4]string{
	gen.OpWrite:       {"RDMA WRITE First", "RDMA WRITE Middle", "RDMA WRITE Last", "RDMA WRITE Only"},
	gen.OpWriteImm:    {"RDMA WRITE First", "RDMA WRITE Middle", "RDMA WRITE Last with Immediate", "RDMA WRITE Only with Immediate"},
	gen.OpSend:        {"SEND First", "SEND Middle", "SEND Last", "SEND Only"},
	gen.OpSendImm:     {"SEND First", "SEND Middle", "SEND Last with Immediate", "SEND Only with Immediate"},
	gen.OpSendInv:     {"SEND First", "SEND Middle", "SEND Last with Invalidate", "SEND Only with Invalidate"},
	gen.OpRead:        {"", "", "", "RDMA READ Request"},
	gen.OpCmpSwap:     {"", "", "", "CmpSwap"},
	gen.OpFetchAdd:    {"", "", "", "FetchAdd"},
	gen.OpFlush:       {"", "", "", "FLUSH"},
	gen.OpAtomicWrite: {"", "", "", "ATOMIC WRITE"},
}

func segmented(op gen.Op) bool { return op <= gen.OpSendInv }

// expected is a response the checker waits for on one queue pair.
type expected struct {
	name string // opcode name without the transport
	psn  uint32
	msn  uint32
	n, i int    // READ responses: packets, next
	size int    // READ responses: bytes
	orig uint64 // ATOMIC Acknowledge
	has  bool   // orig is known
}

// qpTrack is what the checker rebuilds of one queue pair.
type qpTrack struct {
	psn      uint32 // next PSN
	started  bool
	msgs     int // messages sent
	i, n     int // packet index in the message, packets in it
	bytes    int
	msn      uint32 // messages the responder completed
	expect   []expected
	value    uint64 // the remote word, once an atomic showed it
	hasValue bool
	acks     int
}

// result sums up a checked capture.
type result struct {
	roce, requests, responses, data int
	ce, cnps, pfc, bad              int
	ceTo, cnpTo                     map[uint32]int // by the QP the CNP must go to
	qps                             map[uint32]*qpTrack
	ports                           map[uint16]bool
}

// check verifies every frame of a one-phase capture against c.
func check(t *testing.T, c gen.Config, frames []genFrame) result {
	t.Helper()
	r := result{ceTo: map[uint32]int{}, cnpTo: map[uint32]int{}, qps: map[uint32]*qpTrack{}, ports: map[uint16]bool{}}
	errs := 0
	fail := func(i int, format string, a ...any) {
		t.Helper()
		if errs++; errs <= 20 {
			t.Errorf("frame %d: "+format, append([]any{i + 1}, a...)...)
		}
	}
	reliable := c.Transport == ib.RC || c.Transport == ib.XRC
	segN := 1
	if c.Size > c.MTU {
		segN = (c.Size + c.MTU - 1) / c.MTU
	}
	var prev int64
	for i, gf := range frames {
		b := gf.b
		if ns := gf.ci.Timestamp.UnixNano(); ns < prev {
			fail(i, "timestamp goes back by %d ns", prev-ns)
		} else {
			prev = ns
		}
		if gf.ci.CaptureLength != len(b) || gf.ci.Length != len(b) {
			fail(i, "capture info %+v for %d bytes", gf.ci, len(b))
		}
		if binary.BigEndian.Uint16(b[12:]) == uint16(pfc.EthernetTypeMACControl) {
			var m pfc.MACControl
			if err := m.Decode(b[14:]); err != nil {
				fail(i, "PFC: %v", err)
				continue
			}
			r.pfc++
			if m.Opcode != pfc.OpcodePFC || m.Enabled() != pfc.Priorities(1)<<c.PFCPrio || m.Time[c.PFCPrio] != c.PFCQuanta ||
				[6]byte(b[6:12]) != c.DstMAC || [6]byte(b[:6]) != pfc.MulticastAddr {
				fail(i, "PFC frame %x", b)
			}
			if gf.kind != gen.KindPFC {
				fail(i, "PFC frame of kind %v", gf.kind)
			}
			continue
		}
		r.roce++
		bad := roce.VerifyFrame(b) != nil
		if bad {
			r.bad++
		}
		var f roce.Frame
		if cnp.IsCNP(b) {
			if err := cnp.Decode(&f.Packet, b); err != nil {
				fail(i, "CNP: %v", err)
				continue
			}
			if err := cnp.Check(&f.Packet); err != nil {
				fail(i, "CNP: %v", err)
			}
			r.cnps++
			r.cnpTo[f.Packet.BTH.DestQP]++
			if gf.kind != gen.KindCNP {
				fail(i, "CNP of kind %v", gf.kind)
			}
			continue
		}
		if err := f.Decode(b); err != nil {
			fail(i, "Decode: %v", err)
			continue
		}
		if bad && f.VerifyICRC() == nil {
			fail(i, "VerifyFrame and VerifyICRC disagree")
		}
		if f.Encap != c.Encap {
			fail(i, "encapsulation %v, want %v", f.Encap, c.Encap)
		}
		if f.Encap == ib.RoCEv2IPv6 {
			// Only the ICRC may be wrong: the UDP checksum must hold.
			ip := b[14+4*f.NumVLANs:]
			udp := ip[40 : 40+8+int(f.GRH.PayLen)]
			if got := binary.BigEndian.Uint16(udp[6:]); got != rocev2.UDPChecksum(ip, udp) {
				fail(i, "UDP checksum %#04x is wrong", got)
			}
		}
		wantTags := 0
		if c.VLAN >= 0 {
			wantTags = 1
		}
		if f.NumVLANs != wantTags || wantTags == 1 && (f.VLANs[0].ID != uint16(c.VLAN) || f.VLANs[0].PCP != c.PCP) {
			fail(i, "VLAN tags %d %+v, want VLAN %d PCP %d", f.NumVLANs, f.VLANs[0], c.VLAN, c.PCP)
		}
		if f.GRH.TClass>>2 != c.DSCP {
			fail(i, "DSCP %d, want %d", f.GRH.TClass>>2, c.DSCP)
		}
		if c.Encap != ib.RoCEv1 {
			r.ports[f.SrcPort] = true
		}
		ce := ecn.Codepoint(f.GRH.TClass&3) == ecn.CE
		if !ce && ecn.Codepoint(f.GRH.TClass&3) != c.ECN {
			fail(i, "ECN %v, want %v", ecn.Codepoint(f.GRH.TClass&3), c.ECN)
		}
		p := &f.Packet
		bth := &p.BTH
		op := bth.OpCode
		if op.Transport() != c.Transport {
			fail(i, "opcode %v is not %v", op, c.Transport)
		}
		prefix := c.Transport.String() + " "
		fromRequester := f.Src == c.SrcMAC
		if fromRequester != op.IsRequest() {
			fail(i, "%v sent by the wrong side", op)
		}
		if bth.PKey != c.PKey || bth.SE || bth.TVer != 0 || bth.FECN || bth.BECN || bth.Resv6a != 0 || bth.Resv7 != 0 {
			fail(i, "BTH %+v: P_Key, SE, TVer, FECN, BECN or reserved bits", *bth)
		}
		if op.IsRequest() {
			r.requests++
			r.data++
			if gf.kind != gen.KindRequest {
				fail(i, "request of kind %v", gf.kind)
			}
			qi := bth.DestQP - c.RemoteQP
			if bth.DestQP < c.RemoteQP || int(qi) >= c.QPs {
				fail(i, "request to QP %#x, outside %#x+%d", bth.DestQP, c.RemoteQP, c.QPs)
				continue
			}
			local := c.LocalQP + qi
			if ce {
				r.ce++
				r.ceTo[local]++
			}
			q := r.qps[local]
			if q == nil {
				q = &qpTrack{psn: bth.PSN}
				if c.PSN >= 0 && bth.PSN != uint32(c.PSN) {
					fail(i, "first PSN %d, want %d", bth.PSN, c.PSN)
				}
				r.qps[local] = q
			}
			if bth.PSN != q.psn {
				fail(i, "QP %#x: PSN %d, want %d", bth.DestQP, bth.PSN, q.psn)
			}
			if q.i == 0 {
				q.n = 1
				if segmented(c.Op) {
					q.n = segN
				}
				q.bytes = 0
			}
			pos := 3
			switch {
			case q.n == 1:
			case q.i == 0:
				pos = 0
			case q.i == q.n-1:
				pos = 2
			default:
				pos = 1
			}
			if want := prefix + opNames[c.Op][pos]; op.String() != want {
				fail(i, "opcode %v, want %s", op, want)
			}
			hs := p.Headers()
			if c.Transport == ib.XRC && p.XRCETH.XRCSRQ != c.SRQ+qi {
				fail(i, "XRCETH SRQ %#x, want %#x", p.XRCETH.XRCSRQ, c.SRQ+qi)
			}
			if c.Transport == ib.UD && (p.DETH.QKey != c.QKey || p.DETH.SrcQP != local) {
				fail(i, "DETH %+v, want Q_Key %#x source QP %#x", p.DETH, c.QKey, local)
			}
			first, last := pos == 0 || pos == 3, pos >= 2
			wantRETH := c.Op == gen.OpRead || c.Op == gen.OpFlush || c.Op == gen.OpAtomicWrite ||
				(c.Op == gen.OpWrite || c.Op == gen.OpWriteImm) && first
			if hs.Has(ib.HeaderRETH) != wantRETH {
				fail(i, "%v: RETH present %v, want %v", op, hs.Has(ib.HeaderRETH), wantRETH)
			}
			if wantRETH {
				want := uint32(c.Size)
				if c.Op == gen.OpAtomicWrite {
					want = 8
				}
				if p.RETH.DMALen != want {
					fail(i, "RETH DMA length %d, want %d", p.RETH.DMALen, want)
				}
			}
			if imm := c.Op == gen.OpWriteImm || c.Op == gen.OpSendImm; hs.Has(ib.HeaderImmDt) != (imm && last) {
				fail(i, "%v: ImmDt present %v", op, hs.Has(ib.HeaderImmDt))
			}
			if hs.Has(ib.HeaderIETH) != (c.Op == gen.OpSendInv && last) {
				fail(i, "%v: IETH present %v", op, hs.Has(ib.HeaderIETH))
			}
			q.bytes += len(p.Payload)
			if segmented(c.Op) {
				if want := min(c.MTU, c.Size-q.i*c.MTU); len(p.Payload) != want {
					fail(i, "payload %d bytes, want %d", len(p.Payload), want)
				}
			}
			wantAckReq := reliable && (last || c.AckEvery > 0 && (q.i+1)%c.AckEvery == 0)
			if bth.AckReq != wantAckReq {
				fail(i, "AckReq %v, want %v", bth.AckReq, wantAckReq)
			}
			if bth.MigReq != (c.Transport != ib.UD) {
				fail(i, "M bit %v", bth.MigReq)
			}
			q.psn = (q.psn + 1) & 0xFFFFFF
			q.i++
			if q.i == q.n {
				q.i = 0
				q.msgs++
				if segmented(c.Op) && q.bytes != c.Size {
					fail(i, "message of %d bytes, want %d", q.bytes, c.Size)
				}
			}
			if !reliable {
				continue
			}
			switch c.Op {
			case gen.OpRead:
				q.msn++
				q.expect = append(q.expect, expected{name: "RDMA READ Response", psn: bth.PSN, msn: q.msn, n: segN, size: c.Size})
				q.psn = (bth.PSN + uint32(segN)) & 0xFFFFFF
			case gen.OpFlush:
				q.msn++
				q.expect = append(q.expect, expected{name: "RDMA READ Response", psn: bth.PSN, msn: q.msn, n: 1})
			case gen.OpCmpSwap, gen.OpFetchAdd:
				q.msn++
				e := expected{name: "ATOMIC Acknowledge", psn: bth.PSN, msn: q.msn}
				a := &p.AtomicETH
				if a.VA%8 != 0 {
					fail(i, "atomic VA %#x not 8-byte aligned", a.VA)
				}
				if c.Op == gen.OpCmpSwap {
					// A successful compare: the compare data is the value.
					e.orig, e.has = a.CompareData, true
					if q.hasValue && a.CompareData != q.value {
						fail(i, "CmpSwap compares %#x, the value is %#x", a.CompareData, q.value)
					}
					q.value, q.hasValue = a.SwapData, true
				} else if q.hasValue {
					e.orig, e.has = q.value, true
					q.value += a.SwapData
				}
				q.expect = append(q.expect, e)
			default:
				if c.Op == gen.OpAtomicWrite && len(p.Payload) != 8 {
					fail(i, "ATOMIC WRITE with %d bytes", len(p.Payload))
				}
				if bth.AckReq {
					if last {
						q.msn++
					}
					q.expect = append(q.expect, expected{name: "Acknowledge", psn: bth.PSN, msn: q.msn})
				}
			}
			continue
		}

		// A response, to the requester's QP.
		r.responses++
		q := r.qps[bth.DestQP]
		if q == nil || len(q.expect) == 0 {
			fail(i, "unexpected %v to QP %#x", op, bth.DestQP)
			continue
		}
		e := &q.expect[0]
		if e.name == "RDMA READ Response" {
			r.data++
			if ce {
				r.ce++
				r.ceTo[c.RemoteQP+bth.DestQP-c.LocalQP]++
			}
			pos := [4]string{" First", " Middle", " Last", " Only"}
			k := 3
			switch {
			case e.n == 1:
			case e.i == 0:
				k = 0
			case e.i == e.n-1:
				k = 2
			default:
				k = 1
			}
			if want := prefix + e.name + pos[k]; op.String() != want {
				fail(i, "opcode %v, want %s", op, want)
			}
			if bth.PSN != (e.psn+uint32(e.i))&0xFFFFFF {
				fail(i, "READ response PSN %d, want %d", bth.PSN, e.psn+uint32(e.i))
			}
			if p.Headers().Has(ib.HeaderAETH) != (k != 1) {
				fail(i, "%v: AETH present %v", op, p.Headers().Has(ib.HeaderAETH))
			}
			if k != 1 && (p.AETH.MSN != e.msn || p.AETH.Type() != ib.Ack) {
				fail(i, "READ response AETH %v MSN %d, want ACK MSN %d", p.AETH.Type(), p.AETH.MSN, e.msn)
			}
			if want := min(c.MTU, e.size-e.i*c.MTU); len(p.Payload) != max(want, 0) {
				fail(i, "READ response payload %d, want %d", len(p.Payload), want)
			}
			if gf.kind != gen.KindReadResponse {
				fail(i, "READ response of kind %v", gf.kind)
			}
			if e.i++; e.i == e.n {
				q.expect = q.expect[1:]
			}
			continue
		}
		if ce {
			fail(i, "%v marked CE", op)
		}
		if want := prefix + e.name; op.String() != want {
			fail(i, "opcode %v, want %s", op, want)
		}
		if bth.PSN != e.psn || p.AETH.MSN != e.msn || p.AETH.Type() != ib.Ack {
			fail(i, "%v PSN %d AETH %v MSN %d, want PSN %d MSN %d", op, bth.PSN, p.AETH.Type(), p.AETH.MSN, e.psn, e.msn)
		}
		if e.name == "ATOMIC Acknowledge" {
			if e.has && p.AtomicAckETH.OrigRemData != e.orig {
				fail(i, "original remote data %#x, want %#x", p.AtomicAckETH.OrigRemData, e.orig)
			}
			if c.Op == gen.OpFetchAdd && !q.hasValue {
				q.value, q.hasValue = p.AtomicAckETH.OrigRemData+1, true
			}
		}
		q.acks++
		q.expect = q.expect[1:]
	}
	for qp, q := range r.qps {
		if len(q.expect) != 0 {
			t.Errorf("QP %#x: %d responses missing, first %+v", qp, len(q.expect), q.expect[0])
		}
		if q.msgs != c.Messages || q.i != 0 {
			t.Errorf("QP %#x: %d messages (%d packets into the next), want %d", qp, q.msgs, q.i, c.Messages)
		}
	}
	if len(r.qps) != c.QPs {
		t.Errorf("%d queue pairs sent requests, want %d", len(r.qps), c.QPs)
	}
	return r
}
