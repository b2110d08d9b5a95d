// Package ib is the InfiniBand transport as RoCE carries it: the Base
// Transport Header, every extended transport header (RDETH, DETH, XRCETH,
// RETH, AtomicETH, AtomicAckETH, AETH, ImmDt, IETH and the IBTA 1.5 FETH;
// ATOMIC WRITE carries RETH and 8 bytes of data), the opcode table, the
// Global and Local Route Headers, and the invariant CRC (ICRC) of RoCEv1,
// RoCEv2 over IPv4 and RoCEv2 over IPv6 (ComputeICRC) and of native
// InfiniBand packets (ComputeNativeICRC).
//
// Every header is a gopacket layer: a registered LayerType (numbers 1790
// to 1802), a DecodingLayer and a SerializableLayer. A BTH decodes the
// whole transport packet, BTH through ICRC: it checks the lengths against
// its opcode, splits off the pad and the ICRC (kept in BTH.Pad and
// BTH.ICRC) and hands the extended headers and the payload on. The
// extended headers of one Layers set know, through its BTH, which header
// follows them, so a gopacket.DecodingLayerParser walks the exact header
// list of every opcode. Opcodes IBTA does not define decode as a BTH
// followed by opaque payload, never as an error.
//
// What follows the transport headers. gopacket.NewPacket hands the
// payload to the layer that the first registered PayloadClassifier names
// (package ipoib registers one for IPoIB in native InfiniBand packets),
// else to gopacket.Payload; a DecodingLayerParser always gets
// gopacket.LayerTypePayload (see RegisterPayloadClassifier).
//
// Packet decodes the same bytes in one pass, without gopacket's dispatch,
// and encodes them back.
//
// Management datagrams. The payload of a UD SEND Only to QP 0 or QP 1 is
// a MAD. Package ib does not decode it: RegisterManagementLayer lets
// package mad name its layer, which the BTH (gopacket.NewPacket) and the
// DETH of a Layers set after EnableManagement then hand that payload to.
//
// The gopacket contract. Every DecodeFromBytes (LRH, GRH, BTH and each
// extended header):
//   - accepts a nil gopacket.DecodeFeedback, and calls SetTruncated on a
//     non-nil one when the input is cut short;
//   - resets its receiver: after an error nothing of the previously
//     decoded packet remains (fields zero, Contents and Payload nil),
//     except that an extended header of a Layers set keeps its link to
//     the set's BTH;
//   - never panics, whatever the input; a short input gives an error
//     matching ErrTruncated and io.ErrUnexpectedEOF.
//
// Header-only captures. A packet cut short by the capture (a small snap
// length) is not malformed when its BTH was captured, wherever the cut
// falls after it. The rule, for every decoder of the module: every header
// captured whole is decoded; of the header the cut falls in, every field
// captured whole is decoded and the others are absent; nothing after the
// cut is. Packet.DecodeTruncated, given the declared length, sets
// BTH.Truncated, leaves the ICRC unknown (zero, Pad empty), decodes the
// extended headers captured whole and the whole fields of the one the
// cut falls in (the fields not captured, and the headers after the cut,
// are zero), and Packet.Captured says how many bytes of each header it
// holds. On the gopacket path GRH and LRH keep the captured part of their
// payload and call SetTruncated, and the BTH, told of the cut through the
// DecodeFeedback (a gopacket.Packet's Metadata().Truncated,
// DecodingLayerParser.Truncated), decodes itself and sets BTH.Truncated;
// an extended header layer is whole or fails with ErrTruncated. Only a
// packet cut before the end of its BTH fails as a whole. A cut packet's
// ICRC cannot be checked: roce.Frame.VerifyICRC and roce.VerifyFrame
// return ErrUnchecked.
//
// Packet.Decode likewise leaves its Packet zeroed on an error. GRH and LRH
// also have a plain Decode and Encode, without gopacket, for code that
// finds their bytes itself.
//
// Without gopacket. The codec of every header is callable without either
// gopacket module, and the gopacket methods are thin wrappers over it:
// LRH.DecodeLayer, GRH.DecodeLayer, BTH.DecodeLayer and each extended
// header's Decode are DecodeFromBytes returning what a layer tells its
// DecodeFeedback (a truncation as an error wrapping ErrTruncated, a
// payload the capture cut as a bool); each Serialize is SerializeTo
// writing through a Buffer with SerializeOptions, which the
// SerializeBuffer and SerializeOptions of github.com/google/gopacket and
// of github.com/gopacket/gopacket both satisfy or convert to; NextHeader
// and Headers.After say which header follows. The nested module
// github.com/roce-go/roce/rocelayers builds the layers of
// github.com/gopacket/gopacket on them.
//
// Builders validate. Packet.AppendTo (through Packet.Validate), every
// SerializeTo, GRH.Encode and LRH.Encode refuse, before writing anything,
// a value that does not fit its field (a 24-bit DestQP, PSN, SrcQP,
// XRCSRQ, EECnxt or MSN above 0xFFFFFF, a 4-bit TVer above 15, ...) and
// what the decoder would refuse (a payload on an opcode that carries
// none, an ATOMIC WRITE payload other than 8 bytes, a GRH IPVer other
// than 6). The error is a *FieldError naming the field and the value,
// "roce: BTH.DestQP 0x1000000 does not fit 24 bits", and wrapping
// ErrBadValue (ErrBadLength for a payload or length, ErrBadVersion for
// IPVer). With gopacket.SerializeOptions.FixLengths, SerializeTo sets the
// length fields (BTH PadCnt, GRH PayLen, LRH PktLen) and refuses lengths
// they cannot hold; the GRH also gets IPVer 6 and NxtHdr 0x1B when they
// are zero.
//
// Aliasing: decoded byte slices (Payload, Pad, the layers' Contents and
// Payload) point into the input; they are valid until it is reused.
//
// Allocation contract: decoding (DecodeFromBytes, Packet.Decode, GRH and
// LRH Decode), encoding into a buffer with room (Packet.AppendTo,
// SerializeTo with a reused gopacket.SerializeBuffer, GRH and LRH Encode),
// validating and the ICRC functions allocate nothing, and no method of
// Packet makes a Packet escape to the heap. Only errors allocate, to say
// which layer or field and where; CheckICRC reports a bad ICRC without
// allocating, VerifyICRC with an *ICRCError carrying the computed and
// received values.
//
// Errors wrap the exported sentinels (ErrTruncated, ErrBadLength,
// ErrBadPad, ErrBadVersion, ErrBadICRC, ErrUnsupported, ErrNotRoCE,
// ErrBadValue), so errors.Is matches them; ErrTruncated also matches
// io.ErrUnexpectedEOF. An *Error says which layer failed and at which
// offset, a *FieldError which field a builder refused, an *ICRCError the
// computed and received ICRC. Every message starts with "roce: ".
package ib
