package gen_test

import (
	"io"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
)

// BenchmarkGenerate measures Next on long scenarios: one op is one frame.
func BenchmarkGenerate(b *testing.B) {
	for _, bc := range []struct {
		name string
		set  func(c *gen.Config)
	}{
		{"write-4096", func(c *gen.Config) {}},
		{"write-1024-ce-pfc", func(c *gen.Config) { c.MTU, c.CEFraction, c.PFCEvery = 1024, 0.01, 100 }},
		{"read-ipv6-vlan", func(c *gen.Config) { c.Op, c.Encap, c.VLAN = gen.OpRead, 3, 5 }},
		{"send-ud-64", func(c *gen.Config) { c.Transport, c.Op, c.Size = 3, gen.OpSend, 64 }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := gen.DefaultConfig()
			c.Messages = 1 << 30
			bc.set(&c)
			g, err := gen.New(c)
			if err != nil {
				b.Fatal(err)
			}
			bytes := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if !g.Next() {
					b.Fatal("generator ended")
				}
				bytes += len(g.Frame())
			}
			b.SetBytes(int64(bytes / max(b.N, 1)))
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}

// BenchmarkWrite measures Write to a pcap file (discarded): one op is one
// frame.
func BenchmarkWrite(b *testing.B) {
	c := gen.DefaultConfig()
	c.MTU, c.Size = 1024, 1<<20
	c.Messages = max(1, b.N/1024)
	g, err := gen.New(c)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n, err := gen.Write(io.Discard, g, capfile.FormatPcap)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "frames/s")
	b.ReportMetric(float64(n)/float64(b.N), "frames/op")
}
