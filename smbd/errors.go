package smbd

import (
	"encoding/binary"

	"github.com/roce-go/roce/internal/errs"
)

// The sentinel errors of this package, the module's own (ErrTruncated is
// ib.ErrTruncated), so that callers match them with errors.Is whichever
// package returned the error. Their messages start with "roce: ".
var (
	// ErrTruncated means an input shorter than the structure decoded.
	ErrTruncated error = errs.ErrTruncated
	// ErrBadLength means a length or an offset the layout does not
	// allow: a data offset inside the header or not 8-byte aligned, a
	// structure size other than the specification's, fragments whose
	// remaining lengths disagree, a message longer than the bound.
	ErrBadLength error = errs.ErrBadLength
	// ErrBadVersion means an SMB2 header whose protocol identifier is
	// not 0xFE 'S' 'M' 'B' (an SMB1 header, a transform header).
	ErrBadVersion error = errs.ErrBadVersion
	// ErrBadValue means a builder was handed a value that does not fit
	// its field.
	ErrBadValue error = errs.ErrBadValue
)

// Error is the decoding error: the structure, the offset, the bytes
// wanted and present, and the sentinel it unwraps to.
type Error = errs.Error

var le = binary.LittleEndian
