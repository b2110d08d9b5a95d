package flow_test

import (
	"fmt"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// genReport analyses what gen writes for cfg.
func genReport(t *testing.T, cfg gen.Config) (*flow.Report, gen.Stats) {
	t.Helper()
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	an := flow.New(flow.Config{})
	var rec dump.Record
	for n := 1; g.Next(); n++ {
		rec.Decode(n, g.CaptureInfo(), capfile.LinkTypeEthernet, g.Frame())
		an.AddRecord(&rec)
	}
	return an.Report(), g.Stats()
}

// TestGenPairing: the cases the window rule got wrong: with
// several QPs between two hosts only one connection paired. Every
// connection must pair, and every read, atomic and message be
// answered. gen's requester QP i is LocalQP+i, its responder
// RemoteQP+i.
func TestGenPairing(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(c *gen.Config)
	}{
		{"read-4K-mtu1024-qps4", func(c *gen.Config) { c.Op, c.Size, c.MTU, c.QPs = gen.OpRead, 4096, 1024, 4 }},
		{"write-qps4", func(c *gen.Config) { c.QPs = 4 }},
		{"write-qps4-psn100", func(c *gen.Config) { c.QPs, c.PSN = 4, 100 }},
		{"fetchadd-qps8", func(c *gen.Config) { c.Op, c.QPs, c.Messages = gen.OpFetchAdd, 8, 3 }},
		{"write-qps300-random-psn", func(c *gen.Config) { c.QPs, c.Messages, c.PSN, c.Size, c.MTU = 300, 3, -1, 4096, 1024 }},
		{"read-qps300-random-psn", func(c *gen.Config) {
			c.Op, c.QPs, c.Messages, c.PSN, c.Size, c.MTU = gen.OpRead, 300, 3, -1, 3000, 1024
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gen.DefaultConfig()
			tc.set(&cfg)
			r, _ := genReport(t, cfg)
			assert.Len(t, r.Flows, 2*cfg.QPs)
			for i := 0; i < cfg.QPs; i++ {
				req := find(t, r, "192.0.2.1", "192.0.2.2", cfg.RemoteQP+uint32(i))
				assert.Equal(t, fmt.Sprintf("192.0.2.2 > 192.0.2.1 qp 0x%06x", cfg.LocalQP+uint32(i)), req.Peer, "QP %d", i)
				s := req.Stats
				n := uint64(cfg.Messages)
				switch cfg.Op {
				case gen.OpRead:
					assert.Equal(t, [3]uint64{n, n, 0}, [3]uint64{s.Reads, s.ReadsMatched, s.ReadsUnanswered}, "QP %d reads", i)
					if assert.NotNil(t, req.Latency) && assert.NotNil(t, req.Latency.ReadLast) {
						assert.Equal(t, n, req.Latency.ReadLast.Count, "QP %d", i)
					}
				case gen.OpFetchAdd:
					assert.Equal(t, [3]uint64{n, n, 0}, [3]uint64{s.Atomics, s.AtomicsMatched, s.AtomicsUnanswered}, "QP %d atomics", i)
				default:
					if assert.NotNil(t, req.Latency) && assert.NotNil(t, req.Latency.Completion) {
						assert.Equal(t, n, req.Latency.Completion.Count, "QP %d messages completed", i)
					}
				}
				resp := find(t, r, "192.0.2.2", "192.0.2.1", cfg.LocalQP+uint32(i))
				assert.Zero(t, resp.ReadResponsesUnmatched+resp.AtomicAcksUnmatched, "QP %d", i)
				assert.True(t, resp.Answers, "QP %d", i)
			}
		})
	}
}

// TestGenAmbiguous: when every QP reads (or fetches and adds) at the
// same PSNs at the same time, no PSN tells the connections apart. gen,
// like Linux, sends both directions of a connection from one UDP source
// port, and that breaks the tie: every connection pairs with its own
// QPs. Where the responder sends from other ports (here one port for
// every response), the flows stay unpaired, saying how many request flows
// fit, and nothing is matched to a wrong request.
func TestGenAmbiguous(t *testing.T) {
	for _, op := range []gen.Op{gen.OpRead, gen.OpFetchAdd} {
		cfg := gen.DefaultConfig()
		cfg.Op, cfg.Size, cfg.MTU, cfg.QPs, cfg.PSN, cfg.Messages = op, 4096, 1024, 4, 100, 8
		n := uint64(cfg.Messages) // per QP

		r, _ := genReport(t, cfg)
		require.Len(t, r.Flows, 8)
		for i := 0; i < cfg.QPs; i++ {
			req := find(t, r, "192.0.2.1", "192.0.2.2", cfg.RemoteQP+uint32(i))
			resp := find(t, r, "192.0.2.2", "192.0.2.1", cfg.LocalQP+uint32(i))
			assert.Equal(t, fmt.Sprintf("192.0.2.2 > 192.0.2.1 qp 0x%06x", cfg.LocalQP+uint32(i)), req.Peer, "%v QP %d", op, i)
			assert.Equal(t, n, req.ReadsMatched+req.AtomicsMatched, "%v QP %d", op, i)
			assert.Zero(t, resp.Ambiguous, "%v QP %d", op, i)
		}

		r = genReportPorts(t, cfg, 50000) // every response from port 50000
		require.Len(t, r.Flows, 8)
		for i := 0; i < cfg.QPs; i++ {
			req := find(t, r, "192.0.2.1", "192.0.2.2", cfg.RemoteQP+uint32(i))
			assert.Empty(t, req.Peer, "%v QP %d", op, i)
			assert.Zero(t, req.ReadsMatched+req.AtomicsMatched, "%v QP %d", op, i)
			resp := find(t, r, "192.0.2.2", "192.0.2.1", cfg.LocalQP+uint32(i))
			assert.Empty(t, resp.Peer, "%v QP %d", op, i)
			assert.Equal(t, cfg.QPs, resp.Ambiguous, "%v QP %d", op, i)
		}
	}
}

// genReportPorts is genReport with the UDP source port of every frame
// from the responder (192.0.2.2) set to port, and the ICRC fixed.
func genReportPorts(t *testing.T, cfg gen.Config, port uint16) *flow.Report {
	t.Helper()
	g, err := gen.New(cfg)
	require.NoError(t, err)
	an := flow.New(flow.Config{})
	var rec dump.Record
	var f roce.Frame
	for n := 1; g.Next(); n++ {
		b := append([]byte(nil), g.Frame()...)
		if f.Decode(b) == nil && f.Encap == ib.RoCEv2IPv4 && f.GRH.SGID[15] == 2 {
			f.SrcPort = port
			var err error
			b, err = f.AppendTo(b[:0])
			require.NoError(t, err)
		}
		rec.Decode(n, g.CaptureInfo(), capfile.LinkTypeEthernet, b)
		an.AddRecord(&rec)
	}
	return an.Report()
}
