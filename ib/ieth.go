package ib

import (
	"encoding/binary"

	"github.com/google/gopacket"
)

// IETHLen is the size of the Invalidate ETH.
const IETHLen = 4

// IETH is the Invalidate Extended Transport Header (IBTA Vol 1, 9.3.8),
// carried by SEND Last/Only with Invalidate: the R_Key to invalidate.
type IETH struct {
	eth
	RKey uint32 // the remote key to invalidate
}

func (h *IETH) parse(b []byte) {
	h.RKey = binary.BigEndian.Uint32(b[:4])
}

func (h *IETH) put(b []byte) {
	binary.BigEndian.PutUint32(b[:4], h.RKey)
}

// do encodes, checks or decodes the header for Packet.eths.
func (h *IETH) do(op ethOp, b []byte) error {
	switch op {
	case ethPut:
		h.put(b)
	case ethGet:
		h.parse(b)
	}
	return nil
}

// LayerType returns LayerTypeIETH.
func (h *IETH) LayerType() gopacket.LayerType { return LayerTypeIETH }

// CanDecode returns LayerTypeIETH.
func (h *IETH) CanDecode() gopacket.LayerClass { return LayerTypeIETH }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's IETHLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *IETH) Decode(data []byte) error {
	if err := h.decode(data, HeaderIETH); err != nil {
		*h = IETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *IETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. Every value of every
// field fits, so it fails only if b does.
func (h *IETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, IETHLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *IETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}
