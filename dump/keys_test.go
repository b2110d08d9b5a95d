package dump

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// moduleStrings returns, per non-test, non-generated Go file of the
// module, the string literals it holds. The test kit (internal/testkit)
// is test code, though its files are not named _test.go: it is left out.
func moduleStrings(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the module root %s: %v", root, err)
	}
	out := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || rel == filepath.Join("internal", "testkit")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out[rel] = append(out[rel], s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKeysNamedOnce checks that the field registry is the only place a
// field is named: every key of the table is a string literal in exactly
// one non-test, non-generated Go file of the module, and no other
// literal holds it quoted (`,"ip.src":"`, as a JSON writer by hand would
// write it). A key a loop makes from a stem and an index (numbered:
// vlan.inner2.id) is written out whole nowhere.
func TestKeysNamedOnce(t *testing.T) {
	lits := moduleStrings(t)
	if len(lits) < 20 {
		t.Fatalf("found string literals in only %d files: the walk is broken", len(lits))
	}
	type key struct {
		name     string
		composed bool
	}
	keys := []key{{FileKey, false}}
	for _, f := range Fields() {
		keys = append(keys, key{f.Name, f.composed})
	}
	exact := map[string]map[string]bool{}  // key: files holding it as a literal
	quoted := map[string]map[string]bool{} // key: files holding it quoted inside a literal
	isKey := map[string]bool{}
	for _, k := range keys {
		isKey[k.name] = true
	}
	for file, ss := range lits {
		for _, s := range ss {
			if isKey[s] {
				if exact[s] == nil {
					exact[s] = map[string]bool{}
				}
				exact[s][file] = true
			}
			for rest := s; ; {
				i := strings.IndexByte(rest, '"')
				if i < 0 {
					break
				}
				rest = rest[i+1:]
				j := strings.IndexByte(rest, '"')
				if j < 0 {
					break
				}
				if isKey[rest[:j]] {
					if quoted[rest[:j]] == nil {
						quoted[rest[:j]] = map[string]bool{}
					}
					quoted[rest[:j]][file] = true
				}
			}
		}
	}
	files := func(m map[string]bool) []string {
		var fs []string
		for f := range m {
			fs = append(fs, f)
		}
		sort.Strings(fs)
		return fs
	}
	named := 0
	for _, k := range keys {
		want := 1
		if k.composed {
			want = 0
		}
		if got := len(exact[k.name]); got != want {
			t.Errorf("%s is a string literal in %d files, want %d: %v", k.name, got, want, files(exact[k.name]))
		}
		if len(quoted[k.name]) > 0 {
			t.Errorf("%s is written quoted inside a string literal in %v: name it by its row", k.name, files(quoted[k.name]))
		}
		named += len(exact[k.name])
	}
	if named < len(keys)/2 {
		t.Fatalf("only %d of %d keys found as literals: the scan is broken", named, len(keys))
	}
}
