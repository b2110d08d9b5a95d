package dfilter

import (
	"bytes"
	"cmp"
	"strings"

	"github.com/roce-go/roce/dump"
)

// Filter is a compiled display filter. Its Match is safe for concurrent
// use.
type Filter struct {
	expr string
	root *node
}

// Compile compiles a display filter expression. A bad expression, or one
// naming a field or protocol rocedump does not decode, gives a
// *SyntaxError naming the column.
func Compile(expr string) (*Filter, error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{expr: expr, toks: toks}
	if p.peek().kind == tEOF {
		return nil, errAt(expr, 0, len(expr), "the filter expression is empty")
	}
	root, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.unexpected(t)
	}
	return &Filter{expr: expr, root: root}, nil
}

// MustCompile is Compile for expressions known to be good; it panics on
// an error.
func MustCompile(expr string) *Filter {
	f, err := Compile(expr)
	if err != nil {
		panic(err)
	}
	return f
}

// String returns the expression the filter was compiled from.
func (f *Filter) String() string { return f.expr }

// Match reports whether the decoded frame r passes the filter. A nil
// Filter passes every frame. It allocates nothing, except when it reads
// the _error or _cnp_error text of a malformed frame or of a CNP that
// breaks the rules.
func (f *Filter) Match(r *dump.Record) bool {
	if f == nil {
		return true
	}
	return f.root.eval(r)
}

type opKind uint8

const (
	opAnd    opKind = iota
	opOr            // a || b
	opNot           // !a
	opProto         // a protocol is present
	opExists        // a field is present
	opCmp           // a field compared with literals or another field
	opUint          // opCmp of fields with a Uint getter, with literals
)

// relation is a comparison, with what it asks of a field that occurs more
// than once (two VLAN tags: two vlan.id; ip.addr: ip.src and ip.dst).
type relation uint8

const (
	relEq       relation = iota // any occurrence equal (==, eq, any_eq)
	relNe                       // every occurrence not equal, at least one (!=, ne, all_ne)
	relAllEq                    // every occurrence equal, at least one (===, all_eq)
	relAnyNe                    // any occurrence not equal (!==, any_ne, ~=)
	relLt                       // any occurrence below (<, lt)
	relLe                       // <=, le
	relGt                       // >, gt
	relGe                       // >=, ge
	relIn                       // any occurrence in the set
	relContains                 // any occurrence contains the string or bytes
)

var relations = map[string]relation{
	"==": relEq, "eq": relEq, "any_eq": relEq, "!=": relNe, "ne": relNe, "all_ne": relNe,
	"===": relAllEq, "all_eq": relAllEq, "!==": relAnyNe, "~=": relAnyNe, "any_ne": relAnyNe,
	"<": relLt, "lt": relLt, "<=": relLe, "le": relLe, ">": relGt, "gt": relGt, ">=": relGe, "ge": relGe,
	"in": relIn, "contains": relContains,
}

// node is one node of the compiled expression.
type node struct {
	op     opKind
	a, b   *node
	proto  *dump.Protocol
	fields []*dump.Field // the occurrences of the field: vlan.id is vlan.id and vlan.inner.id
	rel    relation
	lits   []literal     // the value compared with, or the set's elements
	other  []*dump.Field // the field compared with, instead of lits
}

func (n *node) eval(r *dump.Record) bool {
	switch n.op {
	case opAnd:
		return n.a.eval(r) && n.b.eval(r)
	case opOr:
		return n.a.eval(r) || n.b.eval(r)
	case opNot:
		return !n.a.eval(r)
	case opProto:
		return n.proto.Present(r)
	case opExists:
		for _, f := range n.fields {
			if _, ok := f.Get(r); ok {
				return true
			}
		}
		return false
	}
	// Every occurrence, against every literal (or every occurrence of
	// the other field): "all" relations need one, and all to hold.
	all := n.rel == relNe || n.rel == relAllEq
	seen := false
	if n.op == opUint {
		for _, f := range n.fields {
			v, ok := f.Uint(r)
			if !ok {
				continue
			}
			seen = true
			if m := n.testUint(v); m != all {
				return m
			}
		}
		return all && seen
	}
	for _, f := range n.fields {
		v, ok := f.Get(r)
		if !ok {
			continue
		}
		seen = true
		if m := n.test(r, f.Type, &v); m != all {
			return m
		}
	}
	return all && seen
}

// testUint is test for an unsigned or bool value.
func (n *node) testUint(v uint64) bool {
	if n.rel != relIn {
		return holds(n.rel, cmpUint(v, n.lits[0].v.U))
	}
	for i := range n.lits {
		l := &n.lits[i]
		if l.isRange && v >= l.v.U && v <= l.hi.U || !l.isRange && v == l.v.U {
			return true
		}
	}
	return false
}

