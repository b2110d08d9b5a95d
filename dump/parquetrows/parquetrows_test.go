package parquetrows_test

import (
	"io"
	"testing"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/dump/parquetrows/parquetschema"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestSchemaIsTheTable checks that the columns are the field table's
// names, in its order (but the fields of upper-layer protocols,
// Field.ULP), with frame.file after frame.number and
// frame.time_epoch_decimal after frame.time_epoch, all optional.
func TestSchemaIsTheTable(t *testing.T) {
	want := wantColumns()
	cols := parquetschema.Schema().Columns()
	if len(cols) != len(want) {
		t.Fatalf("%d columns, want %d", len(cols), len(want))
	}
	for i, c := range cols {
		leaf, ok := parquetschema.Schema().Lookup(c...)
		if len(c) != 1 || c[0] != want[i] || !ok || !leaf.Node.Optional() || leaf.ColumnIndex != i {
			t.Errorf("column %d: %v (optional %v, index %d), want %s", i, c, leaf.Node.Optional(), leaf.ColumnIndex, want[i])
		}
	}
}

// TestFieldsOfAbsentProtocols checks what Write relies on to skip
// getters: a frame that has a field has the field's protocol.
func TestFieldsOfAbsentProtocols(t *testing.T) {
	paths := append(testcaps.Shipped(t), testcaps.Generated(t, t.TempDir())...)
	checked := 0
	for _, path := range paths {
		recs := testcaps.Records(t, path)
		for i := range recs {
			r := &recs[i]
			for _, f := range dump.Fields() {
				p, ok := dump.LookupProtocol(dump.FieldProtocol(f.Name))
				if !ok {
					t.Fatalf("%s: no protocol %s", f.Name, dump.FieldProtocol(f.Name))
				}
				if _, has := f.Get(r); has {
					checked++
					if !p.Present(r) {
						t.Errorf("%s frame %d: %s without %s", path, r.Number, f.Name, p.Name)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no field checked")
	}
	t.Logf("%d field values of %d captures: each one's protocol present", checked, len(paths))
}

// TestWriteAllocs checks that Write allocates nothing per frame.
func TestWriteAllocs(t *testing.T) {
	recs := testcaps.Records(t, testcaps.Generated(t, t.TempDir())[0])
	w := parquetrows.NewWriter(io.Discard, "x.pcap", parquetrows.Options{})
	var err error
	i := 0
	for ; i < 5000; i++ { // let the buffers grow
		if err = w.Write(&recs[i%len(recs)]); err != nil {
			t.Fatal(err)
		}
	}
	n := testing.AllocsPerRun(2000, func() {
		if e := w.Write(&recs[i%len(recs)]); e != nil {
			err = e
		}
		i++
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n > 0.05 { // the encoder goroutine's page buffers grow now and then
		t.Errorf("Write: %.2f allocations per frame", n)
	}
	if err := w.Write(&recs[0]); err == nil {
		t.Error("Write after Close: no error")
	}
}

// wantColumns is the table's names with FileColumn after frame.number,
// unless the table has a field of that name, and TimeDecimalColumn after
// frame.time_epoch.
func wantColumns() []string {
	var names []string
	has := false
	for _, f := range dump.Fields() {
		if f.ULP != dump.ULPNone {
			continue // an upper-layer protocol's field: no column
		}
		names = append(names, f.Name)
		if f.Name == "frame.time_epoch" {
			names = append(names, parquetrows.TimeDecimalColumn)
		}
		has = has || f.Name == parquetrows.FileColumn
	}
	if has {
		return names
	}
	return append([]string{names[0], parquetrows.FileColumn}, names[1:]...)
}
