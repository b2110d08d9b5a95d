package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
)

func TestCLIConsistency(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	// Help on standard output, as tcpdump and tshark print it.
	if st, out, errs := runCmd(t, nil, "-h"); st != 0 || !strings.Contains(out, "-opcode") || errs != "" {
		t.Errorf("-h: status %d, stdout %q, stderr %q", st, out, errs)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-speed", "1G", "-speed", "2G", path}, "given twice"},
		{[]string{"-c", "1", path, "-c", "2"}, "given twice"},
		{[]string{"-r", path, "-r", path}, "given twice"},
		{[]string{"-opcode", "sned", path}, "family"},
		{[]string{"-F", "pcap", path}, "-w"},
		{[]string{"-w", "x", "-F", "erf", path}, "pcapng"},
	} {
		st, out, errs := runCmd(t, nil, tc.args...)
		if st != 2 || out != "" || !strings.Contains(errs, tc.msg) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, st, out, errs, tc.msg)
		}
	}
	// Flags after the file, as tcpdump takes them.
	_, want, _ := runCmd(t, nil, "-c", "2", "-qp", "1", path)
	st, got, errs := runCmd(t, nil, path, "-c", "2", "-qp", "1")
	if st != 0 || got != want || len(lines(got)) != 2 {
		t.Errorf("flags after the file: status %d, %q (stderr %q), want %q", st, got, errs, want)
	}
}

func TestTerminalStdin(t *testing.T) {
	tty, err := os.Open("/dev/tty")
	if err != nil {
		// A pseudo-terminal's master: a character device too.
		if tty, err = os.OpenFile("/dev/ptmx", os.O_RDWR, 0); err != nil {
			t.Skip("no terminal:", err)
		}
	}
	defer tty.Close()
	var out, errb bytes.Buffer
	if st := run(nil, tty, &out, &errb); st != 2 || !strings.Contains(errb.String(), "terminal") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	errb.Reset()
	if st := run(nil, null, &out, &errb); st != 2 || strings.Contains(errb.String(), "terminal") {
		t.Errorf("/dev/null: status %d, stderr %q; want a capture of 0 bytes", st, errb.String())
	}
}

func TestRepeatedFilters(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap")
	_, all, _ := runCmd(t, nil, path)
	count := func(args ...string) int {
		st, out, errs := runCmd(t, nil, append(args, path)...)
		if st != 0 {
			t.Fatalf("%q: status %d, %s", args, st, errs)
		}
		return len(lines(out))
	}
	for _, opcodes := range [][]string{{"send", "read", "write", "ack", "atomic", "cnp"}, {"mad", "ack"}} {
		sum := 0
		var args []string
		for _, op := range opcodes {
			sum += count("-opcode", op)
			args = append(args, "-opcode", op)
		}
		if n := count(args...); n != sum || n == 0 {
			t.Errorf("%q: %d frames, the families one by one %d", opcodes, n, sum)
		}
	}
	qps := map[string]bool{}
	for _, l := range lines(all) {
		if i := strings.Index(l, " qp "); i >= 0 {
			qps[l[i+4:i+12]] = true
		}
	}
	sum := 0
	var args []string
	for qp := range qps {
		sum += count("-qp", qp)
		args = append(args, "-qp", qp)
	}
	if n := count(args...); n != sum || n == 0 || len(qps) < 2 {
		t.Errorf("-qp %v: %d frames, one by one %d", args, n, sum)
	}
}

// TestWrite checks -w: the file holds the frames the same flags print,
// byte for byte, and nothing is printed.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	for _, c := range captures {
		path := filepath.Join(capDir, c.name)
		for _, name := range []string{"out.pcap", "out.pcapng"} {
			for _, flags := range [][]string{nil, {"-opcode", "ack", "-opcode", "send", "-j", "4"}, {"-c", "7", "-j", "1"}} {
				out := filepath.Join(dir, name)
				st, stdout, errs := runCmd(t, nil, append([]string{"-w", out, path}, flags...)...)
				if st != c.status || stdout != "" {
					t.Fatalf("%s %q: status %d, stdout %q, stderr %q", c.name, flags, st, stdout, errs)
				}
				stw, want, _ := runCmd(t, nil, append([]string{"-json", path}, flags...)...)
				stg, got, _ := runCmd(t, nil, "-json", out)
				if got != renumber(t, want) || stw != c.status || stg != 0 {
					t.Errorf("%s %s %q: the written capture prints differently", c.name, name, flags)
				}
				b, _ := os.ReadFile(out)
				src, err := capfile.NewSource(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := dump.Scan(src, dump.Options{}, func(*dump.Record) error { return nil }); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// renumber gives JSON lines the frame numbers 1, 2, ... they take in a
// capture of them alone.
func renumber(t *testing.T, s string) string {
	var b strings.Builder
	for i, l := range lines(s) {
		const key = `"frame.number":`
		j := strings.Index(l, key)
		if j < 0 {
			t.Fatalf("no frame number in %s", l)
		}
		k := j + len(key)
		e := k + strings.IndexAny(l[k:], ",}")
		b.WriteString(l[:k])
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(l[e:])
		b.WriteByte('\n')
	}
	return b.String()
}