func cmpUint(a, b uint64) int {
	if a == b {
		return 0
	}
	return cmp3(a < b)
}

// fast turns n into an opUint node when every field has a Uint getter
// and n compares with literals.
func (n *node) fast() {
	if n.op != opCmp || n.other != nil || n.rel == relContains {
		return
	}
	for _, f := range n.fields {
		if f.Uint == nil {
			return
		}
	}
	n.op = opUint
}

// test reports whether one occurrence v passes the relation.
func (n *node) test(r *dump.Record, t dump.FieldType, v *dump.Value) bool {
	if n.other != nil {
		// Against every occurrence of the other field: all of them for
		// != and ===, any one for the rest.
		all := n.rel == relNe || n.rel == relAllEq
		seen := false
		for _, g := range n.other {
			w, ok := g.Get(r)
			if !ok {
				continue
			}
			seen = true
			if m := holds(n.rel, compare(t, v, &literal{v: w, bits: 128})); m != all {
				return m
			}
		}
		return all && seen
	}
	switch n.rel {
	case relIn:
		for i := range n.lits {
			l := &n.lits[i]
			if l.isRange {
				if compare(t, v, l) >= 0 && compare(t, v, &literal{v: l.hi, bits: 128}) <= 0 {
					return true
				}
			} else if compare(t, v, l) == 0 {
				return true
			}
		}
		return false
	case relContains:
		l := &n.lits[0]
		switch {
		case t == dump.FieldString && v.B != nil: // text the frame holds (dump.Value.B)
			return bytes.Contains(v.B, l.v.B)
		case t == dump.FieldString:
			return strings.Contains(v.S, l.v.S)
		}
		return bytes.Contains(v.Bytes(), l.v.Bytes())
	}
	return holds(n.rel, compare(t, v, &n.lits[0]))
}

// holds reports whether relation rel holds for a comparison result c.
func holds(rel relation, c int) bool {
	switch rel {
	case relEq, relAllEq:
		return c == 0
	case relNe, relAnyNe:
		return c != 0
	case relLt:
		return c < 0
	case relLe:
		return c <= 0
	case relGt:
		return c > 0
	case relGe:
		return c >= 0
	}
	return false
}

// ordered reports whether values of type t can be ranged.
func ordered(t dump.FieldType) bool { return t != dump.FieldString }

// compare compares v with l: -1, 0 or 1. An address compares equal to a
// prefix that holds it.
func compare(t dump.FieldType, v *dump.Value, l *literal) int {
	switch t {
	case dump.FieldTime:
		if v.Sec != l.v.Sec {
			return cmp3(v.Sec < l.v.Sec)
		}
		fallthrough
	case dump.FieldUint, dump.FieldBool, dump.FieldHex64, dump.FieldDec64:
		if v.U == l.v.U {
			return 0
		}
		return cmp3(v.U < l.v.U)
	case dump.FieldString:
		return compareText(v, &l.v)
	case dump.FieldIPv4:
		return comparePrefix(v.Addr[:4], l.v.Addr[:4], min(l.bits, 32))
	case dump.FieldIPv6:
		return comparePrefix(v.Addr[:], l.v.Addr[:], l.bits)
	case dump.FieldMAC:
		return bytes.Compare(v.Addr[:6], l.v.Addr[:6])
	case dump.FieldBytes:
		return bytes.Compare(v.Bytes(), l.v.Bytes())
	}
	return 1
}

// compareText compares two string values, each held in S or, for text
// the frame holds, in B (dump.Value).
func compareText(a, b *dump.Value) int {
	switch {
	case a.B == nil && b.B == nil:
		return strings.Compare(a.S, b.S)
	case a.B != nil && b.B != nil:
		return bytes.Compare(a.B, b.B)
	case a.B != nil:
		return compareBytesString(a.B, b.S)
	}
	return -compareBytesString(b.B, a.S)
}

// compareBytesString compares b and s as strings.Compare would compare
// string(b) and s, with no copy of b.
func compareBytesString(b []byte, s string) int {
	for i := 0; i < len(b) && i < len(s); i++ {
		if b[i] != s[i] {
			return cmp3(b[i] < s[i])
		}
	}
	return cmp.Compare(len(b), len(s))
}

func cmp3(less bool) int {
	if less {
		return -1
	}
	return 1
}

// comparePrefix compares the first bits bits of a and b.
func comparePrefix(a, b []byte, bits int) int {
	for i := 0; i < len(a) && bits > 0; i++ {
		mask := byte(0xff)
		if bits < 8 {
			mask = 0xff << (8 - bits)
		}
		if x, y := a[i]&mask, b[i]&mask; x != y {
			return cmp3(x < y)
		}
		bits -= 8
	}
	return 0
}
