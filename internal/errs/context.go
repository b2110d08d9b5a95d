package errs

import "strings"

// contextError is an error with the words that place it (a file's line,
// an option's name) in front of its message, after the prefix.
type contextError struct {
	context string
	err     error
}

// Context returns err with context in front: "roce: CONTEXT: " and
// err's message without its own prefix, so that the prefix is said
// once. It unwraps to err, so errors.Is and errors.As still see the
// sentinel err wraps.
func Context(context string, err error) error {
	return &contextError{context: context, err: err}
}

func (e *contextError) Error() string {
	return Prefix + e.context + ": " + strings.TrimPrefix(e.err.Error(), Prefix)
}

func (e *contextError) Unwrap() error { return e.err }

// kindError is a message of its own that matches a sentinel whose
// message it does not repeat.
type kindError struct {
	msg  string
	kind error
}

// Kind returns the error "roce: " and msg, which errors.Is matches to
// kind: for a message that says all (`bad size "12q"`) under a
// sentinel that names the family it belongs to (gen.ErrConfig).
func Kind(kind error, msg string) error { return &kindError{msg: msg, kind: kind} }

func (e *kindError) Error() string { return Prefix + e.msg }

func (e *kindError) Unwrap() error { return e.kind }

// Strip returns err's message without the module's prefix, for a message
// that puts it after words of its own.
func Strip(err error) string { return strings.TrimPrefix(err.Error(), Prefix) }
