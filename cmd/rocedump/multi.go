package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cmd/internal/cli"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/timeline"
)

// many is what the command line says about several captures, -per-file
// and -timeline.
type many struct {
	files         []string // the FILE and DIR arguments, as given
	recursive     *bool    // -R
	perFile       *bool    // -per-file
	timeline      *string  // -timeline: the HTML page to write
	timelineFlows *int     // -timeline-flows
}

// flags registers -R, -per-file, -timeline and -timeline-flows.
func (m *many) flags(fs *flag.FlagSet, oneString func(name, value, usage string) *string, oneInt func(name string, value int, usage string) *int) {
	m.recursive = fs.Bool("R", false, "read directories recursively")
	m.perFile = fs.Bool("per-file", false, "with -stats and several captures: one summary per capture")
	m.timeline = oneString("timeline", "", "write a congestion timeline to the HTML page `OUT.html` instead of printing the frames")
	m.timelineFlows = oneInt("timeline-flows", timeline.DefaultFlows, "the timeline draws the `N` flows with the most bytes")
}

// check takes the captures given and says what is wrong with the values
// of -R, -per-file and -timeline, if anything (combination checks how
// they go with the other flags).
func (m *many) check(files []string) string {
	m.files = files
	if *m.timelineFlows < 1 {
		return "-timeline-flows must be positive"
	}
	return ""
}

// multi reports whether the command takes the path of several captures:
// more than one, a directory, or -timeline of files.
func (c *config) multi() bool {
	m := &c.many
	if c.live.iface != "" {
		return false
	}
	if len(m.files) > 1 || *m.timeline != "" {
		return true
	}
	if len(m.files) == 1 && m.files[0] != "-" {
		fi, err := os.Stat(m.files[0])
		return err == nil && fi.IsDir()
	}
	return false
}

// captureExts are the name endings that make a file in a directory a
// capture: pcap and pcapng files, ".cap", each possibly gzip-compressed.
// tcpdump -C and -W rotate into NAME.pcap1, NAME.pcap2, ...: digits after
// the ending count too.
var captureExts = []string{".pcap", ".pcapng", ".cap"}

