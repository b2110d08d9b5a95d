package ib

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/internal/hdr"
)

// The numbers of the layer types this package registers with gopacket,
// 1790-1802 of the range gopacket reserves for applications (1000-1999).
// gopacket panics on a number registered twice.
const (
	layerTypeLRH gopacket.LayerType = 1790 + iota
	layerTypeGRH
	layerTypeBTH
	layerTypeRDETH
	layerTypeDETH
	layerTypeXRCETH
	layerTypeRETH
	layerTypeAtomicETH
	layerTypeAtomicAckETH
	layerTypeAETH
	layerTypeImmDt
	layerTypeIETH
	layerTypeFETH
)

// The layer types this package registers with gopacket.
var (
	LayerTypeLRH          = register(layerTypeLRH, "LRH", gopacket.DecodeFunc(decodeLRH))
	LayerTypeGRH          = register(layerTypeGRH, "GRH", gopacket.DecodeFunc(decodeGRH))
	LayerTypeBTH          = register(layerTypeBTH, "BTH", gopacket.DecodeFunc(decodeBTH))
	LayerTypeRDETH        = registerETH(HeaderRDETH)
	LayerTypeDETH         = registerETH(HeaderDETH)
	LayerTypeXRCETH       = registerETH(HeaderXRCETH)
	LayerTypeRETH         = registerETH(HeaderRETH)
	LayerTypeAtomicETH    = registerETH(HeaderAtomicETH)
	LayerTypeAtomicAckETH = registerETH(HeaderAtomicAckETH)
	LayerTypeAETH         = registerETH(HeaderAETH)
	LayerTypeImmDt        = registerETH(HeaderImmDt)
	LayerTypeIETH         = registerETH(HeaderIETH)
	LayerTypeFETH         = registerETH(HeaderFETH)
)

func register(t gopacket.LayerType, name string, d gopacket.Decoder) gopacket.LayerType {
	return gopacket.RegisterLayerType(int(t), gopacket.LayerTypeMetadata{Name: name, Decoder: d})
}

// registerETH registers the layer type of an extended header from its row
// of the header table.
func registerETH(h Header) gopacket.LayerType {
	return register(headerInfo[h].layer, headerInfo[h].name, decodeETH(h))
}

// LayerType returns the gopacket layer type of the header, and
// gopacket.LayerTypePayload for NoHeader.
func (h Header) LayerType() gopacket.LayerType {
	if h < numHeaders {
		return headerInfo[h].layer
	}
	return gopacket.LayerTypePayload
}

// ethLayer is what every extended header layer is.
type ethLayer interface {
	gopacket.DecodingLayer
	gopacket.Layer
}

// newETH returns a fresh layer for header h that follows bth.
func newETH(h Header, bth *BTH) ethLayer {
	return headerInfo[h].new(eth{kind: h, bth: bth})
}

// decodeBTH is the gopacket decoder for a BTH and all the extended headers
// its opcode lists, each added as its own layer, then the payload.
func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	// gopacket routes a UDP datagram by its source port when its
	// destination port is not registered; RoCEv2 is keyed on the
	// destination port alone.
	if pk, ok := p.(gopacket.Packet); ok {
		if u, ok := pk.TransportLayer().(*layers.UDP); ok && u.DstPort != hdr.RoCEv2Port {
			return p.NextDecoder(gopacket.LayerTypePayload)
		}
	}
	bth := &BTH{}
	if err := bth.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(bth)
	hs := bth.OpCode.Headers()
	rest := bth.Payload
	for i := 0; i < hs.Len(); i++ {
		l := newETH(hs.At(i), bth)
		if err := l.DecodeFromBytes(rest, p); err != nil {
			return err
		}
		p.AddLayer(l)
		rest = l.LayerPayload()
	}
	native := false
	if pk, ok := p.(gopacket.Packet); ok {
		native = pk.Layer(layerTypeLRH) != nil
	}
	return p.NextDecoder(bth.PayloadLayerType(rest, native)) // a MAD, IPoIB, ... (handover.go)
}

// decodeETH returns the decoder of an extended header met on its own (a
// user calling gopacket.NewPacket with an ETH layer type first).
func decodeETH(h Header) gopacket.Decoder {
	return gopacket.DecodeFunc(func(data []byte, p gopacket.PacketBuilder) error {
		l := newETH(h, nil)
		if err := l.DecodeFromBytes(data, p); err != nil {
			return err
		}
		p.AddLayer(l)
		return p.NextDecoder(gopacket.LayerTypePayload)
	})
}

// Layers holds one reusable decoding layer for each InfiniBand header and
// the payload. The extended headers of one Layers share its BTH, which
// tells each of them what follows it, so use them together:
//
//	var ibl ib.Layers
//	parser := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &ip4, &udp)
//	for _, l := range ibl.DecodingLayers() {
//		parser.AddDecodingLayer(l)
//	}
type Layers struct {
	LRH          LRH
	GRH          GRH
	BTH          BTH
	RDETH        RDETH
	DETH         DETH
	XRCETH       XRCETH
	RETH         RETH
	AtomicETH    AtomicETH
	AtomicAckETH AtomicAckETH
	AETH         AETH
	ImmDt        ImmDt
	IETH         IETH
	FETH         FETH
	Payload      gopacket.Payload
}

// DecodingLayers links the extended headers to the BTH and returns every
// layer of the set, ready for gopacket.DecodingLayerParser.AddDecodingLayer.
func (l *Layers) DecodingLayers() []gopacket.DecodingLayer {
	for _, e := range []*eth{&l.RDETH.eth, &l.DETH.eth, &l.XRCETH.eth, &l.RETH.eth,
		&l.AtomicETH.eth, &l.AtomicAckETH.eth, &l.AETH.eth, &l.ImmDt.eth, &l.IETH.eth, &l.FETH.eth} {
		e.bth = &l.BTH
	}
	return []gopacket.DecodingLayer{&l.LRH, &l.GRH, &l.BTH, &l.RDETH, &l.DETH,
		&l.XRCETH, &l.RETH, &l.AtomicETH, &l.AtomicAckETH, &l.AETH, &l.ImmDt,
		&l.IETH, &l.FETH, &l.Payload}
}
