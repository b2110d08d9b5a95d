package gen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/iser"
	"github.com/roce-go/roce/reassembly"
)

// TestISER reassembles the messages of rocegen -ulp iser at an MTU that
// splits the Logins and the data (package reassembly) and checks the
// sessions with package iser: each connection's Login goes straight to
// full feature phase and succeeds; every SCSI Command is a READ or WRITE
// of Size bytes at a logical block of its connection's region, (10)
// below 2^32 and (16) above, with the STag of the direction (RSV for a
// READ, WSV for a WRITE); the target moves exactly that many bytes with
// an RDMA WRITE (READ) or READ (WRITE) of the STag and base offset,
// before a SCSI Response of status GOOD with the command's ITT; CmdSN,
// StatSN, ExpStatSN and ExpCmdSN follow each other as RFC 7143 numbers
// them.
func TestISER(t *testing.T) {
	for _, op := range []gen.Op{gen.OpRead, gen.OpWrite} {
		c := gen.DefaultConfig()
		c.ULP, c.Op, c.MTU, c.Size, c.QPs, c.Messages = gen.ULPISER, op, 256, 2048, 3, 3
		type pending struct {
			hdr   iser.Header
			cmd   iser.BHS
			moved int
		}
		initiator := func(qp uint32) bool { return qp >= c.RemoteQP && qp < c.RemoteQP+uint32(c.QPs) }
		open := map[uint32]*pending{} // by STag
		type session struct {
			cmdSN, statSN uint32
			logged        bool
			itts          map[uint32]*pending
		}
		sess := map[uint32]*session{}    // by the initiator's connection index
		reading := map[uint32]*pending{} // the WRITE whose data the target reads, by connection
		commands, responses, logins := 0, 0, 0
		a := reassembly.New(reassembly.Config{}, func(m *reassembly.Message[uint32]) {
			qp := m.Key
			conn := qp - c.LocalQP // the connection: the index of its QPs
			if initiator(qp) {
				conn = qp - c.RemoteQP
			}
			switch {
			case m.Stream == reassembly.Responses: // READ Responses, to the target
				p := reading[conn]
				if p == nil || len(m.Payload) != int(p.cmd.ExpectedDataTransferLength()) {
					t.Fatalf("%v: RDMA READ response of %d bytes matches no WRITE", op, len(m.Payload))
				}
				p.moved, reading[conn] = len(m.Payload), nil
				return
			case m.Opcode.Operation() == ib.RDMAWriteLast || m.Opcode.Operation() == ib.RDMAWriteOnly:
				p := open[m.RETH.RKey]
				if p == nil || !p.hdr.RSV() || m.RETH.VA != p.hdr.ReadBaseOffset || len(m.Payload) != int(p.cmd.ExpectedDataTransferLength()) {
					t.Fatalf("%v: RDMA WRITE of %d bytes at %#x key %#x matches no READ", op, len(m.Payload), m.RETH.VA, m.RETH.RKey)
				}
				p.moved = len(m.Payload)
				return
			}
			var h iser.Header
			var b iser.BHS
			rest, err := h.Split(m.Payload)
			if err == nil {
				rest, err = b.Split(rest)
			}
			if err != nil || h.Opcode != iser.OpControl {
				t.Fatalf("%v: message %x: %v", op, m.Payload, err)
			}
			s := sess[conn]
			if s == nil {
				s = &session{itts: map[uint32]*pending{}}
				sess[conn] = s
			}
			if len(rest) < int(b.DataSegmentLength) || len(rest) != int(b.DataSegmentLength+3)&^3 {
				t.Errorf("%v: data segment of %d bytes, %d follow", op, b.DataSegmentLength, len(rest))
			}
			switch b.Opcode {
			case iser.OpLoginRequest:
				if s.logged || b.Flags != iser.FlagFinal|1<<2|3 || !strings.Contains(string(rest), "RDMAExtensions=Yes\x00") {
					t.Errorf("%v: Login Request %+v %q", op, b, rest)
				}
				s.cmdSN = b.CmdSN()
			case iser.OpLoginResponse:
				if b.Rest[16] != 0 || b.Rest[17] != 0 || b.LUN&0xffff == 0 || b.ExpCmdSN() != s.cmdSN {
					t.Errorf("%v: Login Response %+v", op, b)
				}
				s.logged, s.statSN = true, b.StatSN()+1
				logins++
			case iser.OpSCSICommand:
				if !s.logged || b.CmdSN() != s.cmdSN || b.ExpStatSN() != s.statSN {
					t.Errorf("%v: command CmdSN %d ExpStatSN %d, want %d, %d", op, b.CmdSN(), b.ExpStatSN(), s.cmdSN, s.statSN)
				}
				s.cmdSN++
				cdb := b.CDB()
				isRW, write := cdb.ReadWrite()
				lba, _ := cdb.LBA()
				n, _ := cdb.TransferLength()
				if !isRW || write != (op == gen.OpWrite) || int(n)*512 != c.Size || b.ExpectedDataTransferLength() != uint32(c.Size) ||
					lba>>32 != uint64(conn) || (cdb.Len() == 16) != (conn > 0) {
					t.Errorf("%v: connection %d: %s lba %d n %d edtl %d", op, conn, cdb.Name(), lba, n, b.ExpectedDataTransferLength())
				}
				p := &pending{hdr: h, cmd: b}
				key := h.ReadSTag
				if write {
					key = h.WriteSTag
				}
				if h.WSV() == h.RSV() || h.WSV() != write || open[key] != nil {
					t.Errorf("%v: iSER header %+v", op, h)
				}
				open[key] = p
				s.itts[b.ITT] = p
				commands++
			case iser.OpSCSIResponse:
				p := s.itts[b.ITT]
				if p == nil || b.Response() != 0 || b.Status() != 0 || b.StatSN() != s.statSN || b.ExpCmdSN() != s.cmdSN {
					t.Fatalf("%v: response %+v answers no command", op, b)
				}
				if p.moved != c.Size {
					t.Errorf("%v: ITT %d completed with %d bytes moved", op, b.ITT, p.moved)
				}
				s.statSN++
				delete(s.itts, b.ITT)
				responses++
			default:
				t.Errorf("%v: %v", op, b.Opcode)
			}
		})
		for i, f := range generate(t, c) {
			if err := roce.VerifyFrame(f.b); err != nil {
				t.Errorf("%v: frame %d: %v", op, i+1, err)
			}
			var fr roce.Frame
			if err := fr.Decode(f.b); err != nil {
				t.Fatal(err)
			}
			if p := &fr.Packet; p.BTH.OpCode.Operation() == ib.RDMAReadRequest { // the target reads a WRITE's data
				conn := p.BTH.DestQP - c.LocalQP
				r := open[p.RETH.RKey]
				if r == nil || !r.hdr.WSV() || p.RETH.VA != r.hdr.WriteBaseOffset || p.RETH.DMALen != r.cmd.ExpectedDataTransferLength() || reading[conn] != nil {
					t.Fatalf("%v: RDMA READ of %d bytes at %#x key %#x matches no WRITE", op, p.RETH.DMALen, p.RETH.VA, p.RETH.RKey)
				}
				reading[conn] = r
			}
			if f.kind != gen.KindCM {
				a.Add(fr.Packet.BTH.DestQP, reassembly.Mark{Frame: i + 1}, &fr.Packet)
			}
		}
		a.Flush()
		want := c.Messages * c.QPs
		if commands != want || responses != want || logins != c.QPs {
			t.Errorf("%v: %d commands, %d responses, %d logins; want %d, %d, %d", op, commands, responses, logins, want, want, c.QPs)
		}
	}
}

