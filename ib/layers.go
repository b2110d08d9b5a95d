package ib

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// The layer types this package registers with gopacket. gopacket panics
// on a number registered twice; this module uses 1790-1819 of the range
// gopacket reserves for applications (1000-1999).
var (
	LayerTypeLRH          = register(1790, "LRH", gopacket.DecodeFunc(decodeLRH))
	LayerTypeGRH          = register(1791, "GRH", gopacket.DecodeFunc(decodeGRH))
	LayerTypeBTH          = register(1792, "BTH", gopacket.DecodeFunc(decodeBTH))
	LayerTypeRDETH        = register(1793, "RDETH", decodeETH(HeaderRDETH))
	LayerTypeDETH         = register(1794, "DETH", decodeETH(HeaderDETH))
	LayerTypeXRCETH       = register(1795, "XRCETH", decodeETH(HeaderXRCETH))
	LayerTypeRETH         = register(1796, "RETH", decodeETH(HeaderRETH))
	LayerTypeAtomicETH    = register(1797, "AtomicETH", decodeETH(HeaderAtomicETH))
	LayerTypeAtomicAckETH = register(1798, "AtomicAckETH", decodeETH(HeaderAtomicAckETH))
	LayerTypeAETH         = register(1799, "AETH", decodeETH(HeaderAETH))
	LayerTypeImmDt        = register(1800, "ImmDt", decodeETH(HeaderImmDt))
	LayerTypeIETH         = register(1801, "IETH", decodeETH(HeaderIETH))
	LayerTypeFETH         = register(1802, "FETH", decodeETH(HeaderFETH))
)

func register(n int, name string, d gopacket.Decoder) gopacket.LayerType {
	return gopacket.RegisterLayerType(n, gopacket.LayerTypeMetadata{Name: name, Decoder: d})
}

// LayerType returns the gopacket layer type of the header.
func (h Header) LayerType() gopacket.LayerType {
	switch h {
	case HeaderRDETH:
		return LayerTypeRDETH
	case HeaderDETH:
		return LayerTypeDETH
	case HeaderXRCETH:
		return LayerTypeXRCETH
	case HeaderRETH:
		return LayerTypeRETH
	case HeaderAtomicETH:
		return LayerTypeAtomicETH
	case HeaderAtomicAckETH:
		return LayerTypeAtomicAckETH
	case HeaderAETH:
		return LayerTypeAETH
	case HeaderImmDt:
		return LayerTypeImmDt
	case HeaderIETH:
		return LayerTypeIETH
	case HeaderFETH:
		return LayerTypeFETH
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
	e := eth{bth: bth}
	switch h {
	case HeaderRDETH:
		return &RDETH{eth: e}
	case HeaderDETH:
		return &DETH{eth: e}
	case HeaderXRCETH:
		return &XRCETH{eth: e}
	case HeaderRETH:
		return &RETH{eth: e}
	case HeaderAtomicETH:
		return &AtomicETH{eth: e}
	case HeaderAtomicAckETH:
		return &AtomicAckETH{eth: e}
	case HeaderAETH:
		return &AETH{eth: e}
	case HeaderImmDt:
		return &ImmDt{eth: e}
	case HeaderIETH:
		return &IETH{eth: e}
	default:
		return &FETH{eth: e}
	}
}

// roceV2Port is the RoCEv2 UDP destination port (IBTA Annex A17.2.1).
const roceV2Port = 4791

// decodeBTH is the gopacket decoder for a BTH and all the extended headers
// its opcode lists, each added as its own layer, then the payload.
func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	// gopacket routes a UDP datagram by its source port when its
	// destination port is not registered; RoCEv2 is keyed on the
	// destination port alone.
	if pk, ok := p.(gopacket.Packet); ok {
		if u, ok := pk.TransportLayer().(*layers.UDP); ok && u.DstPort != roceV2Port {
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
	return p.NextDecoder(gopacket.LayerTypePayload)
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
