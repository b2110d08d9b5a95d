package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
)

// BenchmarkParquet: rocedump -parquet on a generated capture of 212,096
// frames (226 MB; rocegen -messages 800 -mtu 1024 -qps 4 -ce-every 50),
// beside -json to io.Discard on the same capture, the baseline of the
// issue's "at most 1.5 times the wall time of -json". Frames and bytes
// per second are reported per run. Run with -count 6 and compare the
// medians (benchstat).
func BenchmarkParquet(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as main sets it
	dir := b.TempDir()
	cfg := gen.DefaultConfig()
	cfg.Messages, cfg.MTU, cfg.QPs, cfg.CEEvery = 800, 1024, 4, 50
	g, err := gen.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	frames, err := gen.Write(&buf, g, capfile.FormatPcap)
	if err != nil {
		b.Fatal(err)
	}
	capture := filepath.Join(dir, "big.pcap")
	if err := os.WriteFile(capture, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	size := buf.Len()
	out := filepath.Join(dir, "out.parquet")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"json", []string{"-json", capture}},
		{"parquet", []string{"-parquet", out, capture}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for i := 0; i < b.N; i++ {
				if st := run(c.args, nil, io.Discard, io.Discard); st != 0 {
					b.Fatalf("status %d", st)
				}
			}
			b.ReportMetric(float64(frames)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}
