package googlelayers

import (
	"github.com/google/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/layertype"
)

// The decoding of the extended headers by gopacket.NewPacket: the BTH's
// decoder (decodeBTH) makes a layer of each header its opcode lists.

// ethLayer is what every extended header layer is.
type ethLayer interface {
	gopacket.DecodingLayer
	gopacket.Layer
	SetBTH(*ib.BTH)
}

// newETHs is, by header, how to make a fresh layer of it that follows a
// BTH; registerETH fills it in.
var newETHs [len(layertype.ETH)]func(bth *ib.BTH) ethLayer

// newETH returns a fresh layer for header h that follows bth.
func newETH(h ib.Header, bth *ib.BTH) ethLayer { return newETHs[h](bth) }

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
