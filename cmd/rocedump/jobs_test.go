package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/roce-go/roce/gen"
)

// TestJobs: the frames, the -stats summary and the messages are the same
// whatever -j, on every shipped capture and a generated one, with counts
// and filters.
func TestJobs(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(capDir, "*.pcap"))
	golden, _ := filepath.Glob("../../testdata/golden/*.pcap")
	paths = append(paths, golden...)
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery = 4096, 1024, 500, 4, 3
	cfg.PFCEvery, cfg.PFCPrio, cfg.PFCQuanta = 50, 3, 65535
	g, _ := genCapture(t, cfg)
	paths = append(paths, g)
	for _, path := range paths {
		for _, args := range [][]string{{}, {"-json"}, {"-v"}, {"-stats"}, {"-stats", "-json"}, {"-c", "1"}, {"-c", "7", "-json"},
			{"-c", "1000", "-stats"}, {"-opcode", "RC RDMA WRITE Middle", "-c", "300"}, {"-qp", "0x200", "-stats", "-json"},
			{"-ttt"}, {"-e", "-x"}, {"-v", "-ttt"}, {"-v", "-ttttt", "--number"}, {"-#", "-ttt", "-Y", "infiniband.bth.psn > 8"},
			{"-T", "fields", "-E", "header=y", "-e", "frame.number", "-e", "vlan.id", "-e", "infiniband.bth.destqp", "-e", "ip.addr", "-c", "400"}} {
			st1, out1, err1 := runCmd(t, nil, append(append([]string{"-j", "1"}, utc(args)...), path)...)
			for _, j := range []string{"2", "4"} {
				st, out, errs := runCmd(t, nil, append(append([]string{"-j", j}, utc(args)...), path)...)
				if st != st1 || out != out1 || errs != err1 {
					t.Errorf("%s %v: -j %s differs from -j 1: status %d, %d bytes, stderr %q; want %d, %d bytes, %q",
						filepath.Base(path), args, j, st, len(out), errs, st1, len(out1), err1)
				}
			}
		}
	}
	// The files written: -w (with -stats too) and -parquet.
	dir := t.TempDir()
	for _, path := range paths {
		for _, args := range [][]string{{"-w", "OUT.pcap"}, {"-w", "OUT.pcapng", "-stats"}, {"-w", "OUT.pcap", "-c", "300"}, {"-parquet", "OUT.parquet"}} {
			var files []string
			var first []byte
			for _, j := range []string{"1", "2", "4"} {
				out := filepath.Join(dir, "j"+j+filepath.Ext(args[1]))
				a := append([]string{"-j", j}, args...)
				a[3] = out
				st, stdout, errs := runCmd(t, nil, append(a, path)...)
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				got := fmt.Sprintf("%d %q %q", st, stdout, errs)
				if j == "1" {
					files, first = append(files, got), b
				} else if got != files[0] || !bytes.Equal(b, first) {
					t.Errorf("%s %v: -j %s differs from -j 1: %s, %d bytes written; want %s, %d bytes",
						filepath.Base(path), args, j, got, len(b), files[0], len(first))
				}
			}
		}
	}
	if st, _, errs := runCmd(t, nil, "-j", "-1", g); st != 2 || errs == "" {
		t.Errorf("-j -1: status %d, stderr %q; want 2 and a message", st, errs)
	}
}
