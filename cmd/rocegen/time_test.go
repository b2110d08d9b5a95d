package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTimeFlags: times rocegen cannot write exactly are refused with exit
// status 2, an error naming the flag and the value, and nothing written;
// the times just inside are written.
func TestTimeFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		ok   bool
		want string // in the error
		late bool   // found while writing: standard output may have had some frames
	}{
		{[]string{"-delay", "2563h"}, false, `rocegen: -delay "2563h": 2563h0m0s is longer than 1281h1m26.018427387s`, false},
		{[]string{"-delay", "1281h1m26.018427388s"}, false, "-delay: 1281h1m26.018427388s is longer", false},
		{[]string{"-delay", "1281h1m26.018427387s"}, true, "", false},
		{[]string{"-gap", "1281h1m26.018427388s"}, false, "-gap: 1281h1m26.018427388s is longer", false},
		{[]string{"-gap", "-1ns"}, false, "-gap: -1ns is negative", false},
		{[]string{"-cnp-interval", "-1us"}, false, `-cnp-interval "-1us": -1µs is negative`, false},
		{[]string{"-start", "1969-12-31T23:59:59Z"}, false, "-start: 1969-12-31T23:59:59Z is before 1970-01-01T00:00:00Z", false},
		{[]string{"-start", "1970-01-01T00:00:00Z"}, true, "", false},
		{[]string{"-start", "2106-02-07T06:28:15Z"}, true, "", false},
		{[]string{"-start", "2106-02-07T06:28:16Z"}, false, "rocegen: -start: time out of range: 2106-02-07T06:28:16Z is after 2106-02-07T06:28:15.999999999Z, the last time a pcap file holds", false},
		{[]string{"-start", "2106-02-07T06:28:16Z", "-format", "pcapng"}, true, "", false},
		// The first frame at the last time pcapng holds, the second after.
		{[]string{"-start", "2262-04-11T23:47:16.854775807Z", "-format", "pcapng"}, false, "frame 2 would be after 2262-04-11T23:47:16.854775807Z", true},
		{[]string{"-start", "2262-04-11T23:47:16.854775808Z", "-format", "pcapng"}, false, "-start: 2262-04-11T23:47:16.854775808Z is after 2262-04-11T23:47:16.854775807Z", false},
		// The capture runs past the end of pcap time: stopped, not wrapped.
		{[]string{"-start", "2106-02-07T06:28:15.999997Z"}, false, "frame 10 at 2106-02-07T06:28:16.000000009Z is after 2106-02-07T06:28:15.999999999Z, the last time a pcap file holds", true},
		{[]string{"-start", "2106-02-07T06:28:15.999997Z", "-format", "pcapng"}, true, "", false},
	} {
		for _, w := range []string{"", filepath.Join(dir, "x.cap")} {
			args := tc.args
			if w != "" {
				args = append([]string{"-w", w}, args...)
			}
			os.Remove(w)
			var out, errOut bytes.Buffer
			st := run(args, &out, false, &errOut)
			_, statErr := os.Stat(w)
			if tc.ok {
				if st != 0 || w == "" && len(readPcap(t, out.Bytes())) != 17 || w != "" && statErr != nil {
					t.Errorf("%q: exit %d, %s", args, st, errOut.String())
				}
				continue
			}
			if st != 2 || out.Len() != 0 && !tc.late || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("%q: exit %d, %d bytes written, stderr\n%s\nwant exit 2, nothing written and %q", args, st, out.Len(), errOut.String(), tc.want)
			}
			if w != "" && statErr == nil {
				t.Errorf("%q: left %s", args, w)
			}
		}
	}
}

// TestScenarioChecked: a bad line anywhere in a scenario file stops
// rocegen before it writes anything, naming the file and the line.
func TestScenarioChecked(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "s.txt")
	os.WriteFile(sc, []byte("op=write\nop=read\n\n# fourth\ndelay=2000h\nop=write\n"), 0o644)
	var out, errOut bytes.Buffer
	if st := run([]string{"-scenario", sc}, &out, false, &errOut); st != 2 || out.Len() != 0 ||
		!strings.Contains(errOut.String(), sc+": scenario line 5: delay: 2000h0m0s is longer than") {
		t.Errorf("exit %d, %d bytes written, stderr %q", st, out.Len(), errOut.String())
	}
}

// TestScenarioPipe: a scenario that is not a regular file plays as it is
// read; a bad line stops rocegen with exit status 2 after the phases
// before it.
func TestScenarioPipe(t *testing.T) {
	for _, tc := range []struct {
		text   string
		status int
		want   string
	}{
		{"op=fetch-add messages=3\n# comment\nop=read size=8K gap=5us\n", 0, "wrote 9 frames"},
		{"op=write\nop=read\nmtu=1000\n", 2, "scenario line 3: bad configuration: MTU 1000"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		name := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
		if _, err := os.Stat(name); err != nil {
			r.Close()
			w.Close()
			t.Skip("no /dev/fd:", err)
		}
		go func() {
			w.WriteString(tc.text)
			w.Close()
		}()
		var out, errOut bytes.Buffer
		st := run([]string{"-scenario", name}, &out, false, &errOut)
		r.Close()
		if st != tc.status || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.text, st, errOut.String(), tc.status, tc.want)
		}
	}
}
