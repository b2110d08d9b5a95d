package main

import (
	"bytes"
	"errors"
	"os"
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
	flags := append(manpage.Flags(stderr.String()), "h")
	if len(flags) < 30 {
		t.Fatalf("rocegen -h lists %d flags: %q", len(flags), stderr.String())
	}
	checkDocs(t, flags, "../../docs/rocegen.1", "../../docs/rocegen.md")
}

// checkDocs checks the man page and the guide of a command with the
// given flags.
func checkDocs(t *testing.T, flags []string, page, guide string) {
	t.Helper()
	man, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := manpage.Entries(string(man))
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	missing, extra := manpage.Diff(flags, entries)
	for _, f := range missing {
		t.Errorf("%s: no OPTIONS entry for -%s", page, f)
	}
	for _, f := range extra {
		t.Errorf("%s: an OPTIONS entry for -%s, which the command does not have", page, f)
	}
	text, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range manpage.Unmentioned(flags, string(text)) {
		t.Errorf("%s never mentions -%s", guide, f)
	}
	warnings, err := manpage.Render(page)
	if errors.Is(err, manpage.ErrNoGroff) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil || warnings != "" {
		t.Errorf("groff -man -Tutf8 -ww %s: %v\n%s", page, err, warnings)
	}
}
