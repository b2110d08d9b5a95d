package dump_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
)

// TestMappedFileShrinksBehindReader: a capture file cut, while it is
// read from its mapping by several goroutines, at a record the reader
// has already gone past gives the records before the cut and no other,
// in Scan and in Dump: the frames read in place are checked against the
// file's size once the workers have read them, not when the reader met
// them. The cut falls in the second batch, the reader having filled the
// whole pool of batches (the sleep) before it.
func TestMappedFileShrinksBehindReader(t *testing.T) {
	const frames, cutAt, frameLen = 4000, 400, 60
	want := make([][]byte, frames)
	pcap := pcapHeader(binary.LittleEndian, true, 0, 1)
	ng := ngSection(nil, binary.LittleEndian).idb(1, 0, 9, 0)
	var cutPcap, cutNg int64
	for i := range want {
		fr := make([]byte, frameLen)
		copy(fr, []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5}) // a local ethertype: not RoCE
		binary.BigEndian.PutUint32(fr[14:], uint32(i+1))
		want[i] = fr
		if i == cutAt-1 {
			cutPcap, cutNg = int64(len(pcap.b)), int64(len(ng.b))
		}
		pcap.record(1700000000, uint32(i), frameLen, frameLen, fr)
		ng.epb(0, 1700000000e9+uint64(i), frameLen, frameLen, fr)
	}
	for _, c := range []struct {
		name string
		file []byte
		cut  int64
	}{{"pcap", pcap.b, cutPcap}, {"pcapng", ng.b, cutNg}} {
		if c.cut%4096 == 0 {
			t.Fatalf("%s: the cut falls on a page boundary", c.name)
		}
		for _, dumping := range []bool{false, true} {
			p := filepath.Join(t.TempDir(), "c")
			if err := os.WriteFile(p, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := capfile.NewSourceMapped(mapped(t, p))
			if err != nil {
				t.Fatal(err)
			}
			var got [][]byte
			var st dump.Stats
			if dumping {
				var out bytes.Buffer
				opt := dump.Options{Workers: 2, Match: func(r *dump.Record) bool {
					if r.Number == 1 { // the first batch waits: the reader fills the pool
						time.Sleep(20 * time.Millisecond)
					}
					return true
				}}
				first := true
				w := writerFunc(func(b []byte) (int, error) {
					if first {
						first = false
						if err := os.Truncate(p, c.cut); err != nil {
							t.Fatal(err)
						}
					}
					return out.Write(b)
				})
				st, err = dump.Dump(w, src, opt)
				for _, l := range bytes.SplitAfter(out.Bytes(), []byte("\n")) {
					if len(l) > 0 {
						got = append(got, l)
					}
				}
			} else {
				st, err = dump.Scan(src, dump.Options{Workers: 2}, func(r *dump.Record) error {
					got = append(got, bytes.Clone(r.Data))
					if len(got) == 1 {
						time.Sleep(20 * time.Millisecond) // the reader fills the pool
						return os.Truncate(p, c.cut)
					}
					return nil
				})
				for i := range min(len(got), len(want)) {
					if !bytes.Equal(got[i], want[i]) {
						t.Errorf("%s: frame %d is %x, want %x", c.name, i+1, got[i], want[i])
						break
					}
				}
			}
			if !errors.Is(err, capfile.ErrShrank) {
				t.Errorf("%s, dump %v: error %v, want ErrShrank", c.name, dumping, err)
			}
			if len(got) != cutAt-1 || st.Frames != cutAt-1 {
				t.Errorf("%s, dump %v: %d frames handed on, %d counted; want the %d before the cut", c.name, dumping, len(got), st.Frames, cutAt-1)
			}
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
