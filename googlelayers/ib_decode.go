package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/layertype"
)

// The gopacket decoders of the LRH, the GRH and the BTH, which
// gopacket.NewPacket calls (register.go registers them).

func decodeLRH(data []byte, p gopacket.PacketBuilder) error {
	h := &LRH{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	p.SetLinkLayer(h)
	return p.NextDecoder(h.NextLayerType())
}

func decodeGRH(data []byte, p gopacket.PacketBuilder) error {
	h := &GRH{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	p.SetNetworkLayer(h)
	return p.NextDecoder(h.NextLayerType())
}

// decodeBTH is the gopacket decoder for a BTH and all the extended headers
// its opcode lists, each added as its own layer, then the payload.
func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	pk, _ := p.(gopacket.Packet)
	// gopacket routes a UDP datagram by its source port when its
	// destination port is not registered; RoCEv2 is keyed on the
	// destination port alone.
	if pk != nil {
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
		l := newETH(hs.At(i), &bth.BTH)
		if err := l.DecodeFromBytes(rest, p); err != nil {
			return err
		}
		p.AddLayer(l)
		rest = l.LayerPayload()
	}
	native := pk != nil && pk.Layer(gopacket.LayerType(layertype.LRH.Num)) != nil
	return p.NextDecoder(payloadLayer(&bth.BTH, rest, native))
}
