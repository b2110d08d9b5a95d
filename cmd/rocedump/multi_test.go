package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// genSet writes n generated captures into a new directory, each
// starting one second after the one before (so that their concatenation
// is also their merge by time), with CE marks, CNPs and PFC frames.
func genSet(t *testing.T, n int) (dir string, paths []string) {
	t.Helper()
	dir = t.TempDir()
	for i := 0; i < n; i++ {
		cfg := gen.DefaultConfig()
		cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery = 4096, 1024, 300+100*i, 2+i, 7
		cfg.PFCEvery, cfg.PFCQuanta, cfg.Seed = 40, 2000, uint64(i+1)
		cfg.Start = gen.DefaultStart.Add(time.Duration(i) * time.Second)
		p, _ := genCapture(t, cfg)
		paths = append(paths, filepath.Join(dir, "gen"+string(rune('a'+i))+".pcap"))
		if err := os.Rename(p, paths[i]); err != nil {
			t.Fatal(err)
		}
	}
	return dir, paths
}

// captureSets are the shipped captures, the golden ones and a generated
// set, each as a directory and its files in name order.
func captureSets(t *testing.T) map[string][]string {
	t.Helper()
	sets := map[string][]string{}
	for _, dir := range []string{capDir, "../../testdata/golden"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.pcap"))
		sets[dir] = paths
	}
	dir, paths := genSet(t, 3)
	sets[dir] = paths
	return sets
}

// TestMultiJobs: over every capture set, given as a directory or as
// files, text, JSON, merged and per-file summaries and counted output
// are byte-identical whatever -j, with output spooled in memory or in a
// temporary file while a capture waits for its turn.
func TestMultiJobs(t *testing.T) {
	defer func(b, l int) { spoolBudget, spoolLeast = b, l }(spoolBudget, spoolLeast)
	for dir, paths := range captureSets(t) {
		for _, spool := range []int{8 << 20, 4 << 10} {
			spoolBudget, spoolLeast = spool, spool
			for _, args := range [][]string{{}, {"-json"}, {"-stats"}, {"-stats", "-json"}, {"-stats", "-per-file"},
				{"-stats", "-per-file", "-json"}, {"-c", "5000"}, {"-json", "-opcode", "cnp"}} {
				for _, in := range [][]string{{dir}, paths} {
					a := append(utc(args), in...)
					st1, out1, err1 := runCmd(t, nil, append([]string{"-j", "1"}, a...)...)
					if st1 != 0 || out1 == "" && args[len(args)-1] != "cnp" {
						t.Errorf("%v -j 1: status %d, %d bytes, stderr %q", a, st1, len(out1), err1)
					}
					for _, j := range []string{"2", "3", "8"} {
						st, out, errs := runCmd(t, nil, append([]string{"-j", j}, a...)...)
						if st != st1 || out != out1 || errs != err1 {
							t.Errorf("%v: -j %s differs from -j 1: status %d, %d bytes, stderr %q; want %d, %d bytes, %q",
								a, j, st, len(out), errs, st1, len(out1), err1)
						}
					}
				}
			}
		}
	}
}

// utc puts -utc before args when they print text lines, the only output
// -utc shapes.
func utc(args []string) []string {
	for _, a := range args {
		if a == "-json" || a == "-stats" {
			return args
		}
	}
	return append([]string{"-utc"}, args...)
}

