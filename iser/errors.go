package iser

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
	// ErrBadValue means a builder was handed a value that does not fit
	// its field.
	ErrBadValue error = errs.ErrBadValue
)

// Error is the decoding error: the structure, the offset, the bytes
// wanted and present, and the sentinel it unwraps to.
type Error = errs.Error

var be = binary.BigEndian
