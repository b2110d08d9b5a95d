package nvmeof_test

import (
	"encoding/hex"
	"fmt"

	"github.com/roce-go/roce/nvmeof"
)

// A Read command capsule and its completion, as an I/O queue's SENDs
// carry them.
func Example() {
	capsule, _ := hex.DecodeString("02402a000100000000000000000000000000000000000000" +
		"0010203040506070001000785634124000e1f5050000000007000000000000000000000000000000")
	var c nvmeof.Command
	data, err := c.Split(capsule)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s cid %d nsid %d slba %d blocks %d, %d bytes in the capsule\n", c.Name(false), c.CID, c.NSID, c.SLBA(), int(c.NLB())+1, len(data))
	fmt.Printf("data: %s, %d bytes at %#x key %#x\n", c.SGL1.Type, c.SGL1.Length, c.SGL1.Address, c.SGL1.Key)

	cqe, _ := hex.DecodeString("000000000000000010000300" + "2a0003c5")
	var r nvmeof.Completion
	if err := r.Decode(cqe); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("cid %d: %s (%s), do not retry %v\n", r.CID, r.Status.Name(false), r.Status.TypeName(), r.Status.DNR())
	// Output:
	// Read cid 42 nsid 1 slba 100000000 blocks 8, 0 bytes in the capsule
	// data: Keyed Data Block, 4096 bytes at 0x7060504030201000 key 0x12345678
	// cid 42: Unrecovered Read Error (Media and Data Integrity Errors), do not retry true
}
