package mad

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// The numbers of the gopacket layer types of the subnet management and
// performance management MADs, 1835-1849 of the package's range (1835-1837
// are taken). gopacket panics on a number registered twice.
const (
	layerTypeSMP         gopacket.LayerType = 1835
	layerTypeSMPDirected gopacket.LayerType = 1836
	layerTypePerfMgt     gopacket.LayerType = 1837
)

// The gopacket layer types of the LID-routed and the directed-route SMP.
var (
	LayerTypeSMP = gopacket.RegisterLayerType(int(layerTypeSMP),
		gopacket.LayerTypeMetadata{Name: "SMP", Decoder: gopacket.DecodeFunc(decodeSMP)})
	LayerTypeSMPDirected = gopacket.RegisterLayerType(int(layerTypeSMPDirected),
		gopacket.LayerTypeMetadata{Name: "SMPDirected", Decoder: gopacket.DecodeFunc(decodeSMPDirected)})
)

// madLayer is a MAD layout that is a gopacket layer.
type madLayer interface {
	gopacket.Layer
	gopacket.DecodingLayer
}

// decodeMADLayer is the gopacket decoder of a MAD layout: the layer, then
// a payload layer for any bytes after the 256 of the MAD.
func decodeMADLayer(l madLayer, data []byte, p gopacket.PacketBuilder) error {
	if err := l.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(l)
	if len(l.LayerPayload()) == 0 {
		return nil
	}
	return p.NextDecoder(gopacket.LayerTypePayload)
}

func decodeSMP(data []byte, p gopacket.PacketBuilder) error {
	return decodeMADLayer(&SMP{}, data, p)
}

func decodeSMPDirected(data []byte, p gopacket.PacketBuilder) error {
	return decodeMADLayer(&SMPDirected{}, data, p)
}

// decodeFromBytes decodes the MAD m, whose BaseLayer is bl, from data:
// the layer's contents are the 256 bytes, its payload the rest. It tells
// df, when there is one, that data was too short.
func decodeFromBytes(m madLayout, bl *layers.BaseLayer, data []byte, df gopacket.DecodeFeedback) error {
	if err := m.Decode(data); err != nil {
		if len(data) < Len && df != nil {
			df.SetTruncated()
		}
		return err
	}
	bl.Contents, bl.Payload = data[:Len:Len], data[Len:]
	return nil
}

// serializeMAD prepends the MAD m to b, or nothing when m does not
// validate.
func serializeMAD(m madLayout, b gopacket.SerializeBuffer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	p, err := b.PrependBytes(Len)
	if err != nil {
		return err
	}
	m.put(p)
	return nil
}

// nextAfterMAD is the layer after a MAD: a payload when bytes follow it.
func nextAfterMAD(payload []byte) gopacket.LayerType {
	if len(payload) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}

// LayerType returns LayerTypeSMP.
func (s *SMP) LayerType() gopacket.LayerType { return LayerTypeSMP }

// CanDecode returns LayerTypeSMP.
func (s *SMP) CanDecode() gopacket.LayerClass { return LayerTypeSMP }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (s *SMP) NextLayerType() gopacket.LayerType { return nextAfterMAD(s.Payload) }

// DecodeFromBytes decodes the MAD at the start of data as Decode does and
// sets the layer's contents (the 256 bytes) and payload (the rest); df
// may be nil.
func (s *SMP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return decodeFromBytes(s, &s.BaseLayer, data, df)
}

// SerializeTo prepends the 256-byte MAD. It refuses, writing nothing, what
// Validate refuses.
func (s *SMP) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return serializeMAD(s, b)
}

// LayerType returns LayerTypeSMPDirected.
func (s *SMPDirected) LayerType() gopacket.LayerType { return LayerTypeSMPDirected }

// CanDecode returns LayerTypeSMPDirected.
func (s *SMPDirected) CanDecode() gopacket.LayerClass { return LayerTypeSMPDirected }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (s *SMPDirected) NextLayerType() gopacket.LayerType { return nextAfterMAD(s.Payload) }

// DecodeFromBytes decodes the MAD at the start of data as Decode does and
// sets the layer's contents (the 256 bytes) and payload (the rest); df
// may be nil.
func (s *SMPDirected) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return decodeFromBytes(s, &s.BaseLayer, data, df)
}

// SerializeTo prepends the 256-byte MAD. It refuses, writing nothing, what
// Validate refuses.
func (s *SMPDirected) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return serializeMAD(s, b)
}
