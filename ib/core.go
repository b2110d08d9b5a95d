package ib

// The gopacket-free core. Every header of this package decodes and
// encodes without gopacket, so that the layers of both gopacket modules
// (github.com/google/gopacket here, github.com/gopacket/gopacket in the
// nested module rocelayers) are thin wrappers over one codec:
//
//   - LRH.DecodeLayer, GRH.DecodeLayer, BTH.DecodeLayer and the Decode of
//     each extended header are DecodeFromBytes without the
//     DecodeFeedback: they return what a layer would tell it (a
//     truncation, as an error wrapping ErrTruncated, or a payload cut by
//     the capture, as cut);
//   - Serialize is SerializeTo writing through a Buffer, with the
//     options as SerializeOptions, a conversion of either module's;
//   - Headers.After and the extended headers' NextHeader say which header
//     follows, for NextLayerType, and BTH.PayloadLayerType which layer the
//     payload after the last one is (a MAD, IPoIB; handover.go).

// Buffer is what a header's Serialize writes through: the methods of a
// gopacket.SerializeBuffer it uses. The SerializeBuffer of either gopacket
// module satisfies it.
type Buffer interface {
	Bytes() []byte
	PrependBytes(n int) ([]byte, error)
	AppendBytes(n int) ([]byte, error)
}

// SerializeOptions are gopacket's serialization options. Its fields are
// those of gopacket.SerializeOptions in both gopacket modules, so either
// converts to it: ib.SerializeOptions(opts).
type SerializeOptions struct {
	// FixLengths sets the length fields (BTH PadCnt, GRH PayLen, LRH
	// PktLen) from the bytes serialized.
	FixLengths bool
	// ComputeChecksums changes nothing here: the ICRC needs the whole
	// packet (see roce.FixICRC).
	ComputeChecksums bool
}

// LengthUnknown is the length to give BTH.DecodeLayer for a packet the
// capture cut short when the headers in front of it do not say how long
// it is.
const LengthUnknown = -1
