// Package pfc decodes and builds the MAC Control frames that pause an
// Ethernet link (Ethertype 0x8808): the IEEE 802.3x PAUSE frame (opcode
// 0x0001, IEEE 802.3 Annex 31B), which stops all traffic for a time, and
// the IEEE 802.1Qbb priority-based flow control frame (PFC, also called
// class-based flow control or CBFC; opcode 0x0101, IEEE 802.3 Annex 31D),
// which stops each of the eight priorities separately. Lossless RoCE
// relies on PFC. Other MAC Control opcodes, such as the EPON MPCP
// messages 0x0002-0x0006, decode as an opcode and an opaque body, never
// as an error.
//
// MACControl is a gopacket layer: layer type number 1810 (LayerTypeMACControl),
// a DecodingLayer and a SerializableLayer. The package registers it for
// Ethertype 0x8808 in gopacket's Ethernet dispatch when it is imported, so
// gopacket.NewPacket and a DecodingLayerParser (Ethernet, then MACControl)
// both find it. Its input is everything after the Ethertype; the decoder
// accepts frames with or without the zero padding to 60 bytes and with or
// without a trailing 4-byte FCS, and keeps whatever follows the fields
// (padding, FCS) in Pad, so every frame re-encodes byte for byte.
//
// MACControl.Decode and MACControl.Serialize are the codec without
// gopacket, which DecodeFromBytes and SerializeTo wrap, and so do the
// layers of github.com/gopacket/gopacket in the nested module
// github.com/roce-go/roce/rocelayers.
//
// AppendPause and AppendPFC write a whole frame, addressed to
// 01-80-C2-00-00-01 and zero padded to 60 bytes (no FCS), into a caller's
// buffer. Speed converts between pause quanta (one quantum is 512 bit
// times) and time at a link speed.
//
// Aliasing: decoded byte slices (Contents, Pad, Body) point into the
// input; they are valid until it is reused.
//
// Allocation contract: decoding (DecodeFromBytes, with or without a
// DecodingLayerParser), encoding into a buffer with room (AppendPause,
// AppendPFC, MACControl.AppendTo, SerializeTo with a prepared
// gopacket.SerializeBuffer) and the Speed conversions allocate nothing.
// Errors for malformed input are preallocated too, so even a truncated
// frame costs no allocation; they are shared values and must not be
// modified.
//
// Errors wrap the sentinels of package ib: a body shorter than its opcode
// needs gives an *ib.Error wrapping ib.ErrTruncated (which also matches
// io.ErrUnexpectedEOF). Decoding never fails for any other reason:
// non-zero reserved bits (the upper byte of the PFC priority-enable
// vector) and non-zero padding are kept, not rejected.
package pfc
