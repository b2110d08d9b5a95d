// Package parquetrows writes the frames of a capture as a Parquet file:
// one row per frame, one column per field of dump's field table
// (dump.Fields), named exactly as rocedump's JSON keys, plus the capture
// file's name and the capture time as an exact decimal. It is what `rocedump -parquet` writes; it is the only
// package of the module besides the command and parquetschema that
// imports a Parquet library (github.com/parquet-go/parquet-go), so that users of ib,
// rocev2, dump and the other packages do not compile one.
//
// # Schema
//
// The schema comes from the field table alone: a field added to the
// table is a column with no change here. Every column is optional: a
// frame that lacks a field (where its JSON object has no such key) holds
// a null there. The columns, in the order of the JSON keys, with
// frame.file (FileColumn) after frame.number and frame.time_epoch_decimal
// (TimeDecimalColumn) after frame.time_epoch:
//
//	field type (dump.FieldType)     Parquet column
//	unsigned of N bits              INT32 UINT_8 (N ≤ 8), UINT_16 (N ≤ 16), UINT_32 (N ≤ 32); INT64 UINT_64 above
//	64-bit hex, 64-bit              INT64 UINT_64: the exact value
//	bool                            BOOLEAN
//	time (frame.time_epoch)         INT64 TIMESTAMP(NANOS, isAdjustedToUTC=false): nanoseconds since 1970 UTC, 1677 to 2262 (NULL outside)
//	frame.time_epoch_decimal        FIXED_LEN_BYTE_ARRAY(12) DECIMAL(28,9): the same time, seconds, exactly, from capfile.MinTime to capfile.MaxTime
//	string, IPv4, IPv6, MAC, bytes  BYTE_ARRAY STRING, the text JSON writes
//	frame.file                      BYTE_ARRAY STRING, the capture's name as given to NewWriter
//
// The 64-bit fields (infiniband.reth.va, infiniband.atomiceth.va,
// swapdt, cmpdt, infiniband.atomicacketh.origremdt) are strings in JSON
// ("0x" and hex digits for the addresses, decimal for the data), since
// JavaScript's numbers hold 53 bits; Parquet readers have exact unsigned
// 64-bit integers, so here they are numbers, whatever base JSON writes
// them in.
//
// The capture time is UTC, but the column says isAdjustedToUTC=false:
// DuckDB (1.5) reads a UTC-adjusted nanosecond timestamp as TIMESTAMP
// WITH TIME ZONE, whose microseconds drop the nanoseconds, and a
// non-adjusted one as TIMESTAMP_NS, which keeps them. Read it as UTC.
//
// DuckDB reads the columns as UTINYINT, USMALLINT, UINTEGER, UBIGINT,
// BOOLEAN, TIMESTAMP_NS and VARCHAR. Spark reads the unsigned ones as
// ShortType, IntegerType, LongType and DecimalType(20,0) (exact), and
// the nanosecond timestamp only with
// spark.sql.legacy.parquet.nanosAsLong=true, as a LongType of
// nanoseconds. Column names hold dots: quote them ("frame.number" in
// SQL, `frame.number` in Spark).
//
// Every file written with the same build of the module has the same
// schema, whatever the capture holds, so that a directory of them reads
// as one table (DuckDB's read_parquet('DIR/*.parquet'), Spark's
// spark.read.parquet(DIR)).
//
// # Memory and layout
//
// Rows are filled in batches (Batch; dump.ScanParts fills them on the
// goroutines that decode the frames) and copied, column by column, into
// a row group, written out every RowGroupRows rows on a goroutine of
// the Writer's, so that memory does not grow with the number of frames.
// The package lays the file out itself (parquet-go's own Writer costs
// per value). Snappy compresses every page.
//
//   - A row group is RowGroupRows (65,536) rows: small enough that a
//     filter on a time range or a queue pair skips most of a large
//     capture's row groups, large enough that its column chunks hold
//     thousands of values each and the footer stays small (a capture
//     of a million frames has 16).
//   - A column chunk is data pages (v1) of PageRows (8,192) rows each,
//     or fewer rows once a page of PLAIN strings passes PageBytes
//     (1 MiB) uncompressed; a chunk all NULL (the fields of protocols a
//     capture does not carry) is one page. Definition levels are
//     RLE/bit-packed.
//   - Dictionary encoding is chosen per column chunk, for the integer
//     and string columns (addresses, QPs, opcodes, ports, lengths,
//     flags of several bits, names): a chunk whose values have at most
//     DictionaryValues (4,096) distinct ones, and at most half as many
//     as values, in a dictionary page of at most 1 MiB, is a PLAIN
//     dictionary page and RLE_DICTIONARY data pages (its indices
//     RLE/bit-packed); any other is PLAIN. The BOOLEAN columns (a bit a value already) and the times (one a
//     frame) are always PLAIN; frame.file is a dictionary of its one
//     value.
//   - Every column chunk's statistics hold its NULL count (always, 0
//     included), its smallest and its largest value (min_value and
//     max_value, in the order of the column's logical type, which the
//     footer's column orders declare), so that engines skip the row
//     groups a query leaves out; every page has them too.
//   - The page index (a ColumnIndex and an OffsetIndex per column
//     chunk: each page's bounds, NULL count, offset and first row),
//     after the row groups, the column indexes first, lets a reader
//     skip pages within a row group.
//
// The footer is parquet-go's Thrift description of the file, with the
// schema elements parquet-go's Writer would write for these columns.
//
// The package imports parquet-go's format, Thrift and compression
// packages, not the parquet-go package itself, whose initialisation
// (Protocol Buffers, geometry, YAML and every codec) a program linking
// it pays at each start; package parquetschema gives the files' schema
// as a parquet-go Schema, for readers.
package parquetrows

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sync"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/roce-go/roce/dump"
)

