package dfilter

import (
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/roce-go/roce/dump"
)

// literal is a value of the expression, read for the type of the field
// it is compared with.
type literal struct {
	v       dump.Value
	bits    int        // IPv4, IPv6: prefix length (32 or 128 for a whole address)
	hi      dump.Value // the top of a range lo..hi, when isRange
	isRange bool
}

// parseLiteral reads token t as a value of field f's type.
func parseLiteral(expr string, t token, f *dump.Field, r relation) (literal, error) {
	bad := func(format string, args ...any) (literal, error) {
		return literal{}, errAt(expr, t.start, t.end, format, args...)
	}
	if t.kind == tString && f.Type != dump.FieldString {
		return bad("%s (%s) cannot be compared with a string (%q): write the value without quotes", f.Name, f.Type, t.text)
	}
	if r == relContains && f.Type != dump.FieldString && f.Type != dump.FieldBytes {
		return bad("contains needs a string or bytes field, not %s (%s)", f.Name, f.Type)
	}
	s := t.text
	var l literal
	switch f.Type {
	case dump.FieldString:
		if t.kind != tString {
			return bad("%s is a string field: quote the value (\"%s\")", f.Name, s)
		}
		l.v.S, l.v.B = s, []byte(s) // B for the values held as bytes (dump.Value.B)
	case dump.FieldUint, dump.FieldHex64, dump.FieldDec64:
		v, ok := parseUint(s)
		if !ok {
			return bad("%q is not a valid number", s)
		}
		if bits := bitsOf(f); bits < 64 && v>>bits != 0 {
			return bad("%s is too large for %s (at most %d)", s, f.Name, uint64(1)<<bits-1)
		}
		l.v.U = v
	case dump.FieldBool:
		v, ok := parseBool(s)
		if !ok {
			return bad("%q is not a valid boolean: write 1, 0, True or False", s)
		}
		l.v.U = v
	case dump.FieldIPv4, dump.FieldIPv6:
		return parseAddr(expr, t, f)
	case dump.FieldMAC:
		m, err := net.ParseMAC(s)
		if err != nil || len(m) != 6 {
			return bad("%q is not a valid Ethernet address", s)
		}
		copy(l.v.Addr[:], m)
	case dump.FieldBytes:
		b, ok := parseBytes(s)
		if !ok {
			return bad("%q is not a valid byte string: write hex bytes as de:ad:be:ef", s)
		}
		if len(b) <= len(l.v.Addr) {
			l.v.Len = uint8(copy(l.v.Addr[:], b))
		} else {
			l.v.B = b // longer than 16 bytes: an ARP packet's IPoIB address
		}
	case dump.FieldTime:
		sec, ns, ok := parseSeconds(s)
		if !ok {
			return bad("%q is not a valid time: write seconds since 1970, as 1700000000.25", s)
		}
		l.v.Sec, l.v.U = sec, ns
	}
	return l, nil
}

// bitsOf returns how wide a literal compared with f may be: the width of
// the Wireshark type that holds the field, as tshark checks it (a field
// of 2 bits in an FT_UINT8 takes 0 to 255).
func bitsOf(f *dump.Field) uint {
	if f.Type == dump.FieldUint {
		return uint(f.TypeBits)
	}
	return 64
}

// parseUint reads a number as tshark does: 0x hexadecimal, a leading 0
// octal, else decimal.
func parseUint(s string) (uint64, bool) {
	base := 10
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	if s == "" || s[0] == '+' || s[0] == '-' || strings.IndexByte(s, '_') >= 0 {
		return 0, false
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, err == nil
}

// parseBool reads 1, 0, True, False (any case) or another number, which
// like tshark takes any value but 0 as true.
func parseBool(s string) (uint64, bool) {
	switch strings.ToLower(s) {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	v, ok := parseUint(s)
	if v != 0 {
		v = 1
	}
	return v, ok
}

// parseAddr reads an address, or a prefix (10.0.0.0/24), of the field's
// family.
func parseAddr(expr string, t token, f *dump.Field) (literal, error) {
	s := t.text
	want4 := f.Type == dump.FieldIPv4
	var l literal
	a, err := netip.ParseAddr(s)
	l.bits = a.BitLen()
	if err != nil {
		p, perr := netip.ParsePrefix(s)
		if perr != nil {
			return l, errAt(expr, t.start, t.end, "%q is not a valid %s address", s, f.Type)
		}
		a, l.bits = p.Addr(), p.Bits()
	}
	if a.Zone() != "" || a.Is4() != want4 {
		return l, errAt(expr, t.start, t.end, "%q is not a valid %s address", s, f.Type)
	}
	if want4 {
		copy(l.v.Addr[:4], a.AsSlice())
	} else {
		l.v.Addr = a.As16()
	}
	return l, nil
}

// parseBytes reads hex bytes separated by ':', '-' or '.', or one run of
// hex digits of even length.
func parseBytes(s string) ([]byte, bool) {
	var out []byte
	sep := byte(0)
	for i := 0; i < len(s); {
		if i+1 >= len(s) || !isHex(s[i]) || !isHex(s[i+1]) || len(out) == 255 {
			return nil, false
		}
		out = append(out, unhex(s[i])<<4|unhex(s[i+1]))
		i += 2
		if i < len(s) && (s[i] == ':' || s[i] == '-' || s[i] == '.') {
			if sep != 0 && s[i] != sep || i == len(s)-1 {
				return nil, false
			}
			sep = s[i]
			i++
		} else if sep != 0 && i < len(s) {
			return nil, false
		}
	}
	return out, len(out) > 0
}

// parseSeconds reads seconds since 1970 with up to nine decimals.
func parseSeconds(s string) (sec int64, ns uint64, ok bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 9 || strings.ContainsAny(s, "+_") {
		return 0, 0, false
	}
	w, err := strconv.ParseUint(whole, 10, 62)
	if err != nil {
		return 0, 0, false
	}
	if frac != "" {
		f, err := strconv.ParseUint(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		ns = f
	}
	sec = int64(w)
	if neg { // -0.25 is -1 s + 0.75e9 ns, as time.Time holds it
		sec = -sec
		if ns > 0 {
			sec, ns = sec-1, 1e9-ns
		}
	}
	return sec, ns, true
}
