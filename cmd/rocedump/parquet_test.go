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

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// duckType is the DuckDB type a column of field f must read as: the
// mapping dump/parquetrows documents, restated.
func duckType(f *dump.Field) string {
	switch f.Type {
	case dump.FieldUint:
		switch {
		case f.Bits <= 8:
			return "UTINYINT"
		case f.Bits <= 16:
			return "USMALLINT"
		case f.Bits <= 32:
			return "UINTEGER"
		}
		return "UBIGINT"
	case dump.FieldHex64, dump.FieldDec64:
		return "UBIGINT"
	case dump.FieldBool:
		return "BOOLEAN"
	case dump.FieldTime:
		return "TIMESTAMP_NS"
	}
	return "VARCHAR"
}

// parquetCase is a capture, its -json objects and its -parquet file.
type parquetCase struct {
	capture, parquet string
	objects          []map[string]any
}

// parquetCases converts the shipped and the generated captures and the
// golden MADs (SMP and PerfMgt attributes, SA records, NodeStrings with
// bytes JSON escapes) with -json and with -parquet.
func parquetCases(t *testing.T) []parquetCase {
	dir := t.TempDir()
	var cs []parquetCase
	paths := append(testcaps.Shipped(t), testcaps.Generated(t, dir)...)
	for i, path := range append(paths, testcaps.WriteGoldenSMP(t, dir)) {
		cs = append(cs, convertCase(t, path, filepath.Join(dir, fmt.Sprintf("%d.parquet", i))))
	}
	return cs
}

// convertCase converts the capture path with -json and with -parquet
// pq.
func convertCase(t *testing.T, path, pq string) parquetCase {
	st, out, errs := runCmd(t, nil, "-json", path)
	if st > 1 { // 1: a malformed frame, which has its row
		t.Fatalf("%s: -json: status %d: %s", path, st, errs)
	}
	if st2, _, errs := runCmd(t, nil, "-parquet", pq, path); st2 != st {
		t.Fatalf("%s: -parquet: status %d, -json's %d: %s", path, st2, st, errs)
	}
	c := parquetCase{capture: path, parquet: pq}
	for _, l := range lines(out) {
		d := json.NewDecoder(strings.NewReader(l))
		d.UseNumber()
		var o map[string]any
		if err := d.Decode(&o); err != nil {
			t.Fatal(err)
		}
		c.objects = append(c.objects, o)
	}
	return c
}

// TestParquetDuckDB reads every capture's -parquet file with DuckDB and
// checks the schema (names in JSON key order, types), the row count and
// every value of every row against the -json objects.
func TestParquetDuckDB(t *testing.T) {
	cs := parquetCases(t)
	var qs []string
	for _, c := range cs {
		from := "read_parquet('" + c.parquet + "')"
		qs = append(qs, "DESCRIBE SELECT * FROM "+from, "SELECT count(*) FROM "+from,
			`SELECT * REPLACE (epoch_ns("frame.time_epoch") AS "frame.time_epoch") FROM `+from+` ORDER BY "frame.number"`)
	}
	res := oracle.DuckDB(t, qs...)
	wantNames, wantTypes := wantSchema()
	values, nulls, rows := 0, 0, 0
	for i, c := range cs {
		desc, count, all := res[3*i], res[3*i+1], res[3*i+2]
		var names, types []string
		for _, r := range desc.Rows {
			names, types = append(names, unquote(t, r[0])), append(types, unquote(t, r[1]))
		}
		if strings.Join(names, " ") != strings.Join(wantNames, " ") || strings.Join(types, " ") != strings.Join(wantTypes, " ") {
			t.Errorf("%s: DESCRIBE\n%v\n%v\nwant\n%v\n%v", c.capture, names, types, wantNames, wantTypes)
			continue
		}
		if n := string(count.Rows[0][0]); n != `"`+strconv.Itoa(len(c.objects))+`"` {
			t.Errorf("%s: count(*) %s, want %d frames", c.capture, n, len(c.objects))
		}
		if len(all.Rows) != len(c.objects) {
			t.Errorf("%s: %d rows, want %d", c.capture, len(all.Rows), len(c.objects))
			continue
		}
		for k, o := range c.objects {
			o["frame.file"] = c.capture // the -json objects of one capture have none
			seen := 0
			for j, name := range all.Columns {
				jv, has := o[name]
				if name == parquetrows.TimeDecimalColumn {
					jv, has = o["frame.time_epoch"] // the same number
				} else if has {
					seen++
				}
				if has {
					values++
				} else {
					nulls++
				}
				if err := sameValue(all.Types[j], all.Rows[k][j], jv, has); err != nil {
					t.Errorf("%s frame %v: %s: %v", c.capture, o["frame.number"], name, err)
				}
			}
			if seen != len(o) {
				t.Errorf("%s frame %v: %d JSON keys, %d of them columns", c.capture, o["frame.number"], len(o), seen)
			}
			rows++
		}
	}
	t.Logf("DuckDB: %d values equal to -json's and %d NULLs where -json has no key (%d columns × %d rows of %d captures)",
		values, nulls, len(wantNames), rows, len(cs))
}

