package dump_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// run is what one Scan or Dump did: its output, Stats, error and the
// calls of Unreadable and Progress, in order.
type pipeRun struct {
	out   []byte
	st    dump.Stats
	err   string
	calls []string
}

// pipeDump runs Dump (scan false) or Scan (scan true, fn formatting each
// record as Dump would) on in with opt.
func pipeDump(t *testing.T, in []byte, opt dump.Options, scan bool) pipeRun {
	t.Helper()
	src, err := capfile.NewSource(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var r pipeRun
	opt.Unreadable = func(e *capfile.ReadError) { r.calls = append(r.calls, "unreadable "+e.Error()) }
	opt.Progress = func(frames int, off int64) { r.calls = append(r.calls, fmt.Sprint("progress ", frames, off)) }
	var w bytes.Buffer
	var st dump.Stats
	if scan {
		txt, js := opt.TextOptions(), dump.JSONOptions{File: opt.File}
		st, err = dump.Scan(src, opt, func(rec *dump.Record) error {
			if opt.JSON {
				w.Write(js.AppendJSON(nil, rec))
			} else {
				txt.Follow(rec.Time)
				w.Write(txt.AppendText(nil, rec))
			}
			fmt.Fprintf(&w, "#%d %v %d %v\n", rec.Number, rec.Time.UnixNano(), rec.Len, rec.Kind)
			return nil
		})
	} else {
		st, err = dump.Dump(&w, src, opt)
	}
	r.out, r.st = w.Bytes(), st
	if err != nil {
		r.err = err.Error()
	}
	return r
}

func samePipeRun(t *testing.T, what string, got, want pipeRun) {
	t.Helper()
	if !bytes.Equal(got.out, want.out) {
		t.Errorf("%s: output differs (%d bytes, want %d)", what, len(got.out), len(want.out))
	}
	if got.st != want.st || got.err != want.err {
		t.Errorf("%s: stats %+v, error %q; want %+v, %q", what, got.st, got.err, want.st, want.err)
	}
	if fmt.Sprint(got.calls) != fmt.Sprint(want.calls) {
		t.Errorf("%s: calls %q, want %q", what, got.calls, want.calls)
	}
}

// mixedCapture builds a pcapng file of many frames of every kind across
// several sections: RoCE from the shipped captures, bad ICRCs, frames cut
// by the capture (ICRC unchecked) and cut as captured (malformed),
// native InfiniBand, ERF, Simple Packet Blocks, records that cannot be
// read (reported and skipped), times going back and forth across
// seconds; it ends cut in a record when cut is set.
func mixedCapture(t *testing.T, cut bool) []byte {
	t.Helper()
	var eth [][]byte
	for _, name := range []string{"rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap",
		"ecn_ipv4_udp_all_ce_p4switch.pcap", "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"} {
		f, err := os.Open(filepath.Join(capDir, name))
		if err != nil {
			t.Fatal(err)
		}
		src, err := capfile.NewSource(f)
		if err != nil {
			t.Fatal(err)
		}
		for {
			data, _, _, err := src.Next()
			if err != nil {
				break
			}
			eth = append(eth, bytes.Clone(data))
		}
		f.Close()
	}
	f, err := os.Open(filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	erf := readFrames(t, f, 40)
	f.Close()
	ibp := ibPackets(t, 40)
	le := binary.LittleEndian
	w := ngSection(nil, le).idb(1, 0, 9, 0).idb(capfile.LinkTypeERF, 0, 6, 0).idb(capfile.LinkTypeInfiniBand, 0, 6, 0)
	ts := uint64(1700000000_000000000)
	for i := 0; i < 12000; i++ {
		ts += uint64(i%7) * 137_000_000 // a few frames per second
		if i%97 == 0 {
			ts -= 2_000_000_000 // back in time
		}
		fr := eth[i%len(eth)]
		switch {
		case i%1500 == 777:
			w.epb(0, 0, 5000, 5000, fr) // longer than its block: unreadable, skipped
		case i%1000 == 999:
			w = ngSection(w, le).idb(1, 0, 9, 0).idb(capfile.LinkTypeERF, 0, 6, 0).idb(capfile.LinkTypeInfiniBand, 0, 6, 0)
		case i%53 == 0:
			bad := bytes.Clone(fr)
			bad[len(bad)-1] ^= 1
			w.epb(0, ts, uint32(len(bad)), uint32(len(bad)), bad)
		case i%59 == 0 && len(fr) > 40:
			w.epb(0, ts, uint32(len(fr)-10), uint32(len(fr)), fr[:len(fr)-10]) // the capture cut it
		case i%61 == 0 && len(fr) > 40:
			w.epb(0, ts, uint32(len(fr)-30), uint32(len(fr)-30), fr[:len(fr)-30]) // malformed
		case i%67 == 0:
			e := erf[i%len(erf)]
			w.epb(1, ts/1000, uint32(len(e)), uint32(len(e)), e)
		case i%71 == 0:
			p := ibp[i%len(ibp)]
			w.epb(2, ts/1000, uint32(len(p)), uint32(len(p)), p)
		case i%73 == 0:
			w.spb(uint32(len(fr)), fr)
		default:
			w.epb(0, ts, uint32(len(fr)), uint32(len(fr)), fr)
		}
	}
	if cut {
		w.b = append(w.b, 6, 0, 0, 0, 200, 0, 0, 0, 1, 2)
	}
	return w.b
}

func pipeInputs(t *testing.T) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	for _, dir := range []string{capDir, "../testdata/golden"} {
		names, err := filepath.Glob(filepath.Join(dir, "*.pcap"))
		if err != nil || len(names) == 0 {
			t.Fatalf("no captures in %s: %v", dir, err)
		}
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			in[filepath.Base(n)] = b
		}
	}
	in["mixed.pcapng"] = mixedCapture(t, false)
	in["mixed-cut.pcapng"] = mixedCapture(t, true)
	in["mixed.pcapng.gz"] = gz(in["mixed.pcapng"])
	in["empty.pcap"] = pcapHeader(binary.LittleEndian, false, 0, 1).b
	return in
}

