package rocelayers_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

//go:generate go test -run TestGeneratedFiles -update .

// generated are the files of this package made from those of
// googlelayers: the same code, for github.com/gopacket/gopacket.
var generated = []string{"eth.go", "ip.go", "mad.go"}

var update = flag.Bool("update", false, "rewrite the files generated from ../googlelayers")

// fromGoogle is the file of googlelayers named name, rewritten for this
// package: the package name and the gopacket import paths.
func fromGoogle(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "googlelayers", name))
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte("package googlelayers\n"), []byte("package rocelayers\n"), 1)
	src = bytes.ReplaceAll(src, []byte(`"github.com/google/gopacket"`), []byte(`"github.com/gopacket/gopacket"`))
	src = bytes.ReplaceAll(src, []byte(`"github.com/google/gopacket/layers"`), []byte(`"github.com/gopacket/gopacket/layers"`))
	head := "// Code generated from ../googlelayers/" + name + " by go generate; DO NOT EDIT.\n\n"
	return append([]byte(head), src...)
}

// TestGeneratedFiles fails when a file generated from googlelayers is
// stale; go generate (go test -run TestGeneratedFiles -update) rewrites it.
func TestGeneratedFiles(t *testing.T) {
	for _, name := range generated {
		want := fromGoogle(t, name)
		if *update {
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate in rocelayers", name)
		}
	}
}
