package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// TestParquetHyparquet reads every capture's -parquet file with
// hyparquet, a second reader (JavaScript alone, no code shared with
// DuckDB or parquet-go), and checks the columns' names and every value
// of every row against the -json objects, as TestParquetDuckDB does
// with DuckDB; the captures are TestParquetDuckDB's and a generated one
// of several pages per column chunk. Then it checks the page index
// hyparquet reads against the rows it reads: each page's first row, its
// NULL count, whether it is all NULL, its min and max, and the pages'
// locations, which follow each other without overlapping; and that a
// chunk's encodings name RLE_DICTIONARY exactly when it has a
// dictionary page.
func TestParquetHyparquet(t *testing.T) {
	cs := parquetCases(t)
	dir := t.TempDir()
	cfg := gen.DefaultConfig()
	cfg.Messages, cfg.MTU, cfg.Size, cfg.QPs, cfg.CEEvery = 1400, 256, 600, 3, 50
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	frames, err := gen.Write(&buf, g, capfile.FormatPcap)
	if err != nil {
		t.Fatal(err)
	}
	if frames < 2*parquetrows.PageRows {
		t.Fatalf("%d frames", frames)
	}
	big := filepath.Join(dir, "pages.pcap")
	if err := os.WriteFile(big, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cs = append(cs, convertCase(t, big, filepath.Join(dir, "pages.parquet")))
	var files []string
	for _, c := range cs {
		files = append(files, c.parquet)
	}
	res := oracle.Hyparquet(t, files...)
	wantNames, wantTypes := wantSchema()
	values, nulls, rows, pages, multi, dicts := 0, 0, 0, 0, 0, 0
	for i, c := range cs {
		f := res[i]
		if strings.Join(f.Columns, " ") != strings.Join(wantNames, " ") {
			t.Errorf("%s: columns\n%v\nwant\n%v", c.capture, f.Columns, wantNames)
			continue
		}
		if len(f.Rows) != len(c.objects) {
			t.Errorf("%s: %d rows, want %d", c.capture, len(f.Rows), len(c.objects))
			continue
		}
		for k, o := range c.objects {
			o["frame.file"] = c.capture
			for j, name := range f.Columns {
				jv, has := o[name]
				typ := wantTypes[j]
				switch name {
				case parquetrows.TimeDecimalColumn:
					jv, has = o["frame.time_epoch"]
				}
				if typ == "TIMESTAMP_NS" || strings.HasPrefix(typ, "DECIMAL") {
					typ = "BIGINT" // nanoseconds, the unscaled decimal
				}
				if !has && string(f.Rows[k][j]) == "null" {
					nulls++
					continue // most cells: no need to decode them
				}
				values++
				if err := sameValue(typ, f.Rows[k][j], jv, has); err != nil {
					t.Errorf("%s frame %v: %s: hyparquet: %v", c.capture, o["frame.number"], name, err)
				}
			}
			rows++
		}
		col := map[string]int{}
		for j, name := range f.Columns {
			col[name] = j
		}
		start := map[int]int{} // each row group's first row
		at := 0
		for _, ch := range f.Chunks {
			if _, ok := start[ch.RowGroup]; !ok {
				start[ch.RowGroup] = at
				n, _ := strconv.Atoi(ch.Rows)
				at += n
			}
		}
		if at != len(f.Rows) {
			t.Errorf("%s: row groups of %d rows, %d rows", c.capture, at, len(f.Rows))
			continue
		}
		for _, ch := range f.Chunks {
			n, _ := strconv.Atoi(ch.Rows)
			if err := checkPages(f, ch, col[ch.Column], wantTypes[col[ch.Column]], start[ch.RowGroup], n); err != nil {
				t.Errorf("%s: row group %d %s: %v", c.capture, ch.RowGroup, ch.Column, err)
			}
			if ch.Dictionary != strings.Contains(strings.Join(ch.Encodings, " "), "RLE_DICTIONARY") {
				t.Errorf("%s: row group %d %s: encodings %v, dictionary page %v", c.capture, ch.RowGroup, ch.Column, ch.Encodings, ch.Dictionary)
			}
			if ch.Dictionary {
				dicts++
			}
			pages += len(ch.Pages)
			if len(ch.Pages) > 1 {
				multi++
			}
		}
	}
	t.Logf("hyparquet: %d values equal to -json's, %d NULLs where -json has no key (%d rows of %d captures); %d pages in the page index, %d chunks of several pages, %d with a dictionary",
		values, nulls, rows, len(cs), pages, multi, dicts)
	if multi < 20 || dicts < 100 {
		t.Errorf("%d column chunks of several pages, %d with a dictionary", multi, dicts)
	}
}

// checkPages checks the page index of chunk ch, of column j of type
// typ, in the row group of n rows from row start of f, against f's rows.
func checkPages(f oracle.HyparquetFile, ch oracle.HyparquetChunk, j int, typ string, start, n int) error {
	if len(ch.Pages) == 0 {
		return fmt.Errorf("no page index")
	}
	nullsAll := 0
	var end int64
	for i, p := range ch.Pages {
		first, _ := strconv.Atoi(p.FirstRow)
		next := n
		if i+1 < len(ch.Pages) {
			next, _ = strconv.Atoi(ch.Pages[i+1].FirstRow)
		}
		if i == 0 && first != 0 || next <= first || next-first > parquetrows.PageRows && !(len(ch.Pages) == 1 && p.NullPage) {
			return fmt.Errorf("page %d: rows %d to %d", i, first, next)
		}
		off, _ := strconv.ParseInt(p.Offset, 10, 64)
		if off < end || p.Size <= 0 {
			return fmt.Errorf("page %d at %d, size %d, the page before ends at %d", i, off, p.Size, end)
		}
		end = off + int64(p.Size)
		var lo, hi json.RawMessage
		nulls := 0
		for _, row := range f.Rows[start+first : start+next] {
			v := row[j]
			if string(v) == "null" {
				nulls++
				continue
			}
			if lo == nil || lessValue(typ, v, lo) {
				lo = v
			}
			if hi == nil || lessValue(typ, hi, v) {
				hi = v
			}
		}
		nullsAll += nulls
		if p.NullCount != strconv.Itoa(nulls) || p.NullPage != (nulls == next-first) {
			return fmt.Errorf("page %d: null_count %s, null page %v; the rows have %d NULLs of %d", i, p.NullCount, p.NullPage, nulls, next-first)
		}
		if !p.NullPage && (string(p.Min) != string(lo) || string(p.Max) != string(hi)) {
			return fmt.Errorf("page %d: min %s max %s; the rows' %s and %s", i, p.Min, p.Max, lo, hi)
		}
	}
	if ch.NullCount != strconv.Itoa(nullsAll) {
		return fmt.Errorf("null_count %s, the rows have %d NULLs", ch.NullCount, nullsAll)
	}
	return nil
}

// lessValue orders two values of hyparquet's rows of a column of DuckDB
// type typ in the order of the column's logical type: the numbers
// (JSON numbers, decimal strings) by value, the strings byte-wise,
// false before true.
func lessValue(typ string, a, b json.RawMessage) bool {
	switch typ {
	case "VARCHAR":
		var x, y string
		json.Unmarshal(a, &x)
		json.Unmarshal(b, &y)
		return x < y
	case "BOOLEAN":
		return string(a) == "false" && string(b) == "true"
	}
	x, _ := new(big.Int).SetString(strings.Trim(string(a), `"`), 10)
	y, _ := new(big.Int).SetString(strings.Trim(string(b), `"`), 10)
	return x.Cmp(y) < 0
}
