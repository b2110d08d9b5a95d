package ib

import "github.com/roce-go/roce/internal/errs"

// Sentinel errors. Every error a decoder or builder of this module
// returns, in any of its packages, wraps one of these, so callers match
// them with errors.Is. Their messages start with "roce: ".
var (
	// ErrTruncated means the input ended before a header or a length
	// field said it would. It also matches io.ErrUnexpectedEOF.
	ErrTruncated error = errs.ErrTruncated
	// ErrBadLength means a length field disagrees with the bytes present
	// or with the rules of the opcode (for example a payload on an
	// opcode that carries none).
	ErrBadLength error = errs.ErrBadLength
	// ErrBadPad means BTH.PadCnt is larger than the payload it pads.
	ErrBadPad error = errs.ErrBadPad
	// ErrBadVersion means a version field (GRH IPVer, IP version) holds
	// a value this codec does not handle.
	ErrBadVersion error = errs.ErrBadVersion
	// ErrBadICRC means the received ICRC differs from the computed one.
	// The error returned is an *ICRCError carrying both values.
	ErrBadICRC error = errs.ErrBadICRC
	// ErrUnsupported means the input is well formed but uses a feature
	// this codec does not implement (for example IPv4 options under an
	// ICRC, which IBTA does not define).
	ErrUnsupported error = errs.ErrUnsupported
	// ErrNotRoCE means a frame is well formed but carries no RoCE packet:
	// another Ethertype, another IP protocol, a UDP destination port other
	// than 4791, a GRH whose NxtHdr is not a BTH.
	ErrNotRoCE error = errs.ErrNotRoCE
	// ErrBadValue means a builder was handed a field value that does not
	// fit its field or that the decoder would refuse. The error is a
	// *FieldError naming the field and the value.
	ErrBadValue error = errs.ErrBadValue
	// ErrUnchecked means a frame's ICRC was not checked because the
	// capture cut the frame short (a snap length smaller than the frame):
	// its headers decoded but its ICRC bytes were not captured.
	// roce.Frame.VerifyICRC returns it for a frame whose Truncated is
	// set. It does not match ErrBadICRC.
	ErrUnchecked error = errs.ErrUnchecked
)

// Error is the error the decoders return: which layer failed, at which
// byte offset within the input handed to that layer, and why. It unwraps
// to one of the sentinel errors above. Every package of the module
// returns this one type.
type Error = errs.Error

// FieldError is the error the builders return for a value they refuse:
// the field ("BTH.DestQP"), the value and the reason. It unwraps to
// ErrBadValue, or to ErrBadLength for an opcode's payload rule.
type FieldError = errs.FieldError

// ICRCError is a bad ICRC with the value computed over the packet and the
// value it carries. It matches ErrBadICRC.
type ICRCError = errs.ICRCError

// truncated builds the error for a layer whose input is shorter than want.
func truncated(layer string, off, want, have int) error {
	return errs.Truncated(layer, off, want, have)
}
