package flow_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
)

// records generates traffic with gen and decodes every frame once.
func records(b *testing.B, cfg gen.Config) []dump.Record {
	b.Helper()
	g, err := gen.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var recs []dump.Record
	for n := 1; g.Next(); n++ {
		f := append([]byte(nil), g.Frame()...)
		var r dump.Record
		r.Decode(n, g.CaptureInfo(), capfile.LinkTypeEthernet, f)
		recs = append(recs, r)
	}
	return recs
}

// BenchmarkAddRecord feeds pre-decoded frames to an Analyzer: the cost
// of the analysis alone, per frame. The PSNs repeat from one pass to the
// next, so later passes count duplicates: the slower path of Add.
func BenchmarkAddRecord(b *testing.B) {
	for _, tc := range []struct {
		name string
		set  func(c *gen.Config)
	}{
		{"write-1K-qps4", func(c *gen.Config) { c.Op, c.Size, c.QPs, c.Messages, c.MTU = gen.OpWrite, 1024, 4, 500, 1024 }},
		{"write-1K-qps4-cm", func(c *gen.Config) {
			c.Op, c.Size, c.QPs, c.Messages, c.MTU, c.CM = gen.OpWrite, 1024, 4, 500, 1024, true
		}},
		{"read-4K-qps64", func(c *gen.Config) { c.Op, c.Size, c.QPs, c.Messages, c.MTU = gen.OpRead, 4096, 64, 20, 1024 }},
		{"write-ce", func(c *gen.Config) {
			c.Op, c.Size, c.QPs, c.Messages, c.MTU, c.CEEvery = gen.OpWrite, 1024, 4, 500, 1024, 7
		}},
	} {
		cfg := gen.DefaultConfig()
		cfg.PSN = -1
		tc.set(&cfg)
		recs := records(b, cfg)
		b.Run(tc.name, func(b *testing.B) {
			an := flow.New(flow.Config{})
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				an.AddRecord(&recs[i])
				if i++; i == len(recs) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkManyQPs analyses the capture of rocegen -op write -size 2K
// -mtu 1024 -qps N -messages 3 (every connection between one host pair,
// first PSNs drawn from the seed), generated and decoded on the fly: the
// cost of pairing grows with the flows whose PSNs are near, not with N.
// It reports the time per frame (generation and decoding included) and
// the heap the Analyzer holds per flow at the end.
func BenchmarkManyQPs(b *testing.B) {
	for _, qps := range []int{2000, 8000, 16000} {
		b.Run(fmt.Sprint(qps), func(b *testing.B) {
			cfg := gen.DefaultConfig()
			cfg.Op, cfg.Size, cfg.MTU, cfg.QPs, cfg.Messages = gen.OpWrite, 2048, 1024, qps, 3
			var rec dump.Record
			frames, perFlow := 0, 0.0
			for b.Loop() {
				g, err := gen.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				an := flow.New(flow.Config{MaxFlows: 1 << 20})
				n := 0
				for ; g.Next(); n++ {
					rec.Decode(n+1, g.CaptureInfo(), capfile.LinkTypeEthernet, g.Frame())
					an.AddRecord(&rec)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				flows := len(an.Report().Flows)
				if flows != 2*qps {
					b.Fatalf("%d flows, want %d", flows, 2*qps)
				}
				perFlow = float64(after.HeapAlloc-before.HeapAlloc) / float64(flows)
				runtime.KeepAlive(an)
				frames = n
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*frames), "ns/frame")
			b.ReportMetric(perFlow, "B/flow")
		})
	}
}