// isCaptureName reports whether a file found in a directory is read.
func isCaptureName(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	name = strings.TrimRight(name, "0123456789")
	for _, e := range captureExts {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// expand replaces each directory by its capture files, sorted by name
// (with recursive, a walk of its tree in name order); files are kept
// as given, whatever their names. Problems are returned as messages.
func expand(args []string, recursive bool) (files []string, problems []string) {
	for _, a := range args {
		if a == "-" {
			files = append(files, a)
			continue
		}
		fi, err := os.Stat(a)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			problems = append(problems, fmt.Sprintf("%s: %v", a, err))
			continue
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		n := len(files)
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				problems = append(problems, err.Error())
				return nil
			}
			if d.IsDir() {
				if p != a && (!recursive || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if isCaptureName(d.Name()) {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			problems = append(problems, err.Error())
		} else if len(files) == n {
			hint := ""
			if !recursive {
				hint = "; -R reads subdirectories"
			}
			problems = append(problems, fmt.Sprintf("%s: no capture files (*.pcap, *.pcapng, *.cap, .gz)%s", a, hint))
		}
	}
	return files, problems
}

// runMulti is the command for several captures and -timeline: files
// are the captures (expanded), problems what expand found wrong.
func runMulti(c config, files, problems []string, stdin io.Reader, stdout, stderr io.Writer) int {
	status := 0
	for _, p := range problems {
		fmt.Fprintln(stderr, "rocedump:", p)
		status = 2
	}
	if len(files) == 0 {
		if len(c.many.files) > 0 {
			return 2
		}
		files = []string{"-"}
	}
	jobs := c.opt.Workers
	if jobs == 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	var st int
	switch {
	case *c.many.timeline != "" || c.stats && !*c.many.perFile:
		st = runMerged(c, files, jobs, stdin, w, stderr)
	default:
		writeFieldsHeader(w, c)
		st = runEach(c, files, jobs, stdin, w, stderr)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(stderr, "rocedump:", err)
		st = max(st, 1)
	}
	return max(status, st)
}

// validName is a capture's name as JSON and the page show it: valid
// UTF-8.
func validName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	return strings.ToValidUTF8(name, "\uFFFD")
}

// openSource opens one capture for reading.
func openSource(file string, stdin io.Reader) (src *capfile.Source, name string, closeIn func() error, err error) {
	in, _, name, closeIn, err := openInput(file, stdin)
	if err != nil {
		return nil, file, nil, err
	}
	src, err = newSource(in)
	if err != nil {
		closeIn()
		return nil, name, nil, fmt.Errorf("%s: %s", name, cli.Message(err))
	}
	return src, name, closeIn, nil
}

// runMerged summarizes the captures as one, merged by time (-stats)
// and draws the timeline (-timeline).
func runMerged(c config, files []string, jobs int, stdin io.Reader, w io.Writer, stderr io.Writer) int {
	var pg *page
	if *c.many.timeline != "" {
		var err error
		if pg, err = createPage(c, w); err != nil {
			fmt.Fprintln(stderr, "rocedump:", err)
			return 2
		}
	}
	var in []dump.MergeInput
	var names []string
	status := 0
	for _, f := range files {
		src, name, closeIn, err := openSource(f, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "rocedump:", cli.Message(err))
			status = 2
			continue
		}
		defer closeIn()
		opt := c.opt
		opt.Progress = nil
		opt.Unreadable = func(e *capfile.ReadError) { fmt.Fprintf(stderr, "rocedump: %s: %s\n", name, cli.Message(e)) }
		in = append(in, dump.MergeInput{Source: src, Options: opt})
		names = append(names, validName(name))
	}
	if len(in) == 0 {
		if pg != nil {
			pg.close()
		}
		return status
	}
	tl, an := newTimeline(c, c.flowConfig())
	stats, errs, err := dump.Merge(in, jobs, c.opt.Count, func(i int, r *dump.Record) error {
		tl.add(names[i], r)
		return nil
	})
	var total dump.Stats
	for i := range stats {
		total.Add(stats[i])
		status = max(status, exitStatus(stderr, names[i], stats[i], errs[i]))
	}
	if err == nil && pg != nil {
		err = pg.write(tl)
	}
	if err != nil {
		fmt.Fprintln(stderr, "rocedump:", cli.Message(err))
		status = max(status, 1)
	}
	if c.stats {
		rep := an.Report()
		if len(names) > 1 {
			rep.Files = names
			if !c.opt.JSON {
				fmt.Fprintf(w, "%d captures merged by time: %s\n", len(names), strings.Join(names, ", "))
			}
		}
		if err := writeSummary(w, rep, total, c.opt.JSON); err != nil {
			fmt.Fprintln(stderr, "rocedump:", err)
			status = max(status, 1)
		}
	}
	return status
}

// job is one capture of runEach: its output goes to a relay until its
// turn comes, its messages to its own buffer.
type job struct {
	file    string
	parquet string // -parquet: the file to write the frames to
	out     *relay
	errs    bytes.Buffer
	status  int
	done    chan struct{}
}

// runEach prints the frames (or with -per-file the summary) of each
// capture in turn, decoding up to jobs of them at once.
func runEach(c config, files []string, jobs int, stdin io.Reader, w io.Writer, stderr io.Writer) int {
	if c.opt.Count > 0 { // -c counts frames in all: one capture after another
		return runCounted(c, files, jobs, stdin, w, stderr)
	}
	inFlight := min(jobs, len(files))
	c.opt.Workers = max(jobs/inFlight, 1)
	all := make([]*job, len(files))
	limit := max(spoolBudget/inFlight, spoolLeast)
	pq := parquetFiles(c, files)
	for i, f := range files {
		all[i] = &job{file: f, parquet: pq[i], out: newRelay(w, limit), done: make(chan struct{})}
	}
	// A capture starts once one of inFlight slots is free and it is
	// among the inFlight+1 captures from the one being printed on: the
	// captures done ahead of their turn, and their spools, stay few.
	win := newWindow(inFlight + 1)
	go func() {
		slots := make(chan struct{}, inFlight)
		for i, j := range all {
			win.wait(i)
			slots <- struct{}{}
			go func() {
				defer func() { <-slots }()
				j.run(c, stdin, len(files) > 1, 0)
			}()
		}
	}()
	status := 0
	for i, j := range all {
		win.advance(i)
		err := j.out.goLive()
		<-j.done
		if err == nil {
			err = j.out.err
		}
		stderr.Write(j.errs.Bytes())
		if err != nil && j.status == 0 { // not already reported by the job
			fmt.Fprintln(stderr, "rocedump:", err)
			j.status = 1
		}
		status = max(status, j.status)
	}
	return status
}

// runCounted prints the first c.opt.Count frames of the captures, read
// one after another.
func runCounted(c config, files []string, jobs int, stdin io.Reader, w io.Writer, stderr io.Writer) int {
	c.opt.Workers = jobs
	status, left := 0, c.opt.Count
	pq := parquetFiles(c, files)
	for i, f := range files {
		j := &job{file: f, parquet: pq[i], out: &relay{out: w, live: true}, done: make(chan struct{})}
		matched := j.run(c, stdin, len(files) > 1, left)
		stderr.Write(j.errs.Bytes())
		status = max(status, j.status)
		if left -= matched; left <= 0 {
			break
		}
	}
	return status
}

// run reads the job's capture, writing its frames or its summary to
// j.out, at most count frames when count is positive; it returns the
// number of frames that matched.
func (j *job) run(c config, stdin io.Reader, header bool, count int) int {
	defer close(j.done)
	src, name, closeIn, err := openSource(j.file, stdin)
	if err != nil {
		fmt.Fprintln(&j.errs, "rocedump:", err)
		j.status = 2
		return 0
	}
	defer closeIn()
	bw := bufio.NewWriterSize(j.out, 64<<10)
	if header && !c.opt.JSON && c.opt.Fields == nil && j.parquet == "" {
		fmt.Fprintf(bw, "==> %s <==\n", name)
	}
	opt := c.opt
	opt.Count, opt.Progress = count, nil
	opt.Unreadable = func(e *capfile.ReadError) { fmt.Fprintf(&j.errs, "rocedump: %s: %s\n", name, cli.Message(e)) }
	if header {
		opt.File = validName(name)
	}
	var st dump.Stats
	switch {
	case j.parquet != "":
		pc := c
		pc.opt = opt
		st, err = writeParquet(pc, src, validName(name), j.parquet, nil)
	case c.stats:
		an := flow.New(c.flowConfig())
		st, err = dump.Scan(src, opt, func(r *dump.Record) error { an.AddRecord(r); return nil })
		rep := an.Report()
		rep.File = opt.File
		if werr := writeSummary(bw, rep, st, c.opt.JSON); err == nil {
			err = werr
		}
	default:
		st, err = dump.Dump(bw, src, opt)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	j.status = exitStatus(&j.errs, name, st, err)
	return st.Matched
}

// parquetFiles returns, for each capture of files, the file -parquet
// writes it to ("" without -parquet): with several captures, -parquet
// is a directory (combination refuses a file).
func parquetFiles(c config, files []string) []string {
	pq := make([]string, len(files))
	if c.parquet == "" {
		return pq
	}
	for i, n := range parquetNames(files) {
		pq[i] = parquetPath(c.parquet, n)
	}
	return pq
}

// window lets the captures from the one being printed to size after it
// start.
type window struct {
	mu         sync.Mutex
	cond       sync.Cond
	head, size int
}

func newWindow(size int) *window {
	w := &window{size: size}
	w.cond.L = &w.mu
	return w
}

// wait blocks until capture i is in the window.
func (w *window) wait(i int) {
	w.mu.Lock()
	for i >= w.head+w.size {
		w.cond.Wait()
	}
	w.mu.Unlock()
}

// advance moves the window to start at capture head.
func (w *window) advance(head int) {
	w.mu.Lock()
	w.head = head
	w.mu.Unlock()
	w.cond.Broadcast()
}

// relay is the output of one capture of several: spooled until the
// capture's turn comes (goLive), then written straight through. A
// capture whose spool can take no more (its memory full, and no
// temporary file to be had: TMPDIR missing, not writable or full) waits
// in Write for its turn: the output is the same, the decoding of that
// capture merely no longer ahead of its turn.
type relay struct {
	mu    sync.Mutex
	turn  sync.Cond // broadcast by goLive
	out   io.Writer
	live  bool
	spool spool
	err   error // the first write error
}

// newRelay returns a relay to out whose spool keeps up to limit bytes in
// memory.
func newRelay(out io.Writer, limit int) *relay {
	r := &relay{out: out, spool: spool{limit: limit}}
	r.turn.L = &r.mu
	return r
}

func (r *relay) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return 0, r.err
	}
	n := 0
	if !r.live {
		if n = r.spool.Write(p); n == len(p) {
			return n, nil
		}
		for !r.live { // the spool is full: wait for the capture's turn
			r.turn.Wait()
		}
		if r.err != nil {
			return n, r.err
		}
	}
	m, err := r.out.Write(p[n:])
	r.err = err
	return n + m, err
}

