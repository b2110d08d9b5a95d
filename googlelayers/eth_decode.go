package googlelayers

import (
	"github.com/google/gopacket"

	"github.com/roce-go/roce/ib"
)

// The decoding of the extended headers by gopacket.NewPacket: the BTH's
// decoder (decodeBTH) makes a layer of each header its opcode lists.

// ethLayer is what every extended header layer is.
type ethLayer interface {
	gopacket.DecodingLayer
	gopacket.Layer
}

// newETHs is, by header, how to make a fresh layer of it.
var newETHs = [...]func(l link) ethLayer{
	ib.HeaderRDETH:        func(l link) ethLayer { return &RDETH{link: l} },
	ib.HeaderDETH:         func(l link) ethLayer { return &DETH{link: l} },
	ib.HeaderXRCETH:       func(l link) ethLayer { return &XRCETH{link: l} },
	ib.HeaderRETH:         func(l link) ethLayer { return &RETH{link: l} },
	ib.HeaderAtomicETH:    func(l link) ethLayer { return &AtomicETH{link: l} },
	ib.HeaderAtomicAckETH: func(l link) ethLayer { return &AtomicAckETH{link: l} },
	ib.HeaderAETH:         func(l link) ethLayer { return &AETH{link: l} },
	ib.HeaderImmDt:        func(l link) ethLayer { return &ImmDt{link: l} },
	ib.HeaderIETH:         func(l link) ethLayer { return &IETH{link: l} },
	ib.HeaderFETH:         func(l link) ethLayer { return &FETH{link: l} },
}

// newETH returns a fresh layer for header h that follows bth.
func newETH(h ib.Header, bth *ib.BTH) ethLayer { return newETHs[h](link{bth: bth}) }

// decodeETH returns the decoder of an extended header met on its own (a
// user calling gopacket.NewPacket with an ETH layer type first).
func decodeETH(h ib.Header) func([]byte, gopacket.PacketBuilder) error {
	return func(data []byte, p gopacket.PacketBuilder) error {
		l := newETH(h, nil)
		if err := l.DecodeFromBytes(data, p); err != nil {
			return err
		}
		p.AddLayer(l)
		return p.NextDecoder(gopacket.LayerTypePayload)
	}
}
