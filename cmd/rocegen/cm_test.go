package main

import (
	"bytes"
	"strings"
	"testing"
)

// -cm is a switch: given alone it wraps the write in the RDMA-CM
// handshake, REQ, REP and RTU before it, DREQ and DREP after, each a UD
// SEND Only; the summary line counts them.
func TestCMFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if st := run([]string{"-cm", "-size", "1024", "-cm-port", "18515"}, &out, false, &errOut); st != 0 {
		t.Fatalf("exit %d: %s", st, errOut.String())
	}
	ops := opcodes(t, readPcap(t, out.Bytes()))
	want := "UD SEND Only,UD SEND Only,UD SEND Only,RC RDMA WRITE Only,RC Acknowledge,UD SEND Only,UD SEND Only"
	if got := strings.Join(ops, ","); got != want {
		t.Errorf("opcodes %q, want %q", got, want)
	}
	if !strings.Contains(errOut.String(), ", 5 CM\n") {
		t.Errorf("stderr %q", errOut.String())
	}
	errOut.Reset()
	if st := run([]string{"-cm", "-transport", "ud", "-size", "64"}, &out, false, &errOut); st != 2 {
		t.Errorf("-cm on UD: exit %d, want 2: %s", st, errOut.String())
	}
}
