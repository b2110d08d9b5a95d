package rocelayers_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// apiOf returns the exported API of the package in dir, one line per
// name: each exported const, var, type (with its exported fields and
// embedded types), function and method, with its signature as written.
// The two gopacket modules both name their package gopacket, so the
// signatures of two packages that wrap the same codecs read the same.
func apiOf(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	print := func(n any) string {
		var b bytes.Buffer
		if err := printer.Fprint(&b, fset, n); err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(b.String()), " ")
	}
	api := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				recv := ""
				if d.Recv != nil {
					recv = strings.TrimPrefix(print(d.Recv.List[0].Type), "*") + "."
					if !ast.IsExported(strings.TrimPrefix(recv, "*")) {
						continue // a method of an unexported type
					}
				}
				api["func "+recv+d.Name.Name+" "+print(d.Type)] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						api["type "+s.Name.Name] = true
						st, ok := s.Type.(*ast.StructType)
						if !ok {
							api["type "+s.Name.Name+" "+print(s.Type)] = true
							continue
						}
						for _, fl := range st.Fields.List {
							if len(fl.Names) == 0 {
								api["embed "+s.Name.Name+" "+print(fl.Type)] = true
							}
							for _, n := range fl.Names {
								if n.IsExported() {
									api["field "+s.Name.Name+"."+n.Name+" "+print(fl.Type)] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								api[d.Tok.String()+" "+n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return api
}

// apiOnly are patterns of the names one adapter has and the other has
// not (yet), each with why. TestSameAPIAsGooglelayers fails for a
// difference no pattern matches, and for a pattern that matches none:
// the list only shrinks.
var apiOnly = map[string]string{
	`^rocelayers only: func BTH\.VerifyChecksum `: "github.com/google/gopacket v1.1.19 has no gopacket.ChecksumVerificationResult",
}

// TestSameAPIAsGooglelayers holds the exported API of rocelayers (for
// github.com/gopacket/gopacket) equal to that of googlelayers (for
// github.com/google/gopacket), but for apiOnly.
func TestSameAPIAsGooglelayers(t *testing.T) {
	fork, google := apiOf(t, "."), apiOf(t, filepath.Join("..", "googlelayers"))
	if len(fork) < 100 || len(google) < 100 {
		t.Fatalf("%d names in rocelayers, %d in googlelayers: the parse found too few", len(fork), len(google))
	}
	var diff []string
	for n := range fork {
		if !google[n] {
			diff = append(diff, "rocelayers only: "+n)
		}
	}
	for n := range google {
		if !fork[n] {
			diff = append(diff, "googlelayers only: "+n)
		}
	}
	sort.Strings(diff)
	used := map[string]bool{}
	for _, d := range diff {
		known := false
		for p := range apiOnly {
			if regexp.MustCompile(p).MatchString(d) {
				known, used[p] = true, true
			}
		}
		if !known {
			t.Errorf("%s", d)
		}
	}
	for p := range apiOnly {
		if !used[p] {
			t.Errorf("%q matches no difference: take it off apiOnly", p)
		}
	}
}

// TestWithoutGoogleGopacket: this module requires no
// github.com/google/gopacket (the comparisons with it are in the nested
// module internal/samegoogle, whose go.mod does require it: the check
// can fail).
func TestWithoutGoogleGopacket(t *testing.T) {
	for _, c := range []struct {
		gomod string
		want  bool
	}{{"go.mod", false}, {filepath.Join("internal", "samegoogle", "go.mod"), true}} {
		b, err := os.ReadFile(c.gomod)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(b, []byte("github.com/google/gopacket ")); got != c.want {
			t.Errorf("%s requires github.com/google/gopacket: %v, want %v", c.gomod, got, c.want)
		}
	}
}
