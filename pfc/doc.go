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
// MACControl is a plain struct with the codec's method set: Decode
// (its input is everything after the Ethertype), AppendTo, Len and
// Validate. The decoder accepts frames with or without the zero padding
// to 60 bytes and with or without a trailing 4-byte FCS, and keeps
// whatever follows the fields (padding, FCS) in Pad, so every frame
// re-encodes byte for byte. The package imports the standard library
// only; its gopacket layer, registered for Ethertype 0x8808, is
// MACControl of package github.com/roce-go/roce/googlelayers (for
// github.com/google/gopacket) and of github.com/roce-go/roce/rocelayers
// (for github.com/gopacket/gopacket).
//
// AppendPause and AppendPFC write a whole frame, addressed to
// 01-80-C2-00-00-01 and zero padded to 60 bytes (no FCS), into a caller's
// buffer. Speed converts between pause quanta (one quantum is 512 bit
// times) and time at a link speed.
//
// Aliasing: decoded byte slices (Pad, Body) point into the input; they
// are valid until it is reused.
//
// Allocation contract: decoding (MACControl.Decode), encoding into a
// buffer with room (AppendPause, AppendPFC, MACControl.AppendTo) and the
// Speed conversions allocate nothing. Errors for malformed input are
// preallocated too, so even a truncated frame costs no allocation; they
// are shared values and must not be modified.
//
// Errors wrap the module's sentinels, exported here: a body shorter than
// its opcode needs gives an *Error wrapping ErrTruncated (which also
// matches io.ErrUnexpectedEOF), and AppendTo refuses a frame Validate
// refuses with a *FieldError wrapping ErrBadValue. Decoding never fails
// for any other reason: non-zero reserved bits (the upper byte of the
// PFC priority-enable vector) and non-zero padding are kept, not
// rejected.
package pfc
