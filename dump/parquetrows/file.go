package parquetrows

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// The file is laid out by this package, not by parquet-go's Writer,
// whose cost is per value: every column chunk is one data page (v1) of
// PLAIN values behind RLE/bit-packed definition levels, compressed as a
// whole, and the footer is parquet-go's format.FileMetaData in Thrift's
// compact protocol, with the schema elements parquet-go writes for
// Schema().

// magic opens and closes a Parquet file.
const magic = "PAR1"

// chunk is one column's cells of a row group: a definition level per
// row (0 NULL, 1 a value; RowGroupRows of them, 0 until set) and the
// PLAIN encoding of the values.
type chunk struct {
	levels []byte
	values []byte
	bits   int // FieldBool columns: the values in values, one bit each
	nulls  int // the NULL cells, once the chunk is written out
}

// rowGroup is the cells of up to RowGroupRows rows, column by column.
type rowGroup struct {
	chunks []chunk
	rows   int
}

// newRowGroup returns an empty row group whose file column holds file
// (its PLAIN cell). Each column's values have room for RowGroupRows
// values from the start (the text columns for as many of 16 bytes), so
// that filling them does not copy them as they grow; the memory is
// taken from the system as it is written.
func newRowGroup(file []byte) *rowGroup {
	g := &rowGroup{chunks: make([]chunk, len(columns))}
	for i := range g.chunks {
		g.chunks[i].levels = make([]byte, RowGroupRows)
		g.chunks[i].values = make([]byte, 0, RowGroupRows*columns[i].how.width(len(file)))
	}
	return g
}

// width returns the bytes of a PLAIN value of a column of type h, the
// file column's with a file name of n bytes: a guess for the text
// columns, 1 for the flags' bits (8 of them).
func (h how) width(n int) int {
	switch h {
	case howFile:
		return 4 + n
	case howFlag:
		return 1
	case howInt32:
		return 4
	case howInt64, howTime:
		return 8
	}
	return 16
}

func (g *rowGroup) reset() {
	for i := range g.chunks {
		c := &g.chunks[i]
		if c.nulls != g.rows {
			clear(c.levels[:g.rows])
		}
		c.nulls = 0
		c.values, c.bits = c.values[:0], 0
	}
	g.rows = 0
}

var (
	elementsOnce sync.Once
	elements     []format.SchemaElement // Schema()'s, as parquet-go writes them
)

// schemaElements returns the footer's schema elements: those of an empty
// file parquet-go writes for Schema().
func schemaElements() []format.SchemaElement {
	elementsOnce.Do(func() {
		var b bytes.Buffer
		w := parquet.NewWriter(&b, Schema())
		if err := w.Close(); err != nil {
			panic("parquetrows: " + err.Error())
		}
		f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
		if err != nil {
			panic("parquetrows: " + err.Error())
		}
		elements = f.Metadata().Schema
	})
	return elements
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
	started bool
}

func newFileWriter(w io.Writer, codec compress.Codec, createdBy string) *fileWriter {
	return &fileWriter{w: w, codec: codec, meta: format.FileMetaData{
		Version: 1, Schema: schemaElements(), CreatedBy: createdBy}}
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

var zero = []byte{0}

// levelsRLE encodes definition levels of one bit.
var levelsRLE = rle.Encoding{BitWidth: 1}

func (f *fileWriter) writeChunk(col int, c *chunk, rows int) (format.ColumnChunk, error) {
	el := &f.meta.Schema[col+1]
	// A data page v1: the levels' length (4 bytes, little endian), the
	// levels, the values.
	levels := c.levels[:rows]
	lv, err := levelsRLE.EncodeLevels(f.levels, levels)
	if err != nil {
		return format.ColumnChunk{}, err
	}
	f.levels = lv
	page := binary.LittleEndian.AppendUint32(f.page[:0], uint32(len(lv)))
	page = append(append(page, lv...), c.values...)
	f.page = page
	body := page
	if f.codec.CompressionCodec() != format.Uncompressed {
		if f.zpage, err = f.codec.Encode(f.zpage[:0], page); err != nil {
			return format.ColumnChunk{}, err
		}
		body = f.zpage
	}
	// Readers take a NULL count of 0 at its word (DuckDB drops IS NOT
	// NULL), and parquet-go's Statistics always write one.
	c.nulls = bytes.Count(levels, zero)
	stats := format.Statistics{NullCount: int64(c.nulls)}
	h := format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(page)), CompressedPageSize: int32(len(body)),
		DataPageHeader: thrift.New(format.DataPageHeader{NumValues: int32(rows), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE, Statistics: stats})}
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return format.ColumnChunk{}, err
	}
	off := f.off
	if err := f.write(hb); err != nil {
		return format.ColumnChunk{}, err
	}
	if err := f.write(body); err != nil {
		return format.ColumnChunk{}, err
	}
	return format.ColumnChunk{FileOffset: off, MetaData: format.ColumnMetaData{
		Type: el.Type.V, Encoding: []format.Encoding{format.Plain, format.RLE}, PathInSchema: []string{el.Name},
		Codec: f.codec.CompressionCodec(), NumValues: int64(rows),
		TotalUncompressedSize: int64(len(hb) + len(page)), TotalCompressedSize: int64(len(hb) + len(body)),
		DataPageOffset: off, Statistics: stats}}, nil
}

// close writes the footer.
func (f *fileWriter) close() error {
	if !f.started {
		f.started = true
		if err := f.write([]byte(magic)); err != nil {
			return err
		}
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &f.meta)
	if err != nil {
		return err
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	return f.write(append(b, magic...))
}
