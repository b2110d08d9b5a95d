package ib

import (
	"slices"

	"github.com/roce-go/roce/internal/errs"
)

// XRCETHLen is the size of the XRC ETH.
const XRCETHLen = 4

// XRCETH is the XRC Extended Transport Header (IBTA Vol 1, the XRC Annex
// A14), first after the BTH in every XRC request:
//
//	+---------------+-----------------------------------------------+
//	|   Reserved    |                    XRCSRQ                     |
//	+---------------+-----------------------------------------------+
type XRCETH struct {
	Resv8  uint8  // reserved
	XRCSRQ uint32 // target XRC shared receive queue, 24 bits
}

func (h *XRCETH) parse(b []byte) {
	h.Resv8 = b[0]
	h.XRCSRQ = get24(b[1:4])
}

func (h *XRCETH) put(b []byte) {
	b[0] = h.Resv8
	put24(b[1:4], h.XRCSRQ)
}

// do encodes, checks or decodes the header for Packet.eths.
func (h *XRCETH) do(op ethOp, b []byte) error {
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
// Fewer than XRCETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *XRCETH) Decode(data []byte) error {
	if len(data) < XRCETHLen {
		*h = XRCETH{}
		return truncated(HeaderXRCETH.String(), 0, XRCETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Validate reports a field that does not fit its field, as a
// *FieldError wrapping ErrBadValue; AppendTo and Serialize refuse what it
// refuses. It allocates only the error.
func (h *XRCETH) Validate() error { return h.check() }

// Len returns XRCETHLen, the header's size.
func (h *XRCETH) Len() int { return XRCETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. It refuses, returning b as it was, a field value that does not fit its field: the error is a *FieldError.
func (h *XRCETH) AppendTo(b []byte) ([]byte, error) {
	if err := h.check(); err != nil {
		return b, err
	}
	b = slices.Grow(b, XRCETHLen)
	h.put(b[len(b) : len(b)+XRCETHLen])
	return b[:len(b)+XRCETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *XRCETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, XRCETHLen, h)
}

// check reports a field that does not fit, as a *FieldError.
func (h *XRCETH) check() error { return errs.Fit("XRCETH.XRCSRQ", uint64(h.XRCSRQ), 24) }
