package ib

import (
	"bytes"
	"testing"
)

// frontBuffer is a Buffer: bytes grow at the front and the back of a
// plain slice.
type frontBuffer struct{ b []byte }

func (f *frontBuffer) Bytes() []byte { return f.b }

func (f *frontBuffer) PrependBytes(n int) ([]byte, error) {
	f.b = append(make([]byte, n), f.b...)
	return f.b[:n], nil
}

func (f *frontBuffer) AppendBytes(n int) ([]byte, error) {
	f.b = append(f.b, make([]byte, n)...)
	return f.b[len(f.b)-n:], nil
}

// TestSerializeIsAppendTo checks that Serialize, written through a
// Buffer, writes the bytes AppendTo writes, and that both read back as
// the bytes decoded, for every header that has both.
func TestSerializeIsAppendTo(t *testing.T) {
	var l headerSet
	for _, c := range contractCases(&l) {
		if err := c.l.Decode(c.full); err != nil {
			t.Fatal(err)
		}
		h, ok := c.l.(interface {
			Serialize(Buffer, SerializeOptions) error
			AppendTo([]byte) ([]byte, error)
		})
		if !ok {
			continue // the BTH: Packet.AppendTo
		}
		f := &frontBuffer{}
		if c.name == "LRH" {
			f.b = append(f.b, c.full[LRHLen:len(c.full)-2]...)
		}
		ferr := h.Serialize(f, SerializeOptions{})
		out, aerr := h.AppendTo([]byte("x"))
		if ferr != nil || aerr != nil || !bytes.Equal(f.b[:c.l.Len()], out[1:]) || string(out[:1]) != "x" || len(out) != 1+c.l.Len() {
			t.Errorf("%s: Serialize %v % x, AppendTo %v % x", c.name, ferr, f.b, aerr, out)
		}
		if want := c.full[:c.l.Len()]; !bytes.Equal(out[1:], want) {
			t.Errorf("%s: AppendTo % x, decoded from % x", c.name, out[1:], want)
		}
	}
}

// TestCoreNoAllocs holds the allocation contract: decoding every header
// allocates nothing.
func TestCoreNoAllocs(t *testing.T) {
	var l headerSet
	for _, c := range contractCases(&l) {
		if n := testing.AllocsPerRun(100, func() {
			if err := c.l.Decode(c.full); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations", c.name, n)
		}
	}
}
