package pfc

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// LayerTypeMACControl is the gopacket layer type of MACControl, number
// 1810 in the range gopacket leaves to applications (1000-1999);
// package ib of this module uses 1790-1802. gopacket panics on a number
// registered twice.
var LayerTypeMACControl = gopacket.RegisterLayerType(1810, gopacket.LayerTypeMetadata{
	Name:    "MACControl",
	Decoder: gopacket.DecodeFunc(decodeMACControl),
})

// init routes Ethertype 0x8808 to MACControl in gopacket's Ethernet
// decoder, which has no MAC Control layer of its own (v1.1.19).
func init() {
	layers.EthernetTypeMetadata[EthernetTypeMACControl] = layers.EnumMetadata{
		DecodeWith: LayerTypeMACControl,
		Name:       "MACControl",
		LayerType:  LayerTypeMACControl,
	}
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
