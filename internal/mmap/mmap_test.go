package mmap

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestMap(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("a capture's bytes"), 3*PageSize/17+1)
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, ok := Map(f)
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" {
		if ok {
			t.Fatal("mapped where mmap is not implemented")
		}
		return
	}
	if !ok {
		t.Fatal("a regular file was not mapped")
	}
	if !bytes.Equal(m.Bytes(), want) {
		t.Errorf("mapped %q, want %q", m.Bytes(), want)
	}
	// Released pages read back the file's bytes.
	m.Release(1, len(want))
	m.Release(0, PageSize)
	if !bytes.Equal(m.Bytes(), want) {
		t.Error("released pages do not read back the file")
	}
	if n, err := m.Size(); err != nil || n != int64(len(want)) {
		t.Errorf("size %d, %v; want %d", n, err, len(want))
	}
	if err := os.Truncate(p, 100); err != nil {
		t.Fatal(err)
	}
	if n, err := m.Size(); err != nil || n != 100 {
		t.Errorf("size after truncation %d, %v; want 100", n, err)
	}
	if err := m.Close(); err != nil {
		t.Error(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := os.Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, ok := Map(e); ok {
		t.Error("an empty file was mapped")
	}
}
