package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// MACControl is pfc.MACControl, the body of an 802.3x PAUSE or 802.1Qbb
// PFC frame (Ethertype 0x8808), as a layer.
type MACControl struct{ pfc.MACControl }

// LayerType returns LayerTypeMACControl.
func (m *MACControl) LayerType() gopacket.LayerType { return LayerTypeMACControl }

// CanDecode returns LayerTypeMACControl.
func (m *MACControl) CanDecode() gopacket.LayerClass { return LayerTypeMACControl }

// NextLayerType returns gopacket.LayerTypeZero: nothing follows.
func (m *MACControl) NextLayerType() gopacket.LayerType { return gopacket.LayerTypeZero }

// DecodeFromBytes is pfc.MACControl.Decode; df may be nil.
func (m *MACControl) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, m.Decode(data))
}

// SerializeTo is pfc.MACControl.Serialize.
func (m *MACControl) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return m.Serialize(b, ib.SerializeOptions(opts))
}
