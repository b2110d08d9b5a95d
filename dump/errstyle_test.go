package dump_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/roce-go/roce/dump"
)

// TestErrorSentinels: every error of the parsers says "roce: " first
// and matches ErrBadArgument (capfile's test checks the errors of
// reading and writing capture files).
func TestErrorSentinels(t *testing.T) {
	_, qp := dump.ParseQP("0x1000000")
	_, op := dump.ParseOpcode("RC FOO")
	_, _, ops := dump.ParseOpcodes("RC FOO")
	for _, c := range []struct {
		name string
		err  error
		is   error
		text string
	}{
		{"ParseQP", qp, dump.ErrBadArgument, `roce: bad QP number "0x1000000"`},
		{"ParseOpcode", op, dump.ErrBadArgument, `roce: unknown opcode "RC FOO"`},
		{"ParseOpcodes", ops, dump.ErrBadArgument, `roce: unknown opcode "RC FOO"`},
	} {
		if !errors.Is(c.err, c.is) || c.err == nil || !strings.HasPrefix(c.err.Error(), c.text) {
			t.Errorf("%s: %v, want %q matching %v", c.name, c.err, c.text, c.is)
		}
	}
}
