package ib

import (
	"encoding/binary"

	"github.com/google/gopacket"

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
	eth
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

// LayerType returns LayerTypeDETH.
func (h *DETH) LayerType() gopacket.LayerType { return LayerTypeDETH }

// CanDecode returns LayerTypeDETH.
func (h *DETH) CanDecode() gopacket.LayerClass { return LayerTypeDETH }

// Decode decodes the header at the start of data without gopacket: it
// resets h (a header of a Layers set keeps its link to the set's BTH),
// reads the fields and sets Contents to the header's DETHLen bytes and
// Payload to what follows. Fewer bytes give an *Error wrapping
// ErrTruncated.
func (h *DETH) Decode(data []byte) error {
	if err := h.decode(data, HeaderDETH); err != nil {
		*h = DETH{eth: h.eth}
		return err
	}
	h.parse(data)
	return nil
}

// DecodeFromBytes is Decode as a gopacket.DecodingLayer: df, which may be
// nil, is told of a truncation.
func (h *DETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// Serialize prepends the header to b, the SerializeBuffer of either
// gopacket module; the options change nothing. It refuses, writing
// nothing, a field value that does not fit the field: the error is a
// *FieldError.
func (h *DETH) Serialize(b Buffer, _ SerializeOptions) error {
	if err := h.check(); err != nil {
		return err
	}
	return prepend(b, DETHLen, h)
}

// SerializeTo is Serialize as a gopacket.SerializableLayer.
func (h *DETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, SerializeOptions(opts))
}

// check reports a field that does not fit, as a *FieldError.
func (h *DETH) check() error { return errs.Fit("DETH.SrcQP", uint64(h.SrcQP), 24) }
