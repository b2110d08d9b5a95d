package ib_test

import (
	"encoding/hex"
	"fmt"

	"github.com/roce-go/roce/ib"
)

func ExampleOpcode() {
	for _, op := range []ib.Opcode{0x0b, 0x4b, 0x65, 0xac, 0x81, 0xc0} {
		fmt.Printf("%#02x %-34s [%s]\n", uint8(op), op, op.Headers())
	}
	// Output:
	// 0x0b RC RDMA WRITE Only with Immediate  [RETH ImmDt]
	// 0x4b RD RDMA WRITE Only with Immediate  [RDETH DETH RETH ImmDt]
	// 0x65 UD SEND Only with Immediate        [DETH ImmDt]
	// 0xac XRC RDMA READ Request              [XRCETH RETH]
	// 0x81 CNP                                []
	// 0xc0 Vendor (0xc0)                      []
}

// Check the ICRC of a packet captured on an InfiniBand link: LRH (LNH 2,
// no GRH), BTH of an RC SEND Only, 4 bytes of payload, ICRC. (The value was
// worked out with Python's zlib.crc32 over the masked bytes.)
func ExampleComputeNativeICRC() {
	pkt, _ := hex.DecodeString("00020001000700020400ffff000000120000000149422121b55ebbaf")
	crc, _ := ib.ComputeNativeICRC(pkt)
	fmt.Printf("computed %#08x, received %#08x\n", crc, ib.ReceivedICRC(pkt))
	pkt[0] |= 0x30 // change the VL, which a switch may rewrite
	fmt.Println("after a VL change:", ib.VerifyNativeICRC(pkt))
	// Output:
	// computed 0xafbb5eb5, received 0xafbb5eb5
	// after a VL change: <nil>
}

// Compute and check the ICRC of a RoCEv2/IPv6 packet: from the first byte of
// the IPv6 header through the ICRC.
func ExampleComputeICRC() {
	frame, _ := hex.DecodeString("02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d")
	pkt := frame[14:]
	crc, _ := ib.ComputeICRC(ib.RoCEv2IPv6, pkt)
	fmt.Printf("computed %#08x, received %#08x\n", crc, ib.ReceivedICRC(pkt))
	pkt[1] ^= 0x30 // change the ECN bits: a variant field
	fmt.Println("after CE marking:", ib.VerifyICRC(ib.RoCEv2IPv6, pkt))
	pkt[45] ^= 1 // change the UDP length: an invariant field
	fmt.Println("after corruption:", ib.VerifyICRC(ib.RoCEv2IPv6, pkt))
	// Output:
	// computed 0x2d7b8b03, received 0x2d7b8b03
	// after CE marking: <nil>
	// after corruption: roce: bad ICRC (computed 0x239c63d2, received 0x2d7b8b03)
}