// TestMultiOrder: several captures print as each alone, one after
// another in the order given: in text under a "==> FILE <==" line, in
// JSON with "frame.file" after "frame.number", which counts from 1 in
// each capture.
func TestMultiOrder(t *testing.T) {
	_, paths := genSet(t, 2)
	paths = append(paths, filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap"), paths[0])
	var text, js strings.Builder
	for _, p := range paths {
		_, out, _ := runCmd(t, nil, "-utc", p)
		text.WriteString("==> " + p + " <==\n" + out)
		_, out, _ = runCmd(t, nil, "-json", p)
		name, _ := json.Marshal(p)
		js.WriteString(regexp.MustCompile(`(?m)^(\{"frame\.number":\d+)`).ReplaceAllString(out, `$1,"frame.file":`+string(name)))
	}
	args := append([]string{"-j", "2"}, paths...)
	if st, out, errs := runCmd(t, nil, append([]string{"-utc"}, args...)...); st != 0 || out != text.String() {
		t.Errorf("text: status %d (stderr %q), %d bytes; want the captures' outputs in order, %d bytes", st, errs, len(out), text.Len())
	}
	st, out, errs := runCmd(t, nil, append([]string{"-json"}, args...)...)
	if st != 0 || out != js.String() {
		t.Errorf("json: status %d (stderr %q), %d bytes; want the captures' outputs in order with frame.file, %d bytes", st, errs, len(out), js.Len())
	}
	// -c counts frames in all: the first capture's frames, then the next's.
	n := len(lines(runOut(t, "-utc", paths[0])))
	_, out, _ = runCmd(t, nil, "-utc", "-c", "5", paths[1], paths[0])
	if got := lines(out); len(got) != 6 || got[0] != "==> "+paths[1]+" <==" {
		t.Errorf("-c 5 over two captures: %q", got)
	}
	_, out, _ = runCmd(t, nil, "-utc", "-c", strconv.Itoa(n+2), paths[0], paths[1])
	if got := lines(out); len(got) != n+2+2 || got[n+1] != "==> "+paths[1]+" <==" {
		t.Errorf("-c %d over two captures: %d lines", n+2, len(got))
	}
}

func runOut(t *testing.T, args ...string) string {
	t.Helper()
	_, out, _ := runCmd(t, nil, args...)
	return out
}

// TestDirectories: a directory gives its capture files by name, in name
// order; -R its subdirectories too; files named on the command line are
// read whatever their names; an empty directory and a missing file are
// reported (status 2) while the other captures are read.
func TestDirectories(t *testing.T) {
	_, paths := genSet(t, 1)
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	dir := t.TempDir()
	for name, b := range map[string][]byte{"b.pcap": data, "a.cap.gz": gz.Bytes(), "c.PCAPNG": data, "d.txt": data,
		".hidden.pcap": data, "trace.pcap1": data, "sub/e.pcap": data, "sub/deeper/f.pcap.gz": gz.Bytes(), ".git/g.pcap": data} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	files := func(args ...string) (int, []string, string) {
		st, out, errs := runCmd(t, nil, append([]string{"-json"}, args...)...)
		var got []string
		for _, l := range lines(out) {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatal(err)
			}
			if m["frame.number"] == 1.0 {
				got = append(got, strings.TrimPrefix(m["frame.file"].(string), dir+"/"))
			}
		}
		return st, got, errs
	}
	want := []string{"a.cap.gz", "b.pcap", "c.PCAPNG", "trace.pcap1"}
	if st, got, errs := files(dir); st != 0 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("directory: status %d (stderr %q), files %q; want %q", st, errs, got, want)
	}
	want = []string{"a.cap.gz", "b.pcap", "c.PCAPNG", "sub/deeper/f.pcap.gz", "sub/e.pcap", "trace.pcap1"}
	if st, got, errs := files("-R", dir); st != 0 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("-R: status %d (stderr %q), files %q; want %q", st, errs, got, want)
	}
	st, got, errs := files(filepath.Join(dir, "d.txt"), filepath.Join(dir, "empty"), filepath.Join(dir, "missing.pcap"), filepath.Join(dir, "b.pcap"))
	if st != 2 || strings.Join(got, " ") != "d.txt b.pcap" || !strings.Contains(errs, "empty: no capture files") || !strings.Contains(errs, "missing.pcap: no such file") {
		t.Errorf("files, an empty directory and a missing file: status %d, files %q, stderr %q", st, got, errs)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-per-file", dir}, "give -stats"},
		{[]string{"-stats", "-per-file", "-timeline", "x.html", dir}, "-per-file and -timeline"},
		{[]string{"-w", "x.pcap", dir}, "one capture"},
		{[]string{"-timeline-flows", "0", dir}, "positive"},
		{[]string{"-", dir}, "standard input"},
	} {
		if st, out, errs := runCmd(t, nil, tc.args...); st != 2 || out != "" || !strings.Contains(errs, tc.msg) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, st, out, errs, tc.msg)
		}
	}
}

