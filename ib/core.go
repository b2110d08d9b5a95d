package ib

// The codec of every header is the standard library's alone: Decode (or,
// for a header that delimits what follows it, Split), AppendTo and Len,
// and Validate where building can fail. The gopacket layers of either
// gopacket module (packages googlelayers and rocelayers) wrap these types;
// for them each header also has Serialize, writing through a Buffer with
// the options as SerializeOptions, a conversion of either module's, and
// says which header follows it (Headers.After, BTH.NextHeader,
// GRH.NextHeader, LRH.LNH).

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
