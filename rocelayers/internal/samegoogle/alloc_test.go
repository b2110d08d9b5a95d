package samegoogle_test

import (
	"testing"

	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/rocelayers"
)

// TestNoAllocs holds the allocation contract of the package doc: the
// parser of Layers.Parser decodes a frame of each golden capture (RoCEv1,
// RoCEv2 over IPv4 and IPv6), every frame of the real 4 KiB RDMA WRITE
// capture, the MADs and the link type 242 records, and a native packet, and FixICRC rewrites an ICRC, with no
// allocation. Each closure fails the test if its call failed.
func TestNoAllocs(t *testing.T) {
	var l rocelayers.Layers
	decoded := make([]gopacket.LayerType, 0, 16)
	frames, roce, mads, records := 0, 0, 0, 0
	for _, c := range captures(t) {
		_, first := c.starts()
		p := l.ParserFrom(first)
		p.IgnoreUnsupported = c.ipoib // the ICMP or ARP packet IPoIB carries
		least := 3                    // headers of a frame, or of a packet from its LRH
		if c.gfirst != 0 {
			least = 1 // a MAD (and its body)
		}
		for i, frame := range c.frames {
			if p.DecodeLayers(frame, &decoded) != nil || len(decoded) < least {
				continue // not a frame the parser decodes whole
			}
			fixed := append([]byte(nil), frame...)
			allocs := testing.AllocsPerRun(10, func() {
				if err := p.DecodeLayers(frame, &decoded); err != nil || len(decoded) < least {
					t.Fatalf("%s frame %d: %v %v", c.name, i+1, decoded, err)
				}
			})
			if allocs != 0 {
				t.Fatalf("%s frame %d: %v allocations decoding %v", c.name, i+1, allocs, decoded)
			}
			frames++
			if c.gfirst != 0 || has(decoded, rocelayers.LayerTypeMAD) {
				mads++
			}
			if c.ipoib {
				records++
			}
			if c.native || !has(decoded, rocelayers.LayerTypeBTH) {
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
	t.Logf("%d frames decoded without allocating (%d with a MAD, %d link type 242 records), %d ICRCs fixed", frames, mads, records, roce)
	if roce < 4000 || mads < 20 || records < 15 {
		t.Errorf("only %d RoCE frames, %d MADs, %d link type 242 records", roce, mads, records)
	}
}

// has reports whether the parser decoded a layer of type t.
func has(decoded []gopacket.LayerType, t gopacket.LayerType) bool {
	for _, lt := range decoded {
		if lt == t {
			return true
		}
	}
	return false
}
