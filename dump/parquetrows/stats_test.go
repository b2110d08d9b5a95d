package parquetrows_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestStatisticsDuckDB: every column chunk's min_value and max_value, as
// DuckDB reads them from the footer (parquet_metadata), are the smallest
// and largest value DuckDB reads from that row group's rows, for every
// column of every kind (unsigned integers, strings, flags, the
// timestamp, the decimal of far times, negative ones included), over
// the shipped and generated captures and a capture of three row groups;
// a column all NULL in a row group has neither. Every chunk's
// null_count is the row group's NULLs of the column, and the chunks of
// few values (addresses, QPs, opcodes, ports) have a dictionary.
func TestStatisticsDuckDB(t *testing.T) {
	var recs []dump.Record
	for _, p := range append(testcaps.Shipped(t), testcaps.Generated(t, t.TempDir())...) {
		recs = append(recs, testcaps.Records(t, p)...)
	}
	recs = append(recs, farRecords(t, []time.Time{time.Unix(-46383577200, 1), time.Unix(32503680000, 123456000), time.Unix(0, 0)})...)
	cfg := gen.DefaultConfig()
	cfg.Op, cfg.Size, cfg.MTU, cfg.QPs, cfg.Messages = gen.OpWrite, 256, 256, 3, 50000
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var r dump.Record
	p := filepath.Join(t.TempDir(), "stats.parquet")
	var out bytes.Buffer
	w := parquetrows.NewWriter(&out, "stats.pcap", parquetrows.Options{})
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	rows := len(recs)
	for n := 1; g.Next(); n++ {
		r.Decode(n, g.CaptureInfo(), capfile.LinkTypeEthernet, g.Frame())
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
		rows++
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	groups := (rows + parquetrows.RowGroupRows - 1) / parquetrows.RowGroupRows
	if groups < 3 {
		t.Fatalf("%d rows: %d row groups", rows, groups)
	}
	meta := oracle.DuckDB(t, "SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value, stats_null_count, encodings, dictionary_page_offset IS NOT NULL FROM parquet_metadata('"+p+"') ORDER BY row_group_id, column_id")[0].Rows
	var cols []string
	for _, m := range meta {
		var name string
		json.Unmarshal(m[1], &name)
		if len(cols) > 0 && name == cols[0] {
			break
		}
		cols = append(cols, name)
	}
	var q strings.Builder
	q.WriteString("SELECT file_row_number // " + strconv.Itoa(parquetrows.RowGroupRows) + " AS g")
	for _, c := range cols {
		q.WriteString(`, min("` + c + `")::VARCHAR, max("` + c + `")::VARCHAR, (count(*) - count("` + c + `"))::VARCHAR`)
	}
	q.WriteString(" FROM read_parquet('" + p + "', file_row_number = true) GROUP BY g ORDER BY g")
	data := oracle.DuckDB(t, q.String())[0].Rows
	str := func(m json.RawMessage) string {
		var s *string
		if err := json.Unmarshal(m, &s); err != nil {
			var n json.Number
			if json.Unmarshal(m, &n) == nil {
				return n.String()
			}
			t.Fatalf("%s: %v", m, err)
		}
		if s == nil {
			return "NULL"
		}
		return *s
	}
	if len(data) != groups || len(meta) != groups*len(cols) {
		t.Fatalf("%d groups of data, %d column chunks; want %d and %d", len(data), len(meta), groups, groups*len(cols))
	}
	compared, withValues, dictionaries := 0, 0, 0
	dictCols := map[string]bool{}
	for _, m := range meta {
		gi, _ := strconv.Atoi(str(m[0]))
		name := str(m[1])
		ci := -1
		for i, c := range cols {
			if c == name {
				ci = i
			}
		}
		if ci < 0 {
			t.Fatalf("column %q", name)
		}
		wantMin, wantMax, wantNulls := str(data[gi][1+3*ci]), str(data[gi][2+3*ci]), str(data[gi][3+3*ci])
		gotMin, gotMax := str(m[2]), str(m[3])
		if gotMin != wantMin || gotMax != wantMax {
			t.Errorf("row group %d %s: statistics min %s max %s; the rows' min %s max %s", gi, name, gotMin, gotMax, wantMin, wantMax)
		}
		if got := str(m[4]); got != wantNulls {
			t.Errorf("row group %d %s: null_count %s; the rows have %s NULLs", gi, name, got, wantNulls)
		}
		// A dictionary page, and RLE_DICTIONARY among the encodings,
		// exactly where the writer says (the table of dictionaryTypes
		// below restates the package doc).
		encodings, hasDict := str(m[5]), string(m[6]) == "true"
		if hasDict != strings.Contains(encodings, "RLE_DICTIONARY") {
			t.Errorf("row group %d %s: encodings %s, dictionary page %v", gi, name, encodings, hasDict)
		}
		if hasDict {
			dictionaries++
			dictCols[name] = true
		}
		compared++
		if wantMin != "NULL" {
			withValues++
		}
	}
	t.Logf("%d column chunks compared, %d with values, %d with a dictionary", compared, withValues, dictionaries)
	if withValues < 300 {
		t.Errorf("only %d column chunks with values", withValues)
	}
	for _, c := range []string{"frame.file", "eth.src", "ip.dst", "udp.srcport", "infiniband.bth.opcode", "infiniband.bth.destqp", "frame.len"} {
		if !dictCols[c] {
			t.Errorf("%s: no column chunk with a dictionary", c)
		}
	}
	for _, c := range []string{"frame.number", "frame.time_epoch", "frame.time_epoch_decimal", "infiniband.bth.psn"} {
		if dictCols[c] {
			t.Errorf("%s: a column chunk with a dictionary, of %d values or more", c, parquetrows.DictionaryValues)
		}
	}
}
