// Package errs holds the error type and the sentinel errors of the whole
// module. The public packages re-export the sentinels (ib.ErrTruncated is
// errs.ErrTruncated), so users match them with errors.Is whichever
// package returned the error; every message carries the one prefix
// "roce: ".
package errs

import (
	"io"
	"strconv"
	"unsafe"
)

// Prefix starts every error message of the module.
const Prefix = "roce: "

// Sentinel is an exported sentinel error. Its message is the reason alone;
// Error adds the module's prefix.
type Sentinel struct {
	reason string
	also   error // another error it matches, or nil
}

// Error returns "roce: " and the reason.
func (s *Sentinel) Error() string { return Prefix + s.reason }

// Reason returns the message without the prefix.
func (s *Sentinel) Reason() string { return s.reason }

// Is reports whether target is the error s also stands for.
func (s *Sentinel) Is(target error) bool { return s.also != nil && target == s.also }

// The sentinels. Every error a decoder or builder of this module returns
// wraps one of them.
var (
	// ErrTruncated means the input ended before a header or a length
	// field said it would. It also matches io.ErrUnexpectedEOF.
	ErrTruncated = &Sentinel{"truncated", io.ErrUnexpectedEOF}
	// ErrBadLength means a length disagrees with the bytes present or
	// with the rules of the opcode (a payload on an opcode that carries
	// none, for example).
	ErrBadLength = &Sentinel{reason: "bad length"}
	// ErrBadPad means BTH.PadCnt is larger than the payload it pads.
	ErrBadPad = &Sentinel{reason: "pad count larger than payload"}
	// ErrBadVersion means a version field holds a value the codec does
	// not handle.
	ErrBadVersion = &Sentinel{reason: "bad version"}
	// ErrBadICRC means the received ICRC differs from the computed one.
	ErrBadICRC = &Sentinel{reason: "bad ICRC"}
	// ErrUnsupported means well-formed input or a field value that uses
	// something the codec does not implement.
	ErrUnsupported = &Sentinel{reason: "unsupported"}
	// ErrNotRoCE means a well-formed frame that carries no RoCE packet.
	ErrNotRoCE = &Sentinel{reason: "not a RoCE frame"}
	// ErrBadValue means a builder was given a field value that does not
	// fit the field or that the decoder would refuse.
	ErrBadValue = &Sentinel{reason: "bad field value"}
	// ErrUnchecked means the ICRC could not be checked because the
	// capture cut the frame short: the headers decoded, the ICRC bytes
	// were not captured. It is not ErrBadICRC.
	ErrUnchecked = &Sentinel{reason: "ICRC not checked: frame cut by the capture"}
)

