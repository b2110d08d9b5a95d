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
// Packet decodes the same bytes in one pass, without gopacket's dispatch,
// and encodes them back.
//
// Aliasing: decoded byte slices (Payload, Pad, the layers' Contents and
// Payload) point into the input; they are valid until it is reused.
//
// Allocation contract: decoding (DecodeFromBytes, Packet.Decode), encoding
// into a buffer with room (Packet.AppendTo, SerializeTo with a prepared
// gopacket.SerializeBuffer) and the ICRC functions allocate nothing. Only
// errors for malformed input allocate, to say which layer and where; the
// error for a bad ICRC is preallocated.
//
// Errors wrap the exported sentinels (ErrTruncated, ErrBadLength,
// ErrBadPad, ErrBadVersion, ErrBadICRC, ErrUnsupported, ErrNotRoCE), so
// errors.Is matches them; ErrTruncated also matches io.ErrUnexpectedEOF.
// An *Error says which layer failed and at which offset.
package ib
