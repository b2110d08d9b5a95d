package parquetrows

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
)

// DictionaryValues is the most distinct values a column chunk may have
// to be written with a dictionary (RLE_DICTIONARY data pages behind a
// PLAIN dictionary page); a chunk of more, or of more than half as many
// distinct values as values, or whose dictionary page would pass
// dictionaryBytes, is written PLAIN. The choice is made per
// column chunk, from its values, for the integer and string columns
// (addresses, QPs, opcodes, ports, lengths, names): the flags are a bit
// each already, and the times differ from frame to frame.
const DictionaryValues = 4096

// dictionaryBytes bounds a dictionary page: the PLAIN strings of its
// entries.
const dictionaryBytes = 1 << 20

// dictionary is the dictionary of a column chunk being written, and the
// index of each of its values. Its memory is kept from chunk to chunk.
type dictionary struct {
	slots []int32  // a hash table of entries: 0 empty, else entry+1
	keys  []uint64 // a fixed-width column's entries
	offs  []int32  // a string column's entries: their offsets in page
	page  []byte   // the entries, PLAIN: the dictionary page
	idx   []int32  // each value's entry
	perm  []int32  // the entries in their order (rank)
	ranks []int32  // each entry's place in that order
	seed  maphash.Seed
}

// slotBits is the log2 of the hash table's slots, twice DictionaryValues.
const slotBits = 13

// build makes the dictionary of the n PLAIN values of a column whose
// values are w bytes wide (4 or 8; 0: BYTE_ARRAY, a 4-byte length
// before each) and reports whether it holds them within its bounds.
func (d *dictionary) build(values []byte, n, w int) bool {
	if d.slots == nil {
		d.slots = make([]int32, 1<<slotBits)
		d.seed = maphash.MakeSeed()
	}
	clear(d.slots)
	d.keys, d.offs, d.page, d.idx = d.keys[:0], d.offs[:0], d.page[:0], d.idx[:0]
	const mask = 1<<slotBits - 1
	le := binary.LittleEndian
	switch w {
	case 4, 8:
		var last uint64
		e := int32(-1)
		for i := range n {
			var k uint64
			if w == 4 {
				k = uint64(le.Uint32(values[4*i:]))
			} else {
				k = le.Uint64(values[8*i:])
			}
			if e < 0 || k != last { // the frames of a flow repeat their values
				h := (k * 0x9E3779B97F4A7C15) >> (64 - slotBits)
				for {
					s := d.slots[h]
					if s == 0 {
						if len(d.keys) == DictionaryValues {
							return false
						}
						d.keys = append(d.keys, k)
						e = int32(len(d.keys) - 1)
						d.slots[h] = e + 1
						break
					}
					if d.keys[s-1] == k {
						e = s - 1
						break
					}
					h = (h + 1) & mask
				}
				last = k
			}
			d.idx = append(d.idx, e)
		}
		if 2*len(d.keys) > n {
			return false
		}
		for _, k := range d.keys {
			if w == 4 {
				d.page = le.AppendUint32(d.page, uint32(k))
			} else {
				d.page = le.AppendUint64(d.page, k)
			}
		}
	default:
		var last []byte
		e := int32(-1)
		for off := 0; off+4 <= len(values); {
			k := int(le.Uint32(values[off:]))
			v := values[off+4 : off+4+k]
			off += 4 + k
			if e < 0 || !bytes.Equal(v, last) {
				h := maphash.Bytes(d.seed, v) & mask
				for {
					s := d.slots[h]
					if s == 0 {
						if len(d.offs) == DictionaryValues || len(d.page)+4+k > dictionaryBytes {
							return false
						}
						d.offs = append(d.offs, int32(len(d.page)))
						d.page = append(le.AppendUint32(d.page, uint32(k)), v...)
						e = int32(len(d.offs) - 1)
						d.slots[h] = e + 1
						break
					}
					o := d.offs[s-1]
					if ek := int32(le.Uint32(d.page[o:])); bytes.Equal(d.page[o+4:o+4+ek], v) {
						e = s - 1
						break
					}
					h = (h + 1) & mask
				}
				last = v
			}
			d.idx = append(d.idx, e)
		}
		if 2*len(d.offs) > n {
			return false
		}
	}
	return true
}

// entries returns the number of entries of the dictionary built last.
func (d *dictionary) entries(w int) int {
	if w == 0 {
		return len(d.offs)
	}
	return len(d.keys)
}

// indexBits is the bit width of the indices of a dictionary of n
// entries: at least 1.
func indexBits(n int) int { return max(1, bits.Len(uint(n-1))) }

// rank orders the entries of the dictionary built last (w as build's):
// d.rank[e] is the place of entry e among them, smallest first, in the
// order of the column's logical type (unsigned integers, strings
// byte-wise), so that a page's smallest and largest value are those of
// its indices' least and greatest rank.
func (d *dictionary) rank(w int) {
	n := d.entries(w)
	d.perm = d.perm[:0]
	for e := range n {
		d.perm = append(d.perm, int32(e))
	}
	if w == 0 {
		slices.SortFunc(d.perm, func(a, b int32) int { return bytes.Compare(d.entry(a), d.entry(b)) })
	} else {
		slices.SortFunc(d.perm, func(a, b int32) int { return cmp.Compare(d.keys[a], d.keys[b]) })
	}
	d.ranks = slices.Grow(d.ranks[:0], n)[:n]
	for r, e := range d.perm {
		d.ranks[e] = int32(r)
	}
}

// entry returns a string entry's bytes.
func (d *dictionary) entry(e int32) []byte {
	o := d.offs[e]
	return d.page[o+4 : o+4+int32(binary.LittleEndian.Uint32(d.page[o:]))]
}

// minMax returns the smallest and the largest value of the values whose
// entries are idx, as minMax of stats.go returns them: new slices.
func (d *dictionary) minMax(w int, idx []int32) (lo, hi []byte) {
	if len(idx) == 0 {
		return nil, nil
	}
	l, h := idx[0], idx[0]
	rl, rh := d.ranks[l], d.ranks[h]
	for _, e := range idx[1:] {
		if r := d.ranks[e]; r < rl {
			l, rl = e, r
		} else if r > rh {
			h, rh = e, r
		}
	}
	le := binary.LittleEndian
	switch w {
	case 4:
		return le.AppendUint32(nil, uint32(d.keys[l])), le.AppendUint32(nil, uint32(d.keys[h]))
	case 8:
		return le.AppendUint64(nil, d.keys[l]), le.AppendUint64(nil, d.keys[h])
	}
	return bytes.Clone(d.entry(l)), bytes.Clone(d.entry(h))
}
