package ib

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/google/gopacket"
)

// frontBuffer is a Buffer that is not gopacket's: bytes grow at the front
// and the back of a plain slice.
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

// coreDecode decodes data into the layer d with the gopacket-free core.
func coreDecode(d gopacket.DecodingLayer, data []byte) (cut bool, err error) {
	switch h := d.(type) {
	case *LRH:
		return h.DecodeLayer(data)
	case *GRH:
		return h.DecodeLayer(data)
	case *BTH:
		return false, h.DecodeLayer(data, len(data))
	case interface{ Decode([]byte) error }:
		return false, h.Decode(data)
	}
	panic("no core for " + reflect.TypeOf(d).String())
}

// truncation records whether a decoder told its feedback of a cut.
type truncation bool

func (t *truncation) SetTruncated() { *t = true }

// TestCoreIsDecodeFromBytes checks, for every header and every prefix of
// a packet of it, that the gopacket-free core leaves the header as
// DecodeFromBytes does, fails alike, and reports as cut what
// DecodeFromBytes tells its feedback.
func TestCoreIsDecodeFromBytes(t *testing.T) {
	var viaCore, viaGopacket Layers
	a, b := contractCases(&viaCore), contractCases(&viaGopacket)
	for i := range a {
		for n := 0; n <= len(a[i].full); n++ {
			data := a[i].full[:n]
			cut, cerr := coreDecode(a[i].l, data)
			var told truncation
			gerr := b[i].l.DecodeFromBytes(data, &told)
			if !reflect.DeepEqual(a[i].l, b[i].l) || (cerr == nil) != (gerr == nil) ||
				bool(told) != (cut || errors.Is(cerr, ErrTruncated)) {
				t.Fatalf("%s of %d bytes: core %+v %v (cut %v), DecodeFromBytes %+v %v (told %v)",
					a[i].name, n, a[i].l, cerr, cut, b[i].l, gerr, told)
			}
		}
	}
}

// TestSerializeWithoutGopacket checks that Serialize, written through a
// Buffer that is not gopacket's, writes the bytes SerializeTo writes.
func TestSerializeWithoutGopacket(t *testing.T) {
	var l Layers
	cases := contractCases(&l)
	for _, c := range cases {
		if err := c.l.DecodeFromBytes(c.full, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		s := c.l.(interface {
			gopacket.SerializableLayer
			Serialize(Buffer, SerializeOptions) error
		})
		for _, fix := range []bool{false, true} {
			payload := c.l.(gopacket.Layer).LayerPayload()
			g := gopacket.NewSerializeBuffer()
			copy(must(g.AppendBytes(len(payload))), payload)
			gerr := s.SerializeTo(g, gopacket.SerializeOptions{FixLengths: fix})
			f := &frontBuffer{b: append([]byte(nil), payload...)}
			ferr := s.Serialize(f, SerializeOptions{FixLengths: fix})
			if (gerr == nil) != (ferr == nil) || !bytes.Equal(g.Bytes(), f.b) {
				t.Errorf("%s (FixLengths %v): SerializeTo %v % x, Serialize %v % x", c.name, fix, gerr, g.Bytes(), ferr, f.b)
			}
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestCoreNoAllocs holds the allocation contract for the core: decoding
// every header without gopacket allocates nothing.
func TestCoreNoAllocs(t *testing.T) {
	var l Layers
	for _, c := range contractCases(&l) {
		if n := testing.AllocsPerRun(100, func() {
			if _, err := coreDecode(c.l, c.full); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations", c.name, n)
		}
	}
}
