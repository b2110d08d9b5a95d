package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// The subnet and performance management MADs of package mad, each a
// layout of the whole 256-byte MAD, common header included, as layers:
// gopacket.NewPacket decodes one from its layer type, as mad's layers do
// for Google's gopacket.

// SMP is mad.SMP, a LID-routed subnet management packet, as a layer.
type SMP struct{ mad.SMP }

// LayerType returns LayerTypeSMP.
func (s *SMP) LayerType() gopacket.LayerType { return LayerTypeSMP }

// CanDecode returns LayerTypeSMP.
func (s *SMP) CanDecode() gopacket.LayerClass { return LayerTypeSMP }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (s *SMP) NextLayerType() gopacket.LayerType { return gopacket.LayerType(s.SMP.NextLayerType()) }

// DecodeFromBytes is mad.SMP.DecodeFromBytes; df may be nil.
func (s *SMP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return s.SMP.DecodeFromBytes(data, df)
}

// SerializeTo is mad.SMP.Serialize.
func (s *SMP) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return s.Serialize(b, ib.SerializeOptions(opts))
}

// SMPDirected is mad.SMPDirected, a directed-route subnet management
// packet, as a layer.
type SMPDirected struct{ mad.SMPDirected }

// LayerType returns LayerTypeSMPDirected.
func (s *SMPDirected) LayerType() gopacket.LayerType { return LayerTypeSMPDirected }

// CanDecode returns LayerTypeSMPDirected.
func (s *SMPDirected) CanDecode() gopacket.LayerClass { return LayerTypeSMPDirected }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (s *SMPDirected) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(s.SMPDirected.NextLayerType())
}

// DecodeFromBytes is mad.SMPDirected.DecodeFromBytes; df may be nil.
func (s *SMPDirected) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return s.SMPDirected.DecodeFromBytes(data, df)
}

// SerializeTo is mad.SMPDirected.Serialize.
func (s *SMPDirected) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return s.Serialize(b, ib.SerializeOptions(opts))
}

// PerfMgt is mad.PerfMgt, a performance management MAD, as a layer.
type PerfMgt struct{ mad.PerfMgt }

// LayerType returns LayerTypePerfMgt.
func (m *PerfMgt) LayerType() gopacket.LayerType { return LayerTypePerfMgt }

// CanDecode returns LayerTypePerfMgt.
func (m *PerfMgt) CanDecode() gopacket.LayerClass { return LayerTypePerfMgt }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (m *PerfMgt) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(m.PerfMgt.NextLayerType())
}

// DecodeFromBytes is mad.PerfMgt.DecodeFromBytes; df may be nil.
func (m *PerfMgt) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return m.PerfMgt.DecodeFromBytes(data, df)
}

// SerializeTo is mad.PerfMgt.Serialize.
func (m *PerfMgt) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return m.Serialize(b, ib.SerializeOptions(opts))
}
