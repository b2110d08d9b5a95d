package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/layertype"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/mad"
)

// eth is what the layer of an extended header is.
type eth interface {
	gopacket.DecodingLayer
	gopacket.Layer
	SetBTH(*ib.BTH)
}

// layer is what every layer of this package is.
type layer interface {
	gopacket.DecodingLayer
	gopacket.Layer
}

// add decodes l from data and adds it to the packet.
func add(l layer, data []byte, p gopacket.PacketBuilder) error {
	if err := l.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(l)
	return nil
}

// decode is the gopacket decoder of the layers of type L: it decodes one,
// adds it to the packet (as its link or network layer when it is one)
// and hands the rest to the layer that follows. An extended header is
// linked to the packet's BTH first, so it knows which header follows it;
// after the last transport header the BTH names the payload's layer (a
// MAD, IPoIB, ...); a BTH keeps the packet, for VerifyChecksum; MAC
// Control ends the packet.
func decode[L any, P interface {
	*L
	layer
}](data []byte, p gopacket.PacketBuilder) error {
	h := P(new(L))
	pk, _ := p.(gopacket.Packet)
	var bth *ib.BTH
	if e, ok := any(h).(eth); ok && pk != nil {
		// LayerTypeBTH by its number: its initializer refers to decode.
		if b, ok := pk.Layer(gopacket.LayerType(layertype.BTH.Num)).(*BTH); ok {
			bth = &b.BTH
			e.SetBTH(bth)
		}
	}
	if err := add(h, data, p); err != nil {
		return err
	}
	switch l := any(h).(type) {
	case *LRH:
		p.SetLinkLayer(l)
	case *GRH:
		p.SetNetworkLayer(l)
	case *BTH:
		l.pk, bth = pk, &l.BTH
	case *IPoIB:
		if err := l.checkNext(); err != nil {
			p.SetTruncated()
			return err
		}
	case *MACControl:
		return nil
	}
	return p.NextDecoder(handOver(bth, h.NextLayerType(), h.LayerPayload(), pk))
}

// handOver returns next, the layer a header names, except after the last
// transport header of bth's packet (next is the payload, or nothing),
// where it is the layer bth names for the payload: a MAD to QP 0 or 1,
// or what a classifier takes the payload of a native packet for (see
// payloadLayer).
func handOver(bth *ib.BTH, next gopacket.LayerType, payload []byte, pk gopacket.Packet) gopacket.LayerType {
	if bth == nil || next != gopacket.LayerTypePayload && next != gopacket.LayerTypeZero {
		return next
	}
	native := pk != nil && pk.Layer(gopacket.LayerType(layertype.LRH.Num)) != nil
	return payloadLayer(bth, payload, native)
}

// The decoders the layer types are registered with; the extended headers
// use decode directly.
var (
	decodeLRH        = decode[LRH]
	decodeGRH        = decode[GRH]
	decodeMACControl = decode[MACControl]
)

// dataLayer returns the layer type of p, the bytes after the last header
// of bth's packet, for a decoder that holds the MAD layers: the MAD layer
// for a whole MAD to QP 0 or 1 (ib.BTH.ToManagement), else
// gopacket.LayerTypePayload (or LayerTypeZero when there are no bytes and
// zero is set).
func dataLayer(bth *ib.BTH, p []byte, zero bool) gopacket.LayerType {
	if bth.ToManagement() && len(p) >= mad.Len && len(p) > 0 {
		return gopacket.LayerType(layertype.MAD.Num) // LayerTypeMAD, by number: its initializer refers to decode
	}
	if zero {
		return payloadOrZero(p)
	}
	return gopacket.LayerTypePayload
}

// payloadLayer is the layer gopacket.NewPacket decodes the payload after
// the last transport header of bth's packet as: the MAD layer, IPoIB for
// a native packet that ipoib.Match takes, else gopacket.Payload.
func payloadLayer(bth *ib.BTH, payload []byte, native bool) gopacket.LayerType {
	if t := dataLayer(bth, payload, false); t != gopacket.LayerTypePayload {
		return t
	}
	if native && ipoib.Match(bth.OpCode, bth.DestQP, payload) {
		return gopacket.LayerType(layertype.IPoIB.Num) // LayerTypeIPoIB, by number
	}
	return gopacket.LayerTypePayload
}

func payloadOrZero(p []byte) gopacket.LayerType {
	if len(p) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}