// FileColumn is the column that names the capture a row comes from. It
// is not a field of the table (a frame does not know its file) unless
// the table gains one of that name; either way the Writer's file name
// fills it.
const FileColumn = dump.FileKey

// TimeDecimalColumn is the capture time as the exact decimal number
// JSON's frame.time_epoch writes: seconds since 1970 UTC with nine
// decimals, DECIMAL(28,9) in 12 bytes (FIXED_LEN_BYTE_ARRAY), which
// DuckDB reads as DECIMAL(28,9). It follows frame.time_epoch and holds
// every time a capture gives (capfile.MinTime to capfile.MaxTime), where
// frame.time_epoch, a TIMESTAMP(NANOS) of 64 bits, holds 1677 to 2262
// and is NULL outside.
const TimeDecimalColumn = "frame.time_epoch_decimal"

// RowGroupRows is the number of rows of a row group: the Writer holds at
// most this many rows, encoded, before writing them out.
const RowGroupRows = 1 << 16

// column is one column of the schema.
type column struct {
	name  string
	field *dump.Field // nil: FileColumn
	how   how
	typ   colType
	// address: the field is an address (IPv4, IPv6, MAC), whose text
	// is a function of Value.Addr alone.
	address bool
}

// fieldColumn is where a field's values go.
type fieldColumn struct {
	col int32 // its index in columns
	how how
}

// how says how a column's value is made.
type how uint8

const (
	howText    how = iota // Field.AppendValue's text
	howFile               // the Writer's file name
	howFlag               // a BOOLEAN
	howInt32              // an unsigned integer of up to 32 bits
	howInt64              // one of 64 bits
	howTime               // a timestamp
	howDecimal            // a time as DECIMAL(28,9), TimeDecimalColumn
)

// colType is a column's Parquet type (the package doc's table).
type colType uint8

const (
	typeString  colType = iota // BYTE_ARRAY STRING
	typeUint8                  // INT32 UINT_8
	typeUint16                 // INT32 UINT_16
	typeUint32                 // INT32 UINT_32
	typeUint64                 // INT64 UINT_64
	typeBool                   // BOOLEAN
	typeTime                   // INT64 TIMESTAMP(NANOS, isAdjustedToUTC=false)
	typeDecimal                // FIXED_LEN_BYTE_ARRAY(12) DECIMAL(28,9)
)

