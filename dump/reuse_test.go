package dump_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestRecordReuse: a Record reused for every frame of a capture (Scan's)
// writes each frame's text line and verbose lines as a fresh Record does,
// whatever the frames before it: what a Record keeps from one line to the
// next (the clock of the second, the text of the endpoints) is only a
// cache. Every shipped capture, the frames in order and then in reverse.
func TestRecordReuse(t *testing.T) {
	for _, p := range testcaps.Shipped(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src, err := capfile.NewSource(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var frames []func(r *dump.Record) // each decodes its frame into r
		for {
			d, ci, lt, err := src.Next()
			if err != nil {
				break
			}
			data, n := bytes.Clone(d), src.Number()
			frames = append(frames, func(r *dump.Record) { r.Decode(n, ci, lt, data) })
		}
		for _, reverse := range []bool{false, true} {
			var reused dump.Record
			for k := range frames {
				i := k
				if reverse {
					i = len(frames) - 1 - k
				}
				frames[i](&reused)
				var fresh dump.Record
				frames[i](&fresh)
				got, want := reused.AppendVerbose(reused.AppendText(nil)), fresh.AppendVerbose(fresh.AppendText(nil))
				if !bytes.Equal(got, want) {
					t.Fatalf("%s frame %d (reverse %v): a reused Record writes\n%s\nwant\n%s", p, i+1, reverse, got, want)
				}
			}
		}
	}
}
