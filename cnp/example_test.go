package cnp_test

import (
	"encoding/hex"
	"fmt"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ecn"
)

// A notification point receives a CE-marked RoCEv2 packet and answers it
// with a CNP to the sender's queue pair, paced per queue pair.
func ExampleReply() {
	// RoCEv2/IPv4 SEND Only from 192.168.1.1 to QP 0x12 of 192.168.1.2,
	// sent ECT(0); a congested switch marks it CE on the way.
	rx, _ := hex.DecodeString("02000000000202000000000108004502003c123440004011a527c0a80101c0a80102" +
		"c00012b700280000" + "0470ffff0000001280000001" + "526f4345207465737420766563000000" + "85bca00f")
	ecn.MarkCE(rx)

	// The receiver's QP 0x12 is connected to the sender's QP 0x34.
	const senderQP = 0x34
	pacer := cnp.NewPacer(0, cnp.DefaultInterval)
	now := int64(1_000_000) // the caller's clock, in nanoseconds

	buf := make([]byte, 0, 128)
	if pacer.Allow(senderQP, now) {
		reply, err := cnp.Reply(buf[:0], rx, senderQP, nil)
		if err != nil {
			panic(err)
		}
		var f roce.Frame
		if err := cnp.Decode(&f.Packet, reply); err != nil {
			panic(err)
		}
		if err := f.Decode(reply); err != nil { // the addresses
			panic(err)
		}
		fmt.Printf("%d-byte CNP %v -> %v, DSCP %d\n", len(reply),
			f.GRH.SrcGID().Unmap(), f.GRH.DstGID().Unmap(), f.GRH.TClass>>2)
		fmt.Printf("opcode %#x, BECN %v, DestQP %#x, UDP %d -> %d\n", uint8(f.Packet.BTH.OpCode),
			f.Packet.BTH.BECN, f.Packet.BTH.DestQP, f.SrcPort, f.DstPort)
		fmt.Println("ICRC valid:", f.VerifyICRC() == nil, "conforming:", cnp.Check(&f.Packet) == nil)
	}
	fmt.Println("again 1 µs later:", pacer.Allow(senderQP, now+1000))
	fmt.Println("again 4 µs later:", pacer.Allow(senderQP, now+4000))
	// Output:
	// 74-byte CNP 192.168.1.2 -> 192.168.1.1, DSCP 48
	// opcode 0x81, BECN true, DestQP 0x34, UDP 49152 -> 4791
	// ICRC valid: true conforming: true
	// again 1 µs later: false
	// again 4 µs later: true
}

// IsCNP picks CNPs out of captured frames without decoding them.
func ExampleIsCNP() {
	frame, _ := hex.DecodeString("020000000001020000000002080045c2003c000040004011b69bc0a80102c0a80101" +
		"c00112b700280000" + "8100ffff4000003400000000" + "00000000000000000000000000000000" + "0d07721e")
	fmt.Println(cnp.IsCNP(frame))
	// Output: true
}
