package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFaultFlags: nonsense combinations of the fault flags exit 2 naming
// them, and -v prints what the faults did.
func TestFaultFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		name string
	}{
		{[]string{"-transport", "ud", "-op", "send", "-size", "1K", "-loss", "0.1"}, "loss"},
		{[]string{"-op", "fetch-add", "-dup", "0.1"}, "dup"},
		{[]string{"-rnr-every", "3"}, "rnr-every"},
		{[]string{"-loss-where", "after"}, "loss-where"},
		{[]string{"-op", "send", "-rnr", "1"}, "rnr-retry"},
		{[]string{"-loss-burst", "2"}, "loss-burst"},
	} {
		var out, errOut bytes.Buffer
		if st := run(append(tc.args, "-w", "-"), &out, false, &errOut); st != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), tc.name) {
			t.Errorf("%q: exit %d, %d bytes out, stderr %q; want 2 naming %s", tc.args, st, out.Len(), errOut.String(), tc.name)
		}
	}
	var out, errOut bytes.Buffer
	if st := run([]string{"-v", "-loss-every", "10", "-messages", "4", "-w", "-"}, &out, false, &errOut); st != 0 {
		t.Fatalf("exit %d: %s", st, errOut.String())
	}
	for _, want := range []string{
		"rocegen: faults: 11 data packets lost (11 before the capture point), 0 ACKs lost, 0 requests duplicated, 11 NAKs, 0 RNR NAKs, 0 timeouts; 55 packets resent in 11 go-back-N episodes (nak-seq 11 rnr-nak 0 timeout 0 read-gap 0), 0 queue pairs in error\n",
		"rocegen: the capture shows: 11 PSN gaps (11 missing), 11 out of order, 44 retransmissions (44 resent, 0 duplicated) in 11 episodes\n",
	} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("-v: stderr %q lacks %q", errOut.String(), want)
		}
	}
	errOut.Reset()
	if st := run([]string{"-loss-every", "10", "-w", "-"}, &out, false, &errOut); st != 0 || strings.Contains(errOut.String(), "faults:") {
		t.Errorf("without -v: exit %d, stderr %q", st, errOut.String())
	}
}
