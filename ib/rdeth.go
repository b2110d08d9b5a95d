package ib

import (
	"slices"

	"github.com/roce-go/roce/internal/errs"
)

// RDETHLen is the size of the Reliable Datagram ETH.
const RDETHLen = 4

// RDETH is the Reliable Datagram Extended Transport Header (IBTA Vol 1,
// 9.3.1), carried by every RD packet:
//
//	+---------------+-----------------------------------------------+
//	|   Reserved    |                    EECnxt                     |
//	+---------------+-----------------------------------------------+
type RDETH struct {
	Resv8  uint8  // reserved
	EECnxt uint32 // end-to-end context, 24 bits
}

func (h *RDETH) parse(b []byte) { h.Resv8, h.EECnxt = b[0], get24(b[1:4]) }
func (h *RDETH) put(b []byte)   { b[0] = h.Resv8; put24(b[1:4], h.EECnxt) }

// do encodes, checks or decodes the header for Packet.eths.
func (h *RDETH) do(op ethOp, b []byte) error {
	switch op {
	case ethCheck:
		return h.check()
	case ethGet:
		h.parse(b)
		return nil
	}
	h.put(b)
	return nil
}

// Decode decodes the header at the start of data into h, resetting it.
// Fewer than RDETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *RDETH) Decode(data []byte) error {
	if len(data) < RDETHLen {
		*h = RDETH{}
		return truncated(HeaderRDETH.String(), 0, RDETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Validate reports a field that does not fit its field, as a
// *FieldError wrapping ErrBadValue; AppendTo and Serialize refuse what it
// refuses. It allocates only the error.
func (h *RDETH) Validate() error { return h.check() }

// Len returns RDETHLen, the header's size.
func (h *RDETH) Len() int { return RDETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. It refuses, returning b as it was, a field value that does not fit its field: the error is a *FieldError.
func (h *RDETH) AppendTo(b []byte) ([]byte, error) {
	if err := h.check(); err != nil {
		return b, err
	}
	b = slices.Grow(b, RDETHLen)
	h.put(b[len(b) : len(b)+RDETHLen])
	return b[:len(b)+RDETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *RDETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, RDETHLen, h)
}

// check reports a field that does not fit, as a *FieldError.
func (h *RDETH) check() error { return errs.Fit("RDETH.EECnxt", uint64(h.EECnxt), 24) }
