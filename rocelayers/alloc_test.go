package rocelayers_test

import (
	"testing"

	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/rocelayers"
)

// TestNoAllocs holds the allocation contract of the package doc: the
// parser of Layers.Parser decodes a frame of each golden capture (RoCEv1,
// RoCEv2 over IPv4 and IPv6), every frame of the real 4 KiB RDMA WRITE
// capture, and a native packet, and FixICRC rewrites an ICRC, with no
// allocation. Each closure fails the test if its call failed.
func TestNoAllocs(t *testing.T) {
	var l rocelayers.Layers
	eth, lrh := l.Parser(), l.ParserFrom(rocelayers.LayerTypeLRH)
	decoded := make([]gopacket.LayerType, 0, 16)
	frames, roce := 0, 0
	for _, c := range captures(t) {
		p := eth
		if c.native {
			p = lrh
		}
		for i, frame := range c.frames {
			if p.DecodeLayers(frame, &decoded) != nil || len(decoded) < 3 {
				continue // not a frame the parser decodes whole
			}
			fixed := append([]byte(nil), frame...)
			allocs := testing.AllocsPerRun(10, func() {
				if err := p.DecodeLayers(frame, &decoded); err != nil || len(decoded) < 3 {
					t.Fatalf("%s frame %d: %v %v", c.name, i+1, decoded, err)
				}
			})
			if allocs != 0 {
				t.Fatalf("%s frame %d: %v allocations decoding %v", c.name, i+1, allocs, decoded)
			}
			frames++
			if c.native || !isRoCE(decoded) {
				continue
			}
			roce++
			if allocs := testing.AllocsPerRun(10, func() {
				if err := rocelayers.FixICRC(fixed); err != nil {
					t.Fatalf("%s frame %d: FixICRC: %v", c.name, i+1, err)
				}
			}); allocs != 0 {
				t.Fatalf("%s frame %d: %v allocations in FixICRC", c.name, i+1, allocs)
			}
		}
	}
	t.Logf("%d frames decoded without allocating, %d ICRCs fixed", frames, roce)
	if roce < 4000 {
		t.Errorf("only %d RoCE frames", roce)
	}
}

// isRoCE reports whether the parser decoded a BTH.
func isRoCE(decoded []gopacket.LayerType) bool {
	for _, lt := range decoded {
		if lt == rocelayers.LayerTypeBTH {
			return true
		}
	}
	return false
}
