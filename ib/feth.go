package ib

import (
	"encoding/binary"
	"slices"

	"github.com/roce-go/roce/internal/errs"
)

// FETHLen is the size of the FLUSH ETH.
const FETHLen = 4

// FETH is the FLUSH Extended Transport Header (IBTA Vol 1 release 1.5,
// 9.3.9), before the RETH of a FLUSH request:
//
//	+---------------------------------------------------+---+-------+
//	|                 Reserved (26 bits)                |SEL|  PLT  |
//	+---------------------------------------------------+---+-------+
//
// SEL is the selectivity level (0: the range in the RETH; 1: the whole
// memory region); PLT is the placement type (bit 0: global visibility,
// bit 1: persistence).
type FETH struct {
	Resv uint32 // reserved, 26 bits
	SEL  uint8  // selectivity level, 2 bits
	PLT  uint8  // placement type, 4 bits
}

func (h *FETH) parse(b []byte) {
	w := binary.BigEndian.Uint32(b[:4])
	h.Resv = w >> 6
	h.SEL = uint8(w>>4) & 3
	h.PLT = uint8(w) & 0x0f
}

func (h *FETH) put(b []byte) {
	binary.BigEndian.PutUint32(b[:4], h.Resv<<6|uint32(h.SEL&3)<<4|uint32(h.PLT&0x0f))
}

// do encodes, checks or decodes the header for Packet.eths.
func (h *FETH) do(op ethOp, b []byte) error {
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
// Fewer than FETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *FETH) Decode(data []byte) error {
	if len(data) < FETHLen {
		*h = FETH{}
		return truncated(HeaderFETH.String(), 0, FETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Validate reports a field that does not fit its field, as a
// *FieldError wrapping ErrBadValue; AppendTo and Serialize refuse what it
// refuses. It allocates only the error.
func (h *FETH) Validate() error { return h.check() }

// Len returns FETHLen, the header's size.
func (h *FETH) Len() int { return FETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. It refuses, returning b as it was, a field value that does not fit its field: the error is a *FieldError.
func (h *FETH) AppendTo(b []byte) ([]byte, error) {
	if err := h.check(); err != nil {
		return b, err
	}
	b = slices.Grow(b, FETHLen)
	h.put(b[len(b) : len(b)+FETHLen])
	return b[:len(b)+FETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *FETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, FETHLen, h)
}

// check reports a field that does not fit, as a *FieldError.
func (h *FETH) check() error {
	if h.Resv>>26 == 0 && h.SEL>>2 == 0 && h.PLT>>4 == 0 {
		return nil
	}
	if err := errs.Fit("FETH.Resv", uint64(h.Resv), 26); err != nil {
		return err
	}
	if err := errs.Fit("FETH.SEL", uint64(h.SEL), 2); err != nil {
		return err
	}
	return errs.Fit("FETH.PLT", uint64(h.PLT), 4)
}
