package dump

import (
	"strings"
	"testing"

	"github.com/roce-go/roce/ib"
)

// TestHeaderTables checks that the text and JSON printers have one entry
// for every extended transport header ib defines, and none beyond, and
// that each entry prints something.
func TestHeaderTables(t *testing.T) {
	var p ib.Packet
	for h := ib.Header(0); h < 16; h++ { // ib.Headers holds 4-bit codes
		known := !strings.HasPrefix(h.String(), "Header(")
		for _, tab := range []struct {
			name string
			fns  []func([]byte, *ib.Packet) []byte
		}{{"ethText", textWhole()}, {"ethJSON", ethJSON[:]}} {
			if !known {
				if int(h) < len(tab.fns) {
					t.Errorf("%s has an entry for %v, which ib does not define", tab.name, h)
				}
				continue
			}
			if int(h) >= len(tab.fns) || tab.fns[h] == nil {
				t.Errorf("%s has no entry for %v", tab.name, h)
				continue
			}
			if out := tab.fns[h](nil, &p); (len(out) == 0) != (h == ib.NoHeader) {
				t.Errorf("%s[%v] prints %q", tab.name, h, out)
			}
		}
	}
}

// textWhole is ethText for headers captured whole.
func textWhole() []func([]byte, *ib.Packet) []byte {
	fns := make([]func([]byte, *ib.Packet) []byte, len(ethText))
	for h, f := range ethText {
		if f != nil {
			fns[h] = func(b []byte, p *ib.Packet) []byte { return f(b, p, ib.Header(h).Len()) }
		}
	}
	return fns
}
