package parquetrows_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestRowGroups writes more than two row groups' rows, through Write
// and through batches of uneven sizes, and reads them back with
// parquet-go's reader: the two files are the same bytes, hold three row
// groups (Write's; batches that would overflow one start the next), and
// every row's frame.number, frame.len and frame.file are the record's,
// NULLs where its protocol is absent (ip.src), the same in both files.
func TestRowGroups(t *testing.T) {
	recs := testcaps.Records(t, testcaps.Generated(t, t.TempDir())[0])
	n := 2*parquetrows.RowGroupRows + 1000
	var byWrite, byBatch bytes.Buffer
	w := parquetrows.NewWriter(&byWrite, "x.pcap", parquetrows.Options{})
	for i := 0; i < n; i++ {
		if err := w.Write(&recs[i%len(recs)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w = parquetrows.NewWriter(&byBatch, "x.pcap", parquetrows.Options{})
	b := parquetrows.NewBatch()
	for i, size := 0, 1; i < n; size = size%300 + 7 { // batches of 1, 8, ... 295, 2, ...
		for j := 0; j < size && i < n; j, i = j+1, i+1 {
			b.Add(&recs[i%len(recs)])
		}
		if err := w.WriteBatch(b); err != nil {
			t.Fatal(err)
		}
		b.Reset()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	f, err := parquet.OpenFile(bytes.NewReader(byWrite.Bytes()), int64(byWrite.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.RowGroups()); got != 3 || f.NumRows() != int64(n) {
		t.Fatalf("%d rows in %d row groups, want %d in 3", f.NumRows(), got, n)
	}
	fb, err := parquet.OpenFile(bytes.NewReader(byBatch.Bytes()), int64(byBatch.Len()))
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		leaf, ok := f.Schema().Lookup(name)
		if !ok {
			t.Fatalf("no column %s", name)
		}
		return leaf.ColumnIndex
	}
	number, length, file, src := col("frame.number"), col("frame.len"), col(parquetrows.FileColumn), col("ip.src")
	r, rb := parquet.NewReader(f), parquet.NewReader(fb)
	rows, brows := make([]parquet.Row, 1000), make([]parquet.Row, 1000)
	nulls := 0
	for i := 0; i < n; {
		k, err := r.ReadRows(rows)
		if kb := readRows(rb, brows[:k]); kb != k {
			t.Fatalf("row %d: %d rows of WriteBatch's file, want %d", i, kb, k)
		}
		for j, row := range rows[:k] {
			if !row.Equal(brows[j]) {
				t.Fatalf("row %d: Write's %v, WriteBatch's %v", i, row, brows[j])
			}
			rec := &recs[i%len(recs)]
			if row[number].Uint32() != uint32(rec.Number) || row[length].Uint32() != uint32(rec.Len) || row[file].String() != "x.pcap" {
				t.Fatalf("row %d: frame.number %v frame.len %v frame.file %v, want %d %d x.pcap", i, row[number], row[length], row[file], rec.Number, rec.Len)
			}
			if row[src].IsNull() {
				nulls++
			}
			i++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if nulls == 0 || nulls == n {
		t.Errorf("ip.src: %d NULLs of %d rows", nulls, n)
	}
	t.Logf("%d rows, %d row groups by Write, %d by WriteBatch", n, len(f.RowGroups()), len(fb.RowGroups()))
}

// readRows reads len(rows) rows from r, or those left: how many.
func readRows(r *parquet.Reader, rows []parquet.Row) int {
	n := 0
	for n < len(rows) {
		k, err := r.ReadRows(rows[n:])
		if n += k; err != nil {
			break
		}
	}
	return n
}
