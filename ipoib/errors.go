package ipoib

import "github.com/roce-go/roce/internal/errs"

// The sentinel errors of this package's decoders and builders, the
// module's own (ipoib.ErrTruncated is ib.ErrTruncated), so callers match
// them with errors.Is whichever package returned the error. Their
// messages start with "roce: ".
var (
	// ErrTruncated means an input shorter than its header or packet. It
	// also matches io.ErrUnexpectedEOF.
	ErrTruncated error = errs.ErrTruncated
	// ErrBadValue means a builder was handed a value that does not fit
	// its field.
	ErrBadValue error = errs.ErrBadValue
)

// Error is the decoding error: the layer, the offset, the bytes wanted
// and present, and the sentinel it unwraps to.
type Error = errs.Error

// FieldError is a builder's refusal: the field, its value and why.
type FieldError = errs.FieldError