// TestPipelineSameAsSequential: Dump and Scan give the same output,
// Stats, error and calls of Unreadable and Progress whatever
// Options.Workers, on every shipped capture and generated ones, with
// counts, filters, text and JSON; and no goroutine is left behind.
func TestPipelineSameAsSequential(t *testing.T) {
	before := runtime.NumGoroutine()
	inputs := pipeInputs(t)
	filters := []dump.Filter{{}, {HasOpcode: true, Opcode: ib.Opcode(0x0a)}, {HasQP: true, QP: 0x11}}
	loc := time.FixedZone("X", 5*3600+1800)
	for name, in := range inputs {
		for _, json := range []bool{false, true} {
			for _, count := range []int{0, 1, 7, 1000, 9000} {
				for fi, f := range filters {
					if (count != 0 && count != 7 || json) && fi > 0 && name != "mixed.pcapng" {
						continue
					}
					for _, scan := range []bool{false, true} {
						opt := dump.Options{JSON: json, Count: count, Filter: f, Location: loc, Speed: pfc.Speed25G, Workers: 1}
						want := pipeDump(t, in, opt, scan)
						for _, w := range []int{2, 3, 4} {
							opt.Workers = w
							got := pipeDump(t, in, opt, scan)
							samePipeRun(t, fmt.Sprintf("%s json=%v -c %d filter %d scan=%v -j %d", name, json, count, fi, scan, w), got, want)
						}
					}
				}
			}
		}
	}
	if st := pipeDump(t, inputs["mixed-cut.pcapng"], dump.Options{Workers: 2}, false); st.st.Unreadable != 8 || st.err == "" || st.st.Frames < 11000 {
		t.Errorf("mixed-cut: stats %+v, error %q: want 8 unreadable records and the cut reported", st.st, st.err)
	}
	noLeak(t, before)
}