var (
	once    sync.Once
	columns []column // in the schema's leaf order (column index)
	// fieldColumns holds, for each field of dump.Fields(), its index in
	// columns and its column's how.
	fieldColumns []fieldColumn
	decimalCol   int32                  // TimeDecimalColumn's index in columns
	elements     []format.SchemaElement // the footer's schema: the root, then a leaf per column
	// columnOrders says, per column, that its statistics follow the
	// order of its logical type.
	columnOrders []format.ColumnOrder
)

// typeOf returns the Parquet type of field f's column.
func typeOf(f *dump.Field) colType {
	switch f.Type {
	case dump.FieldUint:
		switch {
		case f.Bits <= 8:
			return typeUint8
		case f.Bits <= 16:
			return typeUint16
		case f.Bits <= 32:
			return typeUint32
		}
		return typeUint64
	case dump.FieldHex64, dump.FieldDec64:
		return typeUint64
	case dump.FieldBool:
		return typeBool
	case dump.FieldTime:
		return typeTime
	}
	return typeString
}

// build makes the columns from the field table, and the schema
// elements of the footer. This package names no type of the parquet-go
// package itself (only its format, Thrift and compression packages),
// whose initialisation (Protocol Buffers, geometry, YAML) every start of
// rocedump would pay; TestSchemaElements holds the elements to those
// parquet-go's own Writer makes of the same columns.
func build() {
	table := dump.Fields()
	hasFile := false
	for i := range table {
		hasFile = hasFile || table[i].Name == FileColumn
	}
	add := func(name string, t colType, f *dump.Field) {
		columns = append(columns, column{name: name, field: f, typ: t, how: howOf(f, t)})
	}
	for i := range table {
		f := &table[i]
		if f.Name == FileColumn {
			add(FileColumn, typeString, nil)
			continue
		}
		if f.ULP != dump.ULPNone {
			continue // a field of an upper-layer protocol: no column (Field.ULP)
		}
		add(f.Name, typeOf(f), f)
		if i == 0 && !hasFile { // after the first column, frame.number
			add(FileColumn, typeString, nil)
		}
		if f.Type == dump.FieldTime { // the one time field, frame.time_epoch
			add(TimeDecimalColumn, typeDecimal, f)
		}
	}
	col := make(map[string]int, len(columns))
	for i := range columns {
		c := &columns[i]
		if _, dup := col[c.name]; dup {
			panic("parquetrows: column " + c.name + " twice")
		}
		col[c.name] = i
		if c.name == TimeDecimalColumn {
			c.how, decimalCol = howDecimal, int32(i)
		}
		if c.field != nil {
			switch c.field.Type {
			case dump.FieldIPv4, dump.FieldIPv6, dump.FieldMAC:
				c.address = true
			}
		}
	}
	if decimalCol == 0 {
		panic("parquetrows: no frame.time_epoch in the field table")
	}
	fieldColumns = make([]fieldColumn, len(table))
	for i := range table {
		c, ok := col[table[i].Name]
		if !ok {
			fieldColumns[i] = fieldColumn{col: -1}
			continue
		}
		fieldColumns[i] = fieldColumn{col: int32(c), how: columns[c].how}
	}
	elements = make([]format.SchemaElement, 1+len(columns))
	elements[0] = format.SchemaElement{Name: "rocedump", NumChildren: thrift.New(int32(len(columns)))}
	columnOrders = make([]format.ColumnOrder, len(columns))
	for i := range columns {
		elements[1+i] = element(columns[i].name, columns[i].typ)
		columnOrders[i] = format.ColumnOrder{Value: &format.TypeDefinedOrder{}}
	}
}

// Logical types, shared by the elements as parquet-go shares them.
var (
	stringLogical = format.LogicalType{Value: &format.StringType{}}
	uintLogical   = [...]format.LogicalType{
		{Value: &format.IntType{BitWidth: 8}}, {Value: &format.IntType{BitWidth: 16}},
		{Value: &format.IntType{BitWidth: 32}}, {Value: &format.IntType{BitWidth: 64}}}
	timeLogical    = format.LogicalType{Value: &format.TimestampType{Unit: format.TimeUnit{Value: &format.NanoSeconds{}}}}
	decimalLogical = format.LogicalType{Value: &format.DecimalType{Scale: 9, Precision: 28}}
)

