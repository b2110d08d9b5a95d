package dump_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roce-go/roce/dump"
)

// TestKeyReferenceIsCurrent checks that docs/keys.md is what go generate
// ./dump writes from the field table now.
func TestKeyReferenceIsCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := dump.WriteKeyReference(&b); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "docs", "keys.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatal("docs/keys.md is out of date: run go generate ./dump")
	}
}

// TestKeyReferenceListsEveryKey checks that every row has a one-line
// description and a line of its own in the key reference.
func TestKeyReferenceListsEveryKey(t *testing.T) {
	var b bytes.Buffer
	if err := dump.WriteKeyReference(&b); err != nil {
		t.Fatal(err)
	}
	ref := b.String()
	for _, f := range dump.Fields() {
		if f.Doc == "" || strings.Contains(f.Doc, "\n") {
			t.Errorf("%s: description %q, want one line", f.Name, f.Doc)
		}
		if n := strings.Count(ref, "| `"+f.Name+"` |"); n != 1 {
			t.Errorf("%s has %d lines in the key reference, want 1", f.Name, n)
		}
	}
	if !strings.Contains(ref, "| `"+dump.FileKey+"` |") {
		t.Errorf("%s is not in the key reference", dump.FileKey)
	}
}
