package parquetrows

import (
	"bytes"
	"encoding/binary"
)

// minMax returns the smallest and the largest of the n PLAIN-encoded
// values of a column of type t, each PLAIN-encoded as the footer's
// Statistics hold them (min_value, max_value; a string without its
// length), in the order the column's logical type defines (the
// TypeDefinedOrder every column declares): unsigned for the UINT
// columns and the strings (byte-wise), signed for TIMESTAMP and for
// DECIMAL (big-endian two's complement), false before true. Both are
// nil when n is 0. The slices are new: the values' buffer is reused.
func minMax(t colType, values []byte, n int) (lo, hi []byte) {
	if n == 0 {
		return nil, nil
	}
	le := binary.LittleEndian
	var l, h []byte // views of values
	switch t {
	case typeUint8, typeUint16, typeUint32:
		lo32, hi32 := le.Uint32(values), le.Uint32(values)
		for i := 4; i+4 <= len(values); i += 4 {
			v := le.Uint32(values[i:])
			lo32, hi32 = min(lo32, v), max(hi32, v)
		}
		return le.AppendUint32(nil, lo32), le.AppendUint32(nil, hi32)
	case typeUint64:
		lo64, hi64 := le.Uint64(values), le.Uint64(values)
		for i := 8; i+8 <= len(values); i += 8 {
			v := le.Uint64(values[i:])
			lo64, hi64 = min(lo64, v), max(hi64, v)
		}
		return le.AppendUint64(nil, lo64), le.AppendUint64(nil, hi64)
	case typeTime:
		lo64, hi64 := int64(le.Uint64(values)), int64(le.Uint64(values))
		for i := 8; i+8 <= len(values); i += 8 {
			v := int64(le.Uint64(values[i:]))
			lo64, hi64 = min(lo64, v), max(hi64, v)
		}
		return le.AppendUint64(nil, uint64(lo64)), le.AppendUint64(nil, uint64(hi64))
	case typeBool: // a byte per value, 0 or 1, before packing
		lob, hib := values[0], values[0]
		for _, v := range values[:n] {
			lob, hib = min(lob, v), max(hib, v)
		}
		return []byte{lob}, []byte{hib}
	case typeDecimal:
		l, h = values[:12], values[:12]
		for i := 12; i+12 <= len(values); i += 12 {
			v := values[i : i+12]
			if decimalLess(v, l) {
				l = v
			}
			if decimalLess(h, v) {
				h = v
			}
		}
	default: // BYTE_ARRAY: a 4-byte length, then the bytes
		first := true
		for i := 0; i+4 <= len(values); {
			k := int(le.Uint32(values[i:]))
			v := values[i+4 : i+4+k]
			i += 4 + k
			if first || bytes.Compare(v, l) < 0 {
				l = v
			}
			if first || bytes.Compare(v, h) > 0 {
				h = v
			}
			first = false
		}
	}
	return bytes.Clone(l), bytes.Clone(h)
}

// decimalLess compares two big-endian two's complement numbers of the
// same length.
func decimalLess(a, b []byte) bool {
	if sa, sb := int8(a[0]), int8(b[0]); sa != sb {
		return sa < sb
	}
	return bytes.Compare(a[1:], b[1:]) < 0
}

// less reports whether a is below b, two values of a column of type t
// encoded as minMax returns them, in the order of the column's logical
// type.
func less(t colType, a, b []byte) bool {
	le := binary.LittleEndian
	switch t {
	case typeUint8, typeUint16, typeUint32:
		return le.Uint32(a) < le.Uint32(b)
	case typeUint64:
		return le.Uint64(a) < le.Uint64(b)
	case typeTime:
		return int64(le.Uint64(a)) < int64(le.Uint64(b))
	case typeBool:
		return a[0] < b[0]
	case typeDecimal:
		return decimalLess(a, b)
	}
	return bytes.Compare(a, b) < 0
}
