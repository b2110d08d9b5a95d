package fuzz

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/roce-go/roce/iser"
	"github.com/roce-go/roce/nvmeof"
)

// storageCodec is a decoder of the storage protocols' structures.
type storageCodec interface {
	Decode([]byte) error
	AppendTo([]byte) ([]byte, error)
}

// storageCodecs makes, for the first input byte, one of the structures
// of nvmeof and iser.
var storageCodecs = []func() storageCodec{
	func() storageCodec { return new(nvmeof.Command) },
	func() storageCodec { return new(nvmeof.Completion) },
	func() storageCodec { return new(nvmeof.CMRequest) },
	func() storageCodec { return new(nvmeof.CMAccept) },
	func() storageCodec { return new(nvmeof.CMReject) },
	func() storageCodec { return new(nvmeof.ConnectData) },
	func() storageCodec { return new(iser.Header) },
	func() storageCodec { return new(iser.BHS) },
	func() storageCodec { return new(iser.CMData) },
}

// FuzzStorage: the first byte selects a structure of nvmeof or iser, the
// rest goes to its Decode: it fails only with ErrTruncated (the module's
// sentinel, "roce: " first), and what it decodes encodes to bytes that
// decode to the same structure (a fixed point).
func FuzzStorage(f *testing.F) {
	for i := range storageCodecs {
		f.Add(append([]byte{byte(i)}, make([]byte, 1100)...))
		f.Add([]byte{byte(i), 0xff, 0x7f, 0x01})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		mk := storageCodecs[int(data[0])%len(storageCodecs)]
		c := mk()
		if err := c.Decode(data[1:]); err != nil {
			if !errors.Is(err, nvmeof.ErrTruncated) || !errors.Is(err, iser.ErrTruncated) || !strings.HasPrefix(err.Error(), "roce: ") {
				t.Fatalf("%T: %v", c, err)
			}
			return
		}
		b, err := c.AppendTo(nil)
		if err != nil {
			t.Fatalf("%T: AppendTo of what Decode gave: %v", c, err)
		}
		again := mk()
		if err := again.Decode(b); err != nil {
			t.Fatalf("%T: %v on %x", c, err, b)
		}
		if !reflect.DeepEqual(c, again) {
			t.Fatalf("%T: %+v encodes to %x, which decodes to %+v", c, c, b, again)
		}
	})
}
