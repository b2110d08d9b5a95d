package ib

import "github.com/google/gopacket"

// The queue pairs of the management interfaces (IBTA Vol 1, 3.9.5): a UD
// SEND to one of them carries a management datagram (MAD).
const (
	QPSMI = 0 // subnet management interface: subnet management packets
	QPGSI = 1 // general services interface: every other management class
)

// GSIQKey is the Q_Key of the general services interface, QP 1 (IBTA Vol
// 1, 3.9.5; the DETH of every MAD sent to QP 1 carries it).
const GSIQKey = 0x80010000

// managementLayer is the layer type of the payload of a UD SEND Only to
// QP 0 or QP 1, set by RegisterManagementLayer; zero until then.
// managementLen is the shortest payload it takes.
var (
	managementLayer gopacket.LayerType
	managementLen   int
)

// RegisterManagementLayer names the gopacket layer type that decodes the
// payload of a UD SEND Only to QP 0 (SMI) or QP 1 (GSI): a management
// datagram. Until it is called, that payload is a gopacket.Payload like
// any other. Package mad calls it from its init function, so importing
// mad (or roce, which imports mad) makes gopacket.NewPacket hand a MAD to
// the MAD layer after the BTH and DETH; ib itself does not import mad. A
// DecodingLayerParser does the same with a Layers set on which
// EnableManagement was called and the MAD layers beside it (mad.Layers;
// roce.Layers.Parser does both); other sets keep the payload in their
// Payload layer, so a parser without the MAD layers keeps working.
//
// A payload shorter than minLen (a MAD is 256 bytes), and the payload of
// a packet the capture cut short (BTH.Truncated), stay opaque: they are
// no whole MAD, and an opaque payload is what they decoded as before.
//
// Call it only from an init function: the decoders read the registration
// without synchronization.
func RegisterManagementLayer(t gopacket.LayerType, minLen int) {
	managementLayer, managementLen = t, minLen
}

// dataLayer returns the layer type of the bytes after the last header of
// the packet: the management layer for a whole UD SEND Only to QP 0 or
// QP 1 with a payload long enough once one is registered, else gopacket.LayerTypePayload (or
// LayerTypeZero when there are no bytes and zero is set).
func (h *BTH) dataLayer(p []byte, zero bool) gopacket.LayerType {
	if managementLayer != 0 && h.OpCode == OpUDSendOnly && h.DestQP <= QPGSI && !h.Truncated && len(p) >= managementLen && len(p) > 0 {
		return managementLayer
	}
	if zero {
		return payloadOrZero(p)
	}
	return gopacket.LayerTypePayload
}

// EnableManagement makes the set's DETH name the management layer (see
// RegisterManagementLayer) as the next layer of a whole UD SEND Only to
// QP 0 or QP 1, for a DecodingLayerParser that also holds the MAD layers
// (mad.Layers). Without it the set hands that payload to its Payload
// layer. roce.Layers.Parser calls it.
func (l *Layers) EnableManagement() { l.DETH.EnableManagement() }
