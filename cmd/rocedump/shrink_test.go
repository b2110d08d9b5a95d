package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
)

// A capture file that shrank while it was read is said to have shrunk,
// not to be truncated in the middle of a record.
func TestShrankMessage(t *testing.T) {
	var b bytes.Buffer
	st := dump.Stats{Frames: 9999, NotRoCE: 9999}
	if s := exitStatus(&b, "c.pcap", st, fmt.Errorf("reading: %w", capfile.ErrShrank)); s != 1 {
		t.Errorf("exit status %d, want 1", s)
	}
	if got := b.String(); !strings.Contains(got, "c.pcap: after 9999 frames: the file shrank while it was read") || strings.Contains(got, "middle of a record") {
		t.Errorf("message %q", got)
	}
}
