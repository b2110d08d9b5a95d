package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/vethtest"
)

// matrixCapture is one capture an input of the matrix reads: its name
// as rocedump shows it (frame.file, "==> NAME <==", the page), the name
// of its -parquet file in a directory, and its frames, known beforehand
// (testdata/captures/README.md; rocegen's default scenario).
type matrixCapture struct {
	shown, parquet string
	frames         int
}

// matrixInput is an input of the matrix: one file, several files, a
// directory, standard input, a live capture.
type matrixInput struct {
	name     string
	args     []string // after the mode's flags
	stdin    []byte
	captures []matrixCapture
	multi    bool // several captures: headers in text, frame.file in JSON
	dir      bool // a directory is given
	live     *vethtest.Link
}

// frames is the number of frames the input reads.
func (in *matrixInput) frames() int {
	n := 0
	for _, c := range in.captures {
		n += c.frames
	}
	return n
}

// matrixResult is what a run of the command did.
type matrixResult struct {
	status         int
	stdout, stderr string
	dir            string // where the outputs were written
}

// matrixMode is a combination of output flags: either refused for an
// input (refuse returns a text the message must hold, both flags named)
// or checked by check.
type matrixMode struct {
	args   []string // @w, @pq, @pqdir, @html: files in the run's directory
	refuse func(in *matrixInput) string
	check  func(t *testing.T, in *matrixInput, r matrixResult, later *matrixLater)
}

// matrixLater gathers the checks made with DuckDB, one process for all.
type matrixLater struct {
	queries []string
	want    []string
	labels  []string
}

func (l *matrixLater) duck(label, query, want string) {
	l.labels, l.queries, l.want = append(l.labels, label), append(l.queries, query), append(l.want, want)
}

func always(msg string) func(*matrixInput) string { return func(*matrixInput) string { return msg } }

// severalRefused refuses the mode for several captures or a directory.
func severalRefused(msg string) func(*matrixInput) string {
	return func(in *matrixInput) string {
		if in.multi || in.dir {
			return msg
		}
		return ""
	}
}

