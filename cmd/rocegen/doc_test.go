package main

import (
	"bytes"
	"testing"

	"github.com/roce-go/roce/internal/testkit/manpage"
)

// TestManPageAndGuide checks rocegen's documentation against its flag
// set: every flag -h lists has an entry in the OPTIONS of
// docs/rocegen.1 and a mention in docs/rocegen.md, the page documents
// no flag rocegen lacks, and groff renders the page without a warning.
func TestManPageAndGuide(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if st := run([]string{"-h"}, &stdout, false, &stderr); st != 0 {
		t.Fatalf("rocegen -h: exit status %d: %s", st, stderr.String())
	}
	flags := append(manpage.Flags(stdout.String()), "h")
	if len(flags) < 30 {
		t.Fatalf("rocegen -h lists %d flags: %q", len(flags), stdout.String())
	}
	manpage.Check(t, flags, "../../docs/rocegen.1", "../../docs/rocegen.md")
}
