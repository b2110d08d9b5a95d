package iser_test

import (
	"fmt"

	"github.com/roce-go/roce/iser"
)

// Example decodes an iSER message as the payload of a SEND carries it:
// the iSER header, then the SCSI Command it carries, a READ(10) whose
// data the target writes to the buffer the header names.
func Example() {
	h := iser.Header{Opcode: iser.OpControl, Flags: iser.FlagRSV, ReadSTag: 0x1234, ReadBaseOffset: 0x7f0010002000}
	cmd := iser.BHS{Opcode: iser.OpSCSICommand, Flags: iser.FlagFinal | iser.FlagRead, ITT: 42}
	cmd.SetWord(20, 4096) // Expected Data Transfer Length
	cmd.SetCDB(iser.ReadWriteCDB(false, 0x1000, 8))
	msg, _ := h.AppendTo(nil)
	msg, _ = cmd.AppendTo(msg)

	var got iser.Header
	pdu, err := got.Split(msg)
	if err != nil {
		fmt.Println(err)
		return
	}
	var bhs iser.BHS
	if err := bhs.Decode(pdu); err != nil {
		fmt.Println(err)
		return
	}
	cdb := bhs.CDB()
	lba, _ := cdb.LBA()
	n, _ := cdb.TransferLength()
	fmt.Printf("%s rsv %v stag %#x va %#x\n", got.Opcode, got.RSV(), got.ReadSTag, got.ReadBaseOffset)
	fmt.Printf("%s itt %d %s lba %#x blocks %d length %d\n", bhs.Opcode, bhs.ITT, cdb.Name(), lba, n, bhs.ExpectedDataTransferLength())
	// Output:
	// iSCSI Control-Type rsv true stag 0x1234 va 0x7f0010002000
	// SCSI Command itt 42 READ(10) lba 0x1000 blocks 8 length 4096
}
