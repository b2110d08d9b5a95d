package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/internal/layertype"

	"github.com/roce-go/roce/ipoib"
)

// The layer types of the IPoIB layers, numbers 1850 and 1851 of the
// range 1850-1859 package ipoib held in gopacket's range for
// applications (1000-1999). Importing this package makes link type 242
// (LINKTYPE_IPOIB, which gopacket v1.1.19 does not know) decode as
// IPoIBLinkHeader, and the payload of a native InfiniBand transport
// packet that ipoib.Match takes for IPoIB decode as IPoIB.
var (
	// LayerTypeIPoIB is the layer type of IPoIB.
	LayerTypeIPoIB = gopacket.RegisterLayerType(layertype.IPoIB.Num, gopacket.LayerTypeMetadata{
		Name: layertype.IPoIB.Name, Decoder: gopacket.DecodeFunc(decodeIPoIB)})
	// LayerTypeIPoIBLinkHeader is the layer type of IPoIBLinkHeader.
	LayerTypeIPoIBLinkHeader = gopacket.RegisterLayerType(layertype.IPoIBLinkHeader.Num, gopacket.LayerTypeMetadata{
		Name: layertype.IPoIBLinkHeader.Name, Decoder: gopacket.DecodeFunc(decodeIPoIBLinkHeader)})
)

func init() {
	layers.LinkTypeMetadata[ipoib.LinkType] = layers.EnumMetadata{
		DecodeWith: LayerTypeIPoIBLinkHeader, Name: "IPoIB", LayerType: LayerTypeIPoIBLinkHeader,
	}
}

// The BTH's decoder hands the payload of a native packet that ipoib.Match
// takes for IPoIB to LayerTypeIPoIB (payloadLayer, register.go).

// IPoIB is ipoib.Header, the IPoIB encapsulation header, as a layer: a
// DecodingLayer and a SerializableLayer. Contents is its four bytes,
// Payload the packet it carries, which gopacket decodes with its own
// IPv4, IPv6 and ARP layers. gopacket.NewPacket decodes it after the
// transport headers of a native InfiniBand packet that ipoib.Match takes
// for IPoIB, and after an IPoIBLinkHeader.
type IPoIB struct {
	layers.BaseLayer
	ipoib.Header
}

// LayerType returns LayerTypeIPoIB.
func (h *IPoIB) LayerType() gopacket.LayerType { return LayerTypeIPoIB }

// CanDecode returns LayerTypeIPoIB.
func (h *IPoIB) CanDecode() gopacket.LayerClass { return LayerTypeIPoIB }

// NextLayerType returns gopacket's layer type for Type (layers.LayerTypeIPv4,
// ...), gopacket.LayerTypePayload for an Ethertype gopacket does not know,
// gopacket.LayerTypeZero when nothing follows.
func (h *IPoIB) NextLayerType() gopacket.LayerType {
	if len(h.Payload) == 0 {
		return gopacket.LayerTypeZero
	}
	if lt := layers.EthernetType(h.Type).LayerType(); lt != gopacket.LayerTypeZero {
		return lt
	}
	return gopacket.LayerTypePayload
}

// DecodeFromBytes is ipoib.Header.Decode; df, which may be nil, is told
// of a truncation.
func (h *IPoIB) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	h.BaseLayer = layers.BaseLayer{}
	if err := h.Decode(data); err != nil {
		if df != nil {
			df.SetTruncated()
		}
		return err
	}
	h.Contents, h.Payload = data[:ipoib.HeaderLen], data[ipoib.HeaderLen:]
	return nil
}

// SerializeTo prepends the header. It has no length to fix.
func (h *IPoIB) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	p, err := b.PrependBytes(ipoib.HeaderLen)
	if err != nil {
		return err
	}
	_, err = h.AppendTo(p[:0])
	return err
}

// checkNext returns the error of the packet the header carries that the
// gopacket decoder must stop at: an ARP packet whose lengths
// ipoib.ARP.Decode refuses (gopacket's layers.ARP, v1.1.19, sums the
// address sizes in a byte and panics when the sum wraps). The error
// wraps ipoib.ErrTruncated.
func (h *IPoIB) checkNext() error {
	if h.Type != ipoib.TypeARP || len(h.Payload) == 0 {
		return nil
	}
	var a ipoib.ARP
	return a.Decode(h.Payload)
}

// decodeIPoIB is the gopacket decoder of IPoIB.
func decodeIPoIB(data []byte, p gopacket.PacketBuilder) error {
	h := &IPoIB{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	if len(h.Payload) == 0 {
		return nil
	}
	if err := h.checkNext(); err != nil { // an ARP packet layers.ARP would panic on
		p.SetTruncated()
		return err
	}
	return p.NextDecoder(h.NextLayerType())
}

// IPoIBLinkHeader is ipoib.LinkHeader, the 40 bytes a link type 242
// record starts with, as a layer: gopacket decodes link type 242 as it.
// Contents is the 40 bytes, Payload the IPoIB header and what follows.
type IPoIBLinkHeader struct {
	layers.BaseLayer
	ipoib.LinkHeader
}

// LayerType returns LayerTypeIPoIBLinkHeader.
func (h *IPoIBLinkHeader) LayerType() gopacket.LayerType { return LayerTypeIPoIBLinkHeader }

// CanDecode returns LayerTypeIPoIBLinkHeader.
func (h *IPoIBLinkHeader) CanDecode() gopacket.LayerClass { return LayerTypeIPoIBLinkHeader }

// NextLayerType returns LayerTypeIPoIB, or gopacket.LayerTypeZero when
// nothing follows.
func (h *IPoIBLinkHeader) NextLayerType() gopacket.LayerType {
	if len(h.Payload) == 0 {
		return gopacket.LayerTypeZero
	}
	return LayerTypeIPoIB
}

// DecodeFromBytes is ipoib.LinkHeader.Decode; df, which may be nil, is
// told of a truncation.
func (h *IPoIBLinkHeader) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	h.BaseLayer = layers.BaseLayer{}
	if err := h.Decode(data); err != nil {
		if df != nil {
			df.SetTruncated()
		}
		return err
	}
	h.Contents, h.Payload = data[:ipoib.LinkHeaderLen], data[ipoib.LinkHeaderLen:]
	return nil
}

// SerializeTo prepends the 40 bytes. It refuses, writing nothing, what
// ipoib.LinkHeader.Validate refuses.
func (h *IPoIBLinkHeader) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	if err := h.Validate(); err != nil {
		return err
	}
	p, err := b.PrependBytes(ipoib.LinkHeaderLen)
	if err != nil {
		return err
	}
	_, err = h.AppendTo(p[:0])
	return err
}

// decodeIPoIBLinkHeader is the gopacket decoder of link type 242.
func decodeIPoIBLinkHeader(data []byte, p gopacket.PacketBuilder) error {
	h := &IPoIBLinkHeader{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	if len(h.Payload) == 0 {
		return nil
	}
	return p.NextDecoder(LayerTypeIPoIB)
}
