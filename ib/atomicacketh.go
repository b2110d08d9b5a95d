package ib

import (
	"encoding/binary"
	"slices"
)

// AtomicAckETHLen is the size of the Atomic Acknowledge ETH.
const AtomicAckETHLen = 8

// AtomicAckETH is the Atomic Acknowledge Extended Transport Header (IBTA
// Vol 1, 9.3.6), after the AETH of an ATOMIC Acknowledge: the remote value
// before the atomic operation.
type AtomicAckETH struct {
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

// Decode decodes the header at the start of data into h, resetting it.
// Fewer than AtomicAckETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *AtomicAckETH) Decode(data []byte) error {
	if len(data) < AtomicAckETHLen {
		*h = AtomicAckETH{}
		return truncated(HeaderAtomicAckETH.String(), 0, AtomicAckETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Len returns AtomicAckETHLen, the header's size.
func (h *AtomicAckETH) Len() int { return AtomicAckETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. Every value of every field fits: it never fails.
func (h *AtomicAckETH) AppendTo(b []byte) ([]byte, error) {
	b = slices.Grow(b, AtomicAckETHLen)
	h.put(b[len(b) : len(b)+AtomicAckETHLen])
	return b[:len(b)+AtomicAckETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). Every value of every
// field fits, so it fails only if b does.
func (h *AtomicAckETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, AtomicAckETHLen, h)
}
