package manpage

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestFlags(t *testing.T) {
	help := "usage: x [flags]\n  -B KiB\n    \tring\n  -R\tread recursively\n  -max-flows N\n    \tflows\n  -x\ttext\n   -indented-more\n"
	if got, want := Flags(help), []string{"B", "R", "max-flows", "x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Flags = %q, want %q", got, want)
	}
}

func TestEntries(t *testing.T) {
	page := ".TH X 1\n.SH NAME\nx\n.TP\n.B \\-notanoption\n.SH OPTIONS\n.SS Input\n.TP\n.BI \\-r \" FILE\"\nRead.\n.TP\n.B \\-max\\-flows\nFlows.\n.TP\n.B 0\nnot a flag\n.SH EXIT STATUS\n.TP\n.B \\-late\n"
	got, err := Entries(page)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"r", "max-flows"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Entries = %q, want %q", got, want)
	}
	if _, err := Entries(".TH X 1\n.SH NAME\nx\n"); err == nil {
		t.Error("Entries of a page without OPTIONS did not fail")
	}
}

func TestUnmentioned(t *testing.T) {
	text := "use `-json` or -stats; (-t) and -ttt\n-max-flows N"
	got := Unmentioned([]string{"json", "stats", "t", "tt", "ttt", "max-flows", "max", "flows"}, text)
	if want := []string{"tt", "max", "flows"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Unmentioned = %q, want %q", got, want)
	}
}

func TestDiff(t *testing.T) {
	m, e := Diff([]string{"a", "b", "c"}, []string{"c", "d", "a"})
	if !reflect.DeepEqual(m, []string{"b"}) || !reflect.DeepEqual(e, []string{"d"}) {
		t.Errorf("Diff = %q, %q", m, e)
	}
}

// TestRender checks that Render passes a clean page and reports the
// warnings of a broken one.
func TestRender(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.1")
	bad := filepath.Join(dir, "bad.1")
	if err := os.WriteFile(good, []byte(".TH GOOD 1\n.SH NAME\ngood \\- a page\n.SH OPTIONS\n.TP\n.B \\-x\nThe x flag.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(".TH BAD 1\n.SH NAME\nbad \\- a page\n.XYZZY\n\\(zz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Render(good)
	if errors.Is(err, ErrNoGroff) {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	if err != nil || w != "" {
		t.Errorf("Render of a clean page: %q, %v", w, err)
	}
	if w, err := Render(bad); err == nil && w == "" {
		t.Error("Render of a page with an unknown macro and glyph reported nothing")
	}
}
