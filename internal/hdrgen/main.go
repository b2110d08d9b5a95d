// Command hdrgen writes the code that repeats itself for every extended
// transport header, from the module's two tables of them: ib's (the
// Header constants of ib/opcode.go and the rows of headerInfo) and the
// adapters' (the ETH map of internal/layertype/layertype.go). It reads
// both as source (go/parser), so it runs while the files it writes are
// stale or missing. It writes
//
//	ib/packet_gen.go          the Packet struct, its decode and its walk
//	googlelayers/eth_gen.go   the layer of each header, its layer type, Layers
//
// (rocelayers' own generator copies googlelayers/eth_gen.go). With file
// names it writes only those (go generate in ib and googlelayers names
// its own); with -check it writes nothing and exits 1 if a file is
// stale.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"
)

// A header is one extended header, as the tables give it.
type header struct {
	Name string // its type in ib, its Header constant less "Header", its layer type in internal/layertype
	Len  string // the constant of its size in ib
	Desc string // what it is, from the comment of its Header constant ("the Reliable Datagram ETH")
}

// outputs are the files written, by their path from the module's root.
var outputs = map[string]*template.Template{
	"ib/packet_gen.go":        packetGo,
	"googlelayers/eth_gen.go": ethGo,
}

func main() {
	check := flag.Bool("check", false, "report stale files instead of writing them")
	flag.Parse()
	if err := run(*check, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "hdrgen:", err)
		if errors.Is(err, errStale) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

var errStale = errors.New("stale: run go generate ./ib ./googlelayers, then go generate in rocelayers")

// run writes (or, with check, compares) the files named, by their base
// name, or all of them.
func run(check bool, names []string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	hs, err := headers(root)
	if err != nil {
		return err
	}
	var stale []string
	for path, tmpl := range outputs {
		if !wanted(path, names) {
			continue
		}
		var b bytes.Buffer
		if err := tmpl.Execute(&b, hs); err != nil {
			return err
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		file := filepath.Join(root, filepath.FromSlash(path))
		if check {
			if got, err := os.ReadFile(file); err != nil || !bytes.Equal(got, src) {
				stale = append(stale, path)
			}
			continue
		}
		if err := os.WriteFile(file, src, 0o644); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%s %w", strings.Join(stale, ", "), errStale)
	}
	return nil
}

// wanted says whether path is among names (base names), or names is
// empty.
func wanted(path string, names []string) bool {
	for _, n := range names {
		if filepath.Base(path) == n {
			return true
		}
	}
	return len(names) == 0
}

// moduleRoot returns the directory of the go.mod of
// github.com/roce-go/roce, the working directory or one above it.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/roce-go/roce\n")) {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("not inside module github.com/roce-go/roce")
		}
		dir = up
	}
}

// headers returns the extended headers in the order of their Header
// constants, having checked that the two tables agree.
func headers(root string) ([]header, error) {
	ib, err := parse(filepath.Join(root, "ib", "opcode.go"))
	if err != nil {
		return nil, err
	}
	lt, err := parse(filepath.Join(root, "internal", "layertype", "layertype.go"))
	if err != nil {
		return nil, err
	}
	var hs []header
	desc := map[string]string{}
	for _, c := range constsOf(ib, "Header") {
		name, ok := strings.CutPrefix(c.Names[0].Name, "Header")
		if !ok || name == "" {
			continue
		}
		hs = append(hs, header{Name: name})
		if c.Comment != nil {
			desc[name] = describe(c.Comment.Text())
		}
	}
	// headerInfo: HeaderX: {"X", XLen, ...}
	info := mapOf(ib, "headerInfo")
	// layertype.ETH: ib.HeaderX: X
	eth := mapOf(lt, "ETH")
	for i := range hs {
		h := &hs[i]
		row, ok := info["Header"+h.Name].(*ast.CompositeLit)
		if !ok || len(row.Elts) < 2 {
			return nil, fmt.Errorf("ib/opcode.go: Header%s has no row in headerInfo", h.Name)
		}
		if s, ok := row.Elts[0].(*ast.BasicLit); !ok || s.Value != strconv.Quote(h.Name) {
			return nil, fmt.Errorf("ib/opcode.go: the row of Header%s names it otherwise than %q", h.Name, h.Name)
		}
		n, ok := row.Elts[1].(*ast.Ident)
		if !ok {
			return nil, fmt.Errorf("ib/opcode.go: the size of Header%s is not a constant", h.Name)
		}
		h.Len = n.Name
		if t, ok := eth["ib.Header"+h.Name].(*ast.Ident); !ok || t.Name != h.Name {
			return nil, fmt.Errorf("internal/layertype: ETH has no row ib.Header%s: %s", h.Name, h.Name)
		}
		h.Desc = desc[h.Name]
		if h.Desc == "" {
			h.Desc = "the " + h.Name
		}
	}
	if len(hs) == 0 || len(eth) != len(hs) || len(info) != len(hs) {
		return nil, fmt.Errorf("%d Header constants, %d rows in ib's headerInfo, %d in layertype.ETH", len(hs), len(info), len(eth))
	}
	return hs, nil
}

// describe makes the comment of a Header constant, "Reliable Datagram
// ETH, 4 bytes", a description: "the Reliable Datagram ETH" (without
// a parenthesis at its end).
func describe(c string) string {
	c = strings.TrimSpace(c)
	if i := strings.LastIndex(c, ", "); i >= 0 && strings.HasSuffix(c, " bytes") {
		c = c[:i]
	}
	if i := strings.Index(c, " ("); i >= 0 && strings.HasSuffix(c, ")") {
		c = c[:i] // "FLUSH ETH (IBTA 1.5)"
	}
	return "the " + c
}

func parse(file string) (*ast.File, error) {
	return parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
}

// constsOf returns the specs of the const block of f whose first
// constant has type typ, in order.
func constsOf(f *ast.File, typ string) []*ast.ValueSpec {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST || len(g.Specs) == 0 {
			continue
		}
		if t, ok := g.Specs[0].(*ast.ValueSpec).Type.(*ast.Ident); ok && t.Name == typ {
			var vs []*ast.ValueSpec
			for _, s := range g.Specs {
				vs = append(vs, s.(*ast.ValueSpec))
			}
			return vs
		}
	}
	return nil
}

// mapOf returns the keyed elements of the composite literal that
// initializes package variable name in f, by their key as written.
func mapOf(f *ast.File, name string) map[string]ast.Expr {
	m := map[string]ast.Expr{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if len(v.Names) != 1 || v.Names[0].Name != name || len(v.Values) != 1 {
				continue
			}
			lit, ok := v.Values[0].(*ast.CompositeLit)
			if !ok {
				continue
			}
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					m[exprString(kv.Key)] = kv.Value
				}
			}
		}
	}
	return m
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return ""
}