// element returns the schema element of an optional column of type t,
// as parquet-go writes it: INT32 and INT64 columns give their width in
// bits as TypeLength, BOOLEAN 1.
func element(name string, t colType) format.SchemaElement {
	e := format.SchemaElement{Name: name, RepetitionType: thrift.New(format.Optional)}
	switch t {
	case typeUint8, typeUint16, typeUint32, typeUint64:
		k := int(t - typeUint8)
		bits := int32(8) << k
		e.Type, e.TypeLength = thrift.New(format.Int32), thrift.New(bits)
		if t == typeUint64 {
			e.Type = thrift.New(format.Int64)
		}
		e.ConvertedType = thrift.New(deprecated.Uint8 + deprecated.ConvertedType(k))
		e.LogicalType = uintLogical[k]
	case typeBool:
		e.Type, e.TypeLength = thrift.New(format.Boolean), thrift.New(int32(1))
	case typeTime:
		e.Type, e.TypeLength = thrift.New(format.Int64), thrift.New(int32(64))
		e.LogicalType = timeLogical
	case typeDecimal:
		e.Type, e.TypeLength = thrift.New(format.FixedLenByteArray), thrift.New(int32(12))
		e.ConvertedType = thrift.New(deprecated.Decimal)
		e.Scale, e.Precision = thrift.New(int32(9)), thrift.New(int32(28))
		e.LogicalType = decimalLogical
	default:
		e.Type = thrift.New(format.ByteArray)
		e.ConvertedType = thrift.New(deprecated.UTF8)
		e.LogicalType = stringLogical
	}
	return e
}

func howOf(f *dump.Field, t colType) how {
	switch {
	case f == nil:
		return howFile
	case f.Type == dump.FieldTime:
		return howTime
	case f.Type == dump.FieldBool:
		return howFlag
	case t == typeUint8, t == typeUint16, t == typeUint32:
		return howInt32
	case t == typeUint64:
		return howInt64
	}
	return howText
}

// Writer writes the frames of one capture as one Parquet file.
//
// Write appends each frame's cells to a Batch, column by column (a
// definition level and, unless NULL, the PLAIN value), and WriteBatch
// copies a batch into the row group being filled; a full row group goes
// to a goroutine that writes it out while the next one fills.
type Writer struct {
	file  []byte // the FileColumn cell: PLAIN length and name
	cur   *rowGroup
	own   *Batch         // Write's
	free  chan *rowGroup // row groups written, to fill again
	full  chan *rowGroup // row groups filled, to write
	done  chan error     // the writing goroutine's end
	fw    *fileWriter
	state int // 0 open, 1 closed
}

// Options are the Writer's settings; the zero value is the default.
type Options struct {
	// Compression is the pages' codec: nil for Snappy; parquet-go's
	// &parquet.Zstd, &parquet.Uncompressed, ...
	Compression compress.Codec
}

// NewWriter returns a Writer of a Parquet file to w, whose FileColumn
// holds file (the capture's name) in every row. Close writes the
// file's footer; it does not close w.
func NewWriter(w io.Writer, file string, o Options) *Writer {
	codec := o.Compression
	if codec == nil {
		codec = snappyCodec{}
	}
	once.Do(build)
	wr := &Writer{file: append(binary.LittleEndian.AppendUint32(nil, uint32(len(file))), file...),
		free: make(chan *rowGroup, 2), full: make(chan *rowGroup, 1), done: make(chan error, 1),
		fw: newFileWriter(w, codec, "rocedump (github.com/roce-go/roce)")}
	for i := 0; i < 2; i++ {
		wr.free <- newRowGroup(wr.file)
	}
	wr.cur = <-wr.free
	wr.own = NewBatch()
	go wr.encode()
	return wr
}

