package dump

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// Fields lines: tshark's -T fields output. Each frame is one line of
// columns, one per field asked for, the values of a field that occurs
// more than once (vlan.id in a frame of two tags, ip.addr) joined by an
// aggregator, as tshark -T fields -e FIELD... -E ... prints them.

// Occurrence says which occurrences of a field a Fields column prints.
type Occurrence uint8

// The occurrences of tshark's -E occurrence=a|f|l.
const (
	OccurrenceAll   Occurrence = iota // every one, joined by the aggregator (a)
	OccurrenceFirst                   // the first (f)
	OccurrenceLast                    // the last (l)
)

// FieldsFormat is the settings of fields lines (Options.Fields): the
// columns and tshark's -E settings. The zero Separator and Aggregator
// are tshark's defaults, a tab and a comma.
type FieldsFormat struct {
	// Columns are the fields of each column, as CompileFields makes
	// them from the names given.
	Columns []FieldColumn
	// Header asks for a first line naming the columns (AppendHeader).
	Header bool
	// Separator goes between two columns; empty means a tab.
	Separator string
	// Aggregator goes between two values of one column; empty means a
	// comma.
	Aggregator string
	// Quote, if not 0, is put before and after each column that has a
	// value ('"' or '\”).
	Quote byte
	// Occurrence says which values of a field that occurs more than
	// once are printed.
	Occurrence Occurrence
}

// FieldColumn is one column of fields lines: a Wireshark field name and
// the rows of the field table that answer to it (its own, and those
// whose Field.Also is the name), in table order, which is the order of
// the frame.
type FieldColumn struct {
	Name   string
	Fields []*Field
}

// ErrUnknownField is what CompileFields returns errors.Is matches: a
// name no field of the table answers to.
var ErrUnknownField = errors.New("roce: unknown field")

// CompileFields returns the column of each field name, or an error
// naming every name no field answers to.
func CompileFields(names []string) ([]FieldColumn, error) {
	all := Fields()
	cols := make([]FieldColumn, len(names))
	var unknown []string
	for i, name := range names {
		cols[i].Name = name
		for j := range all {
			if all[j].Name == name || all[j].Also == name {
				cols[i].Fields = append(cols[i].Fields, &all[j])
			}
		}
		if len(cols[i].Fields) == 0 {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		return nil, errs.Kind(ErrUnknownField, fmt.Sprintf("unknown field %s (docs/keys.md lists them)", strconv.Quote(unknown[0])))
	}
	return cols, nil
}

// ParseFieldsOption sets one of tshark's -E settings in f from its
// text, NAME=VALUE: header=y|n, separator=/t|/s|TEXT, aggregator=,|/s|TEXT,
// quote=d|s|n, occurrence=f|l|a.
func (f *FieldsFormat) ParseFieldsOption(s string) error {
	name, v, ok := splitOption(s)
	bad := func() error {
		return errs.Kind(ErrBadArgument, fmt.Sprintf("bad -E option %q: want header=y|n, separator=/t|/s|C, aggregator=,|/s|C, quote=d|s|n or occurrence=f|l|a", s))
	}
	if !ok {
		return bad()
	}
	spaced := map[string]string{"/t": "\t", "/s": " "}
	switch {
	case name == "header" && (v == "y" || v == "n"):
		f.Header = v == "y"
	case name == "separator" && v != "":
		f.Separator = v
		if t, ok := spaced[v]; ok {
			f.Separator = t
		}
	case name == "aggregator" && v != "":
		f.Aggregator = v
		if t, ok := spaced[v]; ok {
			f.Aggregator = t
		}
	case name == "quote" && len(v) == 1 && quotes[v[0]] != 0:
		f.Quote = quotes[v[0]] &^ 0x80
	case name == "occurrence" && len(v) == 1 && occurrences[v[0]] != 0:
		f.Occurrence = occurrences[v[0]] - 1
	default:
		return bad()
	}
	return nil
}

// quotes are the quote= values, with bit 7 set so that n (none) is not 0.
var quotes = [256]byte{'d': '"' | 0x80, 's': '\'' | 0x80, 'n': 0x80}

// occurrences are the occurrence= values, plus one.
var occurrences = [256]Occurrence{'a': OccurrenceAll + 1, 'f': OccurrenceFirst + 1, 'l': OccurrenceLast + 1}

func splitOption(s string) (name, value string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func (f *FieldsFormat) separator() string {
	if f.Separator == "" {
		return "\t"
	}
	return f.Separator
}

func (f *FieldsFormat) aggregator() string {
	if f.Aggregator == "" {
		return ","
	}
	return f.Aggregator
}

// AppendHeader appends the header line, the columns' names (never
// quoted, as tshark writes them), and a newline.
func (f *FieldsFormat) AppendHeader(b []byte) []byte {
	for i := range f.Columns {
		if i > 0 {
			b = append(b, f.separator()...)
		}
		b = append(b, f.Columns[i].Name...)
	}
	return append(b, '\n')
}

func (f *FieldsFormat) quote(b []byte) []byte {
	if f.Quote != 0 {
		b = append(b, f.Quote)
	}
	return b
}

// AppendFields appends the fields line of r and a newline to b. It
// allocates only when b lacks the capacity (and for the _error text of a
// malformed frame).
func (f *FieldsFormat) AppendFields(b []byte, r *Record) []byte {
	for i := range f.Columns {
		if i > 0 {
			b = append(b, f.separator()...)
		}
		b = f.appendColumn(b, r, &f.Columns[i])
	}
	return append(b, '\n')
}

// appendColumn appends the values of column c in r, quoted when there
// are any.
func (f *FieldsFormat) appendColumn(b []byte, r *Record, c *FieldColumn) []byte {
	n := 0
	start := len(b)
	for _, fd := range c.Fields {
		v, ok := fd.Get(r)
		if !ok {
			continue
		}
		switch {
		case f.Occurrence == OccurrenceFirst && n > 0:
			continue
		case f.Occurrence == OccurrenceLast:
			b = f.quote(b[:start])
		case n == 0:
			b = f.quote(b)
		default:
			b = append(b, f.aggregator()...)
		}
		n++
		b = fd.AppendTshark(b, v)
	}
	if n > 0 {
		b = f.quote(b)
	}
	return b
}

// AppendTshark appends v, a value of f, as tshark 4.0's -T fields (and
// -T json) print it: an unsigned field tshark shows in hex as "0x" and
// as many digits as its type holds, others in decimal,
// a flag as 1 or 0, an address as text, bytes as lowercase hex digits.
func (f *Field) AppendTshark(b []byte, v Value) []byte {
	switch f.Type {
	case FieldBool:
		return append(b, '0'+byte(v.U&1))
	case FieldUint, FieldHex64:
		if d := f.digits; d != 0 {
			b = append(b, '0', 'x')
			for s := int(d-1) * 4; s >= 0; s -= 4 {
				b = append(b, hexDigits[v.U>>uint(s)&0xf])
			}
			return b
		}
		return strconv.AppendUint(b, v.U, 10)
	}
	return f.AppendValue(b, v)
}
