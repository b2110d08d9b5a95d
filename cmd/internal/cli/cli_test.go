package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/cmd/internal/cli"
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
	// tool: -c "6": given twice (already "5"): it takes one value
	// usage: tool [-c N] [-t|-tt] FILE
	// (tool -h lists the flags)
}

// Example_value: a value a flag refuses is said in one line, naming the
// flag, without the usage.
func Example_value() {
	var stderr bytes.Buffer
	cmd := cli.New("tool", "usage: tool [-c N] FILE", &stderr)
	cmd.Int("c", 0, "stop after `N` frames")
	_, status, _ := cmd.Parse([]string{"-c", "five", "capture.pcap"})
	fmt.Println(status)
	fmt.Print(stderr.String())
	// Output:
	// 2
	// tool: -c "five": not a whole number
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
		{[]string{"a", "-nosuch"}, nil, 2, false, "tool: flag provided but not defined: -nosuch\n"},
		{[]string{"-s"}, nil, 2, false, "tool: flag needs an argument: -s\n"},
		{[]string{"-s", "x", "a", "-s", "y"}, nil, 2, false, `tool: -s "y": given twice (already "x")`},
		{[]string{"-b=false"}, nil, 2, false, `tool: -b "false": takes no value`},
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

// TestValueErrors: a value a flag refuses is one line, "NAME: -FLAG" and
// why (the value quoted when the reason does not show it), with no usage
// line and no "roce: " or package prefix; the flags' defaults still show
// in -h.
func TestValueErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-n", "x"}, `tool: -n "x": not a whole number` + "\n"},
		{[]string{"-n", "0x1ffffffffffffffff"}, `tool: -n "0x1ffffffffffffffff": out of range` + "\n"},
		{[]string{"-d", "4"}, `tool: -d "4": not a duration (a number and a unit: 4us, 100ms, 2s)` + "\n"},
		{[]string{"-f", "bad"}, `tool: -f: bad value "bad" (want good)` + "\n"},
		{[]string{"-g", "x"}, "tool: -g: cannot open capture: x\n"},
	} {
		var stderr bytes.Buffer
		cmd := cli.New("tool", "usage: tool", &stderr)
		cmd.Int("n", 7, "a number")
		cmd.Duration("d", time.Second, "a duration")
		cmd.Flags.Func("f", "a value", func(s string) error { return fmt.Errorf("roce: bad value %q (want good)", s) })
		cmd.Flags.Func("g", "a value", func(s string) error { return fmt.Errorf("roce: capture: cannot open capture: %s", s) })
		_, status, ok := cmd.Parse(tc.args)
		if status != 2 || ok || stderr.String() != tc.msg {
			t.Errorf("%q: status %d, stderr %q; want 2 and %q", tc.args, status, stderr.String(), tc.msg)
		}
	}
	var stderr bytes.Buffer
	cmd := cli.New("tool", "usage: tool", &stderr)
	cmd.Int("n", 7, "a `number`")
	cmd.Duration("d", time.Second, "a duration")
	cmd.Flags.Bool("b", false, "a switch")
	if _, status, _ := cmd.Parse([]string{"-h"}); status != 0 ||
		!strings.Contains(stderr.String(), "-n number\n    \ta number (default 7)") || !strings.Contains(stderr.String(), "(default 1s)") ||
		strings.Contains(stderr.String(), "default false") || strings.Contains(stderr.String(), "panic") {
		t.Errorf("-h: %q", stderr.String())
	}
	if _, _, ok := cmd.Parse([]string{"-n", "0x10", "-b"}); !ok || !cmd.Given("n") || !cmd.Given("b") || cmd.Given("d") {
		t.Errorf("Given: n %v b %v d %v", cmd.Given("n"), cmd.Given("b"), cmd.Given("d"))
	}
}