// TestISERConfig checks what -ulp iser refuses, naming the setting.
func TestISERConfig(t *testing.T) {
	for name, bad := range map[string]func(c *gen.Config){
		"UC":       func(c *gen.Config) { c.Transport = ib.UC },
		"op send":  func(c *gen.Config) { c.Op = gen.OpSend },
		"op fetch": func(c *gen.Config) { c.Op = gen.OpFetchAdd },
		"size":     func(c *gen.Config) { c.Size = 1000 },
		"size 0":   func(c *gen.Config) { c.Size = 0 },
		"16 MiB":   func(c *gen.Config) { c.Size = 16 << 20 },
		"24 bits":  func(c *gen.Config) { c.QPs, c.LocalQP = 2, 1<<24-1 },
		"ulp":      func(c *gen.Config) { c.Faults.Loss = 0.1 },
	} {
		c := gen.DefaultConfig()
		c.ULP, c.Op = gen.ULPISER, gen.OpRead
		bad(&c)
		_, err := gen.New(c)
		if !errors.Is(err, gen.ErrConfig) || !strings.Contains(err.Error(), strings.Fields(name)[0]) && !strings.Contains(err.Error(), "iser") {
			t.Errorf("%s: New gave %v, want an ErrConfig naming it", name, err)
		}
	}
	var c gen.Config
	if err := c.Set("ulp", "iSER"); err != nil || c.ULP != gen.ULPISER || c.Get("ulp") != "iser" {
		t.Errorf("Set ulp iSER: %v, %v", c.ULP, err)
	}
}

// TestISERAllocs checks that Next allocates nothing in steady state
// with -ulp iser.
func TestISERAllocs(t *testing.T) {
	for _, op := range []gen.Op{gen.OpRead, gen.OpWrite} {
		c := gen.DefaultConfig()
		c.ULP, c.Op, c.MTU, c.Size, c.Messages, c.QPs = gen.ULPISER, op, 1024, 8192, 1_000_000, 4
		g, err := gen.New(c)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10000; i++ {
			if !g.Next() {
				t.Fatalf("generator ended: %v", g.Err())
			}
		}
		if allocs := testing.AllocsPerRun(20000, func() {
			if !g.Next() {
				t.Fatalf("generator ended: %v", g.Err())
			}
		}); allocs != 0 {
			t.Errorf("%v: Next allocates %.2f times per frame", op, allocs)
		}
	}
}
