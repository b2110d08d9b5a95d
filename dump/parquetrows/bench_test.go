package parquetrows_test

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

func benchRecords(b *testing.B) []dump.Record {
	var recs []dump.Record
	for _, p := range testcaps.Generated(b, b.TempDir())[:1] {
		recs = append(recs, testcaps.Records(b, p)...)
	}
	return recs
}

// BenchmarkWrite is Writer.Write and the encoding of its rows, per frame;
// BenchmarkJSON, the baseline, is AppendJSON on the same frames.
func BenchmarkWrite(b *testing.B) {
	recs := benchRecords(b)
	b.ReportAllocs()
	b.ResetTimer()
	w := parquetrows.NewWriter(io.Discard, filepath.Join("dir", "capture.pcap"), parquetrows.Options{})
	for i := 0; i < b.N; i++ {
		if err := w.Write(&recs[i%len(recs)]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkJSON(b *testing.B) {
	recs := benchRecords(b)
	b.ReportAllocs()
	b.ResetTimer()
	buf := make([]byte, 0, 4096)
	for i := 0; i < b.N; i++ {
		buf = recs[i%len(recs)].AppendJSON(buf[:0])
	}
}
