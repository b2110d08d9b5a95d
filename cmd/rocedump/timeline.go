package main

import (
	"bufio"
	"io"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/timeline"
)

// summary feeds the merged frames to -stats' analysis and, with
// -timeline, to the timeline, which then holds the analysis.
type summary struct {
	tl *timeline.Timeline // nil without -timeline
	an *flow.Analyzer
}

// newTimeline returns the summary of c's merged captures and its
// analysis.
func newTimeline(c config, fc flow.Config) (*summary, *flow.Analyzer) {
	if *c.many.timeline == "" {
		an := flow.New(fc)
		return &summary{an: an}, an
	}
	tl := timeline.New(timeline.Config{Flows: *c.many.timelineFlows, Flow: fc, Text: c.opt.TextOptions()})
	return &summary{tl: tl, an: tl.Analyzer()}, tl.Analyzer()
}

// add takes one frame of the capture named file.
func (s *summary) add(file string, r *dump.Record) {
	if s.tl != nil {
		s.tl.AddRecord(r, file)
		return
	}
	s.an.AddRecord(r)
}

// page is the -timeline page's file, created before any frame is read
// so that a page that cannot be written stops the command at once.
type page struct {
	path  string
	w     io.Writer
	close func() error
}

// createPage creates the page c.many.timeline names ("-": stdout).
func createPage(c config, stdout io.Writer) (*page, error) {
	path := *c.many.timeline
	w, closePage, err := createOutput("-timeline", path, stdout)
	if err != nil {
		return nil, err
	}
	return &page{path: path, w: w, close: closePage}, nil
}

// write writes the timeline to the page and closes it.
func (p *page) write(s *summary) error {
	w := bufio.NewWriter(p.w)
	err := s.tl.WriteHTML(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := p.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &outputError{"-timeline " + p.path, err}
	}
	return nil
}

// drawTimeline is -timeline over the command's one source (a live
// capture: files go through runMerged), named name on the page: the
// page, and with -stats the summary to w.
func drawTimeline(c config, src *capfile.Source, name string, w io.Writer, prog *progress) (dump.Stats, error) {
	pg, err := createPage(c, w)
	if err != nil {
		return dump.Stats{}, err
	}
	sum, an := newTimeline(c, c.flowConfig())
	name = validName(name)
	st, err := dump.Scan(src, c.opt, func(r *dump.Record) error { sum.add(name, r); return nil })
	prog.clear()
	if werr := pg.write(sum); err == nil {
		err = werr
	}
	if c.stats {
		if werr := writeSummary(w, an.Report(), st, c.opt.JSON); err == nil {
			err = werr
		}
	}
	return st, err
}
