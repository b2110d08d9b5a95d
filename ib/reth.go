package ib

import (
	"encoding/binary"
	"slices"
)

// RETHLen is the size of the RDMA ETH.
const RETHLen = 16

// RETH is the RDMA Extended Transport Header (IBTA Vol 1, 9.3.3), carried
// by RDMA WRITE First/Only, RDMA READ Request, FLUSH and ATOMIC WRITE:
//
//	+---------------------------------------------------------------+
//	|                    Virtual Address (64 bits)                  |
//	+---------------------------------------------------------------+
//	|                             R_Key                             |
//	+---------------------------------------------------------------+
//	|                          DMA Length                           |
//	+---------------------------------------------------------------+
type RETH struct {
	VA     uint64 // virtual address
	RKey   uint32 // remote key (R_Key)
	DMALen uint32 // DMA length in bytes
}

func (h *RETH) parse(b []byte) {
	h.VA = binary.BigEndian.Uint64(b)
	h.RKey = binary.BigEndian.Uint32(b[8:])
	h.DMALen = binary.BigEndian.Uint32(b[12:16])
}

func (h *RETH) put(b []byte) {
	binary.BigEndian.PutUint64(b, h.VA)
	binary.BigEndian.PutUint32(b[8:], h.RKey)
	binary.BigEndian.PutUint32(b[12:16], h.DMALen)
}

// do encodes, checks or decodes the header for Packet.eths.
func (h *RETH) do(op ethOp, b []byte) error {
	switch op {
	case ethPut:
		h.put(b)
	case ethGet:
		h.parse(b)
	}
	return nil
}

// Decode decodes the header at the start of data into h, resetting it.
// Fewer than RETHLen bytes give an *Error wrapping ErrTruncated (and
// io.ErrUnexpectedEOF). It allocates only that error.
func (h *RETH) Decode(data []byte) error {
	if len(data) < RETHLen {
		*h = RETH{}
		return truncated(HeaderRETH.String(), 0, RETHLen, len(data))
	}
	h.parse(data)
	return nil
}

// Len returns RETHLen, the header's size.
func (h *RETH) Len() int { return RETHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. Every value of every field fits: it never fails.
func (h *RETH) AppendTo(b []byte) ([]byte, error) {
	b = slices.Grow(b, RETHLen)
	h.put(b[len(b) : len(b)+RETHLen])
	return b[:len(b)+RETHLen], nil
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing (see AppendTo for a byte slice). Every value of every
// field fits, so it fails only if b does.
func (h *RETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, RETHLen, h)
}
