package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// unusableTmpdirs returns TMPDIRs a spool cannot use, by name: one that
// does not exist, a regular file, one that cannot be written (a
// read-only tmpfs as root, mode 0555 otherwise) and one that is full (a
// tmpfs of 64 KiB, as root where mount(8) works).
func unusableTmpdirs(t *testing.T) map[string]string {
	base := t.TempDir()
	dirs := map[string]string{"missing": filepath.Join(base, "no", "such", "dir")}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirs["a file"] = file
	mount := func(name string, opts string) bool {
		dir := filepath.Join(base, name)
		os.Mkdir(dir, 0o755)
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
			t.Logf("no tmpfs for %s (%v: %s)", name, err, strings.TrimSpace(string(out)))
			return false
		}
		t.Cleanup(func() { exec.Command("umount", dir).Run() })
		dirs[name] = dir
		return true
	}
	if os.Geteuid() == 0 {
		mount("read-only", "ro,size=1m")
		if mount("full", "size=64k") {
			// Fill most of it, so that even the first spool runs out.
			os.WriteFile(filepath.Join(dirs["full"], "filler"), make([]byte, 60<<10), 0o644)
		}
	} else {
		ro := filepath.Join(base, "read-only")
		os.Mkdir(ro, 0o555)
		dirs["read-only"] = ro
	}
	if os.Getenv("CI") != "" && len(dirs) < 4 {
		t.Errorf("only %d unusable TMPDIRs could be made under CI: %v", len(dirs), dirs)
	}
	return dirs
}

// TestSpoolTmpdir: with TMPDIR unusable, every -j prints what -j 1
// prints, all of it, with status 0 and nothing on standard error: the
// captures decoded ahead of their turn wait for it once their memory is
// full rather than fail.
func TestSpoolTmpdir(t *testing.T) {
	defer func(b, l int) { spoolBudget, spoolLeast = b, l }(spoolBudget, spoolLeast)
	spoolBudget, spoolLeast = 64<<10, 64<<10 // the JSON of each capture is over 1 MB
	_, paths := genSet(t, 3)
	for name, dir := range unusableTmpdirs(t) {
		t.Run(name, func(t *testing.T) {
			t.Setenv("TMPDIR", dir)
			if f, err := os.CreateTemp("", "probe"); err == nil {
				f.Close()
				os.Remove(f.Name())
				if name != "full" {
					t.Fatalf("TMPDIR %s is usable", dir)
				}
			}
			for _, args := range [][]string{{"-json"}, {}, {"-stats", "-per-file", "-json"}} {
				args = append(args, paths...)
				st1, want, err1 := runCmd(t, nil, append([]string{"-j", "1"}, args...)...)
				if st1 != 0 || err1 != "" || len(want) < 1<<20 && args[0] != "-stats" {
					t.Fatalf("%v -j 1: status %d, %d bytes, stderr %q", args[:len(args)-3], st1, len(want), err1)
				}
				for _, j := range []string{"2", "3"} {
					st, got, errs := runCmd(t, nil, append([]string{"-j", j}, args...)...)
					if st != 0 || errs != "" || got != want {
						t.Errorf("%v -j %s: status %d, %d bytes (%d lines), stderr %q; want 0 and -j 1's %d bytes (%d lines)",
							args[:len(args)-3], j, st, len(got), strings.Count(got, "\n"), errs, len(want), strings.Count(want, "\n"))
					}
				}
			}
		})
	}
}

// shortFile is a temporary file that takes limit bytes, then fails with
// a short write, as a file system filling up does.
type shortFile struct {
	b     []byte
	limit int
	off   int
}

func (f *shortFile) Write(p []byte) (int, error) {
	n := min(len(p), f.limit-len(f.b))
	f.b = append(f.b, p[:n]...)
	if n < len(p) {
		return n, errors.New("no space left on device")
	}
	return n, nil
}

func (f *shortFile) Read(p []byte) (int, error) {
	if f.off == len(f.b) {
		return 0, io.EOF
	}
	n := copy(p, f.b[f.off:])
	f.off += n
	return n, nil
}

func (f *shortFile) Seek(off int64, whence int) (int64, error) { f.off = int(off); return off, nil }
func (f *shortFile) Close() error                              { return nil }
func (f *shortFile) Name() string                              { return os.DevNull + "/x" }

// gatedWriter holds its first write until open reports true, or ten
// seconds have passed.
type gatedWriter struct {
	open func() bool
	b    bytes.Buffer
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	for end := time.Now().Add(10 * time.Second); w.b.Len() == 0 && !w.open() && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	return w.b.Write(p)
}

// TestSpoolShortWrite: a temporary file that fills up in the middle of a
// write keeps what it took; the rest follows once the capture's turn
// comes: the output is -j 1's, byte for byte, at every point the file
// can fill.
func TestSpoolShortWrite(t *testing.T) {
	defer func(b, l int, c func() (spoolFile, error)) { spoolBudget, spoolLeast, createTemp = b, l, c }(spoolBudget, spoolLeast, createTemp)
	spoolBudget, spoolLeast = 64<<10, 64<<10
	_, paths := genSet(t, 2)
	args := append([]string{"-json"}, paths...)
	_, want, _ := runCmd(t, nil, append([]string{"-j", "1"}, args...)...)
	for _, limit := range []int{0, 1, 4095, 100 << 10, 1 << 20} {
		var made atomic.Int32
		createTemp = func() (spoolFile, error) { made.Add(1); return &shortFile{limit: limit}, nil }
		// The first capture's output waits until the second has made its
		// file: the second is decoded ahead for sure, whatever the
		// scheduling (on a busy machine the first could drain first).
		out := &gatedWriter{open: func() bool { return made.Load() > 0 }}
		var errb bytes.Buffer
		st := run(append([]string{"-j", "2"}, args...), bytes.NewReader(nil), out, &errb)
		got, errs := out.b.String(), errb.String()
		if st != 0 || errs != "" || got != want || made.Load() == 0 {
			t.Errorf("file full at %d bytes: status %d, %d bytes, stderr %q, %d files; want 0 and %d bytes", limit, st, len(got), errs, made.Load(), len(want))
		}
	}
}
