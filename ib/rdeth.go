package ib

import "github.com/google/gopacket"

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

// LayerType returns LayerTypeRDETH.
func (h *RDETH) LayerType() gopacket.LayerType { return LayerTypeRDETH }

// CanDecode returns LayerTypeRDETH.
func (h *RDETH) CanDecode() gopacket.LayerClass { return LayerTypeRDETH }

// DecodeFromBytes decodes the header from the start of data.
func (h *RDETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if err := h.decode(data, HeaderRDETH, df); err != nil {
		return err
	}
	h.parse(data)
	return nil
}

// SerializeTo prepends the header.
func (h *RDETH) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prepend(b, RDETHLen, h)
}
