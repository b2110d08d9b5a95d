package ib

import (
	"encoding/binary"

	"github.com/google/gopacket"
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
	eth
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

// LayerType returns LayerTypeRETH.
func (h *RETH) LayerType() gopacket.LayerType { return LayerTypeRETH }

// CanDecode returns LayerTypeRETH.
func (h *RETH) CanDecode() gopacket.LayerClass { return LayerTypeRETH }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's RETHLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *RETH) Decode(data []byte) error {
	if err := h.decode(data, HeaderRETH); err != nil {
		*h = RETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *RETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. Every value of every
// field fits, so it fails only if b does.
func (h *RETH) Serialize(b Buffer, _ SerializeOptions) error {
	return prepend(b, RETHLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *RETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}