// goLive writes what was spooled and lets the next writes through.
func (r *relay) goLive() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.spool.writeTo(r.out); err != nil && r.err == nil {
		r.err = err
	}
	r.live = true
	r.turn.Broadcast()
	return r.err
}

// spoolBudget is how much output the captures decoded ahead of their
// turn keep in memory together, spoolLeast the least each one keeps;
// beyond it, a capture's output goes to a temporary file in os.TempDir
// (TMPDIR; removed as soon as it is created: nothing is left behind),
// and when there is none to be had, or it fills up, the capture waits
// for its turn (relay). At most N captures (-j N) wait with a spool at
// once, each keeping max(spoolBudget/N, spoolLeast) in memory. Variables
// for the tests.
var spoolBudget, spoolLeast = 256 << 20, 8 << 20

// createTemp creates the spool's temporary file; tests replace it.
var createTemp = func() (spoolFile, error) { return os.CreateTemp("", "rocedump-spool-*") }

// spoolFile is what a spool needs of its temporary file.
type spoolFile interface {
	io.ReadWriteSeeker
	io.Closer
	Name() string
}

// spoolChunk is the size of the pieces of memory a spool holds, taken
// from and given back to chunks, so that the captures waiting in turn
// reuse the same memory.
const spoolChunk = 1 << 20

