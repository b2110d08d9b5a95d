package dump_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// frameOf is what TestMerge compares of a frame: its time, length and
// kind, and its bytes but for ERF records (mergecap rewrites their
// headers in pcapng).
type frameOf struct {
	ns   int64
	len  int
	kind dump.Kind
	data string
}

func frame(r *dump.Record) frameOf {
	f := frameOf{r.Time.UnixNano(), r.Len, r.Kind, string(r.Data)}
	if r.LinkType == capfile.LinkTypeERF {
		f.data = ""
	}
	return f
}

// TestMerge: Merge hands the frames of several captures in the order of
// mergecap's chronological merge of them (the shipped captures, whose
// times are years apart; the golden ones, whose frames share their
// timestamps across files; the two hosts of one connection), whatever
// the workers; with a filter and a count it hands the matching frames of
// that order, and each capture's Stats count its own frames.
func TestMerge(t *testing.T) {
	mc := oracle.Need(t, "mergecap")
	golden, _ := filepath.Glob("../testdata/golden/*.pcap")
	shipped, _ := filepath.Glob("../testdata/captures/*.pcap")
	hosts := []string{"../testdata/captures/rocev2_ipv4_rdmacm_write_read_rxe_b.pcap", "../testdata/captures/rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"}
	for _, files := range [][]string{golden, shipped, hosts} {
		merged := filepath.Join(t.TempDir(), "m.pcapng")
		if out, err := exec.Command(mc, append([]string{"-w", merged}, files...)...).CombinedOutput(); err != nil {
			t.Fatalf("mergecap: %v: %s", err, out)
		}
		var want []frameOf
		wst, err := dump.Scan(open(t, merged), dump.Options{Workers: 1}, func(r *dump.Record) error {
			want = append(want, frame(r))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2, 7} {
			var in []dump.MergeInput
			for _, f := range files {
				in = append(in, dump.MergeInput{Source: open(t, f)})
			}
			var got []frameOf
			numbers := make([]int, len(files))
			stats, errs, err := dump.Merge(in, workers, 0, func(i int, r *dump.Record) error {
				got = append(got, frame(r))
				if numbers[i]++; r.Number != numbers[i] {
					t.Fatalf("capture %d: frame number %d, want %d", i, r.Number, numbers[i])
				}
				return nil
			})
			var total dump.Stats
			for i := range stats {
				if errs[i] != nil || stats[i].Frames != numbers[i] {
					t.Errorf("capture %d: %v, %d frames, %d handed", i, errs[i], stats[i].Frames, numbers[i])
				}
				total.Add(stats[i])
			}
			if err != nil || total != wst || len(got) != len(want) {
				t.Fatalf("%d workers: %v, %+v, %d frames; mergecap: %+v, %d frames", workers, err, total, len(got), wst, len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%d workers: frame %d of the merge differs from mergecap's (at %d ns, want %d ns)", workers, i+1, got[i].ns, want[i].ns)
				}
			}
		}
		// The first 5 acknowledgements of the merge.
		var f dump.Filter
		if err := f.AddOpcodes("ack"); err != nil {
			t.Fatal(err)
		}
		var wantAck []frameOf
		dump.Scan(open(t, merged), dump.Options{Filter: f, Count: 5}, func(r *dump.Record) error {
			wantAck = append(wantAck, frame(r))
			return nil
		})
		var in []dump.MergeInput
		for _, p := range files {
			in = append(in, dump.MergeInput{Source: open(t, p), Options: dump.Options{Filter: f}})
		}
		var gotAck []frameOf
		dump.Merge(in, 2, 5, func(i int, r *dump.Record) error {
			gotAck = append(gotAck, frame(r))
			return nil
		})
		if len(gotAck) != len(wantAck) || len(gotAck) > 0 && !bytes.Equal([]byte(gotAck[len(gotAck)-1].data), []byte(wantAck[len(wantAck)-1].data)) {
			t.Errorf("filter and count: %d frames, want %d", len(gotAck), len(wantAck))
		}
	}
}

func open(t *testing.T, path string) *capfile.Source {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	src, err := capfile.NewSource(f)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestMergeCut: a capture cut short in the middle of a record ends with
// io.ErrUnexpectedEOF after its whole records; the other captures are
// read to their end.
func TestMergeCut(t *testing.T) {
	good := "../testdata/captures/rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"
	b, err := os.ReadFile("../testdata/captures/rocev2_ipv4_rdmacm_write_read_rxe_b.pcap")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.pcap")
	if err := os.WriteFile(cut, b[:len(b)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	in := []dump.MergeInput{{Source: open(t, cut)}, {Source: open(t, good)}}
	stats, errs, err := dump.Merge(in, 2, 0, func(int, *dump.Record) error { return nil })
	// rxe_b holds 16 frames, rxe_a 12 (testdata/captures/README.md).
	if err != nil || !errors.Is(errs[0], io.ErrUnexpectedEOF) || errs[1] != nil || stats[0].Frames != 15 || stats[1].Frames != 12 {
		t.Errorf("%v; errors %v; frames %d and %d, want 15 (the last cut) and 12", err, errs, stats[0].Frames, stats[1].Frames)
	}
	// fn's error stops the merge.
	stop := errors.New("stop")
	n := 0
	in = []dump.MergeInput{{Source: open(t, good)}, {Source: open(t, good)}}
	if _, _, err := dump.Merge(in, 2, 0, func(int, *dump.Record) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("fn's error: %v after %d frames", err, n)
	}
}
