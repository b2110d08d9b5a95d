package dump

import (
	"bytes"
	"unicode/utf8"
)

// Text fields: a string the frame carries (an SMP NodeDescription's
// 64-byte NodeString, an SA ServiceRecord's ServiceName) is handed out as
// a view of the Record's bytes (Value.B), not copied into a string, so
// that Get allocates nothing.

// textView is the FieldString value held in b, a part of the Record's
// own bytes, up to its first NUL byte: the IBTA pads these fields with
// NULs, and tshark 4.0 shows the text before the first one.
func textView(b []byte) (Value, bool) {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return Value{B: b[:len(b):len(b)]}, true
}

// replacement is U+FFFD, which stands for each byte that does not begin
// a valid UTF-8 sequence.
const replacement = "\uFFFD"

// runeAt returns the rune at s[i] and its length in bytes: utf8.RuneError
// and 1 for a byte that does not begin a valid UTF-8 sequence.
func runeAt[T string | []byte](s T, i int) (rune, int) {
	var q [utf8.UTFMax]byte
	return utf8.DecodeRune(q[:copy(q[:], s[i:])])
}

// appendValidUTF8 appends s, each byte that is not valid UTF-8 replaced by
// U+FFFD.
func appendValidUTF8[T string | []byte](b []byte, s T) []byte {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			b = append(b, s[i])
			i++
			continue
		}
		r, n := runeAt(s, i)
		if r == utf8.RuneError && n == 1 {
			b = append(b, replacement...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}

// appendJSONText appends s as a quoted JSON string: '"' and '\' escaped,
// control bytes as \u00XX (as tshark's JSON writes them), each byte that
// is not valid UTF-8 as U+FFFD.
func appendJSONText[T string | []byte](b []byte, s T) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		case c >= utf8.RuneSelf:
			_, n := runeAt(s, i)
			b = appendValidUTF8(b, s[i:i+n])
			i += n
			continue
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}

// appendJSONValue appends v, a FieldString value, as a quoted JSON
// string.
func appendJSONValue(b []byte, v *Value) []byte {
	if v.B != nil {
		return appendJSONText(b, v.B)
	}
	return appendJSONText(b, v.S)
}