// reason returns err's message without the module prefix.
func reason(err error) string {
	if s, ok := err.(*Sentinel); ok {
		return s.reason
	}
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// Error is a decoding error: which layer failed, at which byte offset of
// the input handed to that layer, and why. It unwraps to a sentinel.
type Error struct {
	Layer  string // "BTH", "RETH", "IPv4", "PFC", ...
	Offset int    // byte offset within the layer's input
	Want   int    // bytes needed, when Err is ErrTruncated or ErrBadLength
	Have   int    // bytes present
	Err    error  // the sentinel
}

// Error formats the error, "roce: BTH at offset 0: truncated (want 16
// bytes, have 9)". Only asking for the text formats it.
func (e *Error) Error() string {
	s := Prefix + e.Layer + " at offset " + strconv.Itoa(e.Offset) + ": " + reason(e.Err)
	if e.Want != 0 || e.Have != 0 {
		s += " (want " + strconv.Itoa(e.Want) + " bytes, have " + strconv.Itoa(e.Have) + ")"
	}
	return s
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error.
func New(layer string, off, want, have int, err error) error {
	return &Error{Layer: layer, Offset: off, Want: want, Have: have, Err: err}
}

// Truncated returns an *Error wrapping ErrTruncated.
func Truncated(layer string, off, want, have int) error {
	return &Error{Layer: layer, Offset: off, Want: want, Have: have, Err: ErrTruncated}
}

// FieldError is a builder's refusal: the field, the value it was given
// and why the value cannot be encoded. It unwraps to a sentinel,
// ErrBadValue unless the reason is one the decoder reports otherwise
// (ErrBadLength for an opcode's payload rule, for example).
type FieldError struct {
	Field  string // "BTH.DestQP", "VLANs[1].ID", "Packet.Payload", ...
	Value  uint64 // the value refused
	Text   string // the value as text, for values wider than 64 bits (a GID); printed in place of Value
	Reason string // "does not fit 24 bits", ...
	Err    error  // the sentinel
}

// Error formats the error, "roce: BTH.DestQP 0x1000000 does not fit 24
// bits".
func (e *FieldError) Error() string {
	if e.Text != "" {
		return Prefix + e.Field + " " + e.Text + " " + e.Reason
	}
	return Prefix + e.Field + " 0x" + strconv.FormatUint(e.Value, 16) + " " + e.Reason
}

// Unwrap returns the sentinel.
func (e *FieldError) Unwrap() error { return e.Err }

// Fit returns a *FieldError wrapping ErrBadValue when v does not fit an
// unsigned field of the given bit width, and nil when it does.
func Fit(field string, v uint64, bits uint) error {
	if v>>bits == 0 {
		return nil
	}
	return &FieldError{Field: field, Value: v, Reason: "does not fit " + strconv.Itoa(int(bits)) + " bits", Err: ErrBadValue}
}

// Length returns a *FieldError for a field whose length, n bytes, is
// refused: "roce: Packet.Payload of 4 bytes: RC Acknowledge carries no
// payload".
func Length(field string, n int, why string, err error) error {
	return &FieldError{Field: field, Value: uint64(n), Text: "of " + strconv.Itoa(n) + " bytes:", Reason: why, Err: err}
}

// Field returns a *FieldError.
func Field(field string, v uint64, why string, err error) error {
	return &FieldError{Field: field, Value: v, Reason: why, Err: err}
}

// ICRCError is a bad ICRC: the value computed over the packet and the one
// it carries, both as the four ICRC bytes read little-endian (the order
// ib.ComputeICRC returns). It matches ErrBadICRC.
type ICRCError struct {
	Computed uint32
	Received uint32
}

// Error formats the error, "roce: bad ICRC (computed 0x..., received
// 0x...)".
func (e *ICRCError) Error() string {
	return Prefix + ErrBadICRC.reason + " (computed 0x" + hex32(e.Computed) + ", received 0x" + hex32(e.Received) + ")"
}

// Unwrap returns ErrBadICRC.
func (e *ICRCError) Unwrap() error { return ErrBadICRC }

func hex32(v uint32) string {
	s := strconv.FormatUint(uint64(v), 16)
	for len(s) < 8 {
		s = "0" + s
	}
	return s
}

// Slot holds the last error a decoder reported, so that reporting one
// allocates nothing per input: a decoder keeps a Slot among its fields,
// and New and Truncated write the error into the one *Error the Slot
// allocated, at its first error, and return it. That error is valid until
// the decoder reports its next one (a caller that keeps errors longer
// copies the *Error). A decoder copied (a struct assignment) allocates its
// own at its first error, so that copies do not share one: the Slot
// knows the address it allocated at. The Slot does not move its decoder
// to the heap (the error is not in it), so a decoder declared in a
// function stays on the stack; when that stack moves (grows, or shrinks
// at a garbage collection) the decoder, at a new address, makes a new
// *Error at its next error, the old one staying valid. A nil *Slot
// allocates every error, for the callers that keep no decoder.
type Slot struct {
	e     *Error
	owner uintptr // the address of the Slot that allocated e
}

// hold returns the *Error of s, allocated at its first use by this Slot.
func (s *Slot) hold() *Error {
	if self := uintptr(unsafe.Pointer(s)); s.e == nil || s.owner != self {
		s.e, s.owner = new(Error), self
	}
	return s.e
}

// New returns an *Error, held in s.
func (s *Slot) New(layer string, off, want, have int, err error) error {
	if s == nil {
		return New(layer, off, want, have, err)
	}
	e := s.hold()
	*e = Error{Layer: layer, Offset: off, Want: want, Have: have, Err: err}
	return e
}

// Truncated returns an *Error wrapping ErrTruncated, held in s.
func (s *Slot) Truncated(layer string, off, want, have int) error {
	return s.New(layer, off, want, have, ErrTruncated)
}

// Keep copies err into s when it is an *Error (unless it is s's own), and
// returns the copy; any other error (a sentinel, nil) it returns as it is.
func (s *Slot) Keep(err error) error {
	e, ok := err.(*Error)
	if !ok || s == nil {
		return err
	}
	h := s.hold()
	if h != e {
		*h = *e
	}
	return h
}

// TruncatedTable returns, made once, the errors of a layer of want bytes
// at offset off cut short: element have, for have below want, is
// Truncated(layer, off, want, have). A decoder indexes it rather than
// allocate the error of a short input.
func TruncatedTable(layer string, off, want int) []error {
	t := make([]error, want)
	for have := range t {
		t[have] = Truncated(layer, off, want, have)
	}
	return t
}

// FieldSlot is Slot for a *FieldError.
type FieldSlot struct {
	e     *FieldError
	owner uintptr
}

// Field returns a *FieldError, held in s (allocated when s is nil).
func (s *FieldSlot) Field(field string, v uint64, why string, err error) error {
	if s == nil {
		return Field(field, v, why, err)
	}
	if self := uintptr(unsafe.Pointer(s)); s.e == nil || s.owner != self {
		s.e, s.owner = new(FieldError), self
	}
	*s.e = FieldError{Field: field, Value: v, Reason: why, Err: err}
	return s.e
}
