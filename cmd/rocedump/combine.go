package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/roce-go/roce/cmd/internal/cli"
)

// The outputs rocedump has, and what each flag needs to have an effect.
// Every flag given either changes what is written or is refused, naming
// the flags that do not go together (exit 2), before anything is read
// or written: no flag is silently ignored.
//
// The outputs are the frames as text lines (the default, with -v every
// header after each), as JSON Lines (-json), as a capture (-w), as
// Parquet (-parquet), a -stats summary (text, or JSON with -json; beside
// -w or -timeline too) and the -timeline page. -w, -parquet and
// -timeline exclude one another, and -parquet -stats; -w and -parquet
// FILE hold one capture, so several captures or a directory need a
// -parquet directory and are refused with -w.

// outputs is what the command line writes.
type outputs struct {
	json, stats, w, parquet, timeline bool
	fields                            bool // -T fields
}

// of returns the outputs c asks for.
func outputsOf(c *config) outputs {
	return outputs{json: c.opt.JSON, stats: c.stats, w: c.out != "", parquet: c.parquet != "", timeline: *c.many.timeline != "", fields: c.opt.Fields != nil}
}

// lines reports whether the frames are printed, as text or JSON lines.
func (o outputs) lines() bool { return !o.stats && !o.w && !o.parquet && !o.timeline }

// text reports whether the frames are printed as text lines.
func (o outputs) text() bool { return o.lines() && !o.json && !o.fields }

// notText names an output that prints no text lines, for a message.
func (o outputs) notText() string {
	switch {
	case o.stats:
		return "-stats"
	case o.w:
		return "-w"
	case o.parquet:
		return "-parquet"
	case o.timeline:
		return "-timeline"
	case o.fields:
		return "-T fields"
	}
	return "-json"
}

// textFlagNames are the flags that shape the text lines, in the order a
// message names them.
var textFlagNames = []string{"v", "utc", "e", "q", "x", "xx", "X", "XX", "t", "tt", "ttt", "tttt", "ttttt", "nano", "number", "#"}

// analysisFlags are the flags of the flow analysis that -stats and
// -timeline make.
var analysisFlags = []string{"max-flows", "cnp-interval", "pfc-storm"}

// combination returns what is wrong with the flags given together, and
// with the captures files (the FILE and DIR arguments; none for standard
// input or -i), or "".
func combination(cmd *cli.Command, c *config, files []string) string {
	o := outputsOf(c)
	given := cmd.Given
	pairs := []struct {
		a, b bool
		msg  string
	}{
		{o.fields, o.json, "-T fields and -json: one way of printing the frames at a time"},
		{o.fields, o.stats, "-T fields prints the frames, -stats a summary: one at a time"},
		{o.fields, o.w, "-T fields prints the frames, -w writes them to FILE: one at a time"},
		{o.fields, o.parquet, "-T fields prints the frames, -parquet writes them to OUT: one at a time"},
		{o.fields, o.timeline, "-T fields prints the frames, -timeline draws them: one at a time"},
		{o.parquet && o.w, true, "-parquet and -w: one output at a time"},
		{o.parquet && o.stats, true, "-parquet writes the frames, -stats a summary: one at a time"},
		{o.parquet && o.timeline, true, "-parquet and -timeline: one output at a time"},
		{o.timeline && o.w, true, "-timeline and -w: one output at a time"},
		{given("ecmp"), !o.stats, "-ecmp is a what-if of the -stats summary: give -stats"},
		{*c.many.perFile, !o.stats, "-per-file says how -stats summarizes several captures: give -stats"},
		{*c.many.perFile, o.timeline, "-per-file and -timeline: the timeline shows all the captures at once"},
		{o.parquet, o.json, "-parquet and -json: -parquet writes the frames to OUT, -json says how to print them"},
		{o.w && o.json, !o.stats, "-w and -json: -w writes the frames to FILE, -json says how to print them (or the -stats summary)"},
		{o.timeline && o.json, !o.stats, "-timeline and -json: the page is HTML; -json prints the -stats summary as JSON: give -stats"},
		{c.out == "-", o.stats, "-w - and -stats: standard output takes the capture, -stats the summary: write the capture to a file"},
		{*c.many.timeline == "-", o.stats, "-timeline - and -stats: standard output takes the page, -stats the summary: write the page to a file"},
	}
	for _, p := range pairs {
		if p.a && p.b {
			return p.msg
		}
	}
	if !o.text() {
		for _, n := range textFlagNames {
			if given(n) && !(n == "e" && o.fields) {
				return fmt.Sprintf("-%s shapes the text lines, which %s does not print", n, o.notText())
			}
		}
	}
	if given("speed") && !o.text() && !o.stats && !o.timeline {
		return fmt.Sprintf("-speed gives pause quanta as times in the text lines, -stats and -timeline: not with %s alone", o.notText())
	}
	for _, n := range analysisFlags {
		if given(n) && !o.stats && !o.timeline {
			return fmt.Sprintf("-%s is a setting of the flow analysis: give -stats or -timeline", n)
		}
	}
	if given("timeline-flows") && !o.timeline {
		return "-timeline-flows says how many flows -timeline draws: give -timeline"
	}
	if len(files) > 1 && slices.Contains(files, "-") {
		return "standard input (-) can only be read alone"
	}
	several := len(files) > 1
	dirs := 0
	for _, f := range files {
		if f != "-" {
			if fi, err := os.Stat(f); err == nil && fi.IsDir() {
				dirs++
			}
		}
	}
	if dirs > 0 {
		several = true
	}
	if *c.many.recursive && dirs == 0 {
		return "-R reads the directories given recursively: give a DIR"
	}
	what := "several captures"
	if dirs > 0 {
		what = "a directory"
	}
	switch {
	case o.w && several:
		return fmt.Sprintf("-w writes the frames of one capture, not of %s: give one FILE (mergecap joins captures)", what)
	case o.parquet && several && !parquetDir(c.parquet):
		out := c.parquet
		if out == "-" {
			out = "- (standard output)"
		}
		return fmt.Sprintf("-parquet %s holds one capture, not %s: give a directory, -parquet OUT/, for one file per capture", out, what)
	}
	return ""
}

