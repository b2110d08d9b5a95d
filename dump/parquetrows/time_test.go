package parquetrows_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// farRecords decodes one frame at each time, as a capture gives them.
func farRecords(t *testing.T, times []time.Time) []dump.Record {
	t.Helper()
	recs := make([]dump.Record, len(times))
	fr := make([]byte, 60)
	copy(fr, []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5})
	for i, ts := range times {
		var out bytes.Buffer
		w := capfile.NewWriter(&out, capfile.FormatPcapng, 1)
		if err := w.WriteFrame(fr, 60, ts, 1); err != nil {
			t.Fatal(err)
		}
		src, err := capfile.NewSource(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		data, ci, lt, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		recs[i].Decode(i+1, ci, lt, bytes.Clone(data))
		if !recs[i].Time.Equal(ts) {
			t.Fatalf("frame %d: time %v, want %v", i+1, recs[i].Time, ts)
		}
	}
	return recs
}

var epochKey = regexp.MustCompile(`"frame.time_epoch":(-?[0-9]+\.[0-9]{9})`)

// TestFarTimesDuckDB: every capture time, before 1677 and after 2262
// too (up to capfile.MinTime and capfile.MaxTime), is in frame.time_epoch_decimal
// exactly, as DuckDB reads it: the very number of JSON's
// frame.time_epoch. frame.time_epoch, TIMESTAMP_NS, holds the times of
// 1677 to 2262 (DuckDB's epoch_ns gives their nanoseconds) and is NULL
// outside; before, the time of those frames was nowhere in the file.
func TestFarTimesDuckDB(t *testing.T) {
	times := []time.Time{
		time.Unix(1700000000, 123456789),
		time.Unix(0, 0),
		time.Unix(-1, 999999999), // 1969
		time.Unix(0, -1<<63),     // the first int64 nanosecond (1677)
		time.Unix(0, 1<<63-1),    // the last (2262)
		time.Unix(0, 1<<63-1).Add(time.Nanosecond),
		time.Unix(10413792000, 123456789),     // 2300
		time.Unix(32503680000, 123456000),     // 3000
		time.Unix(-1000000000000, 5000),       // -29719
		time.Unix(-46383577200, 1),            // 500
		time.Unix(253402300800, 1),            // 10000
		time.Unix(9223371974719179007, 1e9-1), // MaxTime
		time.Unix(-9223371974719179007, 0),    // MinTime
		time.Unix(-9223371974719179007, 1),
	}
	if !times[11].Equal(capfile.MaxTime) || !times[12].Equal(capfile.MinTime) {
		t.Fatal("the edges are not dump's")
	}
	recs := farRecords(t, times)
	p := filepath.Join(t.TempDir(), "far.parquet")
	var out bytes.Buffer
	w := parquetrows.NewWriter(&out, "far.pcapng", parquetrows.Options{})
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	from := "read_parquet('" + p + "')"
	res := oracle.DuckDB(t,
		`SELECT column_name, column_type FROM (DESCRIBE SELECT "frame.time_epoch", "`+parquetrows.TimeDecimalColumn+`" FROM `+from+`)`,
		`SELECT "frame.number", epoch_ns("frame.time_epoch")::VARCHAR, "`+parquetrows.TimeDecimalColumn+`"::VARCHAR FROM `+from+` ORDER BY "frame.number"`)
	if got := fmt.Sprintf("%s", res[0].Rows); got != `[["frame.time_epoch" "TIMESTAMP_NS"] ["frame.time_epoch_decimal" "DECIMAL(28,9)"]]` {
		t.Errorf("DESCRIBE: %s", got)
	}
	rows := res[1].Rows
	if len(rows) != len(recs) {
		t.Fatalf("%d rows, want %d", len(rows), len(recs))
	}
	for i := range recs {
		m := epochKey.FindSubmatch(recs[i].AppendJSON(nil))
		if m == nil {
			t.Fatalf("frame %d: no frame.time_epoch in JSON", i+1)
		}
		var dec, ns *string
		if json.Unmarshal(rows[i][2], &dec) != nil || json.Unmarshal(rows[i][1], &ns) != nil {
			t.Fatalf("row %d: %s", i+1, rows[i])
		}
		if dec == nil || *dec != string(m[1]) {
			t.Errorf("frame %d (%v): %s %v, JSON %s", i+1, times[i], parquetrows.TimeDecimalColumn, dec, m[1])
		}
		sec, frac, _ := strings.Cut(string(m[1]), ".")
		inRange := !times[i].Before(time.Unix(0, -1<<63)) && !times[i].After(time.Unix(0, 1<<63-1))
		switch {
		case inRange && (ns == nil || *ns != fmt.Sprint(times[i].UnixNano())):
			t.Errorf("frame %d (%v): epoch_ns(frame.time_epoch) %v, want %d (JSON %s.%s)", i+1, times[i], ns, times[i].UnixNano(), sec, frac)
		case !inRange && ns != nil:
			t.Errorf("frame %d (%v): frame.time_epoch %s outside TIMESTAMP_NS", i+1, times[i], *ns)
		}
	}
}
