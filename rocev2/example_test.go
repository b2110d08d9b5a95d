package rocev2_test

import (
	"encoding/hex"
	"fmt"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

func ExampleFlowLabelToUDPSrcPort() {
	fl := rocev2.CalcFlowLabel(0x11, 0x2a) // the same from both ends
	fmt.Printf("flow label %#05x -> UDP source port %d\n", fl, rocev2.FlowLabelToUDPSrcPort(fl))
	// Output:
	// flow label 0x002ca -> UDP source port 49866
}

// Turn a RoCEv2/IPv4 acknowledgement into RoCEv1 and back; both carry a
// valid ICRC.
func ExampleToRoCEv1() {
	v2, _ := hex.DecodeString("020000000001020000000002080045020030000140004011b766c0a80102c0a80101c00012b7001c00001100ffff00000011000000011f000005aea7a67c")
	v1, _ := rocev2.ToRoCEv1(nil, v2)
	fmt.Println(len(v2), "->", len(v1), "bytes, RoCEv1 ICRC:", ib.VerifyICRC(ib.RoCEv1, v1[14:]))
	again, _ := rocev2.FromRoCEv1(nil, v1, 0xc000)
	fmt.Println(len(again), "bytes, RoCEv2 ICRC:", ib.VerifyICRC(ib.RoCEv2IPv4, again[14:]))
	// Output:
	// 62 -> 74 bytes, RoCEv1 ICRC: <nil>
	// 62 bytes, RoCEv2 ICRC: <nil>
}
