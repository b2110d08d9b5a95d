package ib

import (
	"encoding/binary"
	"slices"
)

// IETHLen is the size of the Invalidate ETH.
const IETHLen = 4

// IETH is the Invalidate Extended Transport Header (IBTA Vol 1, 9.3.8),
// carried by SEND Last/Only with Invalidate: the R_Key to invalidate.
type IETH struct {
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

// Decode decodes the header at the start of data into h, resetting it.
// Fewer than IETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *IETH) Decode(data []byte) error {
	if len(data) < IETHLen {
		*h = IETH{}
		return truncated(HeaderIETH.String(), 0, IETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Len returns IETHLen, the header's size.
func (h *IETH) Len() int { return IETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. Every value of every field fits: it never fails.
func (h *IETH) AppendTo(b []byte) ([]byte, error) {
	b = slices.Grow(b, IETHLen)
	h.put(b[len(b) : len(b)+IETHLen])
	return b[:len(b)+IETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). Every value of every
// field fits, so it fails only if b does.
func (h *IETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, IETHLen, h)
}
