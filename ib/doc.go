// Package ib is the InfiniBand transport as RoCE carries it: the Base
// Transport Header, every extended transport header (RDETH, DETH, XRCETH,
// RETH, AtomicETH, AtomicAckETH, AETH, ImmDt, IETH and the IBTA 1.5 FETH;
// ATOMIC WRITE carries RETH and 8 bytes of data), the opcode table, the
// Global and Local Route Headers, and the invariant CRC (ICRC) of RoCEv1,
// RoCEv2 over IPv4 and RoCEv2 over IPv6 (ComputeICRC) and of native
// InfiniBand packets (ComputeNativeICRC).
//
// The package builds on the standard library alone. Its headers are
// plain structs with one method set: Decode(b) resets the receiver and
// reads the header at the start of b; AppendTo(b) validates and appends
// the encoded header; Len says how long it is; Validate, where building
// can fail, says which field does not fit. The headers that delimit what
// follows them have Split, which decodes and returns those bytes (the
// BTH's extended headers and payload, the GRH's PayLen bytes, the LRH's
// PktLen words). Packet decodes a whole transport packet in one pass,
// BTH, the extended headers its opcode lists, payload, pad and ICRC, and
// encodes it back. Opcodes IBTA does not define decode as a BTH followed
// by opaque payload, never as an error.
//
// The gopacket layers of these headers are in package googlelayers (for
// github.com/google/gopacket) and in the nested module rocelayers (for
// github.com/gopacket/gopacket): each wraps the header of this package.
// For them the headers also have Serialize, writing through a Buffer,
// and say which header follows (Headers.After, BTH.NextHeader,
// GRH.NextHeader, LRH.LNH); BTH.ToManagement says that the payload of a
// packet is a management datagram (package mad decodes it).
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
// holds. GRH.Split and LRH.Split keep the captured part of what follows
// and report the cut; BTH.Split, told the declared length, sets
// BTH.Truncated. Only a packet cut before the end of its BTH fails as a
// whole. A cut packet's ICRC cannot be checked: roce.Frame.VerifyICRC
// and roce.VerifyFrame return ErrUnchecked.
//
// Every decoder resets its receiver: after an error nothing of the
// previously decoded packet remains. None panics, whatever the input; a
// short input gives an error matching ErrTruncated and
// io.ErrUnexpectedEOF.
//
// Builders validate. Packet.AppendTo (through Packet.Validate), every
// AppendTo and Serialize, GRH.Encode and LRH.Encode refuse, before
// writing anything, a value that does not fit its field (a 24-bit
// DestQP, PSN, SrcQP, XRCSRQ, EECnxt or MSN above 0xFFFFFF, a 4-bit TVer
// above 15, ...) and what the decoder would refuse (a payload on an
// opcode that carries none, an ATOMIC WRITE payload other than 8 bytes, a
// GRH IPVer other than 6). The error is a *FieldError naming the field
// and the value, "roce: BTH.DestQP 0x1000000 does not fit 24 bits", and
// wrapping ErrBadValue (ErrBadLength for a payload or length,
// ErrBadVersion for IPVer). With SerializeOptions.FixLengths, Serialize
// sets the length fields (BTH PadCnt, GRH PayLen, LRH PktLen) and refuses
// lengths they cannot hold; the GRH also gets IPVer 6 and NxtHdr 0x1B
// when they are zero.
//
// Aliasing: decoded byte slices (Payload, Pad, what Split returns) point
// into the input; they are valid until it is reused.
//
// Allocation contract: decoding (Packet.Decode, GRH and LRH Decode,
// Split), encoding into a buffer with room (Packet.AppendTo, AppendTo,
// Serialize, GRH and LRH Encode), validating and the ICRC functions
// allocate nothing, and no method of Packet makes a Packet escape to the
// heap. Only errors allocate, to say which layer or field and where;
// CheckICRC reports a bad ICRC without allocating, VerifyICRC with an
// *ICRCError carrying the computed and received values.
//
// Errors wrap the exported sentinels (ErrTruncated, ErrBadLength,
// ErrBadPad, ErrBadVersion, ErrBadICRC, ErrUnsupported, ErrNotRoCE,
// ErrBadValue), so errors.Is matches them; ErrTruncated also matches
// io.ErrUnexpectedEOF. An *Error says which layer failed and at which
// offset, a *FieldError which field a builder refused, an *ICRCError the
// computed and received ICRC. Every message starts with "roce: ".
package ib

//go:generate go run ../internal/hdrgen packet_gen.go
