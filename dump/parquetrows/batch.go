package parquetrows

import (
	"encoding/binary"

	"github.com/roce-go/roce/dump"
)

// Batch is rows not yet written, column by column: Add fills it, the
// Writer's WriteBatch copies it into the row group being filled. It is
// a dump.Part, so that dump.ScanParts fills batches on the goroutines
// that decode the frames, several at once, and the Writer only copies
// each column's cells in capture order.
type Batch struct {
	chunks []chunk
	rows   int
	cells  *dump.Cells // the frame being added
}

// batchRows is the rows a Batch has room for before it grows.
const batchRows = 256

// NewBatch returns an empty Batch.
func NewBatch() *Batch {
	once.Do(build)
	b := &Batch{chunks: make([]chunk, len(columns)), cells: dump.NewCells()}
	for i := range b.chunks {
		b.chunks[i].levels = make([]byte, batchRows)
		b.chunks[i].lastCell = -1
	}
	return b
}

// Add adds r as a row. The Record may be reused once Add returns. Add
// allocates nothing once the Batch has held as many rows.
func (b *Batch) Add(r *dump.Record) {
	if b.rows == len(b.chunks[0].levels) {
		for i := range b.chunks {
			b.chunks[i].levels = append(b.chunks[i].levels, make([]byte, b.rows)...)
		}
	}
	row := b.rows
	c := b.cells
	c.Fill(r)
	for _, fi := range c.Fields() {
		fc := fieldColumns[fi]
		col := fc.col
		if col < 0 {
			continue // no column (Field.ULP)
		}
		ch, v := &b.chunks[col], &c.Values[fi]
		switch fc.how {
		case howInt32:
			ch.values = binary.LittleEndian.AppendUint32(ch.values, uint32(v.U))
		case howInt64:
			ch.values = binary.LittleEndian.AppendUint64(ch.values, v.U)
		case howFlag:
			ch.values = append(ch.values, byte(v.U&1)) // a byte until written out
		case howFile:
			continue // the Writer's file name, not the frame's
		case howTime:
			dc := &b.chunks[decimalCol]
			dc.decimal(v)
			dc.filled(row)
			if !ch.value(&columns[col], v) {
				continue
			}
		default:
			if !ch.value(&columns[col], v) {
				continue
			}
		}
		ch.filled(row)
	}
	b.rows++
}

// filled counts the value just appended to c as row's.
func (c *chunk) filled(row int) {
	if c.n != row || c.gappy { // a value after a NULL: the levels say which rows
		c.level(row)
	}
	c.n++
}

// Reset empties b.
func (b *Batch) Reset() {
	for i := range b.chunks {
		b.chunks[i].clear(b.rows)
	}
	b.rows = 0
}

// Len returns the rows in b.
func (b *Batch) Len() int { return b.rows }

// WriteBatch adds the rows of b after those written so far, and leaves
// b as it is. A row group is written out once it holds RowGroupRows rows
// or would hold more with the next batch.
func (w *Writer) WriteBatch(b *Batch) error {
	if w.state != 0 {
		return ErrClosed
	}
	if b.rows == 0 {
		return nil
	}
	g := w.cur
	if g.rows > 0 && g.rows+b.rows > RowGroupRows {
		w.flush()
		g = w.cur
	}
	for i := range b.chunks {
		if columns[i].how == howFile {
			continue
		}
		g.chunks[i].add(&b.chunks[i], g.rows, b.rows)
	}
	if g.rows += b.rows; g.rows >= RowGroupRows {
		w.flush()
	}
	return nil
}

// flush hands the row group being filled to the writing goroutine and
// takes an empty one.
func (w *Writer) flush() {
	w.full <- w.cur
	w.cur = <-w.free
}