// TestOutputMatrix runs every output mode (text, -json, -v, -w, -stats
// and -per-file, -parquet to a file, a directory and standard output,
// -timeline, their combinations and the flags that shape them) over
// every kind of input (one file, two files, a directory, standard input,
// a live capture), and checks each either works, against what is known
// of the captures (their frame counts, tshark's reading of a -w file,
// DuckDB's of a Parquet file, the page's names), or is refused: exit
// status 2, one message naming the flags, nothing on standard output and
// no file written. No combination is left out: modes times inputs.
func TestOutputMatrix(t *testing.T) {
	a := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap") // 12 frames
	b := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap") // 16 frames
	abytes, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	bbytes, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.pcap"), abytes, 0o644)
	os.WriteFile(filepath.Join(dir, "b.pcap"), bbytes, 0o644)
	ca := matrixCapture{a, "rocev2_ipv4_rdmacm_write_read_rxe_a.parquet", 12}
	cb := matrixCapture{b, "rocev2_ipv4_rdmacm_write_read_rxe_b.parquet", 16}
	inputs := []*matrixInput{
		{name: "one file", args: []string{a}, captures: []matrixCapture{ca}},
		{name: "two files", args: []string{a, b}, captures: []matrixCapture{ca, cb}, multi: true},
		{name: "a directory", args: []string{dir}, captures: []matrixCapture{{filepath.Join(dir, "a.pcap"), "a.parquet", 12}, {filepath.Join(dir, "b.pcap"), "b.parquet", 16}}, multi: true, dir: true},
		{name: "standard input", stdin: abytes, captures: []matrixCapture{{"standard input", "stdin.parquet", 12}}},
		{name: "-i", args: []string{"-i", "lo"}}, // refusals only, without a veth pair
	}
	live := inputs[4]
	if link, ok := matrixLink(t); ok {
		live.live = &link
		live.args = []string{"-i", link.Recv}
		live.captures = []matrixCapture{{link.Recv, link.Recv + ".parquet", 17}} // rocegen's default scenario
	}

	later := &matrixLater{}
	base := t.TempDir() // the runs' outputs, kept for DuckDB until the end
	for _, m := range matrixModes() {
		for _, in := range inputs {
			name := strings.Join(m.args, " ")
			if name == "" {
				name = "text"
			}
			t.Run(name+"/"+in.name, func(t *testing.T) {
				refused := m.refuse(in)
				if in.live == nil && in.name == "-i" && refused == "" {
					t.Skip("no veth pair for a live capture here")
				}
				r := runMatrix(t, base, m, in)
				if refused != "" {
					if r.status != 2 || r.stdout != "" || !strings.HasPrefix(r.stderr, "rocedump: ") || !strings.Contains(r.stderr, refused) ||
						strings.Count(r.stderr, "\n") != 1 {
						t.Fatalf("status %d, stdout %d bytes, stderr %q; want 2, nothing and one line with %q", r.status, len(r.stdout), r.stderr, refused)
					}
					if ents, _ := os.ReadDir(r.dir); len(ents) != 0 {
						t.Errorf("refused, yet %s was written", ents[0].Name())
					}
					return
				}
				if r.status != 0 || in.live == nil && r.stderr != "" {
					t.Fatalf("status %d, stderr %q; want 0", r.status, r.stderr)
				}
				m.check(t, in, r, later)
			})
		}
	}
	if len(later.queries) == 0 {
		return
	}
	res := oracle.DuckDB(t, later.queries...)
	for i, r := range res {
		var got []string
		for _, row := range r.Rows {
			var cells []string
			for _, c := range row {
				s := string(c)
				if u, err := strconv.Unquote(s); err == nil {
					s = u
				}
				cells = append(cells, s)
			}
			got = append(got, strings.Join(cells, " "))
		}
		if g := strings.Join(got, "; "); g != later.want[i] {
			t.Errorf("%s: DuckDB says %q, want %q", later.labels[i], g, later.want[i])
		}
	}
}

// matrixLink is the veth pair the live column captures on; none where
// packet sockets are not permitted or only lo is to be had (whose other
// traffic would change the counts).
func matrixLink(t *testing.T) (link vethtest.Link, ok bool) {
	ok = t.Run("veth", func(t *testing.T) {
		link = vethtest.Pair(t)
		if link.Loopback {
			t.Skip("only lo: the live column needs a link of its own")
		}
	})
	if !ok || link.Recv == "" || link.Loopback {
		return link, false
	}
	// The pair is deleted when the veth subtest ends: make one for the
	// whole test.
	return vethtest.Pair(t), true
}

