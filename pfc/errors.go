package pfc

import "github.com/roce-go/roce/internal/errs"

// The sentinel errors of this package's decoder and builder, the
// module's own (pfc.ErrTruncated is ib.ErrTruncated), so callers match
// them with errors.Is whichever package returned the error. Their
// messages start with "roce: ".
var (
	// ErrTruncated means a body shorter than its opcode needs. It also
	// matches io.ErrUnexpectedEOF.
	ErrTruncated error = errs.ErrTruncated
	// ErrBadValue means MACControl.AppendTo was handed a frame it cannot
	// encode as given (see MACControl.Validate), or ParseSpeed a text
	// that is no link speed.
	ErrBadValue error = errs.ErrBadValue
)

// Error is the decoding error: the layer ("MACControl", "PAUSE",
// "PFC"), the offset, the bytes wanted and present, and the sentinel it
// unwraps to.
type Error = errs.Error

// FieldError is the builder's refusal: the field, its value and why. It
// unwraps to ErrBadValue.
type FieldError = errs.FieldError
