package ib

import (
	"encoding/binary"
	"slices"
)

// ImmDtLen is the size of the immediate data header.
const ImmDtLen = 4

// ImmDt is the Immediate Data header (IBTA Vol 1, 9.3.7): four opaque
// bytes delivered to the receiver with the completion. Data holds them
// read big-endian, so printing it as %08x shows the bytes in wire order.
type ImmDt struct {
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

// Decode decodes the header at the start of data into h, resetting it.
// Fewer than ImmDtLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *ImmDt) Decode(data []byte) error {
	if len(data) < ImmDtLen {
		*h = ImmDt{}
		return truncated(HeaderImmDt.String(), 0, ImmDtLen, len(data))
	}
	h.parse(data)
	return nil
}

// Len returns ImmDtLen, the header's size.
func (h *ImmDt) Len() int { return ImmDtLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. Every value of every field fits: it never fails.
func (h *ImmDt) AppendTo(b []byte) ([]byte, error) {
	b = slices.Grow(b, ImmDtLen)
	h.put(b[len(b) : len(b)+ImmDtLen])
	return b[:len(b)+ImmDtLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). Every value of every
// field fits, so it fails only if b does.
func (h *ImmDt) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, ImmDtLen, h)
}
