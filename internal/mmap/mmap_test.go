package mmap

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestMap(t *testing.T) {
	dir := t.TempDir()
	want := []byte("a capture's bytes")
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, unmap, ok := Map(f)
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" {
		if ok {
			t.Fatal("mapped where mmap is not implemented")
		}
		return
	}
	if !ok {
		t.Fatal("a regular file was not mapped")
	}
	if string(b) != string(want) {
		t.Errorf("mapped %q, want %q", b, want)
	}
	if err := unmap(); err != nil {
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
	if _, _, ok := Map(e); ok {
		t.Error("an empty file was mapped")
	}
}
