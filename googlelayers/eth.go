package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/layertype"
)

// The extended transport headers as layers. Inside a Layers set (or a
// packet NewPacket decoded) each is linked to its BTH, whose opcode says
// which header follows it.

// link is what every extended header layer adds to its ib header: its
// bytes, and the BTH that says which header comes next.
type link struct {
	layers.BaseLayer
	bth  *ib.BTH // set by Layers, or by the decoder of its packet; nil for a header decoded on its own
	mads bool    // in a Layers set: a MAD follows a UD SEND to QP 0 or 1
}

// SetBTH links the header to bth, the BTH of its packet, which tells it
// which header follows it. Layers.DecodingLayers links the headers of
// its set.
func (l *link) SetBTH(bth *ib.BTH) { l.bth = bth }

// split sets Contents to the n bytes of the header at the start of data
// (which decoded without an error) and Payload to what follows, or both
// to nil on an error; it tells df of a truncation.
func (l *link) split(data []byte, n int, df gopacket.DecodeFeedback, err error) error {
	if err != nil {
		l.Contents, l.Payload = nil, nil
		return tell(df, false, err)
	}
	l.Contents, l.Payload = data[:n], data[n:]
	return nil
}

// next returns the layer of the header the opcode of the linked BTH puts
// after kind, or gopacket.LayerTypePayload when only data follows (the
// MAD layer for a MAD, in a Layers set). A header decoded outside a set
// or a packet does not know its opcode and returns the payload type.
func (l *link) next(kind ib.Header) gopacket.LayerType {
	if l.bth != nil {
		if n := l.bth.OpCode.Headers().After(kind); n != ib.NoHeader {
			return HeaderLayerType(n)
		}
		if l.mads {
			return dataLayer(l.bth, l.Payload, true)
		}
	}
	return payloadOrZero(l.Payload)
}

// RDETH is ib.RDETH, the Reliable Datagram ETH, as a layer.
type RDETH struct {
	link
	ib.RDETH
}

// LayerType returns LayerTypeRDETH.
func (h *RDETH) LayerType() gopacket.LayerType { return LayerTypeRDETH }

// CanDecode returns LayerTypeRDETH.
func (h *RDETH) CanDecode() gopacket.LayerClass { return LayerTypeRDETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *RDETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderRDETH) }

// DecodeFromBytes is ib.RDETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *RDETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.RDETHLen, df, h.RDETH.Decode(data))
}

// SerializeTo is ib.RDETH.Serialize.
func (h *RDETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// DETH is ib.DETH, the Datagram ETH, as a layer.
type DETH struct {
	link
	ib.DETH
}

// LayerType returns LayerTypeDETH.
func (h *DETH) LayerType() gopacket.LayerType { return LayerTypeDETH }

// CanDecode returns LayerTypeDETH.
func (h *DETH) CanDecode() gopacket.LayerClass { return LayerTypeDETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *DETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderDETH) }

// DecodeFromBytes is ib.DETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *DETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.DETHLen, df, h.DETH.Decode(data))
}

// SerializeTo is ib.DETH.Serialize.
func (h *DETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// XRCETH is ib.XRCETH, the XRC ETH, as a layer.
type XRCETH struct {
	link
	ib.XRCETH
}

// LayerType returns LayerTypeXRCETH.
func (h *XRCETH) LayerType() gopacket.LayerType { return LayerTypeXRCETH }

// CanDecode returns LayerTypeXRCETH.
func (h *XRCETH) CanDecode() gopacket.LayerClass { return LayerTypeXRCETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *XRCETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderXRCETH) }

// DecodeFromBytes is ib.XRCETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *XRCETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.XRCETHLen, df, h.XRCETH.Decode(data))
}

// SerializeTo is ib.XRCETH.Serialize.
func (h *XRCETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// RETH is ib.RETH, the RDMA ETH, as a layer.
type RETH struct {
	link
	ib.RETH
}

// LayerType returns LayerTypeRETH.
func (h *RETH) LayerType() gopacket.LayerType { return LayerTypeRETH }

// CanDecode returns LayerTypeRETH.
func (h *RETH) CanDecode() gopacket.LayerClass { return LayerTypeRETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *RETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderRETH) }

// DecodeFromBytes is ib.RETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *RETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.RETHLen, df, h.RETH.Decode(data))
}

// SerializeTo is ib.RETH.Serialize.
func (h *RETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// AtomicETH is ib.AtomicETH, the Atomic ETH, as a layer.
type AtomicETH struct {
	link
	ib.AtomicETH
}

// LayerType returns LayerTypeAtomicETH.
func (h *AtomicETH) LayerType() gopacket.LayerType { return LayerTypeAtomicETH }

// CanDecode returns LayerTypeAtomicETH.
func (h *AtomicETH) CanDecode() gopacket.LayerClass { return LayerTypeAtomicETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *AtomicETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderAtomicETH) }

