package ib

import "github.com/google/gopacket"

// The hand-over of a transport packet's payload, for the layers of either
// gopacket module: the google/gopacket decoder of the BTH and the nested
// module rocelayers both ask these, so the rules of management.go and
// payload.go exist once. A layer type converts between the modules by
// number.

// PayloadLayerType returns the layer type of payload, the bytes after the
// BTH and the extended headers of its opcode: the management layer for a
// whole MAD to QP 0 or 1 (RegisterManagementLayer), else the layer the
// first registered PayloadClassifier names (native tells them the packet
// is native InfiniBand), else gopacket.LayerTypePayload. It is what
// gopacket.NewPacket decodes after the last transport header.
func (h *BTH) PayloadLayerType(payload []byte, native bool) gopacket.LayerType {
	if t := h.dataLayer(payload, false); t != gopacket.LayerTypePayload {
		return t
	}
	return payloadLayer(h, native, payload)
}

// EnableManagement makes the DETH, inside a set that links it to a BTH,
// name the management layer as its next layer for a whole UD SEND Only
// to QP 0 or QP 1 (see Layers.EnableManagement, which calls it).
func (h *DETH) EnableManagement() { h.eth.mads = true }
