package dfilter

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // an unquoted run: a field name, a number, an address, a keyword
	tString         // a quoted string, unescaped in tok.text
	tOp             // a comparison operator in symbols: == != < <= > >= === !== ~=
	tAnd            // &&
	tOr             // ||
	tNot            // !
	tLParen         // (
	tRParen         // )
	tLBrace         // {
	tRBrace         // }
	tComma          // ,
	tRange          // .. inside a set
)

// token is one token of the expression: its kind, its text and where it
// starts and ends (byte offsets).
type token struct {
	kind       tokKind
	text       string
	start, end int
}

// wordByte reports whether c may be part of an unquoted word: field
// names (letters, digits, '_', '.'), numbers, IPv4 and IPv6 addresses
// and prefixes (':' and '/'), MAC addresses and byte strings (':', '-').
func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '.' || c == ':' || c == '/' || c == '-'
}

// symbols are the operators made of symbols, longest first.
var symbols = []struct {
	text string
	kind tokKind
}{
	{"===", tOp}, {"!==", tOp}, {"==", tOp}, {"!=", tOp}, {"<=", tOp}, {">=", tOp}, {"~=", tOp},
	{"&&", tAnd}, {"||", tOr}, {"<", tOp}, {">", tOp}, {"!", tNot},
	{"(", tLParen}, {")", tRParen}, {"{", tLBrace}, {"}", tRBrace}, {",", tComma},
}

// lex splits expr into tokens, ending with tEOF.
func lex(expr string) ([]token, error) {
	var toks []token
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '"':
			t, err := lexString(expr, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
			continue
		case wordByte(c):
			j := i
			for j < len(expr) && wordByte(expr[j]) {
				j++
			}
			toks = append(toks, token{kind: tWord, text: expr[i:j], start: i, end: j})
			i = j
			continue
		}
		t, ok := lexSymbol(expr, i)
		if !ok {
			return nil, errAt(expr, i, i+1, "%q was unexpected in this context", expr[i:i+1])
		}
		toks = append(toks, t)
		i = t.end
	}
	return append(toks, token{kind: tEOF, start: len(expr), end: len(expr)}), nil
}

func lexSymbol(expr string, i int) (token, bool) {
	for _, s := range symbols {
		if len(expr)-i >= len(s.text) && expr[i:i+len(s.text)] == s.text {
			return token{kind: s.kind, text: s.text, start: i, end: i + len(s.text)}, true
		}
	}
	return token{}, false
}

// lexString reads a double-quoted string at expr[i] with the escapes
// \" \\ \n \t \r and \xHH.
func lexString(expr string, i int) (token, error) {
	var b []byte
	for j := i + 1; j < len(expr); j++ {
		c := expr[j]
		switch {
		case c == '"':
			return token{kind: tString, text: string(b), start: i, end: j + 1}, nil
		case c != '\\':
			b = append(b, c)
			continue
		}
		j++
		if j == len(expr) {
			break
		}
		switch e := expr[j]; e {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'x':
			if j+2 < len(expr) && isHex(expr[j+1]) && isHex(expr[j+2]) {
				b = append(b, unhex(expr[j+1])<<4|unhex(expr[j+2]))
				j += 2
				continue
			}
			return token{}, errAt(expr, j-1, j+1, `\x wants two hex digits`)
		default:
			b = append(b, e)
		}
	}
	return token{}, errAt(expr, i, len(expr), "the string is not closed (a \" is missing)")
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
