package googlelayers

import (
	"reflect"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
)

// DecodingLayers links the extended headers to the BTH of l, which tells
// each of them which header follows (the DETH a MAD), and the layers
// after the MAD header to its MAD, and returns every layer of l, ready
// for gopacket.DecodingLayerParser.AddDecodingLayer.
func (l *Layers) DecodingLayers() []gopacket.DecodingLayer {
	ls := fields(l, &l.BTH.BTH)
	l.DETH.EnableManagement()
	return append(ls, l.MADLayers.DecodingLayers()...) // the MAD layers, linked to their MAD
}

// fields returns the fields of the struct l points to that are decoding
// layers, in their order, having linked each extended header among them
// to bth: a header added to the struct joins the set without another
// list to extend.
func fields(l any, bth *ib.BTH) []gopacket.DecodingLayer {
	var ls []gopacket.DecodingLayer
	v := reflect.ValueOf(l).Elem()
	for i := range v.NumField() {
		f := v.Field(i).Addr().Interface()
		if e, ok := f.(interface{ SetBTH(*ib.BTH) }); ok {
			e.SetBTH(bth)
		}
		if d, ok := f.(gopacket.DecodingLayer); ok {
			ls = append(ls, d)
		}
	}
	return ls
}

// Parser returns a DecodingLayerParser over the layers of l, starting at
// Ethernet. Building it allocates; decoding with it does not. The parser
// keeps its layers in a gopacket.DecodingLayerSparse, a slice indexed by
// layer type, rather than gopacket's default map: with a dozen layers the
// map lookups would cost more than the decoding.
func (l *Layers) Parser() *gopacket.DecodingLayerParser {
	return l.ParserFrom(layers.LayerTypeEthernet)
}

// ParserFrom is Parser starting at first: LayerTypeLRH for native
// InfiniBand, LayerTypeGRH for RoCEv1 packets without Ethernet,
// LayerTypeIPoIBLinkHeader for link type 242 records, LayerTypeMAD
// for a MAD on its own.
func (l *Layers) ParserFrom(first gopacket.LayerType) *gopacket.DecodingLayerParser {
	p := gopacket.NewDecodingLayerParser(first)
	p.SetDecodingLayerContainer(gopacket.DecodingLayerSparse(nil))
	for _, d := range l.DecodingLayers() {
		p.AddDecodingLayer(d)
	}
	return p
}
