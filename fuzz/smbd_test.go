package fuzz

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/roce-go/roce/smbd"
)

// smbdCodecs makes, for the first input byte, one of the structures of
// smbd.
var smbdCodecs = []func() storageCodec{
	func() storageCodec { return new(smbd.NegotiateRequest) },
	func() storageCodec { return new(smbd.NegotiateResponse) },
	func() storageCodec { return new(smbd.DataTransfer) },
	func() storageCodec { return new(smbd.BufferDescriptor) },
	func() storageCodec { return new(smbd.Header) },
	func() storageCodec { return new(smbd.ReadRequest) },
	func() storageCodec { return new(smbd.WriteRequest) },
	func() storageCodec { return new(smbd.ReadResponse) },
	func() storageCodec { return new(smbd.WriteResponse) },
}

// FuzzSMBD: the first byte selects a structure of smbd, the rest goes to
// its Decode: it fails only with ErrTruncated, ErrBadLength or
// ErrBadVersion ("roce: " first), and what it decodes encodes to bytes
// that decode to the same structure (a fixed point). The same bytes,
// read as data transfer messages of 64 bytes each, go through a
// Reassembler with a bound of 512: what it returns is never longer than
// the bound, and is the data of the fragments it was given, in order.
func FuzzSMBD(f *testing.F) {
	for i := range smbdCodecs {
		f.Add(append([]byte{byte(i)}, make([]byte, 200)...))
		f.Add([]byte{byte(i), 0xfe, 0x53, 0x4d, 0x42, 0x40, 0x00})
	}
	f.Add([]byte{2, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x18, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		mk := smbdCodecs[int(data[0])%len(smbdCodecs)]
		c := mk()
		if err := c.Decode(data[1:]); err != nil {
			if !(errors.Is(err, smbd.ErrTruncated) || errors.Is(err, smbd.ErrBadLength) || errors.Is(err, smbd.ErrBadVersion)) ||
				!strings.HasPrefix(err.Error(), "roce: ") {
				t.Fatalf("%T: %v", c, err)
			}
		} else {
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
		}

		r := smbd.Reassembler{Max: 512}
		var since []byte // the data given since the last message ended
		for off := 1; off < len(data); off += 64 {
			msg := data[off:min(off+64, len(data))]
			var h smbd.DataTransfer
			if h.Decode(msg) != nil {
				continue
			}
			d, err := h.Data(msg)
			if err != nil {
				continue
			}
			got, err := r.Add(&h, d)
			if err != nil {
				if !errors.Is(err, smbd.ErrBadLength) {
					t.Fatalf("Reassembler: %v", err)
				}
				since = since[:0]
				continue
			}
			since = append(since, d...)
			if got == nil {
				continue
			}
			if len(got) > 512 || !bytes.Equal(got, since) {
				t.Fatalf("Reassembler gave %x, fragments %x", got, since)
			}
			since = since[:0]
		}
	})
}
