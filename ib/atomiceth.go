package ib

import (
	"encoding/binary"

	"github.com/google/gopacket"
)

// AtomicETHLen is the size of the Atomic ETH.
const AtomicETHLen = 28

// AtomicETH is the Atomic Extended Transport Header (IBTA Vol 1, 9.3.4),
// carried by CmpSwap and FetchAdd. Its 64-bit data fields sit at offsets
// 12 and 20, not 8-byte aligned:
//
//	+---------------------------------------------------------------+
//	|                    Virtual Address (64 bits)                  |
//	+---------------------------------------------------------------+
//	|                             R_Key                             |
//	+---------------------------------------------------------------+
//	|              Swap (CmpSwap) or Add (FetchAdd) Data            |
//	+---------------------------------------------------------------+
//	|                 Compare Data (CmpSwap only)                   |
//	+---------------------------------------------------------------+
type AtomicETH struct {
	eth
	VA          uint64 // virtual address
	RKey        uint32 // remote key (R_Key)
	SwapData    uint64 // swap (CmpSwap) or add (FetchAdd) data
	CompareData uint64 // compare data
}

func (h *AtomicETH) parse(b []byte) {
	h.VA = binary.BigEndian.Uint64(b)
	h.RKey = binary.BigEndian.Uint32(b[8:])
	h.SwapData = binary.BigEndian.Uint64(b[12:])
	h.CompareData = binary.BigEndian.Uint64(b[20:28])
}

func (h *AtomicETH) put(b []byte) {
	binary.BigEndian.PutUint64(b, h.VA)
	binary.BigEndian.PutUint32(b[8:], h.RKey)
	binary.BigEndian.PutUint64(b[12:], h.SwapData)
	binary.BigEndian.PutUint64(b[20:28], h.CompareData)
}

// do encodes, checks or decodes the header for Packet.eths.
func (h *AtomicETH) do(op ethOp, b []byte) error {
	switch op {
	case ethPut:
		h.put(b)
	case ethGet:
		h.parse(b)
	}
	return nil
}

// LayerType returns LayerTypeAtomicETH.
func (h *AtomicETH) LayerType() gopacket.LayerType { return LayerTypeAtomicETH }

// CanDecode returns LayerTypeAtomicETH.
func (h *AtomicETH) CanDecode() gopacket.LayerClass { return LayerTypeAtomicETH }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's AtomicETHLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *AtomicETH) Decode(data []byte) error {
	if err := h.decode(data, HeaderAtomicETH); err != nil {
		*h = AtomicETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *AtomicETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. Every value of every
// field fits, so it fails only if b does.
func (h *AtomicETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, AtomicETHLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *AtomicETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}
