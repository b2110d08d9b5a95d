package ib_test

import (
	"bytes"
	"testing"

	"github.com/roce-go/roce/ib"
)

// An opcode IBTA does not define decodes as a BTH and opaque bytes, pad
// included; AppendTo must give those bytes back without adding the
// PadCnt pad bytes a second time (found by fuzz.FuzzBTH, input
// fuzz/testdata/fuzz/FuzzBTH/d8729013defaf4cf; googlelayers tests the
// same for SerializeTo).
func TestPacketUnknownOpcodeWithPadCnt(t *testing.T) {
	// Opcode 0x30 (UC, reserved), PadCnt 3, four opaque bytes, ICRC.
	in := []byte{0x30, 0x30, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 2, 0xa, 0xb, 0xc, 0xd, 1, 2, 3, 4}
	var p ib.Packet
	if err := p.Decode(in); err != nil {
		t.Fatal(err)
	}
	if p.BTH.PadCnt != 3 || len(p.BTH.Pad) != 0 || len(p.Payload) != 4 {
		t.Fatalf("PadCnt %d, pad %x, payload %x", p.BTH.PadCnt, p.BTH.Pad, p.Payload)
	}
	out, err := p.AppendTo(nil)
	if err != nil || !bytes.Equal(out, in) {
		t.Errorf("AppendTo (%v)\n%x\nwant\n%x", err, out, in)
	}
}
