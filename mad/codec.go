package mad

import (
	"encoding/binary"
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// codec walks the fields of one attribute or record in wire order and
// either decodes them from b or encodes them into b. Each attribute
// describes its layout once, in its walk method (byte offset, bit offset
// from the most significant bit, width), and that one description serves
// Decode, AppendTo and the validation of AppendTo, so the two directions
// cannot disagree.
type codec struct {
	b    []byte
	enc  bool
	name string // the attribute, "CM.REQ", for the *FieldError
	sub  string // a part of it, "Primary.", for the *FieldError
	err  error  // the first field refused (encoding)
}

// walker is an attribute or record that describes its fields to a codec.
type walker interface {
	// walk decodes or encodes every field with c and returns c.err.
	walk(c codec) error
}

// field decodes (returning it) or encodes v, an unsigned field of width
// bits at byte off, bit bit (0 is the most significant) of the attribute.
// Encoding refuses a value wider than the field.
func (c *codec) field(name string, off, bit, width int, v uint64) uint64 {
	if !c.enc {
		return getBits(c.b, off, bit, width)
	}
	return c.put(name, off, bit, width, v)
}

// put is the encoding half of field.
func (c *codec) put(name string, off, bit, width int, v uint64) uint64 {
	if c.err == nil && width < 64 && v>>width != 0 {
		c.err = errs.Fit(c.name+"."+c.sub+name, v, uint(width))
	}
	if c.err == nil {
		putBits(c.b, off, bit, width, v)
	}
	return v
}

// getBits reads a big-endian bit field with one 8-byte load: the 8 bytes
// from off, or the last 8 bytes of b for a field near its end. Every
// attribute is 8 bytes or more, and a field has bit+width at most 64.
func getBits(b []byte, off, bit, width int) uint64 {
	base := min(off, len(b)-8)
	return binary.BigEndian.Uint64(b[base:]) << ((bit + (off-base)*8) & 63) >> ((64 - width) & 63)
}

// putBits writes a big-endian bit field, leaving the other bits of its
// bytes as they are.
func putBits(b []byte, off, bit, width int, v uint64) {
	if bit == 0 {
		switch width {
		case 8:
			b[off] = byte(v)
			return
		case 16:
			binary.BigEndian.PutUint16(b[off:], uint16(v))
			return
		case 32:
			binary.BigEndian.PutUint32(b[off:], uint32(v))
			return
		case 64:
			binary.BigEndian.PutUint64(b[off:], v)
			return
		}
	}
	n := (bit + width + 7) / 8
	shift := uint(n*8 - bit - width)
	mask := (uint64(1)<<uint(width) - 1) << shift
	v = v << shift & mask
	for i := n - 1; i >= 0; i-- {
		b[off+i] = b[off+i]&^byte(mask) | byte(v)
		mask >>= 8
		v >>= 8
	}
}

// The typed forms of field, one line each in the walk methods.

func (c *codec) u8(p *uint8, name string, off, bit, width int) {
	if c.enc {
		c.put(name, off, bit, width, uint64(*p))
		return
	}
	*p = uint8(getBits(c.b, off, bit, width))
}

func (c *codec) u16(p *uint16, name string, off, bit, width int) {
	if c.enc {
		c.put(name, off, bit, width, uint64(*p))
		return
	}
	*p = uint16(getBits(c.b, off, bit, width))
}

func (c *codec) u32(p *uint32, name string, off, bit, width int) {
	if c.enc {
		c.put(name, off, bit, width, uint64(*p))
		return
	}
	*p = uint32(getBits(c.b, off, bit, width))
}

func (c *codec) u64(p *uint64, name string, off int) {
	*p = c.field(name, off, 0, 64, *p)
}

func (c *codec) flag(p *bool, name string, off, bit int) {
	var v uint64
	if *p {
		v = 1
	}
	*p = c.field(name, off, bit, 1, v) == 1
}

// gid decodes or encodes a 16-byte field (a GID, a GUID pair, a key).
func (c *codec) gid(p *[16]byte, off int) {
	if c.enc {
		if c.err == nil {
			copy(c.b[off:off+16], p[:])
		}
		return
	}
	copy(p[:], c.b[off:off+16])
}

// data decodes a byte field of n bytes as a slice aliasing the input, or
// encodes one: at most n bytes, the rest of the field zero.
func (c *codec) data(p *[]byte, name string, off, n int) {
	if !c.enc {
		*p = c.b[off : off+n : off+n]
		return
	}
	if c.err == nil && len(*p) > n {
		c.err = errs.Length(c.name+"."+name, len(*p), "longer than the field's "+strconv.Itoa(n)+" bytes", errs.ErrBadValue)
	}
	if c.err == nil {
		clear(c.b[off+copy(c.b[off:off+n], *p) : off+n])
	}
}

// decodeWalker resets nothing itself: the caller zeroes w, then it checks
// the length and reads every field of w from b.
func decodeWalker(b []byte, layer string, size int, w walker) error {
	if len(b) < size {
		return truncated(layer, size, len(b))
	}
	return w.walk(codec{b: b, name: layer})
}

// appendWalker appends the size bytes of w to b, or refuses a field,
// returning b as it was.
func appendWalker(b []byte, layer string, size int, w walker) ([]byte, error) {
	n := len(b)
	b = grow(b, size)
	if err := w.walk(codec{b: b[n:], enc: true, name: layer}); err != nil {
		return b[:n], err
	}
	return b, nil
}

// grow extends b by n zero bytes.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), len(b)+n)
		copy(nb, b)
		b = nb
	}
	b = b[:len(b)+n]
	clear(b[len(b)-n:])
	return b
}

// raw decodes or encodes a byte array field at off, as it is.
func (c *codec) raw(p []byte, off int) {
	if c.enc {
		if c.err == nil {
			copy(c.b[off:], p)
		}
		return
	}
	copy(p, c.b[off:])
}

// validateWalker reports the first field of w, size bytes, wider than its
// bits, as AppendTo would refuse it.
func validateWalker(layer string, size int, w walker) error {
	var tmp [Len]byte
	return w.walk(codec{b: tmp[:size], enc: true, name: layer})
}
