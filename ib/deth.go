package ib

import (
	"encoding/binary"
	"slices"

	"github.com/roce-go/roce/internal/errs"
)

// DETHLen is the size of the Datagram ETH.
const DETHLen = 8

// DETH is the Datagram Extended Transport Header (IBTA Vol 1, 9.3.2),
// carried by UD and RD requests:
//
//	+---------------------------------------------------------------+
//	|                             Q_Key                             |
//	+---------------+-----------------------------------------------+
//	|   Reserved    |                     SrcQP                     |
//	+---------------+-----------------------------------------------+
type DETH struct {
	QKey  uint32 // queue key (Q_Key); GSI uses 0x80010000
	Resv8 uint8  // reserved
	SrcQP uint32 // source queue pair, 24 bits
}

func (h *DETH) parse(b []byte) {
	h.QKey = binary.BigEndian.Uint32(b)
	h.Resv8 = b[4]
	h.SrcQP = get24(b[5:8])
}

func (h *DETH) put(b []byte) {
	binary.BigEndian.PutUint32(b, h.QKey)
	b[4] = h.Resv8
	put24(b[5:8], h.SrcQP)
}

// do encodes, checks or decodes the header for Packet.eths.
func (h *DETH) do(op ethOp, b []byte) error {
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
// Fewer than DETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *DETH) Decode(data []byte) error {
	if len(data) < DETHLen {
		*h = DETH{}
		return truncated(HeaderDETH.String(), 0, DETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Validate reports a field that does not fit its field, as a
// *FieldError wrapping ErrBadValue; AppendTo and Serialize refuse what it
// refuses. It allocates only the error.
func (h *DETH) Validate() error { return h.check() }

// Len returns DETHLen, the header's size.
func (h *DETH) Len() int { return DETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. It refuses, returning b as it was, a field value that does not fit its field: the error is a *FieldError.
func (h *DETH) AppendTo(b []byte) ([]byte, error) {
	if err := h.check(); err != nil {
		return b, err
	}
	b = slices.Grow(b, DETHLen)
	h.put(b[len(b) : len(b)+DETHLen])
	return b[:len(b)+DETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *DETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, DETHLen, h)
}

// check reports a field that does not fit, as a *FieldError.
func (h *DETH) check() error { return errs.Fit("DETH.SrcQP", uint64(h.SrcQP), 24) }
