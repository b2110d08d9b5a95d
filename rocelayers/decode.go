package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
)

// layer is what every layer of this package is.
type layer interface {
	gopacket.DecodingLayer
	gopacket.Layer
}

// decode is the gopacket decoder of the layers of type L: it decodes one,
// adds it to the packet (as its link or network layer when it is one)
// and hands the rest to the layer that follows. An extended header is
// linked to the packet's BTH first, so it knows which header follows it;
// a BTH keeps the packet, for VerifyChecksum; MAC Control ends the packet.
func decode[L any, P interface {
	*L
	layer
}](data []byte, p gopacket.PacketBuilder) error {
	h := P(new(L))
	pk, _ := p.(gopacket.Packet)
	if e, ok := any(h).(eth); ok && pk != nil {
		// LayerTypeBTH by ib's number: its initializer refers to decode.
		if b, ok := pk.Layer(gopacket.LayerType(ib.LayerTypeBTH)).(*BTH); ok {
			e.SetBTH(&b.BTH)
		}
	}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	switch l := any(h).(type) {
	case *LRH:
		p.SetLinkLayer(l)
	case *GRH:
		p.SetNetworkLayer(l)
	case *BTH:
		l.pk = pk
	case *MACControl:
		return nil
	}
	return p.NextDecoder(h.NextLayerType())
}

// decodeLRH, decodeGRH and decodeMACControl are the decoders the layer
// types are registered with; the extended headers use decode directly.
var (
	decodeLRH        = decode[LRH]
	decodeGRH        = decode[GRH]
	decodeMACControl = decode[MACControl]
)
