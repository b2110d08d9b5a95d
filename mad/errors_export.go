package mad

import "github.com/roce-go/roce/internal/errs"

// The sentinel errors of this package's decoders and builders, the
// module's own (mad.ErrTruncated is ErrTruncated), so callers match
// them with errors.Is whichever package returned the error. Their
// messages start with "roce: ".
var (
	// ErrTruncated means an input shorter than its layout. It also
	// matches io.ErrUnexpectedEOF.
	ErrTruncated error = errs.ErrTruncated
	// ErrBadLength means a directed route's hop count beyond its paths,
	// or MAD data shorter than a MAD carries.
	ErrBadLength error = errs.ErrBadLength
	// ErrUnsupported means a whole-MAD decoder met a MAD of another
	// class.
	ErrUnsupported error = errs.ErrUnsupported
	// ErrBadValue means a builder was handed a value that does not fit
	// its field.
	ErrBadValue error = errs.ErrBadValue
)

// Error is the decoding error: the layer, the offset, the bytes wanted
// and present, and the sentinel it unwraps to.
type Error = errs.Error

// FieldError is a builder's refusal: the field, its value and why.
type FieldError = errs.FieldError
