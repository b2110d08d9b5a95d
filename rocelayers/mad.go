package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// The management datagram layers of package mad. Each embeds the layer of
// mad, with its fields and methods (cm.REQ, sa.Record(0)), and passes
// the fork's DecodeFeedback to mad's DecodeFromBytes (the interface is
// the same in both modules) and writes through mad's Serialize. Inside a
// Layers set, or a packet NewPacket decoded, the layers after the MAD
// header follow it, which tells them the class and attribute.

// MAD is mad.MAD, the common MAD header, as a layer.
type MAD struct{ mad.MAD }

// LayerType returns LayerTypeMAD.
func (m *MAD) LayerType() gopacket.LayerType { return LayerTypeMAD }

// CanDecode returns LayerTypeMAD.
func (m *MAD) CanDecode() gopacket.LayerClass { return LayerTypeMAD }

// NextLayerType returns LayerTypeRMPP, the class body's layer type or
// gopacket.LayerTypePayload, from mad's class table.
func (m *MAD) NextLayerType() gopacket.LayerType { return gopacket.LayerType(m.MAD.NextLayerType()) }

// DecodeFromBytes is mad.MAD.DecodeFromBytes; df may be nil.
func (m *MAD) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return m.MAD.DecodeFromBytes(data, df)
}

// SerializeTo is mad.MAD.Serialize.
func (m *MAD) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return m.Serialize(b, ib.SerializeOptions(opts))
}

// RMPP is mad.RMPP, the RMPP header, as a layer.
type RMPP struct{ mad.RMPP }

// LayerType returns LayerTypeRMPP.
func (r *RMPP) LayerType() gopacket.LayerType { return LayerTypeRMPP }

// CanDecode returns LayerTypeRMPP.
func (r *RMPP) CanDecode() gopacket.LayerClass { return LayerTypeRMPP }

// NextLayerType returns the layer type of the class body after a MAD
// header, else gopacket.LayerTypePayload.
func (r *RMPP) NextLayerType() gopacket.LayerType { return gopacket.LayerType(r.RMPP.NextLayerType()) }

// DecodeFromBytes is mad.RMPP.DecodeFromBytes; df may be nil.
func (r *RMPP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return r.RMPP.DecodeFromBytes(data, df)
}

// SerializeTo is mad.RMPP.Serialize.
func (r *RMPP) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return r.Serialize(b, ib.SerializeOptions(opts))
}

// CM is mad.CM, a communication manager message, as a layer.
type CM struct{ mad.CM }

// LayerType returns LayerTypeCM.
func (c *CM) LayerType() gopacket.LayerType { return LayerTypeCM }

// CanDecode returns LayerTypeCM.
func (c *CM) CanDecode() gopacket.LayerClass { return LayerTypeCM }

// NextLayerType returns gopacket.LayerTypePayload for an attribute CM
// does not define, gopacket.LayerTypeZero otherwise.
func (c *CM) NextLayerType() gopacket.LayerType { return gopacket.LayerType(c.CM.NextLayerType()) }

// DecodeFromBytes is mad.CM.DecodeFromBytes; df may be nil.
func (c *CM) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return c.CM.DecodeFromBytes(data, df)
}

// SerializeTo is mad.CM.Serialize.
func (c *CM) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return c.Serialize(b, ib.SerializeOptions(opts))
}

// SA is mad.SA, the subnet administration header and data, as a layer.
type SA struct{ mad.SA }

// LayerType returns LayerTypeSA.
func (s *SA) LayerType() gopacket.LayerType { return LayerTypeSA }

// CanDecode returns LayerTypeSA.
func (s *SA) CanDecode() gopacket.LayerClass { return LayerTypeSA }

// NextLayerType returns gopacket.LayerTypeZero: the SA data is the
// layer's own.
func (s *SA) NextLayerType() gopacket.LayerType { return gopacket.LayerType(s.SA.NextLayerType()) }

// DecodeFromBytes is mad.SA.DecodeFromBytes; df may be nil.
func (s *SA) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return s.SA.DecodeFromBytes(data, df)
}

// SerializeTo is mad.SA.Serialize.
func (s *SA) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return s.Serialize(b, ib.SerializeOptions(opts))
}

// follower is a layer that follows a MAD header.
type follower interface {
	layer
	Follow(*mad.MAD)
}

// madBodies are the fresh layers of the class bodies, by layer type, for
// gopacket.NewPacket.
var madBodies = map[gopacket.LayerType]func() follower{
	gopacket.LayerType(mad.LayerTypeCM):          func() follower { return &CM{} },
	gopacket.LayerType(mad.LayerTypeSA):          func() follower { return &SA{} },
	gopacket.LayerType(mad.LayerTypeSMP):         func() follower { return &SMP{} },
	gopacket.LayerType(mad.LayerTypeSMPDirected): func() follower { return &SMPDirected{} },
	gopacket.LayerType(mad.LayerTypePerfMgt):     func() follower { return &PerfMgt{} },
}

// decodeMAD is the gopacket decoder of a MAD, as mad's is for Google's:
// the MAD layer, the RMPP layer if the class carries one, then the class
// body, or the payload for a class or attribute mad does not decode.
// The layer types of the class bodies decode from the MAD header too.
func decodeMAD(data []byte, p gopacket.PacketBuilder) error {
	m := &MAD{}
	if err := add(m, data, p); err != nil {
		return err
	}
	rest, next := m.Payload, m.NextLayerType()
	if next == gopacket.LayerType(mad.LayerTypeRMPP) {
		r := &RMPP{}
		r.Follow(&m.MAD)
		if err := add(r, rest, p); err != nil {
			return err
		}
		rest, next = r.Payload, r.NextLayerType()
	}
	body, ok := madBodies[next]
	if !ok {
		return p.NextDecoder(next)
	}
	b := body()
	b.Follow(&m.MAD)
	if err := add(b, rest, p); err != nil {
		return err
	}
	if b.NextLayerType() == gopacket.LayerTypePayload { // bytes after the MAD
		return p.NextDecoder(gopacket.LayerTypePayload)
	}
	return nil
}
