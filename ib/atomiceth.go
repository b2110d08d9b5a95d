package ib

import (
	"encoding/binary"
	"slices"
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

// Decode decodes the header at the start of data into h, resetting it.
// Fewer than AtomicETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *AtomicETH) Decode(data []byte) error {
	if len(data) < AtomicETHLen {
		*h = AtomicETH{}
		return truncated(HeaderAtomicETH.String(), 0, AtomicETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Len returns AtomicETHLen, the header's size.
func (h *AtomicETH) Len() int { return AtomicETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. Every value of every field fits: it never fails.
func (h *AtomicETH) AppendTo(b []byte) ([]byte, error) {
	b = slices.Grow(b, AtomicETHLen)
	h.put(b[len(b) : len(b)+AtomicETHLen])
	return b[:len(b)+AtomicETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). Every value of every
// field fits, so it fails only if b does.
func (h *AtomicETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, AtomicETHLen, h)
}