// wantSchema returns the columns' names and DuckDB types, from the
// field table and the package doc of dump/parquetrows.
func wantSchema() (names, types []string) {
	for _, f := range dump.Fields() {
		if f.ULP != dump.ULPNone {
			continue // an upper-layer protocol's fields, -ulp's: no column
		}
		if f.Name != parquetrows.FileColumn {
			names, types = append(names, f.Name), append(types, duckType(&f))
		}
		if f.Name == "frame.number" { // frame.file after it, as in the JSON of several captures
			names, types = append(names, parquetrows.FileColumn), append(types, "VARCHAR")
		}
		if f.Name == "frame.time_epoch" { // the time again, exactly, as a decimal
			names, types = append(names, parquetrows.TimeDecimalColumn), append(types, "DECIMAL(28,9)")
		}
	}
	return names, types
}

func unquote(t *testing.T, raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: not a string: %v", raw, err)
	}
	return s
}

// sameValue compares DuckDB's value of a column of type typ with the
// -json value of the key (has false: the object has no such key, and
// the column must be NULL).
func sameValue(typ string, raw json.RawMessage, jv any, has bool) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var dv any
	if err := d.Decode(&dv); err != nil {
		return err
	}
	switch {
	case !has && dv == nil:
		return nil
	case !has || dv == nil:
		return fmt.Errorf("DuckDB %s, JSON %v (present %v)", raw, jv, has)
	}
	bad := fmt.Errorf("DuckDB %s %s, JSON %#v", typ, raw, jv)
	switch typ {
	case "UTINYINT", "USMALLINT", "UINTEGER": // JSON numbers both
		n, ok1 := dv.(json.Number)
		m, ok2 := jv.(json.Number)
		if !ok1 || !ok2 || n != m {
			return bad
		}
	case "UBIGINT": // a decimal string from DuckDB; "0x..." or decimal from -json
		s, ok1 := dv.(string)
		j, ok2 := jv.(string)
		if !ok1 || !ok2 {
			return bad
		}
		base := 10
		if strings.HasPrefix(j, "0x") {
			j, base = j[2:], 16
		}
		a, err1 := strconv.ParseUint(s, 10, 64)
		b, err2 := strconv.ParseUint(j, base, 64)
		if err1 != nil || err2 != nil || a != b {
			return bad
		}
	case "BIGINT": // epoch_ns of the TIMESTAMP_NS frame.time_epoch, a decimal string; -json seconds with 9 decimals
		s, ok1 := dv.(string)
		j, ok2 := jv.(json.Number)
		if !ok1 || !ok2 {
			return bad
		}
		sec, ns, ok := strings.Cut(string(j), ".")
		want, ok3 := new(big.Int).SetString(sec+ns, 10)
		if !ok || len(ns) != 9 || !ok3 || want.String() != s {
			return bad
		}
	case "DECIMAL(28,9)": // frame.time_epoch_decimal, the text of -json's frame.time_epoch
		s, ok1 := dv.(string)
		j, ok2 := jv.(json.Number)
		if !ok1 || !ok2 || s != string(j) {
			return bad
		}
	case "BOOLEAN":
		if a, ok := dv.(bool); !ok || a != jv {
			return bad
		}
	case "VARCHAR":
		if a, ok := dv.(string); !ok || a != jv {
			return bad
		}
	default:
		return fmt.Errorf("unexpected type %s", typ)
	}
	return nil
}

