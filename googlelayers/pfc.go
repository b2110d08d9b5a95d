package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/internal/layertype"

	"github.com/roce-go/roce/pfc"
)

// LayerTypeMACControl is the layer type of MACControl, number 1810 in
// the range gopacket leaves to applications (1000-1999). Importing this
// package routes Ethertype 0x8808 to it in gopacket's Ethernet decoder,
// which has no MAC Control layer of its own (v1.1.19).
var LayerTypeMACControl = gopacket.RegisterLayerType(layertype.MACControl.Num, gopacket.LayerTypeMetadata{
	Name:    layertype.MACControl.Name,
	Decoder: gopacket.DecodeFunc(decodeMACControl),
})

func init() {
	layers.EthernetTypeMetadata[layers.EthernetType(pfc.EthernetTypeMACControl)] = layers.EnumMetadata{
		DecodeWith: LayerTypeMACControl, Name: "MACControl", LayerType: LayerTypeMACControl,
	}
}

// MACControl is pfc.MACControl, the body of an 802.3x PAUSE or 802.1Qbb
// PFC frame (Ethertype 0x8808), as a layer: a DecodingLayer and a
// SerializableLayer. Contents holds the opcode and the fields the opcode
// defines (pfc.PauseLen or pfc.PFCLen bytes, or only the opcode for other
// opcodes); Payload is always empty, as nothing follows a MAC Control
// frame (the padding is Pad, another opcode's bytes Body).
type MACControl struct {
	layers.BaseLayer
	pfc.MACControl
}

// LayerType returns LayerTypeMACControl.
func (m *MACControl) LayerType() gopacket.LayerType { return LayerTypeMACControl }

// CanDecode returns LayerTypeMACControl.
func (m *MACControl) CanDecode() gopacket.LayerClass { return LayerTypeMACControl }

// NextLayerType returns gopacket.LayerTypeZero: nothing follows.
func (m *MACControl) NextLayerType() gopacket.LayerType { return gopacket.LayerTypeZero }

// DecodeFromBytes is pfc.MACControl.Decode; df, which may be nil, is
// told of a truncation (the only way Decode fails).
func (m *MACControl) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	m.BaseLayer = layers.BaseLayer{}
	if err := m.Decode(data); err != nil {
		if df != nil {
			df.SetTruncated()
		}
		return err
	}
	m.Contents = data[:len(data)-len(m.Pad)-len(m.Body)]
	return nil
}

// SerializeTo prepends the body as pfc.MACControl.AppendTo writes it;
// the options change nothing (layers.Ethernet pads a frame shorter than
// 60 bytes when it serializes).
func (m *MACControl) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	if err := m.Validate(); err != nil {
		return err
	}
	out, err := b.PrependBytes(m.Len())
	if err != nil {
		return err
	}
	_, err = m.AppendTo(out[:0])
	return err
}

// decodeMACControl is the gopacket decoder: one MACControl layer, last
// in the packet.
func decodeMACControl(data []byte, p gopacket.PacketBuilder) error {
	m := &MACControl{}
	if err := m.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(m)
	return nil
}
