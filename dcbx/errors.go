package dcbx

import "github.com/roce-go/roce/internal/errs"

// The sentinel errors of this package's decoders and builders, the
// module's own (dcbx.ErrTruncated is ib.ErrTruncated), so callers match
// them with errors.Is whichever package returned the error. Their
// messages start with "roce: ".
var (
	// ErrTruncated means a TLV shorter than its layout, or an LLDP TLV
	// length that runs past the LLDPDU. It also matches
	// io.ErrUnexpectedEOF.
	ErrTruncated error = errs.ErrTruncated
	// ErrBadLength means a TLV longer than its fixed layout, or an
	// Application Priority table that is not a whole number of entries
	// or holds more than MaxAppEntries.
	ErrBadLength error = errs.ErrBadLength
	// ErrBadValue means a builder was handed a value wider than its
	// field.
	ErrBadValue error = errs.ErrBadValue
)

// Error is the decoding error: the TLV, the offset, the bytes wanted and
// present, and the sentinel it unwraps to.
type Error = errs.Error

// FieldError is a builder's refusal: the field, its value and why.
type FieldError = errs.FieldError