// TestMessage: the module's prefixes go, at the start and where an error
// wraps one; names and the rest stay.
func TestMessage(t *testing.T) {
	for in, want := range map[string]string{
		"roce: capture: eth9: open: no such device":                     "eth9: open: no such device",
		"dump: not a pcap or pcapng capture: unknown magic number 6a75": "not a pcap or pcapng capture: unknown magic number 6a75",
		"roce: parquet: roce: the capture file was cut shorter":         "the capture file was cut shorter",
		"scenario line 2: roce: gen: bad configuration: MTU 77":         "scenario line 2: bad configuration: MTU 77",
		"gen: time out of range: 2200-01-01T00:00:00Z is after":         "time out of range: 2200-01-01T00:00:00Z is after",
		"open dump: no such file or directory":                          "open dump: no such file or directory",
		"x.pcap: dump: frames of more than one link type":               "x.pcap: dump: frames of more than one link type",
		"frame 3: pcap record at offset 40: cut short":                  "frame 3: pcap record at offset 40: cut short",
	} {
		if got := cli.Message(errors.New(in)); got != want {
			t.Errorf("Message(%q) = %q, want %q", in, got, want)
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

// TestUnbundle: one-letter flags bundle as getopt bundles tcpdump's; a
// flag's own name, a flag's value and what follows "--" stay whole.
func TestUnbundle(t *testing.T) {
	var stderr bytes.Buffer
	cmd := cli.New("tool", "usage: tool", &stderr)
	cmd.Int("c", 0, "count")
	cmd.String("r", "", "file")
	cmd.String("Y", "", "filter")
	var n, x, X, tt int
	cmd.Count(&n, "n", 1, "")
	cmd.Count(&n, "nn", 2, "")
	cmd.Count(&x, "x", 1, "")
	cmd.Count(&X, "X", 1, "")
	cmd.Count(&tt, "t", 1, "")
	cmd.Count(&tt, "ttt", 3, "")
	cmd.Flags.Bool("qp", false, "")
	for _, tc := range []struct{ in, want string }{
		{"-nr f.pcap", "-n -r f.pcap"},
		{"-c1 f", "-c 1 f"},
		{"-xX", "-x -X"},
		{"-ttt", "-ttt"},
		{"-nnt", "-n -n -t"},
		{"-nn", "-nn"},
		{"-qp", "-qp"},
		{"-Y -nr", "-Y -nr"}, // a flag's value
		{"-c=5 -nx", "-c=5 -n -x"},
		{"-- -nr", "-- -nr"},
		{"-nz", "-nz"},   // z is no flag: left for the flag package to name
		{"--nr", "--nr"}, // a long option never bundles
		{"-rf.pcap", "-r f.pcap"},
		{"- -n", "- -n"},
	} {
		if got := strings.Join(cmd.Unbundle(strings.Fields(tc.in)), " "); got != tc.want {
			t.Errorf("Unbundle(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	pos, st, ok := cmd.Parse([]string{"-nnr", "f.pcap", "-c3", "-xXt"})
	if !ok || st != 0 || len(pos) != 0 || n != 2 || x != 1 || X != 1 || tt != 1 {
		t.Errorf("Parse: pos %q status %d ok %v n %d x %d X %d t %d: %s", pos, st, ok, n, x, X, tt, stderr.String())
	}
}

// TestHelpAndVersion: -h and --version print on Stdout, exit 0.
func TestHelpAndVersion(t *testing.T) {
	for _, arg := range []string{"-h", "--help", "--version", "-version"} {
		var stdout, stderr bytes.Buffer
		cmd := cli.New("tool", "usage: tool", &stderr)
		cmd.Stdout = &stdout
		_, st, ok := cmd.Parse([]string{arg})
		if ok || st != 0 || stderr.Len() != 0 || stdout.Len() == 0 {
			t.Errorf("%s: ok %v status %d stdout %q stderr %q", arg, ok, st, stdout.String(), stderr.String())
		}
		if strings.Contains(arg, "version") && !strings.HasPrefix(stdout.String(), "tool version ") || !strings.Contains(stdout.String(), "go1") && strings.Contains(arg, "version") {
			t.Errorf("%s: %q", arg, stdout.String())
		}
	}
}
