package ib

import (
	"encoding/binary"

	"github.com/google/gopacket"
)

// ImmDtLen is the size of the immediate data header.
const ImmDtLen = 4

// ImmDt is the Immediate Data header (IBTA Vol 1, 9.3.7): four opaque
// bytes delivered to the receiver with the completion. Data holds them
// read big-endian, so printing it as %08x shows the bytes in wire order.
type ImmDt struct {
	eth
	Data uint32 // the four bytes, big-endian
}

func (h *ImmDt) parse(b []byte) {
	h.Data = binary.BigEndian.Uint32(b[:4])
}

func (h *ImmDt) put(b []byte) {
	binary.BigEndian.PutUint32(b[:4], h.Data)
}

// do encodes or checks the header for Packet.eths.
func (h *ImmDt) do(op ethOp, b []byte) error {
	if op == ethPut {
		h.put(b)
	}
	return nil
}

// LayerType returns LayerTypeImmDt.
func (h *ImmDt) LayerType() gopacket.LayerType { return LayerTypeImmDt }

// CanDecode returns LayerTypeImmDt.
func (h *ImmDt) CanDecode() gopacket.LayerClass { return LayerTypeImmDt }

// DecodeFromBytes decodes the header from the start of data, resetting
// h first; df may be nil.
func (h *ImmDt) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if err := h.decode(data, HeaderImmDt, df); err != nil {
		*h = ImmDt{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// SerializeTo prepends the header. Every value of every field fits, so it
// fails only if b does.
func (h *ImmDt) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prepend(b, ImmDtLen, h)
}
