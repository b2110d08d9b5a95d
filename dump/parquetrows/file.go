package parquetrows

import (
	"encoding/binary"
	"io"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// The file is laid out by this package, not by parquet-go's Writer,
// whose cost is per value (the package doc's layout): column chunks of
// data pages (v1) behind a dictionary page or not, the page index after
// the row groups, and the footer, parquet-go's format.FileMetaData in
// Thrift's compact protocol, with the schema elements parquet-go's
// Writer would write for the columns (build).

// magic opens and closes a Parquet file.
const magic = "PAR1"

// chunk is one column's cells of a batch or a row group: a definition
// level per row (0 NULL, 1 a value; 0 until set), the PLAIN encoding of
// the values, and the number of values. A row group's chunk has no
// levels until a value comes: most columns are NULL in most row groups
// (the fields of protocols a capture does not carry), and they cost
// nothing but their page.
type chunk struct {
	levels []byte
	values []byte
	n      int // the cells that hold a value
	// gappy: a batch's levels hold its rows' levels. Until a NULL comes
	// before a value, the values are those of the first n rows and the
	// levels are not written (Batch.Add).
	gappy bool
	// A batch's text column keeps its last address and where its cell
	// is in values: the frames of a flow repeat their addresses, and a
	// repeated one is copied instead of formatted again.
	last     [16]byte
	lastCell int // the offset in values of the last address's cell, -1: none
}

// rowGroup is the cells of up to RowGroupRows rows, column by column.
type rowGroup struct {
	chunks []chunk
	rows   int
}

// newRowGroup returns an empty row group whose file column holds file
// (its PLAIN cell) in every row; Write does not visit that column. The
// other columns take their memory when their first value comes, and
// keep it for the row groups after.
func newRowGroup(file []byte) *rowGroup {
	g := &rowGroup{chunks: make([]chunk, len(columns))}
	for i := range g.chunks {
		if columns[i].how == howFile {
			g.chunks[i].values = file // its one value, whatever the rows
		}
	}
	return g
}

// add copies the cells of src, a batch's chunk of rows rows, after the
// g.rows rows of the row group's chunk c.
func (c *chunk) add(src *chunk, at, rows int) {
	if src.n == 0 {
		return // NULLs: the levels are 0 already, or not there
	}
	if c.levels == nil {
		// Room for a row group of rows like these, so that the values
		// are not copied as they grow.
		c.levels = make([]byte, RowGroupRows)
		c.values = make([]byte, 0, len(src.values)*RowGroupRows/rows*9/8+64)
	}
	if need := at + rows; need > len(c.levels) {
		c.levels = append(c.levels, make([]byte, need-len(c.levels))...)
	}
	if src.gappy {
		copy(c.levels[at:], src.levels[:rows])
	} else {
		for i := range src.n {
			c.levels[at+i] = 1
		}
	}
	c.values = append(c.values, src.values...)
	c.n += src.n
}

// level sets the level of row, a batch's, to 1, writing the levels of
// the rows before it first if they are not written yet.
func (c *chunk) level(row int) {
	if !c.gappy {
		for i := range c.n {
			c.levels[i] = 1
		}
		c.gappy = true
	}
	c.levels[row] = 1
}

// clear empties c, a chunk of rows rows, keeping its memory.
func (c *chunk) clear(rows int) {
	if c.n > 0 {
		clear(c.levels[:rows])
		c.values = c.values[:0]
	}
	c.n, c.gappy = 0, false
	c.lastCell = -1
}

func (g *rowGroup) reset() {
	for i := range g.chunks {
		if columns[i].how != howFile {
			g.chunks[i].clear(g.rows)
		}
	}
	g.rows = 0
}

// fileWriter writes row groups and the footer of a Parquet file.
type fileWriter struct {
	w       io.Writer
	off     int64
	codec   compress.Codec
	meta    format.FileMetaData
	page    []byte // a page before compression
	zpage   []byte // after
	levels  []byte // the levels of a page, encoded
	bools   []byte // the values of a FieldBool column, bit-packed
	rle     []byte // a page's dictionary indices, encoded
	dict    dictionary
	ci, oi  []byte // the page index so far: the chunks' ColumnIndex, OffsetIndex
	started bool
}

func newFileWriter(w io.Writer, codec compress.Codec, createdBy string) *fileWriter {
	return &fileWriter{w: w, codec: codec, meta: format.FileMetaData{
		Version: 1, CreatedBy: createdBy}}
}

func (f *fileWriter) write(b []byte) error {
	n, err := f.w.Write(b)
	f.off += int64(n)
	return err
}

// writeRowGroup writes g, one page per column.
func (f *fileWriter) writeRowGroup(g *rowGroup) error {
	if !f.started {
		f.started = true
		if err := f.write([]byte(magic)); err != nil {
			return err
		}
	}
	rg := format.RowGroup{NumRows: int64(g.rows), FileOffset: f.off}
	start := f.off
	for i := range g.chunks {
		cc, err := f.writeChunk(i, &g.chunks[i], g.rows)
		if err != nil {
			return err
		}
		rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
		rg.Columns = append(rg.Columns, cc)
	}
	rg.TotalCompressedSize = f.off - start
	f.meta.RowGroups = append(f.meta.RowGroups, rg)
	f.meta.NumRows += int64(g.rows)
	return nil
}

// levelsRLE encodes definition levels of one bit.
var levelsRLE = rle.Encoding{BitWidth: 1}

// PageRows is the most rows a data page holds: a column chunk of a full
// row group (RowGroupRows) is eight pages or more, each with its
// statistics in the page index, so that a reader of the page index
// skips the pages a filter leaves out, and reads a page at a time.
const PageRows = 8192

// PageBytes is the page size target of the PLAIN string columns: a page
// of them ends after PageRows rows or once its values, uncompressed,
// pass PageBytes, whichever comes first. The other columns' pages are
// at most PageRows times 12 bytes (96 KiB) of values.
const PageBytes = 1 << 20

// width returns the bytes of a PLAIN value of type t before the page is
// written (a byte per flag); 0: BYTE_ARRAY, a 4-byte length and bytes.
func width(t colType) int {
	switch t {
	case typeUint8, typeUint16, typeUint32:
		return 4
	case typeUint64, typeTime:
		return 8
	case typeDecimal:
		return 12
	case typeBool:
		return 1
	}
	return 0
}

// dictionaryType reports whether the chunks of a column of type t try a
// dictionary (DictionaryValues).
func dictionaryType(t colType) bool {
	switch t {
	case typeUint8, typeUint16, typeUint32, typeUint64, typeString:
		return true
	}
	return false
}

// writeChunk writes the column chunk c, of rows rows, of column col: a
// dictionary page if its values fit one (the file column's one value
// always does), then data pages of at most PageRows rows, and keeps its
// page index (a ColumnIndex and an OffsetIndex) for close.
func (f *fileWriter) writeChunk(col int, c *chunk, rows int) (format.ColumnChunk, error) {
	if f.meta.Schema == nil {
		f.meta.Schema, f.meta.ColumnOrders = elements, columnOrders
	}
	el := &f.meta.Schema[col+1]
	cc := format.ColumnChunk{MetaData: format.ColumnMetaData{Type: el.Type.V, PathInSchema: []string{el.Name},
		Codec: f.codec.CompressionCodec(), NumValues: int64(rows)}}
	md := &cc.MetaData
	t := columns[col].typ
	w := width(t)
	file := columns[col].how == howFile
	n, values := c.n, c.values
	if file {
		n = rows // the one value of every row
	}
	dict := file || dictionaryType(t) && n > 0 && f.dict.build(values, n, w)
	ib := 0 // the indices' bit width
	md.Encoding = []format.Encoding{format.Plain, format.RLE}
	if dict {
		// A dictionary page: its entries, PLAIN; the file column's is
		// its one value.
		page, entries := values, 1
		if !file {
			page, entries = f.dict.page, f.dict.entries(w)
		}
		ib = indexBits(entries)
		if !file {
			f.dict.rank(w)
		}
		md.DictionaryPageOffset = f.off
		h := format.PageHeader{Type: format.DictionaryPage,
			DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(entries), Encoding: format.Plain})}
		if _, err := f.writePage(md, &h, page); err != nil {
			return cc, err
		}
		md.Encoding = append(md.Encoding, format.RLEDictionary)
	}
	var ci format.ColumnIndex
	var oi format.OffsetIndex
	var lo, hi, plo, phi []byte // the chunk's bounds, the last page's with values
	asc, desc := true, true
	v, b := 0, 0 // the values and their bytes before the page
	for r0 := 0; r0 < rows; {
		r1 := min(rows, r0+PageRows)
		if n == 0 {
			r1 = rows // a chunk all NULL: one page
		}
		// The page's values and their bytes.
		nv, nb := 0, 0
		switch {
		case n == 0:
		case w == 0 && !file:
			for r := r0; r < r1; r++ {
				if n == rows || c.levels[r] == 1 {
					nb += 4 + int(binary.LittleEndian.Uint32(values[b+nb:]))
					nv++
					if nb >= PageBytes && !dict {
						r1 = r + 1
						break
					}
				}
			}
		case n == rows:
			nv = r1 - r0
		default:
			for _, l := range c.levels[r0:r1] {
				nv += int(l)
			}
		}
		if !file {
			nb = max(nb, nv*w)
		}
		// A data page v1: the levels' length (4 bytes, little endian),
		// the levels, the values. A page all NULL or all values is one
		// RLE run.
		var lv []byte
		switch nv {
		case 0:
			lv = append(binary.AppendUvarint(f.levels[:0], uint64(r1-r0)<<1), 0)
		case r1 - r0:
			lv = append(binary.AppendUvarint(f.levels[:0], uint64(r1-r0)<<1), 1)
		default:
			var err error
			if lv, err = levelsRLE.EncodeLevels(f.levels[:0], c.levels[r0:r1]); err != nil {
				return cc, err
			}
		}
		f.levels = lv
		page := binary.LittleEndian.AppendUint32(f.page[:0], uint32(len(lv)))
		page = append(page, lv...)
		dh := format.DataPageHeader{NumValues: int32(r1 - r0), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}
		switch {
		case file: // every index 0: one RLE run
			page = append(binary.AppendUvarint(append(page, byte(ib)), uint64(nv)<<1), 0)
			dh.Encoding = format.RLEDictionary
		case dict:
			page = append(page, byte(ib))
			if nv > 0 {
				var err error
				if f.rle, err = (&rle.Encoding{BitWidth: ib}).EncodeInt32(f.rle, f.dict.idx[v:v+nv]); err != nil {
					return cc, err
				}
				page = append(page, f.rle...)
			}
			dh.Encoding = format.RLEDictionary
		case t == typeBool:
			f.bools = packBits(f.bools[:0], values[b:b+nb])
			page = append(page, f.bools...)
		default:
			page = append(page, values[b:b+nb]...)
		}
		f.page = page
		// The page's statistics: its NULL count (readers take a count
		// of 0 at its word: DuckDB drops IS NOT NULL), its smallest and
		// largest value in the order of the column's logical type.
		var pl, ph []byte
		switch {
		case file:
			pl, ph = minMax(typeString, values, 1)
		case dict:
			pl, ph = f.dict.minMax(w, f.dict.idx[v:v+nv])
		default:
			pl, ph = minMax(t, values[b:b+nb], nv)
		}
		dh.Statistics = format.Statistics{NullCount: int64(r1 - r0 - nv), MinValue: pl, MaxValue: ph}
		if md.DataPageOffset == 0 {
			md.DataPageOffset, cc.FileOffset = f.off, f.off
		}
		at := f.off
		h := format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(dh)}
		size, err := f.writePage(md, &h, page)
		if err != nil {
			return cc, err
		}
		oi.PageLocations = append(oi.PageLocations, format.PageLocation{Offset: at, CompressedPageSize: int32(size), FirstRowIndex: int64(r0)})
		ci.NullPages = append(ci.NullPages, nv == 0)
		ci.NullCounts = append(ci.NullCounts, int64(r1-r0-nv))
		if nv == 0 {
			ci.MinValues, ci.MaxValues = append(ci.MinValues, []byte{}), append(ci.MaxValues, []byte{})
		} else {
			ci.MinValues, ci.MaxValues = append(ci.MinValues, pl), append(ci.MaxValues, ph)
			if lo == nil || less(t, pl, lo) {
				lo = pl
			}
			if hi == nil || less(t, hi, ph) {
				hi = ph
			}
			if plo != nil {
				asc = asc && !less(t, pl, plo) && !less(t, ph, phi)
				desc = desc && !less(t, plo, pl) && !less(t, phi, ph)
			}
			plo, phi = pl, ph
		}
		r0 = r1
		v += nv
		if !file {
			b += nb
		}
	}
	switch {
	case plo == nil:
		ci.BoundaryOrder = format.Unordered
	case asc:
		ci.BoundaryOrder = format.Ascending
	case desc:
		ci.BoundaryOrder = format.Descending
	}
	// The chunk's statistics, which engines skip row groups with: the
	// NULL count, always written (parquet-go's Statistics always write
	// one), the smallest and the largest value (min_value and
	// max_value, in the order of the column's logical type:
	// FileMetaData.ColumnOrders).
	md.Statistics = format.Statistics{NullCount: int64(rows - n), MinValue: lo, MaxValue: hi}
	// The page index goes after the row groups (close), the column
	// indexes first; its offsets are from its start until then.
	bs, err := thrift.Marshal(new(thrift.CompactProtocol), &ci)
	if err != nil {
		return cc, err
	}
	cc.ColumnIndexOffset, cc.ColumnIndexLength = int64(len(f.ci)), int32(len(bs))
	f.ci = append(f.ci, bs...)
	if bs, err = thrift.Marshal(new(thrift.CompactProtocol), &oi); err != nil {
		return cc, err
	}
	cc.OffsetIndexOffset, cc.OffsetIndexLength = int64(len(f.oi)), int32(len(bs))
	f.oi = append(f.oi, bs...)
	return cc, nil
}

