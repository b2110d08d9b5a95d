package dfilter

import (
	"fmt"
	"strings"

	"github.com/roce-go/roce/ib"
)

// SyntaxError is why Compile refused an expression: the problem and the
// bytes of the expression it is about. errors.Is matches it against
// ib.ErrBadValue.
type SyntaxError struct {
	Expr   string // the expression given to Compile
	Offset int    // byte offset of the problem in Expr, from 0
	Len    int    // bytes of Expr the problem spans, at least 1 except at the end
	Msg    string // the problem, "\"10\" was unexpected in this context"
}

// Column returns the position of the problem in the expression, counting
// bytes from 1, where tshark puts its caret.
func (e *SyntaxError) Column() int { return e.Offset + 1 }

// Error returns "roce: display filter: column N: problem".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("roce: display filter: column %d: %s", e.Column(), e.Msg)
}

// Unwrap returns ib.ErrBadValue.
func (e *SyntaxError) Unwrap() error { return ib.ErrBadValue }

// Caret returns two lines, as tshark shows a bad filter: the expression
// and, under it, a caret at the column of the problem followed by a
// tilde under each further byte it spans.
func (e *SyntaxError) Caret() string {
	n := max(e.Len, 1)
	return e.Expr + "\n" + strings.Repeat(" ", e.Offset) + "^" + strings.Repeat("~", n-1)
}

func errAt(expr string, start, end int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Expr: expr, Offset: start, Len: end - start, Msg: fmt.Sprintf(format, args...)}
}