// TestMergedStats: -stats over several captures is -stats of the one
// capture mergecap makes of them: merged by time (mergecap's default)
// for the shipped captures, the golden ones and two captures of one
// connection taken on its two hosts; concatenated (mergecap -a) for
// generated captures one after another. The summary line of the
// captures and the "files" key aside, text and JSON are the same.
func TestMergedStats(t *testing.T) {
	mc := oracle.Need(t, "mergecap")
	_, generated := genSet(t, 3)
	golden, _ := filepath.Glob("../../testdata/golden/*.pcap")
	shipped, _ := filepath.Glob(filepath.Join(capDir, "*.pcap"))
	for _, tc := range []struct {
		name  string
		files []string
		flags []string
	}{
		{"two hosts", []string{filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap"), filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")}, nil},
		{"golden", golden, nil},
		{"shipped", shipped, nil},
		{"generated", generated, []string{"-a"}},
	} {
		merged := filepath.Join(t.TempDir(), "merged.pcapng")
		cmd := exec.Command(mc, append(append(tc.flags, "-w", merged), tc.files...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: mergecap: %v: %s", tc.name, err, out)
		}
		for _, args := range [][]string{{"-stats"}, {"-stats", "-json"}} {
			st, want, _ := runCmd(t, nil, append(args, merged)...)
			st2, got, errs := runCmd(t, nil, append(args, tc.files...)...)
			got = regexp.MustCompile(`^\d+ captures merged by time: .*\n`).ReplaceAllString(got, "")
			got = regexp.MustCompile(`(?s),\n  "files": \[.*?\]`).ReplaceAllString(got, "")
			if st != 0 || st2 != 0 || got != want {
				t.Errorf("%s %v: status %d (stderr %q); -stats of mergecap's capture: status %d\n got %.600s\nwant %.600s", tc.name, args, st2, errs, st, got, want)
			}
		}
	}
}

// TestTimelineCommand: -timeline writes the page and, with -stats, the
// summary -stats prints alone; the page names each capture.
func TestTimelineCommand(t *testing.T) {
	_, paths := genSet(t, 2)
	page := filepath.Join(t.TempDir(), "t.html")
	st, out, errs := runCmd(t, nil, append([]string{"-timeline", page, "-stats", "-timeline-flows", "3"}, paths...)...)
	_, want, _ := runCmd(t, nil, append([]string{"-stats"}, paths...)...)
	if st != 0 || out != want {
		t.Errorf("-timeline -stats: status %d (stderr %q), summary differs from -stats:\n%s", st, errs, out)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `<g class="series"`); n != 3 || !strings.Contains(string(b), filepath.Base(paths[1])) {
		t.Errorf("page: %d series (want 3), names %s: %v", n, paths[1], strings.Contains(string(b), paths[1]))
	}
	if st, out, _ := runCmd(t, nil, "-timeline", page, paths[0]); st != 0 || out != "" {
		t.Errorf("-timeline alone: status %d, stdout %q; want 0 and nothing", st, out)
	}
}

// failAfter is an output that takes n bytes, then fails.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// TestMultiWriteError: an output that fails ends with status 1 and the
// error on standard error, whatever -j.
func TestMultiWriteError(t *testing.T) {
	_, paths := genSet(t, 3)
	for _, j := range []string{"1", "2"} {
		var errb bytes.Buffer
		st := run(append([]string{"-j", j, "-json"}, paths...), nil, &failAfter{n: 1 << 20}, &errb)
		if st != 1 || !strings.Contains(errb.String(), "disk full") {
			t.Errorf("-j %s: status %d, stderr %q; want 1 and the error", j, st, errb.String())
		}
	}
}
