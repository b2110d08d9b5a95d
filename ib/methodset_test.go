package ib

import (
	"reflect"
	"testing"
)

// TestMethodSet holds every header of the package to the one method set:
// Decode(b []byte) error, Len() int, AppendTo(b []byte) ([]byte, error)
// (the BTH is encoded with its packet, Packet.AppendTo), and Validate()
// error for a header whose building can fail; the headers that delimit
// what follows them have Split.
func TestMethodSet(t *testing.T) {
	var (
		decode   = reflect.TypeOf((*interface{ Decode([]byte) error })(nil)).Elem()
		length   = reflect.TypeOf((*interface{ Len() int })(nil)).Elem()
		appendTo = reflect.TypeOf((*interface{ AppendTo([]byte) ([]byte, error) })(nil)).Elem()
		validate = reflect.TypeOf((*interface{ Validate() error })(nil)).Elem()
	)
	for _, c := range []struct {
		h             any
		append, valid bool
	}{
		{&LRH{}, true, true}, {&GRH{}, true, true}, {&BTH{}, false, true},
		{&RDETH{}, true, true}, {&DETH{}, true, true}, {&XRCETH{}, true, true}, {&RETH{}, true, false},
		{&AtomicETH{}, true, false}, {&AtomicAckETH{}, true, false}, {&AETH{}, true, true},
		{&ImmDt{}, true, false}, {&IETH{}, true, false}, {&FETH{}, true, true},
		{&Packet{}, true, true},
	} {
		typ := reflect.TypeOf(c.h)
		for _, m := range []struct {
			i    reflect.Type
			want bool
		}{{decode, true}, {length, true}, {appendTo, c.append}, {validate, c.valid}} {
			if typ.Implements(m.i) != m.want {
				t.Errorf("%v implements %v: %v, want %v", typ, m.i, !m.want, m.want)
			}
		}
	}
	// Every extended header of the table is in the list above.
	var l headerSet
	if n := reflect.TypeOf(l).NumField(); n != 3+int(numHeaders)-1 {
		t.Errorf("headerSet has %d headers, the table %d extended ones and LRH, GRH, BTH", n, numHeaders-1)
	}
}
