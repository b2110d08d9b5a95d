package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
)

// parquetFlags is -parquet OUT: the frames as a Parquet file instead of
// printing them.
type parquetFlags struct{ out *string }

// addParquetFlags registers -parquet; one registers a flag that takes one
// value.
func addParquetFlags(one func(name, value, usage string) *string) parquetFlags {
	return parquetFlags{out: one("parquet", "", "write the frames that pass -Y, -qp, -opcode and -c as a Parquet `OUT`put, "+
		"one row per frame, columns named as the JSON keys, instead of printing them; "+
		"OUT a directory (existing, or ending in /): one OUT/NAME.parquet per capture; - is standard output")}
}

// apply sets c.parquet (combination refuses the flags -parquet does
// not go with).
func (p parquetFlags) apply(c *config) { c.parquet = *p.out }

// parquetDir reports whether out names a directory of Parquet files,
// one per capture: a directory that exists, or a name ending in a path
// separator.
func parquetDir(out string) bool {
	if out == "-" {
		return false
	}
	if strings.HasSuffix(out, "/") || strings.HasSuffix(out, string(os.PathSeparator)) {
		return true
	}
	fi, err := os.Stat(out)
	return err == nil && fi.IsDir()
}

// parquetNames returns the file name, in a -parquet directory, of each
// capture: its base name with .parquet for the extension ("stdin" for
// standard input), numbered -2, -3, ... from the second capture of the
// same base name on, so that no two captures share a file.
func parquetNames(captures []string) []string {
	names := make([]string, len(captures))
	seen := map[string]int{}
	for i, c := range captures {
		base := "stdin"
		if c != "" && c != "-" {
			base = filepath.Base(c)
			for _, ext := range []string{".gz", ".pcapng", ".pcap", ".cap", ".erf"} {
				base = strings.TrimSuffix(base, ext)
			}
		}
		n := base
		for seen[n] > 0 {
			seen[base]++
			n = base + "-" + strconv.Itoa(seen[base])
		}
		seen[n]++
		names[i] = n + ".parquet"
	}
	return names
}

// parquetPath is where -parquet OUT writes the capture named capture
// (one of several: name, its parquetNames entry).
func parquetPath(out, name string) string {
	if parquetDir(out) {
		return filepath.Join(out, name)
	}
	return out
}

// writeParquet is -parquet for one capture: its frames that pass the
// filters go to the Parquet file path ("-": stdout), with capture (the
// name as given, "-" for standard input) in the frame.file column.
func writeParquet(c config, src *capfile.Source, capture, path string, stdout io.Writer) (dump.Stats, error) {
	if path != "-" && parquetDir(c.parquet) {
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			return dump.Stats{}, &outputError{"-parquet", err}
		}
	}
	of, closeOut, err := createOutput("-parquet", path, stdout)
	if err != nil {
		return dump.Stats{}, err
	}
	defer closeOut()
	bw := bufio.NewWriterSize(of, 256<<10)
	pw := parquetrows.NewWriter(bw, capture, parquetrows.Options{})
	// The rows are made in batches where the frames are decoded (-j),
	// the Writer copies them in capture order and writes them out on a
	// goroutine of its own.
	st, err := dump.ScanParts(src, c.opt, func() dump.Part { return parquetrows.NewBatch() },
		func(p dump.Part) error { return pw.WriteBatch(p.(*parquetrows.Batch)) })
	if cerr := pw.Close(); err == nil {
		err = cerr
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	return st, err
}

// parquetCapture is -parquet for the command's one capture: the name for
// the frame.file column (the file as given, "-" for standard input, the
// interface of -i) and the file to write.
func parquetCapture(c config) (capture, path string) {
	capture = c.file
	if c.live.iface != "" {
		capture = c.live.iface
	}
	if capture == "" {
		capture = "-"
	}
	return capture, parquetPath(c.parquet, parquetNames([]string{capture})[0])
}
