package roce_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// errStyleAllowed are the packages whose error texts are a command's own
// words, printed after the command's name and never returned to a
// caller of the module (a main package cannot be imported; cmd/internal
// only by the commands), each with why. A path ending in "/" stands for
// every package below it.
var errStyleAllowed = map[string]string{
	"cmd/rocedump":            "the command's messages: rocedump prints them after \"rocedump: \"",
	"cmd/rocegen":             "the command's messages: rocegen prints them after \"rocegen: \"",
	"cmd/internal/cli":        "the reasons a flag's value is refused, printed after the flag (\"-c \\\"x\\\": not a whole number\")",
	"internal/testkit/tools/": "commands of the test kit: their messages go to their own stderr",
	"internal/hdrgen":         "the generator go generate runs: it prints its messages after \"hdrgen: \"",
}

// errStyleProblems returns, for the Go source src, every errors.New or
// fmt.Errorf whose message is a string literal (or starts with one)
// that neither starts with "roce: " nor with the verb %w (wrapping a
// sentinel, whose own message starts with "roce: "), as "LINE: TEXT".
func errStyleProblems(t *testing.T, name string, src any) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	// The names the file gives the packages errors and fmt.
	names := map[string]string{"errors": "errors", "fmt": "fmt"}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if im.Name != nil && (p == "errors" || p == "fmt") {
			names[p] = im.Name.Name
		}
	}
	var problems []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || !(pkg.Name == names["errors"] && sel.Sel.Name == "New" || pkg.Name == names["fmt"] && sel.Sel.Name == "Errorf") {
			return true
		}
		// The literal the message starts with: the argument, or the
		// leftmost operand of a concatenation.
		arg := call.Args[0]
		for {
			b, ok := arg.(*ast.BinaryExpr)
			if !ok || b.Op != token.ADD {
				break
			}
			arg = b.X
		}
		lit, ok := arg.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true // a message made elsewhere: its maker is checked there
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
		}
		if !strings.HasPrefix(s, "roce: ") && !(sel.Sel.Name == "Errorf" && strings.HasPrefix(s, "%w")) {
			problems = append(problems, strconv.Itoa(fset.Position(lit.Pos()).Line)+": "+strconv.Quote(s))
		}
		return true
	})
	return problems
}

// TestErrorStyle: every error message of the module's packages starts
// with "roce: ", or with %w and the sentinel it wraps, which does; the
// commands' own words (errStyleAllowed) excepted.
func TestErrorStyle(t *testing.T) {
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != "." && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		for p := range errStyleAllowed {
			if dir == p || strings.HasSuffix(p, "/") && strings.HasPrefix(dir+"/", p) {
				return nil
			}
		}
		files++
		for _, p := range errStyleProblems(t, path, nil) {
			t.Errorf("%s:%s: an error message starts neither with \"roce: \" nor with %%w", path, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d files checked", files)
	}
	for p := range errStyleAllowed {
		if m, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(p, "/"), "*.go")); len(m) == 0 && !strings.HasSuffix(p, "/") {
			t.Errorf("errStyleAllowed names %s, which holds no Go file", p)
		}
	}
}

// TestErrorStyleCheck: the check finds a message without the prefix,
// under any name of fmt or errors, at the start of a concatenation, and
// lets the prefix and a leading %w through.
func TestErrorStyleCheck(t *testing.T) {
	src := `package p

import (
	"errors"
	f "fmt"
)

var (
	a = errors.New("roce: good")
	b = f.Errorf("%w: good", a)
	c = errors.New("bad")
	d = f.Errorf("frame %d: %w", 1, a)
	e = errors.New("bad " + "too")
	g = errors.New("roce: good " + "too")
	h = f.Errorf("roce: good: %w", a)
	i = errors.New("%w is no verb to errors.New")
	j = errors.New(msg)
	k = f.Errorf(` + "`raw`" + `)
)
`
	got := errStyleProblems(t, "p.go", src)
	want := []string{`11: "bad"`, `12: "frame %d: %w"`, `13: "bad "`, `16: "%w is no verb to errors.New"`, `18: "raw"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
