package ib

import (
	"errors"
	"io"
	"strconv"
)

// Sentinel errors. Every error returned by a decoder in this module wraps
// one of these, so callers can match them with errors.Is.
var (
	// ErrTruncated means the input ended before a header or a length
	// field said it would. It also matches io.ErrUnexpectedEOF.
	ErrTruncated error = &sentinel{"truncated", io.ErrUnexpectedEOF}
	// ErrBadLength means a length field disagrees with the bytes present
	// or with the rules of the opcode (for example a payload on an
	// opcode that carries none).
	ErrBadLength = errors.New("ib: bad length")
	// ErrBadPad means BTH.PadCnt is larger than the payload it pads.
	ErrBadPad = errors.New("ib: pad count larger than payload")
	// ErrBadVersion means a version field (GRH IPVer, IP version) holds
	// a value this codec does not handle.
	ErrBadVersion = errors.New("ib: bad version")
	// ErrBadICRC means the received ICRC differs from the computed one.
	ErrBadICRC = errors.New("ib: bad ICRC")
	// ErrUnsupported means the input is well formed but uses a feature
	// this codec does not implement (for example IPv4 options under an
	// ICRC, which IBTA does not define).
	ErrUnsupported = errors.New("ib: unsupported")
	// ErrNotRoCE means a frame is well formed but carries no RoCE packet:
	// another Ethertype, another IP protocol, a UDP destination port other
	// than 4791, a GRH whose NxtHdr is not a BTH.
	ErrNotRoCE = errors.New("ib: not a RoCE frame")
)

type sentinel struct {
	msg  string
	also error
}

func (e *sentinel) Error() string        { return "ib: " + e.msg }
func (e *sentinel) Is(target error) bool { return target == e.also }

// Error is the error returned by the decoders: which layer failed, at
// which byte offset within the input handed to that layer, and why.
// It unwraps to one of the sentinel errors above.
type Error struct {
	Layer  string // "BTH", "RETH", "GRH", ...
	Offset int    // byte offset within the layer's input
	Want   int    // bytes needed, when Err is ErrTruncated or ErrBadLength
	Have   int    // bytes present
	Err    error  // the sentinel
}

// Error formats the error. It runs only when asked for the text, so the
// decode path itself formats nothing.
func (e *Error) Error() string {
	s := "ib: " + e.Layer + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Err.Error()
	if e.Want != 0 || e.Have != 0 {
		s += " (want " + strconv.Itoa(e.Want) + " bytes, have " + strconv.Itoa(e.Have) + ")"
	}
	return s
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// truncated builds the error for a layer whose input is shorter than want.
func truncated(layer string, off, want, have int) error {
	return &Error{Layer: layer, Offset: off, Want: want, Have: have, Err: ErrTruncated}
}

// NewError returns an *Error; the other packages of this module use it so
// that every decoder reports failures the same way.
func NewError(layer string, off, want, have int, err error) error {
	return &Error{Layer: layer, Offset: off, Want: want, Have: have, Err: err}
}
