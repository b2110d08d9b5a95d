// Command gen writes the files of package rocelayers that are made from
// those of googlelayers: the same code, for github.com/gopacket/gopacket
// (the package name and the gopacket import paths rewritten). Run it in
// the rocelayers directory (go generate does); with -check it writes
// nothing and exits 1 if a file is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// files are the files generated from ../googlelayers.
var files = []string{"eth.go", "eth_gen.go", "ib.go", "ip.go", "layers.go", "mad.go"}

func main() {
	check := flag.Bool("check", false, "report stale files instead of writing them")
	flag.Parse()
	stale := false
	for _, name := range files {
		want, err := fromGoogle(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if *check {
			if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
				fmt.Fprintf(os.Stderr, "%s is stale: run go generate in rocelayers\n", name)
				stale = true
			}
			continue
		}
		if err := os.WriteFile(name, want, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	if stale {
		os.Exit(1)
	}
}

// fromGoogle is the file of googlelayers named name, rewritten for
// rocelayers.
func fromGoogle(name string) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join("..", "googlelayers", name))
	if err != nil {
		return nil, err
	}
	src = bytes.Replace(src, []byte("package googlelayers\n"), []byte("package rocelayers\n"), 1)
	src = bytes.ReplaceAll(src, []byte(`"github.com/google/gopacket"`), []byte(`"github.com/gopacket/gopacket"`))
	src = bytes.ReplaceAll(src, []byte(`"github.com/google/gopacket/layers"`), []byte(`"github.com/gopacket/gopacket/layers"`))
	head := "// Code generated from ../googlelayers/" + name + " by go generate; DO NOT EDIT.\n\n"
	return append([]byte(head), src...), nil
}