// DecodeFromBytes is ib.AtomicETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *AtomicETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.AtomicETHLen, df, h.AtomicETH.Decode(data))
}

// SerializeTo is ib.AtomicETH.Serialize.
func (h *AtomicETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// AtomicAckETH is ib.AtomicAckETH, the Atomic Acknowledge ETH, as a layer.
type AtomicAckETH struct {
	link
	ib.AtomicAckETH
}

// LayerType returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) LayerType() gopacket.LayerType { return LayerTypeAtomicAckETH }

// CanDecode returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) CanDecode() gopacket.LayerClass { return LayerTypeAtomicAckETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *AtomicAckETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderAtomicAckETH) }

// DecodeFromBytes is ib.AtomicAckETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *AtomicAckETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.AtomicAckETHLen, df, h.AtomicAckETH.Decode(data))
}

// SerializeTo is ib.AtomicAckETH.Serialize.
func (h *AtomicAckETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// AETH is ib.AETH, the ACK ETH, as a layer.
type AETH struct {
	link
	ib.AETH
}

// LayerType returns LayerTypeAETH.
func (h *AETH) LayerType() gopacket.LayerType { return LayerTypeAETH }

// CanDecode returns LayerTypeAETH.
func (h *AETH) CanDecode() gopacket.LayerClass { return LayerTypeAETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *AETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderAETH) }

// DecodeFromBytes is ib.AETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *AETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.AETHLen, df, h.AETH.Decode(data))
}

// SerializeTo is ib.AETH.Serialize.
func (h *AETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// ImmDt is ib.ImmDt, the Immediate Data header, as a layer.
type ImmDt struct {
	link
	ib.ImmDt
}

// LayerType returns LayerTypeImmDt.
func (h *ImmDt) LayerType() gopacket.LayerType { return LayerTypeImmDt }

// CanDecode returns LayerTypeImmDt.
func (h *ImmDt) CanDecode() gopacket.LayerClass { return LayerTypeImmDt }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *ImmDt) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderImmDt) }

// DecodeFromBytes is ib.ImmDt.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *ImmDt) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.ImmDtLen, df, h.ImmDt.Decode(data))
}

// SerializeTo is ib.ImmDt.Serialize.
func (h *ImmDt) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// IETH is ib.IETH, the Invalidate ETH, as a layer.
type IETH struct {
	link
	ib.IETH
}

// LayerType returns LayerTypeIETH.
func (h *IETH) LayerType() gopacket.LayerType { return LayerTypeIETH }

// CanDecode returns LayerTypeIETH.
func (h *IETH) CanDecode() gopacket.LayerClass { return LayerTypeIETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *IETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderIETH) }

// DecodeFromBytes is ib.IETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *IETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.IETHLen, df, h.IETH.Decode(data))
}

// SerializeTo is ib.IETH.Serialize.
func (h *IETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// FETH is ib.FETH, the FLUSH ETH, as a layer.
type FETH struct {
	link
	ib.FETH
}

// LayerType returns LayerTypeFETH.
func (h *FETH) LayerType() gopacket.LayerType { return LayerTypeFETH }

// CanDecode returns LayerTypeFETH.
func (h *FETH) CanDecode() gopacket.LayerClass { return LayerTypeFETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *FETH) NextLayerType() gopacket.LayerType { return h.next(ib.HeaderFETH) }

// DecodeFromBytes is ib.FETH.Decode, Contents the header's bytes and
// Payload what follows; df, which may be nil, is told of a truncation.
// On an error h is left zeroed but for its link to the BTH.
func (h *FETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return h.split(data, ib.FETHLen, df, h.FETH.Decode(data))
}

// SerializeTo is ib.FETH.Serialize.
func (h *FETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// EnableManagement makes the DETH, linked to a BTH, name the MAD layer as
// its next layer for a whole UD SEND Only to QP 0 or QP 1, for a
// DecodingLayerParser that also holds the MAD layers. Layers.DecodingLayers
// calls it.
func (h *DETH) EnableManagement() { h.mads = true }

// HeaderLayerType returns the layer type of extended header h, and
// gopacket.LayerTypePayload for ib.NoHeader (what follows the last
// header).
func HeaderLayerType(h ib.Header) gopacket.LayerType {
	if h > ib.NoHeader && int(h) < len(layertype.ETH) {
		return gopacket.LayerType(layertype.ETH[h].Num)
	}
	return gopacket.LayerTypePayload
}
