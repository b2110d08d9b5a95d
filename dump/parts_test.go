package dump_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// jsonPart is a dump.Part of the frames' JSON lines.
type jsonPart struct{ out []byte }

func (p *jsonPart) Add(r *dump.Record) { p.out = append(r.AppendJSON(p.out), '\n') }
func (p *jsonPart) Reset()             { p.out = p.out[:0] }

// scanParts runs ScanParts over the capture in with opt, the parts
// joined; and Scan with Workers 1, each record's JSON line.
func scanParts(t *testing.T, in []byte, opt dump.Options) (parts, scan []byte, pst, sst dump.Stats) {
	t.Helper()
	open := func() *capfile.Source {
		src, err := capfile.NewSource(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	var out bytes.Buffer
	pst, perr := dump.ScanParts(open(), opt, func() dump.Part { return new(jsonPart) }, func(p dump.Part) error {
		out.Write(p.(*jsonPart).out)
		return nil
	})
	one := opt
	one.Workers = 1
	var want bytes.Buffer
	sst, serr := dump.Scan(open(), one, func(r *dump.Record) error {
		want.Write(append(r.AppendJSON(nil), '\n'))
		return nil
	})
	if fmt.Sprint(perr) != fmt.Sprint(serr) {
		t.Errorf("ScanParts: %v, Scan: %v", perr, serr)
	}
	return out.Bytes(), want.Bytes(), pst, sst
}

// TestScanParts checks that the parts ScanParts hands on hold the frames
// Scan hands on, in the same order, with the same Stats, for every
// number of decoding goroutines, with a filter and with a count, over
// the pipeline's test inputs (runs of unreadable records, a capture cut
// short, thousands of frames) and the generated captures.
func TestScanParts(t *testing.T) {
	inputs := pipeInputs(t)
	for _, path := range testcaps.Generated(t, t.TempDir()) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(path)] = b
	}
	opts := map[string]dump.Options{
		"j1": {Workers: 1}, "j2": {Workers: 2}, "j4": {Workers: 4},
		"j2 qp":      {Workers: 2, Filter: dump.Filter{QP: 512, HasQP: true}},
		"j2 -c 3000": {Workers: 2, Count: 3000},
	}
	frames := 0
	for path, in := range inputs {
		for name, opt := range opts {
			got, want, gst, wst := scanParts(t, in, opt)
			if !bytes.Equal(got, want) || gst != wst {
				t.Errorf("%s %s: ScanParts %d bytes %+v, Scan %d bytes %+v", path, name, len(got), gst, len(want), wst)
			}
			if len(want) == 0 && !opt.Filter.HasQP && gst.Frames > 0 {
				t.Errorf("%s %s: no frame", path, name)
			}
			frames += bytes.Count(got, []byte{'\n'})
		}
	}
	t.Logf("%d frames of %d captures in %d settings", frames, len(inputs), len(opts))
}

// TestScanPartsError checks that fn's error ends ScanParts and is
// returned, with and without the pipeline.
func TestScanPartsError(t *testing.T) {
	path := testcaps.Generated(t, t.TempDir())[0]
	stop := errors.New("stop")
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		src, err := capfile.NewSource(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		_, err = dump.ScanParts(src, dump.Options{Workers: workers}, func() dump.Part { return new(jsonPart) },
			func(dump.Part) error { calls++; return stop })
		if !errors.Is(err, stop) || calls != 1 {
			t.Errorf("workers %d: %v after %d calls, want %v after 1", workers, err, calls, stop)
		}
	}
}
