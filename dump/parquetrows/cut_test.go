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

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// TestCutFrames writes frames the capture cut at every byte from the end
// of their BTH on (every opcode of the golden capture, the CM MADs of an
// RDMA-CM capture) as Parquet, and reads the file back with DuckDB: each
// column has a value in exactly the rows whose JSON object has its key,
// NULL in the others (a field the capture did not keep). Each field a
// cut frame has comes with its protocol, which Write relies on.
func TestCutFrames(t *testing.T) {
	var frames [][]byte
	for _, p := range []string{corpus.Path("golden", "rocev2_ipv4.pcap"), corpus.Path("captures", "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")} {
		frames = append(frames, corpus.ReadPcap(t, p)...)
	}
	path := filepath.Join(t.TempDir(), "cut.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquetrows.NewWriter(f, "cut.pcap", parquetrows.Options{})
	have := map[string]int{} // rows with the key in JSON
	var r dump.Record
	rows := 0
	for _, whole := range frames {
		r.Decode(1, gopacket.CaptureInfo{Length: len(whole), CaptureLength: len(whole)}, capfile.LinkTypeEthernet, whole)
		if r.Kind != dump.KindRoCE {
			continue
		}
		bth := r.RoCE.WireLen - len(r.RoCE.Packet.Payload) - len(r.RoCE.Packet.BTH.Pad) - 4 - r.RoCE.Packet.Headers().Size()
		for n := bth; n < len(whole); n++ {
			rows++
			ci := gopacket.CaptureInfo{Timestamp: time.Unix(1, int64(rows)), Length: len(whole), CaptureLength: n}
			r.Decode(rows, ci, capfile.LinkTypeEthernet, whole[:n:n])
			if r.Kind != dump.KindRoCE {
				t.Fatalf("cut at %d: %v %v", n, r.Kind, r.Err)
			}
			var m map[string]any
			if err := json.Unmarshal(r.AppendJSON(nil), &m); err != nil {
				t.Fatal(err)
			}
			for k := range m {
				have[k]++
			}
			for _, fd := range dump.Fields() {
				if _, ok := fd.Get(&r); ok {
					if p, _ := dump.LookupProtocol(dump.FieldProtocol(fd.Name)); !p.Present(&r) {
						t.Fatalf("frame %d cut at %d: %s without %s", r.Number, n, fd.Name, p.Name)
					}
				}
			}
			if err := w.Write(&r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, fd := range dump.Fields() {
		if strings.HasPrefix(fd.Name, "infiniband.") || strings.HasPrefix(fd.Name, "ipoib.") {
			cols = append(cols, fd.Name)
		}
	}
	var q bytes.Buffer
	q.WriteString("SELECT count(*)")
	for _, c := range cols {
		q.WriteString(`, count("` + c + `")`)
	}
	q.WriteString(" FROM read_parquet('" + path + "')")
	res := oracle.DuckDB(t, q.String())
	got := res[0].Rows[0]
	if n, _ := strconv.Atoi(strings.Trim(string(got[0]), `"`)); n != rows {
		t.Fatalf("DuckDB reads %s rows, we wrote %d", got[0], rows)
	}
	compared := 0
	for i, c := range cols {
		n, err := strconv.Atoi(strings.Trim(string(got[i+1]), `"`))
		if err != nil {
			t.Fatalf("%s: %s", c, got[i+1])
		}
		if n != have[c] {
			t.Errorf("%s: %d values in Parquet, %d JSON objects have the key", c, n, have[c])
		}
		if n > 0 && n < rows {
			compared++
		}
	}
	if compared < 90 { // 98 measured
		t.Errorf("only %d columns with both values and NULLs", compared)
	}
	t.Logf("%d cut frames, %d columns with values in some and NULL in others, as JSON", rows, compared)
}
