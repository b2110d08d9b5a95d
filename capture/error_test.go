package capture

import (
	"errors"
	"fmt"
	"testing"
)

// TestErrorPrefixOnce: an Error says "roce: capture: " once, in front,
// whether its Err starts with the module's prefix or not, and unwraps
// to it.
func TestErrorPrefixOnce(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{ErrUnsupported, "roce: capture: eth9: open: not supported"},
		{fmt.Errorf("roce: hardware type %d is not Ethernet: %w", 772, ErrUnsupported), "roce: capture: eth9: open: hardware type 772 is not Ethernet: roce: capture: not supported"},
		{errors.New("no such device"), "roce: capture: eth9: open: no such device"},
	} {
		e := &Error{Iface: "eth9", Op: "open", Err: c.err}
		if got := e.Error(); got != c.want || !errors.Is(e, c.err) {
			t.Errorf("Error() %q, want %q", got, c.want)
		}
	}
}
