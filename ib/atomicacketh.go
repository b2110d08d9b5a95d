package ib

import (
	"encoding/binary"

	"github.com/google/gopacket"
)

// AtomicAckETHLen is the size of the Atomic Acknowledge ETH.
const AtomicAckETHLen = 8

// AtomicAckETH is the Atomic Acknowledge Extended Transport Header (IBTA
// Vol 1, 9.3.6), after the AETH of an ATOMIC Acknowledge: the remote value
// before the atomic operation.
type AtomicAckETH struct {
	eth
	OrigRemData uint64 // original remote data
}

func (h *AtomicAckETH) parse(b []byte) {
	h.OrigRemData = binary.BigEndian.Uint64(b[:8])
}

func (h *AtomicAckETH) put(b []byte) {
	binary.BigEndian.PutUint64(b[:8], h.OrigRemData)
}

// do encodes, checks or decodes the header for Packet.eths.
func (h *AtomicAckETH) do(op ethOp, b []byte) error {
	switch op {
	case ethPut:
		h.put(b)
	case ethGet:
		h.parse(b)
	}
	return nil
}

// LayerType returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) LayerType() gopacket.LayerType { return LayerTypeAtomicAckETH }

// CanDecode returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) CanDecode() gopacket.LayerClass { return LayerTypeAtomicAckETH }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's AtomicAckETHLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *AtomicAckETH) Decode(data []byte) error {
	if err := h.decode(data, HeaderAtomicAckETH); err != nil {
		*h = AtomicAckETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *AtomicAckETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. Every value of every
// field fits, so it fails only if b does.
func (h *AtomicAckETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, AtomicAckETHLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *AtomicAckETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}