// TestParquetStats checks DuckDB queries over the -parquet file of a
// generated capture with CE marks and CNPs against rocedump -stats
// -json: frames, CE marks and CNPs per flow.
func TestParquetStats(t *testing.T) {
	path := testcaps.Generated(t, t.TempDir())[0] // RoCEv2/IPv4, CE marks answered by CNPs, PFC
	st, out, errs := runCmd(t, nil, "-stats", "-json", path)
	if st != 0 {
		t.Fatalf("-stats: status %d: %s", st, errs)
	}
	var rep struct {
		Flows []struct {
			Src, Dst string
			QP       uint32
			Stats    struct{ Frames, CE, CNPs int }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	pq := filepath.Join(t.TempDir(), "gen.parquet")
	if st, _, errs := runCmd(t, nil, "-parquet", pq, path); st != 0 {
		t.Fatalf("-parquet: status %d: %s", st, errs)
	}
	res := oracle.DuckDB(t, `SELECT "ip.src" || ' > ' || "ip.dst" || ' qp ' || "infiniband.bth.destqp" AS flow,
		count(*) AS frames,
		count(*) FILTER (WHERE "ip.dsfield.ecn" = 3) AS ce,
		count(*) FILTER (WHERE "infiniband.bth.opcode" = 129) AS cnps
	FROM read_parquet('`+pq+`') WHERE "infiniband.bth.opcode" IS NOT NULL GROUP BY flow ORDER BY flow`)[0]
	got := map[string]string{}
	for _, r := range res.Rows {
		got[unquote(t, r[0])] = fmt.Sprintf("frames %s ce %s cnps %s", r[1], r[2], r[3])
	}
	cnps := 0
	for _, f := range rep.Flows {
		key := fmt.Sprintf("%s > %s qp %d", f.Src, f.Dst, f.QP)
		want := fmt.Sprintf(`frames "%d" ce "%d" cnps "%d"`, f.Stats.Frames, f.Stats.CE, f.Stats.CNPs)
		if got[key] != want {
			t.Errorf("flow %s: DuckDB %s, -stats %s", key, got[key], want)
		}
		cnps += f.Stats.CNPs
		delete(got, key)
	}
	if len(got) > 0 || cnps == 0 {
		t.Errorf("DuckDB flows not in -stats: %v (CNPs in -stats: %d)", got, cnps)
	}
	t.Logf("%d flows, %d CNPs: DuckDB's figures equal -stats'", len(rep.Flows), cnps)
}

// TestParquetOut checks -parquet's output choices: a directory (one
// file per capture), standard output, and the flags it refuses.
func TestParquetOut(t *testing.T) {
	path := filepath.Join(capDir, captures[2].name)
	dir := t.TempDir()
	if st, _, errs := runCmd(t, nil, "-parquet", dir, path); st != 0 {
		t.Fatalf("-parquet DIR: status %d: %s", st, errs)
	}
	want := filepath.Join(dir, strings.TrimSuffix(captures[2].name, ".pcap")+".parquet")
	fi, err := os.Stat(want)
	if err != nil || fi.Size() == 0 {
		t.Fatalf("-parquet DIR wrote no %s: %v", want, err)
	}
	sub := filepath.Join(dir, "new") + "/"
	if st, _, errs := runCmd(t, nil, "-parquet", sub, path); st != 0 {
		t.Fatalf("-parquet NEWDIR/: status %d: %s", st, errs)
	}
	st, stdout, _ := runCmd(t, nil, "-parquet", "-", path)
	file, _ := os.ReadFile(want)
	if st != 0 || stdout == "" || !bytes.HasPrefix([]byte(stdout), []byte("PAR1")) || !bytes.Equal([]byte(stdout), file) {
		t.Errorf("-parquet -: status %d, %d bytes, not the file's %d", st, len(stdout), len(file))
	}
	if b, err := os.ReadFile(filepath.Join(sub, filepath.Base(want))); err != nil || !bytes.Equal(b, file) {
		t.Errorf("-parquet NEWDIR/: %v", err)
	}
	for _, args := range [][]string{{"-w", "x.pcap"}, {"-stats"}, {"-json"}, {"-v"}} {
		st, _, errs := runCmd(t, nil, append([]string{"-parquet", filepath.Join(dir, "x.parquet"), path}, args...)...)
		if st != 2 || !strings.Contains(errs, "-parquet") {
			t.Errorf("-parquet with %v: status %d, %q", args, st, errs)
		}
	}
	if st, _, errs := runCmd(t, nil, "-parquet", path, path); st != 2 || !strings.Contains(errs, "the capture being read") {
		t.Errorf("-parquet over the capture: status %d, %q", st, errs)
	}
	names := parquetNames([]string{"a/x.pcap", "b/x.pcap", "x.pcapng", "-", "x-2.pcap"})
	if got := strings.Join(names, " "); got != "x.parquet x-2.parquet x-3.parquet stdin.parquet x-2-2.parquet" {
		t.Errorf("parquetNames: %s", got)
	}
}
