package gen_test

import (
	"errors"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/nvmeof"
	"github.com/roce-go/roce/reassembly"
)

// TestNVMe reassembles the messages of rocegen -ulp nvme at an MTU that
// splits capsules and data (package reassembly) and checks the
// conversation with package nvmeof: every command capsule decodes and
// gets one successful completion with its CID (a Property Get's with the
// property's value), the admin queue's
// Connect data is read by the target and the I/O queues' is in the
// capsule, every transfer moves the SGL's length with its key, and a
// Read of op send-inv is completed by a SEND with Invalidate of that
// key.
func TestNVMe(t *testing.T) {
	for _, op := range []gen.Op{gen.OpRead, gen.OpWrite, gen.OpSend, gen.OpSendInv} {
		c := gen.DefaultConfig()
		c.ULP, c.Op, c.MTU, c.Size, c.QPs, c.Messages = gen.ULPNVMe, op, 256, 2048, 2, 3
		host := map[uint32]bool{c.LocalQP: true, c.LocalQP + 1: true, c.LocalQP + 2: true}
		type pending struct {
			cmd   nvmeof.Command
			moved int
		}
		open := map[uint32]map[uint16]*pending{} // by the target's QP, by CID
		byKey := map[uint32]*pending{}
		commands, completions, connectReads := 0, 0, 0
		a := reassembly.New(reassembly.Config{}, func(m *reassembly.Message[uint32]) {
			qp := m.Key
			switch {
			case m.Stream == reassembly.Responses: // READ Responses, to the target
				p := byKey[m.RETH.RKey]
				for _, q := range open[qp] {
					if q.cmd.SGL1.Keyed() && q.moved < 0 {
						p = q
					}
				}
				if p == nil {
					t.Fatalf("%v: READ Responses to QP %#x for no command", op, qp)
				}
				if len(m.Payload) != int(p.cmd.SGL1.Length) {
					t.Errorf("%v: READ of %d bytes, the SGL says %d", op, len(m.Payload), p.cmd.SGL1.Length)
				}
				if p.cmd.IsFabrics() {
					var d nvmeof.ConnectData
					if err := d.Decode(m.Payload); err != nil || d.CntlID != 0xffff || len(d.HostNQN) == 0 {
						t.Errorf("%v: admin Connect data %+v, %v", op, d, err)
					}
					connectReads++
				}
				p.moved = len(m.Payload)
			case m.Opcode.Operation() == ib.RDMAReadRequest: // the target asks for the data: the responses count
			case !host[qp]: // a capsule
				var cmd nvmeof.Command
				data, err := cmd.Split(m.Payload)
				if err != nil {
					t.Fatalf("%v: %v", op, err)
				}
				commands++
				if cmd.SGL1.InCapsule() && len(data) != int(cmd.SGL1.Length) {
					t.Errorf("%v: %d bytes of in-capsule data, the SGL says %d", op, len(data), cmd.SGL1.Length)
				}
				if cmd.IsFabrics() && cmd.QID() != 0 {
					var d nvmeof.ConnectData
					if err := d.Decode(data); err != nil || d.CntlID != 1 {
						t.Errorf("%v: I/O Connect data %+v, %v", op, d, err)
					}
				}
				if open[qp] == nil {
					open[qp] = map[uint16]*pending{}
				}
				p := &pending{cmd: cmd}
				if cmd.SGL1.Keyed() && cmd.SGL1.Length > 0 {
					byKey[cmd.SGL1.Key] = p
					if cmd.Opcode == nvmeof.OpWrite || cmd.IsFabrics() {
						p.moved = -1 // the target will read it
					}
				}
				open[qp][cmd.CID] = p
			case m.Opcode.Operation() == ib.RDMAWriteLast || m.Opcode.Operation() == ib.RDMAWriteOnly:
				p := byKey[m.RETH.RKey]
				if p == nil || len(m.Payload) != int(p.cmd.SGL1.Length) || m.RETH.VA != p.cmd.SGL1.Address {
					t.Fatalf("%v: RDMA WRITE of %d bytes at %#x key %#x matches no command", op, len(m.Payload), m.RETH.VA, m.RETH.RKey)
				}
				p.moved = len(m.Payload)
			default: // a completion, to the host
				var cqe nvmeof.Completion
				if err := cqe.Decode(m.Payload); err != nil || len(m.Payload) != nvmeof.CompletionLen {
					t.Fatalf("%v: completion %x: %v", op, m.Payload, err)
				}
				completions++
				tq := qp - c.LocalQP + c.RemoteQP
				p := open[tq][cqe.CID]
				if p == nil || !cqe.Status.OK() || cqe.SQID != uint16(qp-c.LocalQP) {
					t.Fatalf("%v: completion %+v on QP %#x answers no command", op, cqe, qp)
				}
				if p.cmd.SGL1.Keyed() && p.moved != int(p.cmd.SGL1.Length) {
					t.Errorf("%v: command %+v completed with %d bytes moved", op, p.cmd, p.moved)
				}
				inv := m.Opcode.Operation() == ib.SendOnlyWithInvalidate || m.Opcode.Operation() == ib.SendLastWithInvalidate
				if want := p.cmd.SGL1.SubType == nvmeof.SGLInvalidateKey; inv != want || inv && m.RKey != p.cmd.SGL1.Key {
					t.Errorf("%v: completion of %+v: invalidate %v key %#x", op, p.cmd.SGL1, inv, m.RKey)
				}
				if p.cmd.IsFabrics() && p.cmd.FabricsType() == nvmeof.PropertyGet {
					v := uint64(cqe.DW0) | uint64(cqe.DW1)<<32
					if name := nvmeof.PropertyName(p.cmd.PropertyOffset()); name == "" || v == 0 && p.cmd.PropertyOffset() != 0x1c {
						t.Errorf("%v: Property Get of %#x gives %#x", op, p.cmd.PropertyOffset(), v)
					}
				}
				delete(open[tq], cqe.CID)
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
			if f.kind != gen.KindCM {
				a.Add(fr.Packet.BTH.DestQP, reassembly.Mark{Frame: i + 1}, &fr.Packet)
			}
		}
		a.Flush()
		want := 6 + c.QPs + c.Messages*c.QPs // Connect, 4 properties, Identify; each I/O queue's Connect; the I/O
		if commands != want || completions != want || connectReads != 1 {
			t.Errorf("%v: %d commands, %d completions, %d Connect data read; want %d, %d, 1", op, commands, completions, connectReads, want, want)
		}
	}
}

// TestNVMeConfig checks what -ulp nvme refuses.
func TestNVMeConfig(t *testing.T) {
	for name, bad := range map[string]func(c *gen.Config){
		"uc":         func(c *gen.Config) { c.Transport = ib.UC },
		"op":         func(c *gen.Config) { c.Op = gen.OpFetchAdd },
		"size":       func(c *gen.Config) { c.Size = 1000 },
		"empty":      func(c *gen.Config) { c.Size = 0 },
		"16 MiB":     func(c *gen.Config) { c.Size = 16 << 20 },
		"in-capsule": func(c *gen.Config) { c.Op, c.Size = gen.OpSend, 8192 },
		"qps":        func(c *gen.Config) { c.QPs = 1 << 16 },
		"ulp":        func(c *gen.Config) { c.ULP = 9 },
	} {
		c := gen.DefaultConfig()
		c.ULP = gen.ULPNVMe
		bad(&c)
		if _, err := gen.New(c); !errors.Is(err, gen.ErrConfig) {
			t.Errorf("%s: New gave %v, want ErrConfig", name, err)
		}
	}
	var c gen.Config
	if err := c.Set("ulp", "NVMe"); err != nil || c.ULP != gen.ULPNVMe || c.Get("ulp") != "nvme" {
		t.Errorf("Set ulp NVMe: %v, %v", c.ULP, err)
	}
	if err := c.Set("ulp", "smbd"); !errors.Is(err, gen.ErrConfig) {
		t.Errorf("Set ulp smbd: %v", err)
	}
}

// TestNVMeAllocs checks that Next allocates nothing in steady state
// with -ulp nvme.
func TestNVMeAllocs(t *testing.T) {
	c := gen.DefaultConfig()
	c.ULP, c.Op, c.MTU, c.Size, c.Messages, c.QPs, c.CEEvery = gen.ULPNVMe, gen.OpWrite, 1024, 8192, 1_000_000, 4, 50
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
		t.Errorf("Next allocates %.2f times per frame", allocs)
	}
}
