package ib

import (
	"github.com/google/gopacket"

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
	eth
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

// LayerType returns LayerTypeRDETH.
func (h *RDETH) LayerType() gopacket.LayerType { return LayerTypeRDETH }

// CanDecode returns LayerTypeRDETH.
func (h *RDETH) CanDecode() gopacket.LayerClass { return LayerTypeRDETH }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's RDETHLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *RDETH) Decode(data []byte) error {
	if err := h.decode(data, HeaderRDETH); err != nil {
		*h = RDETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *RDETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *RDETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, RDETHLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *RDETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}

// check reports a field that does not fit, as a *FieldError.
func (h *RDETH) check() error { return errs.Fit("RDETH.EECnxt", uint64(h.EECnxt), 24) }
