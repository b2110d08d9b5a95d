package rocev1_test

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev1"
)

// Decode a RoCEv1 frame, check its ICRC, then damage it.
func Example() {
	frame, err := hex.DecodeString(strings.ReplaceAll(v3, " ", "")) // vector V3 of docs/icrc-vectors.md
	if err != nil {
		fmt.Println(err)
		return
	}
	var grh ib.GRH
	rest, _, err := grh.Split(frame[14:]) // after the Ethernet header
	if err != nil {
		fmt.Println(err)
		return
	}
	var p ib.Packet
	if err := p.Decode(rest); err != nil {
		fmt.Println(err)
		return
	}
	bth := &p.BTH
	fmt.Println(grh.SrcGID(), ">", grh.DstGID(), bth.OpCode, "qp", bth.DestQP, "psn", bth.PSN)

	pkt := frame[14:] // GRH through ICRC
	fmt.Println(rocev1.VerifyICRC(pkt))
	pkt[len(pkt)-1] ^= 0xff
	fmt.Println(rocev1.VerifyICRC(pkt))
	if err := rocev1.PutICRC(pkt); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rocev1.VerifyICRC(pkt))
	// Output:
	// fe80::1 > fe80::2 RC SEND Only qp 18 psn 1
	// <nil>
	// roce: bad ICRC (computed 0x6b2406b9, received 0x942406b9)
	// <nil>
}
