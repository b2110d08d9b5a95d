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

// do encodes or checks the header for Packet.eths.
func (h *IETH) do(op ethOp, b []byte) error {
	if op == ethPut {
		h.put(b)
	}
	return nil
}

// LayerType returns LayerTypeIETH.
func (h *IETH) LayerType() gopacket.LayerType { return LayerTypeIETH }

// CanDecode returns LayerTypeIETH.
func (h *IETH) CanDecode() gopacket.LayerClass { return LayerTypeIETH }

// DecodeFromBytes decodes the header from the start of data, resetting
// h first; df may be nil.
func (h *IETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if err := h.decode(data, HeaderIETH, df); err != nil {
		*h = IETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// SerializeTo prepends the header. Every value of every field fits, so it
// fails only if b does.
func (h *IETH) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prepend(b, IETHLen, h)
}
