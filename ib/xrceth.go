package ib

import (
	"github.com/google/gopacket"

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
	eth
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

// LayerType returns LayerTypeXRCETH.
func (h *XRCETH) LayerType() gopacket.LayerType { return LayerTypeXRCETH }

// CanDecode returns LayerTypeXRCETH.
func (h *XRCETH) CanDecode() gopacket.LayerClass { return LayerTypeXRCETH }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's XRCETHLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *XRCETH) Decode(data []byte) error {
	if err := h.decode(data, HeaderXRCETH); err != nil {
		*h = XRCETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *XRCETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *XRCETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, XRCETHLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *XRCETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}

// check reports a field that does not fit, as a *FieldError.
func (h *XRCETH) check() error { return errs.Fit("XRCETH.XRCSRQ", uint64(h.XRCSRQ), 24) }
