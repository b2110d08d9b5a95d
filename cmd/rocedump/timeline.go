package main

import (
	"bufio"
	"fmt"
	"os"

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
	tl := timeline.New(timeline.Config{Flows: *c.many.timelineFlows, Flow: fc})
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

// write writes the timeline page to path.
func (s *summary) write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("-timeline: %w", err)
	}
	w := bufio.NewWriter(f)
	err = s.tl.WriteHTML(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-timeline %s: %w", path, err)
	}
	return nil
}