var chunks = sync.Pool{New: func() any { return new([spoolChunk]byte) }}

// spool holds output in memory up to its limit, and what comes after in
// a temporary file while one can be had and written.
type spool struct {
	mem   []*[spoolChunk]byte
	n     int // bytes in mem
	limit int // bytes mem may hold
	file  spoolFile
	full  bool // no temporary file could be made, or it could take no more
}

// Write takes what it can of p and returns how much: all of it, or, its
// memory full, as much as a temporary file took (none without one).
func (s *spool) Write(p []byte) int {
	if s.file == nil && s.n+len(p) <= s.limit {
		for rest := p; len(rest) > 0; {
			if s.n == len(s.mem)*spoolChunk {
				s.mem = append(s.mem, chunks.Get().(*[spoolChunk]byte))
			}
			c := copy(s.mem[s.n/spoolChunk][s.n%spoolChunk:], rest)
			s.n += c
			rest = rest[c:]
		}
		return len(p)
	}
	if s.full {
		return 0
	}
	if s.file == nil { // the memory is full: what comes after it goes to a file
		f, err := createTemp()
		if err != nil {
			s.full = true
			return 0
		}
		os.Remove(f.Name())
		s.file = f
	}
	n, err := s.file.Write(p)
	if err != nil {
		s.full = true
	}
	return n
}

// drain writes the memory held to w and gives it back.
func (s *spool) drain(w io.Writer) error {
	var err error
	for i, c := range s.mem {
		if n := min(s.n-i*spoolChunk, spoolChunk); err == nil {
			_, err = w.Write(c[:n])
		}
		chunks.Put(c)
	}
	s.mem, s.n = nil, 0
	return err
}

// writeTo writes what the spool holds to w and empties it.
func (s *spool) writeTo(w io.Writer) error {
	err := s.drain(w)
	if s.file != nil {
		if _, serr := s.file.Seek(0, io.SeekStart); serr != nil && err == nil {
			err = serr
		}
		if err == nil {
			buf := chunks.Get().(*[spoolChunk]byte)
			_, err = io.CopyBuffer(w, s.file, buf[:])
			chunks.Put(buf)
		}
		s.file.Close()
		s.file = nil
	}
	if err != nil {
		return errors.Join(errors.New("writing the output"), err)
	}
	return nil
}
