package dump_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/roce-go/roce/dump"
)

// TestParseULP checks that every protocol of dump.ULPs parses by its
// name, NVMe/RDMA's as "nvme", and that an unknown name is refused
// with ErrBadArgument and the list of names.
func TestParseULP(t *testing.T) {
	if u, err := dump.ParseULP("nvme"); err != nil || u != dump.ULPNVMe {
		t.Errorf(`ParseULP("nvme") = %v, %v`, u, err)
	}
	for _, u := range dump.ULPs() {
		if got, err := dump.ParseULP(u.String()); err != nil || got != u || u.Doc() == "" {
			t.Errorf("ParseULP(%q) = %v, %v; doc %q", u, got, err, u.Doc())
		}
	}
	_, err := dump.ParseULP("none-such")
	if !errors.Is(err, dump.ErrBadArgument) || !strings.Contains(err.Error(), "nvme") {
		t.Errorf("unknown name: %v", err)
	}
	if dump.ULPNone.String() != "none" {
		t.Errorf("ULPNone is %q", dump.ULPNone)
	}
}
