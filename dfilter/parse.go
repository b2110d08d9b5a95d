package dfilter

import (
	"strings"

	"github.com/roce-go/roce/dump"
)

// parser reads tokens into the tree of nodes, recursive descent:
//
//	or   = and { ("||" | "or") and }
//	and  = not { ("&&" | "and") not }
//	not  = ("!" | "not") not | test
//	test = "(" or ")" | name [ relation value | ["not"] "in" set ]
//	set  = "{" element { [","] element } "}"    element = value [".." value]
type parser struct {
	expr  string
	toks  []token
	pos   int
	depth int // parentheses and negations open
}

// maxDepth is how deep parentheses and negations may nest.
const maxDepth = 200

// enter counts one more level of nesting at token t.
func (p *parser) enter(t token) error {
	if p.depth++; p.depth > maxDepth {
		return errAt(p.expr, t.start, t.end, "parentheses and negations nest deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

// is reports whether t is the keyword kw (keywords are lower case, as in
// tshark).
func (t token) is(kw string) bool { return t.kind == tWord && t.text == kw }

func (p *parser) unexpected(t token) error {
	if t.kind == tEOF {
		return errAt(p.expr, t.start, t.end, "unexpected end of filter expression")
	}
	return errAt(p.expr, t.start, t.end, "%q was unexpected in this context", t.text)
}

func (p *parser) parseOr() (*node, error) {
	left, err := p.parseAnd()
	for err == nil && (p.peek().kind == tOr || p.peek().is("or")) {
		p.next()
		var right *node
		if right, err = p.parseAnd(); err == nil {
			left = &node{op: opOr, a: left, b: right}
		}
	}
	return left, err
}

func (p *parser) parseAnd() (*node, error) {
	left, err := p.parseNot()
	for err == nil && (p.peek().kind == tAnd || p.peek().is("and")) {
		p.next()
		var right *node
		if right, err = p.parseNot(); err == nil {
			left = &node{op: opAnd, a: left, b: right}
		}
	}
	return left, err
}

func (p *parser) parseNot() (*node, error) {
	if t := p.peek(); t.kind == tNot || t.is("not") {
		p.next()
		if err := p.enter(t); err != nil {
			return nil, err
		}
		n, err := p.parseNot()
		p.depth--
		if err != nil {
			return nil, err
		}
		return &node{op: opNot, a: n}, nil
	}
	return p.parseTest()
}

func (p *parser) parseTest() (*node, error) {
	t := p.next()
	switch t.kind {
	case tLParen:
		if err := p.enter(t); err != nil {
			return nil, err
		}
		n, err := p.parseOr()
		p.depth--
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tRParen {
			return nil, p.unexpected(c)
		}
		return n, nil
	case tWord:
		if keywords[t.text] {
			return nil, p.unexpected(t)
		}
	case tString:
		return nil, errAt(p.expr, t.start, t.end, "%q is neither a field nor a protocol name", t.text)
	default:
		return nil, p.unexpected(t)
	}
	fields, proto := resolve(t.text)
	if fields == nil && proto == nil {
		return nil, errAt(p.expr, t.start, t.end, "%s is neither a field nor a protocol name", t.text)
	}
	rel := p.peek()
	neg := false
	if rel.is("not") && p.toks[p.pos+1].is("in") {
		p.next()
		neg, rel = true, p.toks[p.pos]
	}
	r, ok := relations[rel.text]
	if !ok || rel.kind != tOp && rel.kind != tWord {
		if proto != nil {
			return &node{op: opProto, proto: proto}, nil
		}
		return &node{op: opExists, fields: fields}, nil
	}
	p.next()
	if fields == nil {
		return nil, errAt(p.expr, t.start, t.end, "%s is a protocol: only its fields can be compared", t.text)
	}
	n := &node{op: opCmp, rel: r, fields: fields}
	var err error
	if r == relIn {
		err = p.parseSet(n)
	} else {
		err = p.parseOperand(n, t.text)
	}
	if err != nil {
		return nil, err
	}
	n.fast()
	if neg {
		return &node{op: opNot, a: n}, nil
	}
	return n, nil
}

// parseOperand reads the right side of a comparison: a value, or another
// field.
func (p *parser) parseOperand(n *node, left string) error {
	t := p.next()
	if t.kind != tWord && t.kind != tString {
		return p.unexpected(t)
	}
	if t.kind == tWord {
		if other, proto := resolve(t.text); other != nil && proto == nil {
			if other[0].Type != n.fields[0].Type {
				return errAt(p.expr, t.start, t.end, "%s (%s) and %s (%s) cannot be compared",
					left, n.fields[0].Type, t.text, other[0].Type)
			}
			n.other = other
			return nil
		}
	}
	l, err := parseLiteral(p.expr, t, n.fields[0], n.rel)
	if err != nil {
		return err
	}
	n.lits = []literal{l}
	return nil
}

// parseSet reads "{" element ... "}" into n.lits.
func (p *parser) parseSet(n *node) error {
	if t := p.next(); t.kind != tLBrace {
		return p.unexpected(t)
	}
	for {
		t := p.next()
		switch t.kind {
		case tRBrace:
			if len(n.lits) == 0 {
				return p.unexpected(t)
			}
			return nil
		case tComma:
			if len(n.lits) == 0 || p.toks[p.pos-2].kind == tComma {
				return p.unexpected(t)
			}
			continue
		case tWord, tString:
		default:
			return p.unexpected(t)
		}
		l, err := p.parseElement(t, n.fields[0])
		if err != nil {
			return err
		}
		n.lits = append(n.lits, l)
	}
}

// parseElement reads one element of a set: a value, or a range lo..hi
// written as one word or with spaces around "..".
func (p *parser) parseElement(t token, f *dump.Field) (literal, error) {
	lo, hi := t, token{}
	if i := strings.Index(t.text, ".."); t.kind == tWord && i >= 0 {
		lo = token{kind: tWord, text: t.text[:i], start: t.start, end: t.start + i}
		hi = token{kind: tWord, text: t.text[i+2:], start: t.start + i + 2, end: t.end}
		if lo.text == "" {
			return literal{}, p.unexpected(token{kind: tWord, text: "..", start: t.start, end: t.start + 2})
		}
		if hi.text == "" {
			hi = p.next()
		}
	} else if p.peek().is("..") {
		p.next()
		hi = p.next()
	}
	l, err := parseLiteral(p.expr, lo, f, relEq)
	if err != nil || hi.end == 0 {
		return l, err
	}
	if hi.kind != tWord && hi.kind != tString {
		return l, p.unexpected(hi)
	}
	h, err := parseLiteral(p.expr, hi, f, relLt)
	if err != nil {
		return l, err
	}
	if !ordered(f.Type) {
		return l, errAt(p.expr, t.start, hi.end, "a range needs a field with an order, not %s (%s)", f.Name, f.Type)
	}
	l.hi, l.isRange = h.v, true
	return l, nil
}

// keywords are the words that cannot name a field.
var keywords = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "eq": true, "ne": true, "lt": true, "le": true,
	"gt": true, "ge": true, "any_eq": true, "all_eq": true, "any_ne": true, "all_ne": true, "contains": true,
}

// resolve returns the fields a display-filter name stands for (the rows
// named so, and those that answer to it as a second name, so that
// ip.addr is ip.src and ip.dst and vlan.id each tag's VLAN ID) and the
// protocol of that name.
func resolve(name string) ([]*dump.Field, *dump.Protocol) {
	var fs []*dump.Field
	all := dump.Fields()
	for i := range all {
		if all[i].Name == name || all[i].Also == name {
			fs = append(fs, &all[i])
		}
	}
	proto, _ := dump.LookupProtocol(name)
	return fs, proto
}
