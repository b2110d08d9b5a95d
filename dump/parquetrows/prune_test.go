package parquetrows_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// TestPruneDuckDB: DuckDB answers a selective time filter and a
// selective queue pair filter from the last row group alone. The file
// has four row groups: a capture of three queue pairs, then one of
// another queue pair; a copy of it has every byte of the first three
// row groups' column chunks overwritten, so that a query that reads one
// of them fails (the test checks one that must), and the two filtered
// queries count on the copy what they count on the file.
func TestPruneDuckDB(t *testing.T) {
	var out bytes.Buffer
	w := parquetrows.NewWriter(&out, "prune.pcap", parquetrows.Options{})
	rows := 0
	for i, c := range []struct {
		messages int
		qp       uint32
	}{{33000, 0x100}, {1500, 0x4242}} {
		cfg := gen.DefaultConfig()
		cfg.Op, cfg.Size, cfg.MTU, cfg.QPs, cfg.Messages = gen.OpWrite, 256, 256, 3, c.messages
		cfg.LocalQP, cfg.RemoteQP = c.qp, c.qp+0x10
		if i == 1 {
			cfg.QPs = 1
		}
		g, err := gen.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var r dump.Record
		for n := 1; g.Next(); n++ {
			r.Decode(n, g.CaptureInfo(), capfile.LinkTypeEthernet, g.Frame())
			if err := w.Write(&r); err != nil {
				t.Fatal(err)
			}
			rows++
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	groups := (rows + parquetrows.RowGroupRows - 1) / parquetrows.RowGroupRows
	if groups != 4 || rows-3*parquetrows.RowGroupRows < 2000 {
		t.Fatalf("%d rows: %d row groups, want 4 with the second capture in the last", rows, groups)
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.parquet"), filepath.Join(dir, "bad.parquet")
	if err := os.WriteFile(good, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	last := strconv.Itoa(3 * parquetrows.RowGroupRows)
	res := oracle.DuckDB(t,
		"SELECT coalesce(dictionary_page_offset, data_page_offset), total_compressed_size FROM parquet_metadata('"+good+"') WHERE row_group_id < 3",
		// The last row group's earliest time, a time after every
		// frame of the row groups before it.
		`SELECT max("frame.time_epoch")::VARCHAR FROM read_parquet('`+good+`', file_row_number = true) WHERE file_row_number < `+last)
	file := bytes.Clone(out.Bytes())
	spoilt := 0
	for _, r := range res[0].Rows {
		off, _ := strconv.Atoi(strings.Trim(string(r[0]), `"`))
		n, _ := strconv.Atoi(strings.Trim(string(r[1]), `"`))
		for i := off; i < off+n; i++ {
			file[i] = 0xff
		}
		spoilt += n
	}
	if len(res[0].Rows) == 0 || spoilt < len(file)/2 {
		t.Fatalf("%d column chunks, %d bytes of %d overwritten", len(res[0].Rows), spoilt, len(file))
	}
	if err := os.WriteFile(bad, file, 0o644); err != nil {
		t.Fatal(err)
	}
	var after string
	json.Unmarshal(res[1].Rows[0][0], &after)
	filters := []string{
		`"frame.time_epoch" > TIMESTAMP_NS '` + after + `'`,
		`"infiniband.bth.destqp" = ` + strconv.Itoa(0x4242+0x10),
	}
	var qs []string
	for _, f := range filters {
		for _, p := range []string{good, bad} {
			qs = append(qs, `SELECT count(*) FROM read_parquet('`+p+`') WHERE `+f)
		}
	}
	qs = append(qs, `SELECT sum("infiniband.bth.psn") FROM read_parquet('`+bad+`')`) // reads every row group
	got := oracle.DuckDBMayFail(t, qs...)
	for i, f := range filters {
		g, b := got[2*i], got[2*i+1]
		if g.Error != "" || b.Error != "" {
			t.Errorf("%s: %q, with the first row groups overwritten %q", f, g.Error, b.Error)
			continue
		}
		n, _ := strconv.Atoi(strings.Trim(string(g.Rows[0][0]), `"`))
		if string(g.Rows[0][0]) != string(b.Rows[0][0]) || n == 0 || n > rows-3*parquetrows.RowGroupRows {
			t.Errorf("%s: %s rows, with the first row groups overwritten %s; the last row group has %d", f, g.Rows[0][0], b.Rows[0][0], rows-3*parquetrows.RowGroupRows)
		}
		t.Logf("%s: %d rows, from the last row group alone", f, n)
	}
	if e := got[len(got)-1]; e.Error == "" {
		t.Errorf("a query of every row group reads the overwritten file: %s", e.Rows)
	}
}
