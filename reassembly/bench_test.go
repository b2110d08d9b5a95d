package reassembly_test

import (
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/reassembly"
)

// BenchmarkAdd adds the packets of 4 KiB SENDs of 1 KiB packets, in
// order, per packet.
func BenchmarkAdd(b *testing.B) { benchAdd(b, false) }

// BenchmarkAddReordered is BenchmarkAdd with each message's Middle
// before its First.
func BenchmarkAddReordered(b *testing.B) { benchAdd(b, true) }

func benchAdd(b *testing.B, reorder bool) {
	var round []ib.Packet
	for i := range 64 {
		p, _ := sendOf(uint32(4*i), 4096)
		if reorder {
			p[0], p[1] = p[1], p[0]
		}
		round = append(round, p...)
	}
	n := 0
	a := reassembly.New(reassembly.Config{}, func(*reassembly.Message[int]) { n++ })
	b.SetBytes(1024)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := &round[i%len(round)]
		a.Add(1, reassembly.Mark{Frame: i}, p)
		p.BTH.PSN = (p.BTH.PSN + 256) & (1<<24 - 1)
	}
	if n == 0 {
		b.Fatal("no message")
	}
}
