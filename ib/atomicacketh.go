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

// do encodes or checks the header for Packet.eths.
func (h *AtomicAckETH) do(op ethOp, b []byte) error {
	if op == ethPut {
		h.put(b)
	}
	return nil
}

// LayerType returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) LayerType() gopacket.LayerType { return LayerTypeAtomicAckETH }

// CanDecode returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) CanDecode() gopacket.LayerClass { return LayerTypeAtomicAckETH }

// DecodeFromBytes decodes the header from the start of data, resetting
// h first; df may be nil.
func (h *AtomicAckETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if err := h.decode(data, HeaderAtomicAckETH, df); err != nil {
		*h = AtomicAckETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// SerializeTo prepends the header. Every value of every field fits, so it
// fails only if b does.
func (h *AtomicAckETH) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prepend(b, AtomicAckETHLen, h)
}
