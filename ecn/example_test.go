package ecn_test

import (
	"encoding/hex"
	"fmt"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ecn"
)

// A switch marks CE on a RoCEv2 frame in place: the IPv4 header checksum
// is updated and the ICRC, which masks the TOS byte and the checksum,
// still verifies.
func ExampleMarkCE() {
	// RoCEv2/IPv4 RC SEND Only, TOS 0x02 (ECT(0)), header checksum 0xa527.
	frame, _ := hex.DecodeString("02000000000202000000000108004502003c123440004011a527c0a80101c0a80102" +
		"c00012b700280000" + "0470ffff0000001280000001" + "526f4345207465737420766563000000" + "85bca00f")

	before, _ := ecn.FrameECN(frame)
	marked, err := ecn.MarkCE(frame)
	if err != nil {
		panic(err)
	}
	after, _ := ecn.FrameECN(frame)
	fmt.Printf("%v -> %v, marked %v\n", before, after, marked)
	fmt.Printf("TOS %#02x, header checksum %x\n", frame[15], frame[24:26])
	fmt.Println("ICRC valid:", roce.VerifyFrame(frame) == nil)

	marked, _ = ecn.MarkCE(frame)
	fmt.Println("marked again:", marked)
	// Output:
	// ECT(0) -> CE, marked true
	// TOS 0x03, header checksum a526
	// ICRC valid: true
	// marked again: false
}

// Setting the DSCP keeps the ECN field and fixes the IPv4 checksum.
func ExampleSetIPv4DSCP() {
	hdr, _ := hex.DecodeString("4502003c123440004011a527c0a80101c0a80102")
	if err := ecn.SetIPv4DSCP(hdr, 26); err != nil {
		panic(err)
	}
	dscp, _ := ecn.IPv4DSCP(hdr)
	c, _ := ecn.IPv4ECN(hdr)
	fmt.Printf("TOS %#02x: DSCP %d, %v, checksum %x\n", hdr[1], dscp, c, hdr[10:12])
	// Output:
	// TOS 0x6a: DSCP 26, ECT(0), checksum a4bf
}
