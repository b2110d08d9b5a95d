package ecmp_test

import (
	"fmt"
	"net/netip"

	"github.com/roce-go/roce/ecmp"
	"github.com/roce-go/roce/rocev2"
)

// Eight queue pairs between two hosts, each with the UDP source port
// Linux derives from its QP numbers, hashed onto four paths; then the
// same queue pairs all sending from one port.
func Example() {
	src, dst := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	for _, fixed := range []bool{false, true} {
		paths := make([]uint64, 4)
		ports := map[uint16]uint64{}
		for qp := uint32(0x100); qp < 0x108; qp++ {
			t := ecmp.Tuple{Src: src, Dst: dst, Proto: ecmp.ProtoUDP, DstPort: 4791,
				SrcPort: rocev2.FlowLabelToUDPSrcPort(rocev2.CalcFlowLabel(qp, qp+0x100))}
			if fixed {
				t.SrcPort = 49152
			}
			ports[t.SrcPort]++
			paths[ecmp.Hashes[0].Path(&t, len(paths))] += 1 << 20 // a MiB each
		}
		var counts []uint64
		for _, n := range ports {
			counts = append(counts, n)
		}
		fmt.Printf("ports %d entropy %.2f bits, crc16-ccitt MiB per path %v, max/mean %.2f\n",
			len(ports), ecmp.Entropy(counts), mib(paths), ecmp.Imbalance(paths))
	}
	// Output:
	// ports 8 entropy 3.00 bits, crc16-ccitt MiB per path [3 3 1 1], max/mean 1.50
	// ports 1 entropy 0.00 bits, crc16-ccitt MiB per path [8 0 0 0], max/mean 4.00
}

func mib(b []uint64) []uint64 {
	out := make([]uint64, len(b))
	for i, v := range b {
		out[i] = v >> 20
	}
	return out
}