// encode writes the row groups it is handed until full is closed, then
// reports the first error on done.
func (w *Writer) encode() {
	var err error
	for g := range w.full {
		if err == nil {
			err = w.fw.writeRowGroup(g)
		}
		g.reset()
		w.free <- g
	}
	w.done <- err
}

// Write adds r as a row. The Record may be reused once Write returns.
// Write allocates nothing in steady state, except for the error text of
// a malformed frame.
func (w *Writer) Write(r *dump.Record) error {
	if w.state != 0 {
		return ErrClosed
	}
	if w.own.Add(r); w.own.rows < batchRows {
		return nil
	}
	err := w.WriteBatch(w.own)
	w.own.Reset()
	return err
}

// value appends v, the value of column c's field, a time or a text (Add
// appends the numbers), to ch and reports whether it is one the column
// holds.
func (ch *chunk) value(c *column, v *dump.Value) bool {
	if c.how == howTime {
		ns, ok := timestampNS(v)
		if !ok {
			return false // beyond int64 nanoseconds: before 1677-09-21T00:12:43.145224192Z or after 2262-04-11T23:47:16.854775807Z
		}
		ch.values = binary.LittleEndian.AppendUint64(ch.values, uint64(ns))
		return true
	}
	return ch.text(c, v)
}

// decimal appends v, a time, as TimeDecimalColumn holds it: Sec*10^9 + U
// nanoseconds, 96 bits of two's complement, big endian (|v| < 2^63 s is
// under 10^28 ns, under 2^94).
func (ch *chunk) decimal(v *dump.Value) {
	hi, lo := bits.Mul64(uint64(v.Sec), 1e9)
	if v.Sec < 0 {
		hi -= 1e9 // the signed product: uint64(Sec) is Sec + 2^64
	}
	var c uint64
	lo, c = bits.Add64(lo, v.U, 0)
	hi += c
	ch.values = binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint32(ch.values, uint32(hi)), lo)
}

// text appends v, the value of c, a howText column: its length (4
// bytes, little endian) and its text.
func (ch *chunk) text(c *column, v *dump.Value) bool {
	start := len(ch.values)
	if c.address {
		if ch.lastCell >= 0 && v.Addr == ch.last {
			cell := ch.values[ch.lastCell:]
			n := 4 + int(binary.LittleEndian.Uint32(cell))
			ch.values = append(ch.values, cell[:n]...)
			return true
		}
		ch.last, ch.lastCell = v.Addr, start
	}
	ch.values = c.field.AppendValue(append(ch.values, 0, 0, 0, 0), *v)
	binary.LittleEndian.PutUint32(ch.values[start:], uint32(len(ch.values)-start-4))
	return true
}

// timestampNS returns the nanoseconds since 1970 of a time, if an int64
// (a TIMESTAMP(NANOS)) holds them: -9223372037 s and 145224192 ns to
// 9223372036 s and 854775807 ns.
func timestampNS(v *dump.Value) (int64, bool) {
	const lo, hi = -9223372036, 9223372036
	switch {
	case v.Sec >= lo && v.Sec < hi, v.Sec == hi && v.U <= 854775807:
		return v.Sec*1e9 + int64(v.U), true
	case v.Sec == lo-1 && v.U >= 145224192:
		return math.MinInt64 + int64(v.U-145224192), true
	}
	return 0, false
}

// Close writes the rows not yet written and the file's footer.
func (w *Writer) Close() error {
	if w.state != 0 {
		return ErrClosed
	}
	if err := w.WriteBatch(w.own); err != nil {
		return err
	}
	w.state = 1
	if w.cur.rows > 0 {
		w.full <- w.cur
	}
	close(w.full)
	if err := <-w.done; err != nil {
		return fmt.Errorf("roce: parquet: %w", err)
	}
	if err := w.fw.close(); err != nil {
		return fmt.Errorf("roce: parquet: %w", err)
	}
	return nil
}

// ErrClosed is what Write, WriteBatch and Close return once Close has
// been called.
var ErrClosed = errors.New("roce: parquet: writer closed")
