package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMessages: every kind of message rocegen prints, each brought
// about, starts "rocegen: ", names the flag or the scenario line and
// the value, carries no package prefix ("roce: ", "gen: ", "capture: ")
// nor the flag package's wording, and is followed by the usage line
// only when the command line has the wrong shape (an unknown flag, one
// without its value or given twice, an argument too many).
func TestMessages(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("op=write size=1K\nmtu=77\n"), 0o644)
	badOp := filepath.Join(dir, "badop.txt")
	os.WriteFile(badOp, []byte("op=bogus\n"), 0o644)
	prefix := regexp.MustCompile(`(^|: )(roce|dump|capture|gen|parquet): `)
	for _, tc := range []struct {
		args   []string
		status int
		want   string
		usage  bool
	}{
		{[]string{"-nosuch"}, 2, "rocegen: flag provided but not defined: -nosuch", true},
		{[]string{"-mtu"}, 2, "rocegen: flag needs an argument: -mtu", true},
		{[]string{"-mtu", "1024", "-mtu", "2048"}, 2, `rocegen: -mtu "2048": given twice (already "1024"): it takes one value`, true},
		{[]string{"extra"}, 2, `rocegen: unexpected argument "extra": rocegen takes flags only (a scenario file is -scenario FILE)`, true},
		{[]string{"-mtu", "77"}, 2, "rocegen: bad configuration: MTU 77 is not 256, 512, 1024, 2048 or 4096", false},
		{[]string{"-qps", "0"}, 2, "rocegen: bad configuration: messages 1 and queue pairs 0: want at least 1", false},
		{[]string{"-op", "bogus"}, 2, `rocegen: -op: unknown operation "bogus" (want one of write`, false},
		{[]string{"-size", "1Q"}, 2, `rocegen: -size: bad size "1Q"`, false},
		{[]string{"-rate", "5"}, 2, `rocegen: -rate: bad link speed "5" (want 1M to 10T bits per second`, false},
		{[]string{"-loop", "x"}, 2, `rocegen: -loop "x": not a whole number`, false},
		{[]string{"-delay", "2563h"}, 2, `rocegen: -delay "2563h": 2563h0m0s is longer than 1281h1m26.018427387s`, false},
		{[]string{"-start", "2200-01-01T00:00:00Z"}, 2, "rocegen: -start: time out of range: 2200-01-01T00:00:00Z is after 2106-02-07T06:28:15.999999999Z", false},
		{[]string{"-format", "erf"}, 2, `rocegen: unknown capture format "erf": want pcap or pcapng`, false},
		{[]string{"-loop", "3"}, 2, "rocegen: -loop repeats what -i sends: give -i IFACE", false},
		{[]string{"-scenario", bad}, 2, "rocegen: " + bad + ": scenario line 2: bad configuration: MTU 77 is not 256", false},
		{[]string{"-scenario", badOp}, 2, "rocegen: " + badOp + `: scenario line 1: op: unknown operation "bogus"`, false},
		{[]string{"-scenario", filepath.Join(dir, "missing.txt")}, 2, "rocegen: open " + filepath.Join(dir, "missing.txt") + ": no such file or directory", false},
		{[]string{"-w", filepath.Join(dir, "no", "x.pcap")}, 1, "rocegen: open " + filepath.Join(dir, "no", "x.pcap") + ": no such file or directory", false},
		{[]string{"-i", "no-such-if0"}, 2, "rocegen: no-such-if0: ", false},
	} {
		var out, errb bytes.Buffer
		st := run(tc.args, &out, false, &errb)
		errs := errb.String()
		if st != tc.status || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("%q: status %d, stderr %q; want %d and %q", tc.args, st, errs, tc.status, tc.want)
		}
		if got := strings.Contains(errs, "usage: rocegen"); got != tc.usage {
			t.Errorf("%q: usage line %v, want %v: %q", tc.args, got, tc.usage, errs)
		}
		for _, l := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
			switch {
			case strings.HasPrefix(l, "usage: rocegen"), l == "(rocegen -h lists the flags)":
			case !strings.HasPrefix(l, "rocegen: "):
				t.Errorf("%q: a line without \"rocegen: \": %q", tc.args, l)
			case prefix.MatchString(strings.TrimPrefix(l, "rocegen: ")), strings.Contains(l, "invalid value"), strings.Contains(l, "for flag -"):
				t.Errorf("%q: an internal prefix or the flag package's wording: %q", tc.args, l)
			}
		}
	}
}