// packBits appends the PLAIN encoding of flags, a byte each (0 or 1):
// a bit each, the first in the low bit.
func packBits(dst, flags []byte) []byte {
	for i := 0; i < len(flags); i += 8 {
		var b byte
		for j, f := range flags[i:min(i+8, len(flags))] {
			b |= f << j
		}
		dst = append(dst, b)
	}
	return dst
}

// writePage writes the page of header h and uncompressed content page,
// compressed, counts its sizes in md and returns the bytes written.
func (f *fileWriter) writePage(md *format.ColumnMetaData, h *format.PageHeader, page []byte) (int, error) {
	body := page
	if f.codec.CompressionCodec() != format.Uncompressed {
		var err error
		if f.zpage, err = f.codec.Encode(f.zpage[:0], page); err != nil {
			return 0, err
		}
		body = f.zpage
	}
	h.UncompressedPageSize, h.CompressedPageSize = int32(len(page)), int32(len(body))
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		return 0, err
	}
	if err := f.write(hb); err != nil {
		return 0, err
	}
	md.TotalUncompressedSize += int64(len(hb) + len(page))
	md.TotalCompressedSize += int64(len(hb) + len(body))
	return len(hb) + len(body), f.write(body)
}

// close writes the footer.
func (f *fileWriter) close() error {
	if !f.started {
		f.started = true
		if err := f.write([]byte(magic)); err != nil {
			return err
		}
	}
	if f.meta.Schema == nil {
		f.meta.Schema, f.meta.ColumnOrders = elements, columnOrders
	}
	// The page index: every column chunk's ColumnIndex, then every
	// one's OffsetIndex.
	ciBase := f.off
	if err := f.write(f.ci); err != nil {
		return err
	}
	oiBase := f.off
	if err := f.write(f.oi); err != nil {
		return err
	}
	for i := range f.meta.RowGroups {
		for j := range f.meta.RowGroups[i].Columns {
			cc := &f.meta.RowGroups[i].Columns[j]
			cc.ColumnIndexOffset += ciBase
			cc.OffsetIndexOffset += oiBase
		}
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &f.meta)
	if err != nil {
		return err
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	return f.write(append(b, magic...))
}