// output is a file the command writes: the flag that names it and its
// path.
type output struct {
	flag, path string
}

// outputFiles returns the files c writes (not standard output) when it
// reads the captures files (expanded: no directory; "-" or none for
// standard input). A -parquet directory gives one file per capture, as
// parquetNames names them.
func outputFiles(c *config, files []string) []output {
	var outs []output
	if c.out != "" && c.out != "-" {
		outs = append(outs, output{"-w", c.out})
	}
	if t := *c.many.timeline; t != "" && t != "-" {
		outs = append(outs, output{"-timeline", t})
	}
	switch {
	case c.parquet == "" || c.parquet == "-":
	case parquetDir(c.parquet):
		names := files
		if c.live.iface != "" {
			names = []string{c.live.iface}
		} else if len(names) == 0 {
			names = []string{"-"}
		}
		for _, n := range parquetNames(names) {
			outs = append(outs, output{"-parquet", parquetPath(c.parquet, n)})
		}
	default:
		outs = append(outs, output{"-parquet", c.parquet})
	}
	return outs
}

// writesStdout reports whether c writes to standard output.
func writesStdout(c *config) bool {
	o := outputsOf(c)
	return o.lines() || o.stats || c.out == "-" || c.parquet == "-" || *c.many.timeline == "-"
}

// clobbers returns what is wrong, if anything, with the files c writes
// beside the captures it reads (files, expanded; "-" for standard input,
// stdin): no output may be a capture being read, whatever path names it
// (a symbolic link, a hard link: os.SameFile), nor a file that a
// directory being read would take for one of its captures, nor another
// output. Standard output counts when it is a regular file.
func clobbers(c *config, files []string, stdin, stdout any) string {
	type in struct {
		name string
		fi   os.FileInfo
	}
	var ins []in
	var dirs []in
	for _, f := range c.many.files {
		if fi, err := os.Stat(f); err == nil && fi.IsDir() {
			dirs = append(dirs, in{f, fi})
		}
	}
	if len(files) == 0 && c.live.iface == "" {
		files = []string{"-"}
	}
	for _, f := range files {
		if f == "-" {
			if fi, ok := fileInfo(stdin); ok {
				ins = append(ins, in{"standard input", fi})
			}
			continue
		}
		if fi, err := os.Stat(f); err == nil {
			ins = append(ins, in{f, fi})
		}
	}
	type out struct {
		output
		fi os.FileInfo // nil: not there yet
	}
	var outs []out
	for _, o := range outputFiles(c, files) {
		fi, err := os.Stat(o.path)
		if err != nil {
			fi = nil
		}
		outs = append(outs, out{o, fi})
	}
	if fi, ok := fileInfo(stdout); ok && fi.Mode().IsRegular() && writesStdout(c) {
		outs = append(outs, out{output{"standard output", ""}, fi})
	}
	for i, o := range outs {
		name := o.flag + " " + o.path
		if o.path == "" {
			name = o.flag
		}
		if o.fi == nil {
			// Not there yet: it must not be a capture a directory
			// being read holds, which the next run would read.
			if isCaptureName(filepath.Base(o.path)) {
				for _, d := range dirs {
					if inDir(o.path, d.fi, *c.many.recursive) {
						return fmt.Sprintf("%s: a capture's name in %s, whose captures are read: give the output another name or place", name, d.name)
					}
				}
			}
			continue
		}
		for _, f := range ins {
			if os.SameFile(o.fi, f.fi) {
				if f.name == o.path {
					return fmt.Sprintf("%s: the capture being read: no output may overwrite an input", name)
				}
				return fmt.Sprintf("%s is %s, the capture being read: no output may overwrite an input", name, f.name)
			}
		}
		for _, p := range outs[:i] {
			if p.fi != nil && os.SameFile(o.fi, p.fi) {
				pn := p.flag + " " + p.path
				if p.path == "" {
					pn = p.flag
				}
				return fmt.Sprintf("%s and %s are the same file: one output each", pn, name)
			}
		}
	}
	return ""
}

// fileInfo stats f when it is an *os.File (standard input or output).
func fileInfo(f any) (os.FileInfo, bool) {
	file, ok := f.(*os.File)
	if !ok {
		return nil, false
	}
	fi, err := file.Stat()
	return fi, err == nil
}

// inDir reports whether path (not there yet) would be in dir, directly
// or, recursively, in a subdirectory of it.
func inDir(path string, dir os.FileInfo, recursive bool) bool {
	for p := parentDir(path); ; p = parentDir(p) {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, dir) {
			return true
		}
		if !recursive || p == parentDir(p) {
			return false
		}
	}
}

// parentDir is filepath.Dir, made absolute so that it ends at the root.
func parentDir(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return filepath.Dir(abs)
}
