package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
)

// BenchmarkCaptures: rocedump over four generated captures of 61056
// frames (53 MB) each, text and JSON to io.Discard, with -j 1 and -j 2;
// the ratio of the two is the speed-up of decoding captures in parallel.
// Frames and bytes per second are reported per run.
func BenchmarkCaptures(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as main sets it
	dir := b.TempDir()
	var frames, size int
	for i := 0; i < 4; i++ {
		cfg := gen.DefaultConfig()
		cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery, cfg.PFCEvery, cfg.Seed = 4096, 1024, 3000, 4, 50, 500, uint64(i+1)
		g, err := gen.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		n, err := gen.Write(&buf, g, capfile.FormatPcap)
		if err != nil {
			b.Fatal(err)
		}
		frames += n
		size += buf.Len()
		if err := os.WriteFile(filepath.Join(dir, "c"+strconv.Itoa(i)+".pcap"), buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, out := range []string{"text", "json"} {
		for _, j := range []string{"1", "2"} {
			b.Run(out+"/j="+j, func(b *testing.B) {
				args := []string{"-j", j, "-utc", dir}
				if out == "json" {
					args = append(args, "-json")
				}
				b.SetBytes(int64(size))
				for i := 0; i < b.N; i++ {
					if st := run(args, nil, io.Discard, io.Discard); st != 0 {
						b.Fatalf("status %d", st)
					}
				}
				b.ReportMetric(float64(frames)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}
