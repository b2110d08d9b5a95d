// Command keysmd writes the key reference, docs/keys.md, from the field
// table (dump.WriteKeyReference): go generate ./dump runs it.
//
//	go run ./dump/internal/keysmd docs/keys.md
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/roce-go/roce/dump"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: keysmd OUT.md")
		os.Exit(2)
	}
	var b bytes.Buffer
	if err := dump.WriteKeyReference(&b); err != nil {
		fmt.Fprintln(os.Stderr, "keysmd:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "keysmd:", err)
		os.Exit(1)
	}
}
