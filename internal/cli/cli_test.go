package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/roce-go/roce/internal/cli"
)

// Example: a command that takes one file, a count flag and a flag given
// once; flags may follow the file.
func Example() {
	var stderr bytes.Buffer
	cmd := cli.New("tool", "usage: tool [-c N] [-t|-tt] FILE", &stderr)
	count := cmd.Int("c", 0, "stop after `N` frames")
	var t int
	cmd.Count(&t, "t", 1, "no time")
	cmd.Count(&t, "tt", 2, "seconds")
	pos, status, ok := cmd.Parse([]string{"-t", "capture.pcap", "-c", "5", "-tt"})
	fmt.Println(pos, status, ok, *count, t)

	_, status, _ = cmd.Parse([]string{"-c", "6"})
	fmt.Println(status)
	fmt.Print(stderr.String())
	// Output:
	// [capture.pcap] 0 true 5 3
	// 2
	// invalid value "6" for flag -c: given twice (already "5"): it takes one value
	// usage: tool [-c N] [-t|-tt] FILE
	// (tool -h lists the flags)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		pos    []string
		status int
		ok     bool
		msg    string
	}{
		{[]string{"a", "-s", "x", "b"}, []string{"a", "b"}, 0, true, ""},
		{[]string{"-", "-s", "x"}, []string{"-"}, 0, true, ""},
		{[]string{"a", "--", "-s", "b"}, []string{"a", "-s", "b"}, 0, true, ""},
		{[]string{"-h"}, nil, 0, false, "a string"},
		{[]string{"a", "-nosuch"}, nil, 2, false, "flag provided but not defined: -nosuch"},
		{[]string{"-s", "x", "a", "-s", "y"}, nil, 2, false, `given twice (already "x")`},
		{[]string{"-b=false"}, nil, 2, false, "takes no value"},
	} {
		var stderr bytes.Buffer
		cmd := cli.New("tool", "usage: tool", &stderr)
		cmd.String("s", "", "a string")
		var n int
		cmd.Count(&n, "b", 1, "counted")
		pos, status, ok := cmd.Parse(tc.args)
		if fmt.Sprint(pos) != fmt.Sprint(tc.pos) || status != tc.status || ok != tc.ok || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("%q: %q %d %v, stderr %q; want %q %d %v and %q", tc.args, pos, status, ok, stderr.String(), tc.pos, tc.status, tc.ok, tc.msg)
		}
		if !ok && !strings.Contains(stderr.String(), "usage: tool") {
			t.Errorf("%q: no usage line in %q", tc.args, stderr.String())
		}
	}
}

func TestStray(t *testing.T) {
	var stderr bytes.Buffer
	cmd := cli.New("tool", "usage: tool", &stderr)
	if st := cmd.Stray([]string{"a"}, 1, "one file"); st != 0 || stderr.Len() != 0 {
		t.Errorf("one of one: %d, %q", st, stderr.String())
	}
	if st := cmd.Stray([]string{"a", "b"}, 1, "one file"); st != 2 || !strings.HasPrefix(stderr.String(), `tool: unexpected argument "b" after "a": one file`+"\n") {
		t.Errorf("two of one: %d, %q", st, stderr.String())
	}
	stderr.Reset()
	if st := cmd.Stray([]string{"a"}, 0, "flags only"); st != 2 || !strings.HasPrefix(stderr.String(), `tool: unexpected argument "a": flags only`) {
		t.Errorf("one of none: %d, %q", st, stderr.String())
	}
}

func TestTerminalStdin(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var stderr bytes.Buffer
	if cli.TerminalStdin(null, &stderr, "tool", "hint") || cli.TerminalStdin(strings.NewReader(""), &stderr, "tool", "hint") || stderr.Len() != 0 {
		t.Errorf("/dev/null or a reader taken for a terminal: %q", stderr.String())
	}
	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no terminal:", err)
	}
	defer tty.Close()
	if !cli.TerminalStdin(tty, &stderr, "tool", "give a file") || stderr.String() != "tool: standard input is a terminal: give a file\n" {
		t.Errorf("terminal: %q", stderr.String())
	}
}