// runMatrix runs the mode over the input in a directory of its own; a
// live capture gets rocegen's default scenario (17 frames) once rocedump
// listens, and stops at the 17th frame (-c 17, or the mode's -c).
func runMatrix(t *testing.T, base string, m matrixMode, in *matrixInput) matrixResult {
	t.Helper()
	d, err := os.MkdirTemp(base, "run")
	if err != nil {
		t.Fatal(err)
	}
	r := matrixResult{dir: d}
	var args []string
	counted := false
	for _, a := range m.args {
		switch a {
		case "@w":
			a = filepath.Join(r.dir, "out.pcap")
		case "@pq":
			a = filepath.Join(r.dir, "x.parquet")
		case "@pqdir":
			a = filepath.Join(r.dir, "pq") + "/"
		case "@html":
			a = filepath.Join(r.dir, "t.html")
		case "-c":
			counted = true
		}
		args = append(args, a)
	}
	args = append(args, in.args...)
	if in.live == nil {
		r.status, r.stdout, r.stderr = runCmd(t, in.stdin, args...)
		return r
	}
	if !counted {
		args = append(args, "-c", "17")
	}
	_, gen := binaries(t)
	var stdout bytes.Buffer
	var stderr syncBuffer
	done := make(chan int)
	go func() { done <- run(args, nil, &stdout, &stderr) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "listening on") {
		select {
		case st := <-done:
			r.status, r.stdout, r.stderr = st, stdout.String(), stderr.String()
			return r
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no listening line: %s", stderr.String())
		}
	}
	runGen(t, gen, "-i", in.live.Send)
	select {
	case r.status = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("rocedump -i did not stop at -c: %s", stderr.String())
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	return r
}

// frameLines checks text lines: each capture's frames, under "==> NAME
// <==" when there are several; -v's lines ("    frame: number N ...")
// after each when verbose.
func frameLines(t *testing.T, in *matrixInput, out string, verbose bool, count int) {
	t.Helper()
	var want []string
	left := count
	for _, c := range in.captures {
		if left == 0 {
			break
		}
		if in.multi {
			want = append(want, "==> "+c.shown+" <==")
		}
		for n := 1; n <= c.frames && left != 0; n++ {
			want = append(want, "frame")
			if verbose {
				want = append(want, "number "+strconv.Itoa(n))
			}
			left--
		}
	}
	var got []string
	for _, l := range lines(out) {
		switch {
		case strings.HasPrefix(l, "==> "):
			got = append(got, l)
		case strings.HasPrefix(l, "    frame: number "):
			got = append(got, "number "+strings.Fields(l)[2])
		case strings.HasPrefix(l, "    "):
			if !verbose {
				t.Fatalf("an indented line without -v: %q", l)
			}
		default:
			got = append(got, "frame")
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// jsonLines checks JSON Lines: every frame, numbered from 1 in each
// capture, with frame.file naming it when there are several.
func jsonLines(t *testing.T, in *matrixInput, out string) {
	t.Helper()
	var want, got []string
	for _, c := range in.captures {
		for n := 1; n <= c.frames; n++ {
			file := ""
			if in.multi {
				file = c.shown
			}
			want = append(want, fmt.Sprintf("%s#%d", file, n))
		}
	}
	for _, l := range lines(out) {
		var m struct {
			Number int    `json:"frame.number"`
			File   string `json:"frame.file"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got = append(got, fmt.Sprintf("%s#%d", m.File, m.Number))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("JSON frames %v, want %v", got, want)
	}
}

// summaries checks -stats text: one summary of all the frames, after a
// line naming the captures when there are several, or one per capture
// (perFile).
func summaries(t *testing.T, in *matrixInput, out string, perFile bool) {
	t.Helper()
	totals := regexp.MustCompile(`(?m)^frames (\d+): RoCE `).FindAllStringSubmatch(out, -1)
	var got, want []string
	for _, m := range totals {
		got = append(got, m[1])
	}
	if perFile {
		for _, c := range in.captures {
			want = append(want, strconv.Itoa(c.frames))
		}
	} else {
		want = []string{strconv.Itoa(in.frames())}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("summaries of %v frames, want %v:\n%s", got, want, out)
	}
	if merged := strings.HasPrefix(out, fmt.Sprintf("%d captures merged by time: ", len(in.captures))); merged != (in.multi && !perFile) {
		t.Errorf("merged line %v, want %v:\n%.200s", merged, in.multi && !perFile, out)
	}
}

// jsonSummaries checks -stats -json: the objects' totals, and their
// "files" (merged) or "file" (per file) when there are several.
func jsonSummaries(t *testing.T, in *matrixInput, out string, perFile bool) {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(out))
	var got, want []string
	for {
		var rep struct {
			File   string   `json:"file"`
			Files  []string `json:"files"`
			Totals struct{ Frames int }
		}
		if err := d.Decode(&rep); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%v: %.300s", err, out)
		}
		got = append(got, fmt.Sprintf("%s%v:%d", rep.File, rep.Files, rep.Totals.Frames))
	}
	switch {
	case perFile && in.multi:
		for _, c := range in.captures {
			want = append(want, fmt.Sprintf("%s[]:%d", c.shown, c.frames))
		}
	case in.multi:
		var files []string
		for _, c := range in.captures {
			files = append(files, c.shown)
		}
		want = []string{fmt.Sprintf("%v:%d", files, in.frames())}
	default:
		want = []string{fmt.Sprintf("[]:%d", in.frames())}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("summaries %v, want %v", got, want)
	}
}

// tsharkFrames checks that tshark reads the capture at path whole: the
// frames of the input, in the order read.
func tsharkFrames(t *testing.T, in *matrixInput, path string) {
	t.Helper()
	fields := oracle.Tshark(t, path)
	if len(fields) != in.frames() {
		t.Errorf("tshark reads %d frames in %s, want %d", len(fields), filepath.Base(path), in.frames())
	}
}

// checkPage checks the -timeline page: an HTML page that names each capture.
func checkPage(t *testing.T, in *matrixInput, b []byte) {
	t.Helper()
	s := string(b)
	if !strings.HasPrefix(s, "<!DOCTYPE html>") || !strings.Contains(s, "<svg") {
		t.Fatalf("not a page: %.100q", s)
	}
	for _, c := range in.captures {
		if !strings.Contains(s, filepath.Base(c.shown)) {
			t.Errorf("the page does not name %s", c.shown)
		}
	}
}

func readOut(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no output: %v", err)
	}
	return b
}

// parquetRows asks DuckDB for the rows of the Parquet files of glob,
// per frame.file: those of each capture, named as rocedump names it
// there (the file as given; "-" for standard input).
func parquetRows(in *matrixInput, label, glob string, later *matrixLater) {
	var want []string
	for _, c := range in.captures {
		name := c.shown
		if name == "standard input" {
			name = "-"
		}
		want = append(want, fmt.Sprintf("%s %d %d", name, c.frames, c.frames))
	}
	later.duck(label, `SELECT "frame.file", count(*), max("frame.number") FROM read_parquet('`+glob+`')
		GROUP BY "frame.file" ORDER BY "frame.file"`, strings.Join(want, "; "))
}

// matrixModes are the output modes of the matrix.
func matrixModes() []matrixMode {
	works := func(*matrixInput) string { return "" }
	return []matrixMode{
		{nil, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			frameLines(t, in, r.stdout, false, -1)
		}},
		{[]string{"-json"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			jsonLines(t, in, r.stdout)
		}},
		{[]string{"-v"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			frameLines(t, in, r.stdout, true, -1)
		}},
		{[]string{"-c", "5"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			frameLines(t, in, r.stdout, false, 5)
		}},
		{[]string{"-e", "-q", "-tttt", "-utc"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			frameLines(t, in, r.stdout, false, -1)
		}},
		{[]string{"-R"}, func(in *matrixInput) string {
			if in.dir {
				return ""
			}
			return "-R reads the directories given recursively: give a DIR"
		}, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			frameLines(t, in, r.stdout, false, -1)
		}},
		{[]string{"-w", "@w"}, severalRefused("-w writes the frames of one capture"), func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			if r.stdout != "" {
				t.Errorf("-w printed %d bytes", len(r.stdout))
			}
			tsharkFrames(t, in, filepath.Join(r.dir, "out.pcap"))
		}},
		{[]string{"-w", "-"}, severalRefused("-w writes the frames of one capture"), func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			p := filepath.Join(t.TempDir(), "stdout.pcap")
			os.WriteFile(p, []byte(r.stdout), 0o644)
			tsharkFrames(t, in, p)
		}},
		{[]string{"-w", "@w", "-stats"}, severalRefused("-w writes the frames of one capture"), func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			summaries(t, in, r.stdout, false)
			tsharkFrames(t, in, filepath.Join(r.dir, "out.pcap"))
		}},
		{[]string{"-w", "@w", "-stats", "-json"}, severalRefused("-w writes the frames of one capture"), func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			jsonSummaries(t, in, r.stdout, false)
			tsharkFrames(t, in, filepath.Join(r.dir, "out.pcap"))
		}},
		{[]string{"-stats"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			summaries(t, in, r.stdout, false)
		}},
		{[]string{"-stats", "-json"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			jsonSummaries(t, in, r.stdout, false)
		}},
		{[]string{"-stats", "-per-file"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			summaries(t, in, r.stdout, true)
		}},
		{[]string{"-stats", "-per-file", "-json"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			jsonSummaries(t, in, r.stdout, true)
		}},
		{[]string{"-stats", "-max-flows", "2", "-cnp-interval", "0", "-pfc-storm", "1s", "-speed", "25G"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			summaries(t, in, r.stdout, false)
		}},
		{[]string{"-stats", "-json", "-ecmp", "8"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			jsonSummaries(t, in, r.stdout, false)
		}},
		{[]string{"-parquet", "@pq"}, severalRefused("holds one capture"), func(t *testing.T, in *matrixInput, r matrixResult, later *matrixLater) {
			p := filepath.Join(r.dir, "x.parquet")
			readOut(t, p)
			parquetRows(in, t.Name(), p, later)
		}},
		{[]string{"-parquet", "@pqdir"}, works, func(t *testing.T, in *matrixInput, r matrixResult, later *matrixLater) {
			for _, c := range in.captures {
				readOut(t, filepath.Join(r.dir, "pq", c.parquet))
			}
			if ents, _ := os.ReadDir(filepath.Join(r.dir, "pq")); len(ents) != len(in.captures) {
				t.Errorf("%d files in the -parquet directory, want %d", len(ents), len(in.captures))
			}
			parquetRows(in, t.Name(), filepath.Join(r.dir, "pq", "*.parquet"), later)
		}},
		{[]string{"-parquet", "-"}, severalRefused("holds one capture"), func(t *testing.T, in *matrixInput, r matrixResult, later *matrixLater) {
			p := filepath.Join(r.dir, "stdout.parquet")
			if err := os.WriteFile(p, []byte(r.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			parquetRows(in, t.Name(), p, later)
		}},
		{[]string{"-parquet", "@pqdir", "-c", "5"}, works, func(t *testing.T, in *matrixInput, r matrixResult, later *matrixLater) {
			name := in.captures[0].shown
			if name == "standard input" {
				name = "-"
			}
			later.duck(t.Name(), `SELECT "frame.file", count(*) FROM read_parquet('`+filepath.Join(r.dir, "pq", "*.parquet")+`') GROUP BY ALL`, name+" 5")
		}},
		{[]string{"-timeline", "@html"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			if r.stdout != "" {
				t.Errorf("-timeline printed %d bytes", len(r.stdout))
			}
			checkPage(t, in, readOut(t, filepath.Join(r.dir, "t.html")))
		}},
		{[]string{"-timeline", "-"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			checkPage(t, in, []byte(r.stdout))
		}},
		{[]string{"-timeline", "@html", "-stats"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			summaries(t, in, r.stdout, false)
			checkPage(t, in, readOut(t, filepath.Join(r.dir, "t.html")))
		}},
		{[]string{"-timeline", "@html", "-stats", "-json", "-timeline-flows", "2", "-max-flows", "5"}, works, func(t *testing.T, in *matrixInput, r matrixResult, _ *matrixLater) {
			jsonSummaries(t, in, r.stdout, false)
			checkPage(t, in, readOut(t, filepath.Join(r.dir, "t.html")))
		}},
		// Refused whatever the input.
		{[]string{"-json", "-v"}, always("-v shapes the text lines, which -json does not print"), nil},
		{[]string{"-stats", "-v"}, always("-v shapes the text lines, which -stats does not print"), nil},
		{[]string{"-stats", "-utc"}, always("-utc shapes the text lines, which -stats does not print"), nil},
		{[]string{"-json", "-e"}, always("-e shapes the text lines, which -json does not print"), nil},
		{[]string{"-T", "fields", "-e", "ip.src", "-json"}, always("-T fields and -json"), nil},
		{[]string{"-T", "fields", "-e", "ip.src", "-stats"}, always("-T fields prints the frames, -stats a summary"), nil},
		{[]string{"-T", "fields", "-e", "ip.src", "-w", "@w"}, always("-T fields prints the frames, -w writes them"), nil},
		{[]string{"-T", "fields", "-e", "ip.src", "-parquet", "@pq"}, always("-T fields prints the frames, -parquet writes them"), nil},
		{[]string{"-T", "fields", "-e", "ip.src", "-timeline", "@html"}, always("-T fields prints the frames, -timeline draws them"), nil},
		{[]string{"-T", "fields", "-e", "ip.src", "-v"}, always("-v shapes the text lines, which -T fields does not print"), nil},
		{[]string{"-T", "fields", "-e", "no.such.field"}, always(`-e: unknown field "no.such.field"`), nil},
		{[]string{"-T", "fields"}, always("-T fields needs the fields to print"), nil},
		{[]string{"-T", "pdml"}, always(`-T "pdml": rocedump prints fields, text or json`), nil},
		{[]string{"-E", "header=y"}, always("-E is a setting of -T fields lines"), nil},
		{[]string{"-w", "@w", "-json"}, always("-w and -json"), nil},
		{[]string{"-w", "@w", "-v"}, always("-v shapes the text lines, which -w does not print"), nil},
		{[]string{"-w", "-", "-stats"}, always("-w - and -stats"), nil},
		{[]string{"-parquet", "@pq", "-stats"}, always("-parquet writes the frames, -stats a summary"), nil},
		{[]string{"-parquet", "@pq", "-json"}, always("-parquet and -json"), nil},
		{[]string{"-parquet", "@pq", "-v"}, always("-v shapes the text lines, which -parquet does not print"), nil},
		{[]string{"-parquet", "@pq", "-w", "@w"}, always("-parquet and -w"), nil},
		{[]string{"-parquet", "@pqdir", "-timeline", "@html"}, always("-parquet and -timeline"), nil},
		{[]string{"-timeline", "@html", "-w", "@w"}, always("-timeline and -w"), nil},
		{[]string{"-timeline", "@html", "-json"}, always("-timeline and -json"), nil},
		{[]string{"-timeline", "@html", "-q"}, always("-q shapes the text lines, which -timeline does not print"), nil},
		{[]string{"-timeline", "-", "-stats"}, always("-timeline - and -stats"), nil},
		{[]string{"-per-file"}, always("-per-file says how -stats summarizes several captures: give -stats"), nil},
		{[]string{"-stats", "-per-file", "-timeline", "@html"}, always("-per-file and -timeline"), nil},
		{[]string{"-ecmp", "4"}, always("-ecmp is a what-if of the -stats summary: give -stats"), nil},
		{[]string{"-timeline", "@html", "-ecmp", "4"}, always("-ecmp is a what-if of the -stats summary: give -stats"), nil},
		{[]string{"-max-flows", "10"}, always("-max-flows is a setting of the flow analysis: give -stats or -timeline"), nil},
		{[]string{"-json", "-pfc-storm", "1s"}, always("-pfc-storm is a setting of the flow analysis"), nil},
		{[]string{"-stats", "-timeline-flows", "3"}, always("-timeline-flows says how many flows -timeline draws: give -timeline"), nil},
		{[]string{"-json", "-speed", "25G"}, always("-speed gives pause quanta as times in the text lines, -stats and -timeline: not with -json alone"), nil},
		{[]string{"-w", "@w", "-speed", "25G"}, always("not with -w alone"), nil},
	}
}
