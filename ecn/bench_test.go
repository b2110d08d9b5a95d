package ecn_test

import (
	"testing"

	"github.com/roce-go/roce/internal/testkit/corpus"

	"github.com/roce-go/roce/ecn"
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

// BenchmarkMarkCE marks an ECT(0) frame CE; each iteration first resets
// the TOS byte to ECT(0) (one store) so that every MarkCE rewrites.
func BenchmarkMarkCE(b *testing.B) {
	for _, bc := range []struct {
		name  string
		hex   string
		tags  int
		reset func(f []byte)
	}{
		{"IPv4", hexV1, 0, func(f []byte) { f[15] = 0x02 }},
		{"IPv4/VLAN", hexV1, 1, func(f []byte) { f[19] = 0x02 }},
		{"IPv6", hexV2, 0, func(f []byte) { f[15] = 0x21 }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := withTags(corpus.Hex(b, bc.hex), bc.tags)
			b.ReportAllocs()
			for b.Loop() {
				bc.reset(f)
				if ok, err := ecn.MarkCE(f); !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
		})
	}
}
