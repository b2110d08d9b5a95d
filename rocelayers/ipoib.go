package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
)

// The IP over InfiniBand layers of package ipoib, each embedding ipoib's
// layer, with its fields and methods, and passing the fork's
// DecodeFeedback to ipoib's DecodeFromBytes.

// IPoIB is ipoib.Header, the IPoIB encapsulation header, as a layer.
// gopacket.NewPacket decodes it after the transport headers of a native
// InfiniBand packet that ipoib.Match takes for IPoIB, and after an
// IPoIBLinkHeader; IPv4, IPv6 and ARP follow as gopacket's layers.
type IPoIB struct{ ipoib.Header }

// LayerType returns LayerTypeIPoIB.
func (h *IPoIB) LayerType() gopacket.LayerType { return LayerTypeIPoIB }

// CanDecode returns LayerTypeIPoIB.
func (h *IPoIB) CanDecode() gopacket.LayerClass { return LayerTypeIPoIB }

// NextLayerType returns gopacket's layer type for Type, as
// ipoib.Header.NextLayerType does.
func (h *IPoIB) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(h.Header.NextLayerType())
}

// DecodeFromBytes is ipoib.Header.DecodeFromBytes; df may be nil.
func (h *IPoIB) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.Header.DecodeFromBytes(data, df)
}

// SerializeTo is ipoib.Header.Serialize.
func (h *IPoIB) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// IPoIBLinkHeader is ipoib.LinkHeader, the 40 bytes a link type 242
// record starts with, as a layer: gopacket decodes link type 242 as it.
type IPoIBLinkHeader struct{ ipoib.LinkHeader }

// LayerType returns LayerTypeIPoIBLinkHeader.
func (h *IPoIBLinkHeader) LayerType() gopacket.LayerType { return LayerTypeIPoIBLinkHeader }

// CanDecode returns LayerTypeIPoIBLinkHeader.
func (h *IPoIBLinkHeader) CanDecode() gopacket.LayerClass { return LayerTypeIPoIBLinkHeader }

// NextLayerType returns LayerTypeIPoIB, or gopacket.LayerTypeZero when
// nothing follows.
func (h *IPoIBLinkHeader) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(h.LinkHeader.NextLayerType())
}

// DecodeFromBytes is ipoib.LinkHeader.DecodeFromBytes; df may be nil.
func (h *IPoIBLinkHeader) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.LinkHeader.DecodeFromBytes(data, df)
}

// SerializeTo is ipoib.LinkHeader.Serialize.
func (h *IPoIBLinkHeader) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}
