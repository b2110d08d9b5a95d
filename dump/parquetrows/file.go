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
// whose cost is per value: every column chunk is one data page (v1) of
// PLAIN values behind RLE/bit-packed definition levels, compressed as a
// whole, and the footer is parquet-go's format.FileMetaData in Thrift's
// compact protocol, with the schema elements parquet-go's Writer would
// write for the columns (build).

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

func (f *fileWriter) writeChunk(col int, c *chunk, rows int) (format.ColumnChunk, error) {
	if f.meta.Schema == nil {
		f.meta.Schema, f.meta.ColumnOrders = elements, columnOrders
	}
	el := &f.meta.Schema[col+1]
	cc := format.ColumnChunk{MetaData: format.ColumnMetaData{Type: el.Type.V, PathInSchema: []string{el.Name},
		Codec: f.codec.CompressionCodec(), NumValues: int64(rows)}}
	md := &cc.MetaData
	var values []byte
	nulls := rows - c.n
	dh := format.DataPageHeader{NumValues: int32(rows), Encoding: format.Plain,
		DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}
	if columns[col].how == howFile {
		// The one value of every row: a dictionary of it, every row
		// index 0 (one RLE run of bit width 1), no NULL.
		md.DictionaryPageOffset = f.off
		h := format.PageHeader{Type: format.DictionaryPage,
			DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: 1, Encoding: format.Plain})}
		if err := f.writePage(md, &h, c.values); err != nil {
			return cc, err
		}
		values = binary.AppendUvarint([]byte{1}, uint64(rows)<<1)
		values = append(values, 0)
		dh.Encoding = format.RLEDictionary
		md.Encoding = []format.Encoding{format.Plain, format.RLE, format.RLEDictionary}
		nulls = 0
	} else {
		values = c.values
		if columns[col].how == howFlag {
			f.bools = packBits(f.bools[:0], values)
			values = f.bools
		}
		md.Encoding = []format.Encoding{format.Plain, format.RLE}
	}
	// A data page v1: the levels' length (4 bytes, little endian), the
	// levels, the values. A column all NULL or all values is one RLE
	// run.
	var lv []byte
	switch nulls {
	case rows:
		lv = append(binary.AppendUvarint(f.levels[:0], uint64(rows)<<1), 0)
	case 0:
		lv = append(binary.AppendUvarint(f.levels[:0], uint64(rows)<<1), 1)
	default:
		var err error
		if lv, err = levelsRLE.EncodeLevels(f.levels[:0], c.levels[:rows]); err != nil {
			return cc, err
		}
	}
	f.levels = lv
	page := binary.LittleEndian.AppendUint32(f.page[:0], uint32(len(lv)))
	page = append(append(page, lv...), values...)
	f.page = page
	// Readers take a NULL count of 0 at its word (DuckDB drops IS NOT
	// NULL), and parquet-go's Statistics always write one. The smallest
	// and largest value let engines skip the row groups a query's range
	// leaves out (min_value and max_value, in the order of the column's
	// logical type: FileMetaData.ColumnOrders).
	dh.Statistics = format.Statistics{NullCount: int64(nulls)}
	if columns[col].how == howFile {
		dh.Statistics.MinValue, dh.Statistics.MaxValue = minMax(typeString, c.values, 1)
	} else {
		dh.Statistics.MinValue, dh.Statistics.MaxValue = minMax(columns[col].typ, c.values, c.n)
	}
	md.Statistics = dh.Statistics
	md.DataPageOffset = f.off
	cc.FileOffset = f.off
	h := format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(dh)}
	return cc, f.writePage(md, &h, page)
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
// compressed, and counts its sizes in md.
func (f *fileWriter) writePage(md *format.ColumnMetaData, h *format.PageHeader, page []byte) error {
	body := page
	if f.codec.CompressionCodec() != format.Uncompressed {
		var err error
		if f.zpage, err = f.codec.Encode(f.zpage[:0], page); err != nil {
			return err
		}
		body = f.zpage
	}
	h.UncompressedPageSize, h.CompressedPageSize = int32(len(page)), int32(len(body))
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		return err
	}
	if err := f.write(hb); err != nil {
		return err
	}
	md.TotalUncompressedSize += int64(len(hb) + len(page))
	md.TotalCompressedSize += int64(len(hb) + len(body))
	return f.write(body)
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
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &f.meta)
	if err != nil {
		return err
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	return f.write(append(b, magic...))
}