// noLeak waits for the goroutines to go back to before.
func noLeak(t *testing.T, before int) {
	t.Helper()
	for i := 0; ; i++ {
		n := runtime.NumGoroutine()
		if n <= before {
			return
		}
		if i == 100 {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// failWriter takes limit bytes, then fails.
type failWriter struct {
	b     bytes.Buffer
	limit int
}

var errFull = errors.New("full")

func (w *failWriter) Write(p []byte) (int, error) {
	if room := w.limit - w.b.Len(); len(p) > room {
		w.b.Write(p[:max(room, 0)])
		return max(room, 0), errFull
	}
	return w.b.Write(p)
}

// TestPipelineStops: a write error and an error of fn stop Scan and Dump
// at the same frame, with the same Stats, whatever Workers, and leave no
// goroutine behind.
func TestPipelineStops(t *testing.T) {
	before := runtime.NumGoroutine()
	in := mixedCapture(t, false)
	// The default lines, and tcpdump's -ttt -e -x, whose deltas the
	// consumer puts in.
	for fi, text := range []dump.TextFormat{{}, {Time: dump.TimeDelta, Link: true, Hex: dump.Hex}} {
		for _, limit := range []int{0, 1, 150, 100000, 1234567} {
			var want pipeRun
			for _, w := range []int{1, 2, 4} {
				src, err := capfile.NewSource(bytes.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				fw := &failWriter{limit: limit}
				st, err := dump.Dump(fw, src, dump.Options{Text: text, Workers: w})
				if !errors.Is(err, errFull) {
					t.Fatalf("limit %d: %v", limit, err)
				}
				got := pipeRun{out: fw.b.Bytes(), st: st, err: err.Error()}
				if w == 1 {
					want = got
					continue
				}
				samePipeRun(t, fmt.Sprintf("format %d: write error after %d bytes, -j %d", fi, limit, w), got, want)
			}
		}
	}
	for _, stop := range []int{1, 2, 255, 256, 257, 5000} {
		var want pipeRun
		for _, w := range []int{1, 2, 4} {
			src, err := capfile.NewSource(bytes.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			var got pipeRun
			st, err := dump.Scan(src, dump.Options{Workers: w}, func(r *dump.Record) error {
				got.out = r.AppendText(got.out)
				if r.Number >= stop {
					return errFull
				}
				return nil
			})
			got.st, got.err = st, fmt.Sprint(err)
			if w == 1 {
				want = got
				continue
			}
			samePipeRun(t, fmt.Sprintf("fn error at frame %d, -j %d", stop, w), got, want)
		}
	}
	noLeak(t, before)
}

// TestPipelineAllocs: in steady state the pipeline allocates nothing per
// frame: Dump and Scan of a capture four times as long allocate no more.
func TestPipelineAllocs(t *testing.T) {
	fr := goldenFrames(t, "rocev2_ipv4.pcap", 2)
	capture := func(n int) []byte {
		w := pcapHeader(binary.LittleEndian, false, 0, 1)
		for i := 0; i < n; i++ {
			f := fr[i%2]
			w.record(uint32(i/3), uint32(i%3*1000), uint32(len(f)), uint32(len(f)), f)
		}
		return w.b
	}
	small, large := capture(5000), capture(20000)
	// Text with tcpdump's -ttt -e -X: the consumer puts the deltas in.
	tcpdumpText := dump.TextFormat{Time: dump.TimeDelta, Link: true, Hex: dump.HexASCII}
	for _, scan := range []bool{false, true} {
		for _, format := range []string{"text", "json", "text -ttt -e -X"} {
			json := format == "json"
			allocs := func(in []byte) float64 {
				return testing.AllocsPerRun(5, func() {
					src, err := capfile.NewSource(bytes.NewReader(in))
					if err != nil {
						t.Fatal(err)
					}
					opt := dump.Options{JSON: json, Workers: 2}
					if format != "text" && !json {
						opt.Text = tcpdumpText
					}
					if scan {
						buf := make([]byte, 0, 4096)
						_, err = dump.Scan(src, opt, func(r *dump.Record) error { buf = r.AppendText(buf[:0]); return nil })
					} else {
						_, err = dump.Dump(io.Discard, src, opt)
					}
					if err != nil {
						t.Fatal(err)
					}
				})
			}
			a, b := allocs(small), allocs(large)
			if b > a+10 {
				t.Errorf("scan %v, %s: %v allocations for 5000 frames, %v for 20000", scan, format, a, b)
			}
		}
	}
}
