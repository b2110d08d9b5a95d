package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
)

// The extended transport headers as layers. Inside a Layers set (or a
// packet NewPacket decoded) each is linked to its BTH, whose opcode says
// which header follows it.

// RDETH is ib.RDETH, the Reliable Datagram ETH, as a layer.
type RDETH struct{ ib.RDETH }

// LayerType returns LayerTypeRDETH.
func (h *RDETH) LayerType() gopacket.LayerType { return LayerTypeRDETH }

// CanDecode returns LayerTypeRDETH.
func (h *RDETH) CanDecode() gopacket.LayerClass { return LayerTypeRDETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *RDETH) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(h.RDETH.NextLayerType())
}

// DecodeFromBytes is ib.RDETH.Decode; df may be nil.
func (h *RDETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.RDETH.Serialize.
func (h *RDETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// DETH is ib.DETH, the Datagram ETH, as a layer.
type DETH struct{ ib.DETH }

// LayerType returns LayerTypeDETH.
func (h *DETH) LayerType() gopacket.LayerType { return LayerTypeDETH }

// CanDecode returns LayerTypeDETH.
func (h *DETH) CanDecode() gopacket.LayerClass { return LayerTypeDETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *DETH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.DETH.NextLayerType()) }

// DecodeFromBytes is ib.DETH.Decode; df may be nil.
func (h *DETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.DETH.Serialize.
func (h *DETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// XRCETH is ib.XRCETH, the XRC ETH, as a layer.
type XRCETH struct{ ib.XRCETH }

// LayerType returns LayerTypeXRCETH.
func (h *XRCETH) LayerType() gopacket.LayerType { return LayerTypeXRCETH }

// CanDecode returns LayerTypeXRCETH.
func (h *XRCETH) CanDecode() gopacket.LayerClass { return LayerTypeXRCETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *XRCETH) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(h.XRCETH.NextLayerType())
}

// DecodeFromBytes is ib.XRCETH.Decode; df may be nil.
func (h *XRCETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.XRCETH.Serialize.
func (h *XRCETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// RETH is ib.RETH, the RDMA ETH, as a layer.
type RETH struct{ ib.RETH }

// LayerType returns LayerTypeRETH.
func (h *RETH) LayerType() gopacket.LayerType { return LayerTypeRETH }

// CanDecode returns LayerTypeRETH.
func (h *RETH) CanDecode() gopacket.LayerClass { return LayerTypeRETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *RETH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.RETH.NextLayerType()) }

// DecodeFromBytes is ib.RETH.Decode; df may be nil.
func (h *RETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.RETH.Serialize.
func (h *RETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// AtomicETH is ib.AtomicETH, the Atomic ETH, as a layer.
type AtomicETH struct{ ib.AtomicETH }

// LayerType returns LayerTypeAtomicETH.
func (h *AtomicETH) LayerType() gopacket.LayerType { return LayerTypeAtomicETH }

// CanDecode returns LayerTypeAtomicETH.
func (h *AtomicETH) CanDecode() gopacket.LayerClass { return LayerTypeAtomicETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *AtomicETH) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(h.AtomicETH.NextLayerType())
}

// DecodeFromBytes is ib.AtomicETH.Decode; df may be nil.
func (h *AtomicETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.AtomicETH.Serialize.
func (h *AtomicETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// AtomicAckETH is ib.AtomicAckETH, the Atomic Acknowledge ETH, as a layer.
type AtomicAckETH struct{ ib.AtomicAckETH }

// LayerType returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) LayerType() gopacket.LayerType { return LayerTypeAtomicAckETH }

// CanDecode returns LayerTypeAtomicAckETH.
func (h *AtomicAckETH) CanDecode() gopacket.LayerClass { return LayerTypeAtomicAckETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *AtomicAckETH) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(h.AtomicAckETH.NextLayerType())
}

// DecodeFromBytes is ib.AtomicAckETH.Decode; df may be nil.
func (h *AtomicAckETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.AtomicAckETH.Serialize.
func (h *AtomicAckETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// AETH is ib.AETH, the ACK ETH, as a layer.
type AETH struct{ ib.AETH }

// LayerType returns LayerTypeAETH.
func (h *AETH) LayerType() gopacket.LayerType { return LayerTypeAETH }

// CanDecode returns LayerTypeAETH.
func (h *AETH) CanDecode() gopacket.LayerClass { return LayerTypeAETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *AETH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.AETH.NextLayerType()) }

// DecodeFromBytes is ib.AETH.Decode; df may be nil.
func (h *AETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.AETH.Serialize.
func (h *AETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// ImmDt is ib.ImmDt, the Immediate Data header, as a layer.
type ImmDt struct{ ib.ImmDt }

// LayerType returns LayerTypeImmDt.
func (h *ImmDt) LayerType() gopacket.LayerType { return LayerTypeImmDt }

// CanDecode returns LayerTypeImmDt.
func (h *ImmDt) CanDecode() gopacket.LayerClass { return LayerTypeImmDt }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *ImmDt) NextLayerType() gopacket.LayerType {
	return gopacket.LayerType(h.ImmDt.NextLayerType())
}

// DecodeFromBytes is ib.ImmDt.Decode; df may be nil.
func (h *ImmDt) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.ImmDt.Serialize.
func (h *ImmDt) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// IETH is ib.IETH, the Invalidate ETH, as a layer.
type IETH struct{ ib.IETH }

// LayerType returns LayerTypeIETH.
func (h *IETH) LayerType() gopacket.LayerType { return LayerTypeIETH }

// CanDecode returns LayerTypeIETH.
func (h *IETH) CanDecode() gopacket.LayerClass { return LayerTypeIETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *IETH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.IETH.NextLayerType()) }

// DecodeFromBytes is ib.IETH.Decode; df may be nil.
func (h *IETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.IETH.Serialize.
func (h *IETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// FETH is ib.FETH, the FLUSH ETH, as a layer.
type FETH struct{ ib.FETH }

// LayerType returns LayerTypeFETH.
func (h *FETH) LayerType() gopacket.LayerType { return LayerTypeFETH }

// CanDecode returns LayerTypeFETH.
func (h *FETH) CanDecode() gopacket.LayerClass { return LayerTypeFETH }

// NextLayerType returns the header the opcode puts next, or the payload.
func (h *FETH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.FETH.NextLayerType()) }

// DecodeFromBytes is ib.FETH.Decode; df may be nil.
func (h *FETH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	return tell(df, false, h.Decode(data))
}

// SerializeTo is ib.FETH.Serialize.
func (h *FETH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}
