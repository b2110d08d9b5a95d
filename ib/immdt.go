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

// do encodes, checks or decodes the header for Packet.eths.
func (h *ImmDt) do(op ethOp, b []byte) error {
	switch op {
	case ethPut:
		h.put(b)
	case ethGet:
		h.parse(b)
	}
	return nil
}

// LayerType returns LayerTypeImmDt.
func (h *ImmDt) LayerType() gopacket.LayerType { return LayerTypeImmDt }

// CanDecode returns LayerTypeImmDt.
func (h *ImmDt) CanDecode() gopacket.LayerClass { return LayerTypeImmDt }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's ImmDtLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *ImmDt) Decode(data []byte) error {
	if err := h.decode(data, HeaderImmDt); err != nil {
		*h = ImmDt{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *ImmDt) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. Every value of every
// field fits, so it fails only if b does.
func (h *ImmDt) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, ImmDtLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *ImmDt) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}
