package oracle

import (
	"encoding/json"
	"testing"
)

// Span is one value of a field as `tshark -T json -x` shows it: the
// value and the bytes it was read from (Off and Len, counted from the
// first byte of the frame, or of the packet after a pseudo-header such
// as ERF's).
type Span struct {
	Value    string
	Off, Len int
}

// End returns the offset of the byte after the field.
func (s Span) End() int { return s.Off + s.Len }

// TsharkSpans decodes a pcap file with `tshark -T json -x` plus any
// extra arguments and returns, per frame, every field that has its raw
// bytes (name_raw) with its values and where each was read: in tshark's
// order within one subtree, in no given order for a field several
// subtrees hold.
func TsharkSpans(t testing.TB, pcap string, extra ...string) []map[string][]Span {
	t.Helper()
	frames := tsharkJSON(t, pcap, true, extra...)
	res := make([]map[string][]Span, len(frames))
	for i, fr := range frames {
		res[i] = map[string][]Span{}
		spans(res[i], fr.Source.Layers)
	}
	return res
}

// spans collects the fields of one object of tshark's tree and descends
// into the others.
func spans(dst map[string][]Span, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if raw, ok := x[k+"_raw"]; ok {
				addSpans(dst, k, val, raw)
			}
			switch val.(type) {
			case map[string]any, []any:
				spans(dst, val)
			}
		}
	case []any:
		for _, e := range x {
			if _, ok := e.(map[string]any); ok {
				spans(dst, e)
			}
		}
	}
}

// addSpans pairs the values of field k with its raw arrays: one value and
// one [hex, offset, length, bitmask, type], or a list of each.
func addSpans(dst map[string][]Span, k string, val, raw any) {
	vals, ok := val.([]any)
	if !ok {
		vals = []any{val}
	}
	raws, _ := raw.([]any)
	if len(raws) > 0 {
		if _, one := raws[0].(string); one {
			raws = []any{raws}
		}
	}
	for i, v := range vals {
		s, ok := v.(string)
		if !ok || i >= len(raws) {
			continue
		}
		r, _ := raws[i].([]any)
		if len(r) < 3 {
			continue
		}
		o, ok1 := r[1].(json.Number)
		l, ok2 := r[2].(json.Number)
		off, err1 := o.Int64()
		n, err2 := l.Int64()
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			continue
		}
		dst[k] = append(dst[k], Span{Value: s, Off: int(off), Len: int(n)})
	}
}
