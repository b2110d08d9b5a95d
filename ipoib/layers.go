package ipoib

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
)

// The layer types of this package, numbers 1850 and 1851 of the range
// 1850-1859 it holds in gopacket's range for applications (1000-1999).
var (
	// LayerTypeIPoIB is the layer type of Header.
	LayerTypeIPoIB = gopacket.RegisterLayerType(1850, gopacket.LayerTypeMetadata{
		Name: "IPoIB", Decoder: gopacket.DecodeFunc(decodeHeader)})
	// LayerTypeLinkHeader is the layer type of LinkHeader.
	LayerTypeLinkHeader = gopacket.RegisterLayerType(1851, gopacket.LayerTypeMetadata{
		Name: "IPoIBLinkHeader", Decoder: gopacket.DecodeFunc(decodeLinkHeader)})
)

// init makes link type 242 decode as LinkHeader in gopacket (v1.1.19
// knows no decoder for it) and registers Match with package ib.
func init() {
	layers.LinkTypeMetadata[LinkType] = layers.EnumMetadata{
		DecodeWith: LayerTypeLinkHeader,
		Name:       "IPoIB",
		LayerType:  LayerTypeLinkHeader,
	}
	ib.RegisterPayloadClassifier(classify)
}

// classify is Match as package ib asks it.
func classify(bth *ib.BTH, native bool, payload []byte) gopacket.LayerType {
	if native && Match(bth.OpCode, bth.DestQP, payload) {
		return LayerTypeIPoIB
	}
	return gopacket.LayerTypeZero
}
