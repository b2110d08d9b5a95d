package cnp_test

import (
	"testing"

	"github.com/roce-go/roce/internal/testkit/corpus"

	"github.com/roce-go/roce/cnp"
)

var sink64 [64]byte

// BenchmarkCopy64 is the baseline: copying 64 bytes.
func BenchmarkCopy64(b *testing.B) {
	src := make([]byte, 64)
	b.ReportAllocs()
	b.SetBytes(64)
	for b.Loop() {
		copy(sink64[:], src)
	}
}

// BenchmarkReply builds the CNP for a CE-marked frame.
func BenchmarkReply(b *testing.B) {
	for _, bc := range []struct {
		name string
		hex  string
		tag  bool
	}{{"IPv4", hexV1, false}, {"IPv4/VLAN", hexV1, true}, {"IPv6", hexV2, false}} {
		b.Run(bc.name, func(b *testing.B) {
			f := corpus.Hex(b, bc.hex)
			tags := 0
			if bc.tag {
				f, tags = withTag(f, 3, 10), 1
			}
			markCE(f, tags)
			buf := make([]byte, 0, 128)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := cnp.Reply(buf[:0], f, 0x1234, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIsCNP runs the predicate on a CNP.
func BenchmarkIsCNP(b *testing.B) {
	f := corpus.Hex(b, hexV4)
	b.ReportAllocs()
	for b.Loop() {
		if !cnp.IsCNP(f) {
			b.Fatal("not a CNP")
		}
	}
}

// BenchmarkPacer asks the pacer about QPs in steady state: Hot cycles
// over 1,000 QPs in a table of 4,096, Churn over 1,000,000.
func BenchmarkPacer(b *testing.B) {
	for _, bc := range []struct {
		name string
		qps  uint32
	}{{"Hot", 1000}, {"Churn", 1_000_000}} {
		b.Run(bc.name, func(b *testing.B) {
			p := cnp.NewPacer(4096, cnp.DefaultInterval)
			var now int64
			var qp uint32
			b.ReportAllocs()
			for b.Loop() {
				now += 7
				qp++
				if qp == bc.qps {
					qp = 0
				}
				p.Allow(qp, now)
			}
		})
	}
}
