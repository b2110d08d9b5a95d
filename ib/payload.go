package ib

import (
	"github.com/google/gopacket"
)

// A PayloadClassifier names the gopacket layer type of a transport packet's
// payload (what follows the BTH and the extended headers of its opcode),
// or returns gopacket.LayerTypeZero when the payload is not one it knows.
// native is true for a native InfiniBand packet (one under an LRH), false
// for RoCE. Packages that decode what InfiniBand carries (IPoIB, ...)
// register their classifier with RegisterPayloadClassifier.
type PayloadClassifier func(bth *BTH, native bool, payload []byte) gopacket.LayerType

// payloadClassifiers are the registered classifiers, asked in the order of
// registration.
var payloadClassifiers []PayloadClassifier

// RegisterPayloadClassifier adds r to the classifiers the gopacket decoder of the
// BTH (gopacket.NewPacket) asks, in the order they were registered, for
// the layer of a transport payload; a payload no classifier names decodes as
// gopacket.Payload. Call it from an init function: registering is not
// safe while packets are decoded. A DecodingLayerParser is not affected:
// the last transport header's NextLayerType stays gopacket.LayerTypePayload,
// since a parser's one layer of each type (its IPv4, say) would be
// overwritten by the inner packet's.
func RegisterPayloadClassifier(r PayloadClassifier) {
	payloadClassifiers = append(payloadClassifiers, r)
}

// payloadLayer returns the layer type the first classifier that knows the
// payload names, else gopacket.LayerTypePayload.
func payloadLayer(bth *BTH, native bool, payload []byte) gopacket.LayerType {
	for _, r := range payloadClassifiers {
		if t := r(bth, native, payload); t != gopacket.LayerTypeZero {
			return t
		}
	}
	return gopacket.LayerTypePayload
}
