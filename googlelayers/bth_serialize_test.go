package googlelayers_test

import (
	"bytes"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
)

// An opcode IBTA does not define decodes as a BTH and opaque bytes, pad
// included; SerializeTo must give those bytes back without adding the
// PadCnt pad bytes a second time (found by fuzz.FuzzBTH, input
// fuzz/testdata/fuzz/FuzzBTH/d8729013defaf4cf).
func TestBTHSerializeUnknownOpcodeWithPadCnt(t *testing.T) {
	// Opcode 0x30 (UC, reserved), PadCnt 3, four opaque bytes, ICRC.
	in := []byte{0x30, 0x30, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 2, 0xa, 0xb, 0xc, 0xd, 1, 2, 3, 4}
	var h googlelayers.BTH
	if err := h.DecodeFromBytes(in, gopacket.NilDecodeFeedback); err != nil {
		t.Fatal(err)
	}
	if h.PadCnt != 3 || len(h.Pad) != 0 || len(h.Payload) != 4 {
		t.Fatalf("PadCnt %d, pad %x, payload %x", h.PadCnt, h.Pad, h.Payload)
	}
	for _, opts := range []gopacket.SerializeOptions{{}, {FixLengths: true}} {
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, opts, &h, gopacket.Payload(h.Payload)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), in) {
			t.Errorf("%+v: SerializeTo\n%x\nwant\n%x", opts, buf.Bytes(), in)
		}
	}
}
