package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/roce-go/roce/internal/testkit/manpage"
)

// TestManPageAndGuide checks rocedump's documentation against its flag
// set: every flag -h lists has an entry in the OPTIONS of
// docs/rocedump.1 and a mention in docs/rocedump.md, the page documents
// no flag rocedump lacks, and groff renders the page without a warning.
func TestManPageAndGuide(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if st := run([]string{"-h"}, strings.NewReader(""), &stdout, &stderr); st != 0 {
		t.Fatalf("rocedump -h: exit status %d: %s", st, stderr.String())
	}
	flags := append(manpage.Flags(stdout.String()), "h")
	if len(flags) < 30 {
		t.Fatalf("rocedump -h lists %d flags: %q", len(flags), stdout.String())
	}
	manpage.Check(t, flags, "../../docs/rocedump.1", "../../docs/rocedump.md")
}
