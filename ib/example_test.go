package ib_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/roce-go/roce/ib"
)

func ExampleOpcode() {
	for _, op := range []ib.Opcode{ib.OpRCRDMAWriteOnlyWithImmediate, ib.OpRDRDMAWriteOnlyWithImmediate,
		ib.OpUDSendOnlyWithImmediate, ib.OpXRCRDMAReadRequest, ib.OpCNP, 0xc0} {
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

// Classify opcodes by the columns of the opcode table rather than by their
// numbers or names.
func ExampleOpcode_Is() {
	for _, op := range []ib.Opcode{ib.OpRCRDMAWriteFirst, ib.OpUCRDMAWriteLastWithImmediate,
		ib.OpRCRDMAReadResponseOnly, ib.OpXRCAcknowledge, ib.OpRDCmpSwap} {
		fmt.Printf("%-34s write %-5v ends a message %-5v full MTU %-5v immediate %-5v request %v\n", op,
			op.Is(ib.ClassWrite), op.Is(ib.ClassEndsMessage), op.Is(ib.ClassFullMTU),
			op.Is(ib.ClassImmediate), op.IsRequest())
	}
	// Output:
	// RC RDMA WRITE First                write true  ends a message false full MTU true  immediate false request true
	// UC RDMA WRITE Last with Immediate  write true  ends a message true  full MTU false immediate true  request true
	// RC RDMA READ Response Only         write false ends a message true  full MTU false immediate false request false
	// XRC Acknowledge                    write false ends a message false full MTU false immediate false request false
	// RD CmpSwap                         write false ends a message false full MTU false immediate false request true
}

// The same operation on another transport.
func ExampleMakeOpcode() {
	op := ib.MakeOpcode(ib.UC, ib.RDMAWriteOnly)
	fmt.Println(op, op == ib.OpUCRDMAWriteOnly, op.Headers())
	fmt.Println(ib.MakeOpcode(ib.UD, ib.RDMAWriteOnly).Known()) // UD has no RDMA
	// Output:
	// UC RDMA WRITE Only true RETH
	// false
}

// AppendTo refuses what the decoder would refuse or what does not fit its
// field, and says which field.
func ExamplePacket_AppendTo() {
	for _, p := range []ib.Packet{
		{BTH: ib.BTH{OpCode: ib.OpRCSendOnly, DestQP: 0x1000000}},
		{BTH: ib.BTH{OpCode: ib.OpUDSendOnly, DestQP: 1}, DETH: ib.DETH{QKey: 0x80010000, SrcQP: 0xfffffff}},
		{BTH: ib.BTH{OpCode: ib.OpRCAcknowledge}, Payload: []byte("data")},
		{BTH: ib.BTH{OpCode: ib.OpRCAtomicWrite}, Payload: make([]byte, 9)},
		{BTH: ib.BTH{OpCode: ib.OpRCSendOnly, DestQP: 0x12, PSN: 1}, Payload: []byte("hello")},
	} {
		b, err := p.AppendTo(nil)
		var fe *ib.FieldError
		switch {
		case errors.As(err, &fe):
			fmt.Printf("%v\n  field %s, value %#x, ErrBadValue %v, ErrBadLength %v\n", err, fe.Field, fe.Value,
				errors.Is(err, ib.ErrBadValue), errors.Is(err, ib.ErrBadLength))
		case err == nil:
			fmt.Printf("%d bytes, PadCnt %d\n", len(b), p.BTH.PadCnt)
		}
	}
	// Output:
	// roce: BTH.DestQP 0x1000000 does not fit 24 bits
	//   field BTH.DestQP, value 0x1000000, ErrBadValue true, ErrBadLength false
	// roce: DETH.SrcQP 0xfffffff does not fit 24 bits
	//   field DETH.SrcQP, value 0xfffffff, ErrBadValue true, ErrBadLength false
	// roce: Packet.Payload of 4 bytes: RC Acknowledge carries no payload
	//   field Packet.Payload, value 0x4, ErrBadValue false, ErrBadLength true
	// roce: Packet.Payload of 9 bytes: RC ATOMIC WRITE carries exactly 8 bytes
	//   field Packet.Payload, value 0x9, ErrBadValue false, ErrBadLength true
	// 24 bytes, PadCnt 3
}

// A truncated input is an error matching ErrTruncated (and
// io.ErrUnexpectedEOF), never a panic.
func ExampleBTH_Decode() {
	var h ib.BTH
	err := h.Decode([]byte{0x04, 0x00, 0xff, 0xff, 0, 0, 0, 0x12})
	fmt.Println(err)
	fmt.Println(errors.Is(err, ib.ErrTruncated), errors.Is(err, io.ErrUnexpectedEOF))
	// Output:
	// roce: BTH at offset 0: truncated (want 16 bytes, have 8)
	// true true
}

// Read the Local Route Header of a native InfiniBand packet.
func ExampleLRH_Decode() {
	pkt, _ := hex.DecodeString("00020001000700020400ffff000000120000000149422121b55ebbaf")
	var h ib.LRH
	if err := h.Decode(pkt); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("VL %d SL %d LNH %d DLID %d SLID %d, %d bytes\n", h.VL, h.SL, h.LNH, h.DLID, h.SLID, 4*int(h.PktLen))
	// Output:
	// VL 0 SL 0 LNH 2 DLID 1 SLID 2, 28 bytes
}
