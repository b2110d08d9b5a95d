package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoOverwrite: no output overwrites a capture being read, whatever
// names it (the same path, a symbolic link, a hard link, standard input
// or output redirected from or to it), nor lands in a directory being
// read under a capture's name, nor is another output; each is refused
// with exit status 2 before anything is read or written, and the
// captures are left as they were. Outputs beside the captures that are
// none of these are written.
func TestNoOverwrite(t *testing.T) {
	capture, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pcap")
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	nested := filepath.Join(sub, "nested.pcap")
	for _, p := range []string{in, nested} {
		if err := os.WriteFile(p, capture, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hard := filepath.Join(dir, "hard.out")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	sym := filepath.Join(t.TempDir(), "sym.out")
	if err := os.Symlink(in, sym); err != nil {
		t.Fatal(err)
	}
	pqDir := t.TempDir()
	if err := os.Link(in, filepath.Join(pqDir, "in.parquet")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-timeline", in, in}, "-timeline " + in + ": the capture being read"},
		{[]string{"-timeline", in, "-stats", in}, "-timeline " + in + ": the capture being read"},
		{[]string{"-timeline", hard, in}, "-timeline " + hard + " is " + in + ", the capture being read"},
		{[]string{"-timeline", sym, dir}, "-timeline " + sym + " is " + in + ", the capture being read"},
		{[]string{"-timeline", nested, "-R", dir}, "-timeline " + nested + ": the capture being read"},
		{[]string{"-w", hard, in}, "-w " + hard + " is " + in + ", the capture being read"},
		{[]string{"-w", sym, "-r", in}, "-w " + sym + " is " + in + ", the capture being read"},
		{[]string{"-parquet", sym, in}, "-parquet " + sym + " is " + in + ", the capture being read"},
		{[]string{"-parquet", pqDir, in}, "-parquet " + filepath.Join(pqDir, "in.parquet") + " is " + in + ", the capture being read"},
		{[]string{"-parquet", pqDir + "/", dir, sub}, "-parquet " + filepath.Join(pqDir, "in.parquet") + " is " + filepath.Join(dir, "in.pcap") + ", the capture being read"},
		// Not there yet, but in a directory read, under a capture's name.
		{[]string{"-timeline", filepath.Join(dir, "page.pcap"), dir}, "a capture's name in " + dir + ", whose captures are read"},
		{[]string{"-timeline", filepath.Join(sub, "page.pcapng"), "-R", dir}, "a capture's name in " + dir + ", whose captures are read"},
	} {
		st, out, errs := runCmd(t, nil, tc.args...)
		if st != 2 || out != "" || !strings.Contains(errs, tc.msg) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: status %d, stdout %d bytes, stderr %q; want 2 and %q", tc.args, st, len(out), errs, tc.msg)
		}
	}
	// Standard input and output are files too.
	stdinFile, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer stdinFile.Close()
	var out, errb bytes.Buffer
	if st := run([]string{"-w", sym}, stdinFile, &out, &errb); st != 2 || !strings.Contains(errb.String(), "-w "+sym+" is standard input, the capture being read") {
		t.Errorf("-w over standard input's file: status %d, stderr %q", st, errb.String())
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{in}, "standard output is " + in + ", the capture being read"},
		{[]string{"-stats", dir}, "standard output is " + in + ", the capture being read"},
		{[]string{"-w", "-", "-r", in}, "standard output is " + in + ", the capture being read"},
	} {
		stdout, err := os.OpenFile(hard, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		errb.Reset()
		st := run(tc.args, nil, stdout, &errb)
		stdout.Close()
		if st != 2 || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%q >> %s: status %d, stderr %q; want 2 and %q", tc.args, hard, st, errb.String(), tc.msg)
		}
	}
	// Two outputs in one file.
	other := filepath.Join(t.TempDir(), "out.pcap")
	os.WriteFile(other, nil, 0o644)
	stdout, err := os.OpenFile(other, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	st := run([]string{"-stats", "-w", other, in}, nil, stdout, &errb)
	stdout.Close()
	if st != 2 || !strings.Contains(errb.String(), "-w "+other+" and standard output are the same file") {
		t.Errorf("-w and standard output in one file: status %d, stderr %q", st, errb.String())
	}
	for _, p := range []string{in, nested, hard, sym} {
		if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, capture) {
			t.Errorf("%s changed (%v)", p, err)
		}
	}
	// Outputs that overwrite nothing: a page beside the captures, not
	// named as one; Parquet files in the directory read; a page in a
	// subdirectory not read (no -R).
	for _, args := range [][]string{
		{"-timeline", filepath.Join(dir, "page.html"), dir},
		{"-parquet", dir + "/", dir},
		{"-timeline", filepath.Join(sub, "page.pcap"), dir},
	} {
		if st, _, errs := runCmd(t, nil, args...); st != 0 {
			t.Errorf("%q: status %d, stderr %q", args, st, errs)
		}
		if _, err := os.Stat(args[1]); err != nil && !strings.HasSuffix(args[1], "/") {
			t.Errorf("%q wrote no %s", args, args[1])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "in.parquet")); err != nil {
		t.Errorf("-parquet DIR/ DIR: %v", err)
	}
}
