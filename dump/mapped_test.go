package dump_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/mmap"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// mapFile maps path read-only: a write to the mapping by the Source
// would fault and fail the test.
func mapFile(t *testing.T, path string) []byte {
	t.Helper()
	return mapped(t, path).Bytes()
}

// mapped maps path read-only, for NewSourceMapped.
func mapped(t *testing.T, path string) *mmap.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	m, ok := mmap.Map(f)
	if !ok {
		t.Skip("no mmap here")
	}
	t.Cleanup(func() { m.Close() })
	return m
}

type frameRead struct {
	data   []byte
	ci     gopacket.CaptureInfo
	lt     uint16
	number int
	off    int64
	err    string
}

func readEvery(t *testing.T, src *capfile.Source) []frameRead {
	t.Helper()
	var out []frameRead
	for {
		data, ci, lt, err := src.Next()
		if err == io.EOF {
			return out
		}
		fr := frameRead{data: bytes.Clone(data), ci: ci, lt: lt, number: src.Number()}
		if err != nil {
			fr.err = err.Error()
		}
		out = append(out, fr)
		var re *capfile.ReadError
		if err != nil && (!errors.As(err, &re) || re.Fatal) {
			return out
		}
	}
}

// TestSourceBytes: a capture read from its mapping (NewSourceBytes)
// gives the frames, capture information, link types, numbers and errors
// that the stream of the same file gives (NewSource), for every shipped
// and generated capture, as pcap, pcapng and gzip, and for the same
// captures cut short.
func TestSourceBytes(t *testing.T) {
	dir := t.TempDir()
	paths := append(testcaps.Shipped(t), testcaps.Generated(t, dir)...)
	g, err := gen.New(gen.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var ng bytes.Buffer
	if _, err := gen.Write(&ng, g, capfile.FormatPcapng); err != nil {
		t.Fatal(err)
	}
	extra := map[string][]byte{"gen.pcapng": ng.Bytes()}
	first, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(first)
	zw.Close()
	extra["first.pcap.gz"] = gz.Bytes()
	extra["cut.pcap"] = first[:len(first)*2/3]
	extra["cut.pcapng"] = ng.Bytes()[:ng.Len()*2/3]
	for name, b := range extra {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		stream, err := capfile.NewSource(f)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		want := readEvery(t, stream)
		f.Close()
		for _, how := range []string{"NewSourceBytes", "NewSourceMapped"} {
			var src *capfile.Source
			if how == "NewSourceBytes" {
				src, err = capfile.NewSourceBytes(mapFile(t, p))
			} else {
				src, err = capfile.NewSourceMapped(mapped(t, p))
			}
			if err != nil {
				t.Fatalf("%s %s: %v", p, how, err)
			}
			got := readEvery(t, src)
			if len(got) != len(want) || len(want) == 0 {
				t.Fatalf("%s: %d frames by %s, %d streamed", p, len(got), how, len(want))
			}
			for i := range want {
				w, g := want[i], got[i]
				if !bytes.Equal(w.data, g.data) || !ciEqual(w.ci, g.ci) || w.lt != g.lt || w.number != g.number || w.err != g.err {
					t.Fatalf("%s frame %d: %s %+v, streamed %+v", p, i+1, how, g, w)
				}
			}
		}
	}
}

// TestMappedFileCutShort: a capture file cut shorter while it is read
// from its mapping ends the scan with ErrShrank, with one decoding
// goroutine and with several, instead of a crash (SIGBUS).
func TestMappedFileCutShort(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.Messages, cfg.Size, cfg.MTU = 400, 65536, 4096
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		workers int
		mapped  bool
	}{{1, false}, {2, false}, {1, true}, {2, true}} {
		workers := c.workers
		p := filepath.Join(t.TempDir(), "c.pcap")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		var src *capfile.Source
		if c.mapped {
			src, err = capfile.NewSourceMapped(mapped(t, p))
		} else {
			src, err = capfile.NewSourceBytes(mapFile(t, p))
		}
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		_, err = dump.Scan(src, dump.Options{Workers: workers}, func(r *dump.Record) error {
			if n++; n == 1 {
				return os.Truncate(p, 4096)
			}
			return nil
		})
		if !errors.Is(err, capfile.ErrShrank) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("workers %d: %d frames of %d bytes, then %v; want ErrShrank", workers, n, buf.Len(), err)
		}
	}
}

func ciEqual(a, b gopacket.CaptureInfo) bool {
	return a.Timestamp.Equal(b.Timestamp) && a.CaptureLength == b.CaptureLength && a.Length == b.Length &&
		a.InterfaceIndex == b.InterfaceIndex
}

// TestMappedFileShrinksAtRecord: a capture file cut, while it is read
// from its mapping, at a record boundary in the middle of a page gives
// the records before the cut and no other: the rest of the page reads
// as zeros, which must not come out as frames (they did: 119 zero-length
// "malformed" frames of a pcap file, a fatal "total length 0" of a
// pcapng one). Reading ends with ErrShrank, with one decoding goroutine
// and with several. Under gzip the cut falls in the compressed bytes:
// the frames are the first ones of the file, then ErrShrank.
func TestMappedFileShrinksAtRecord(t *testing.T) {
	const frames, cutAt, frameLen = 20000, 10000, 60
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
	gzipped := gz(pcap.b)
	for _, c := range []struct {
		name string
		file []byte
		cut  int64
		n    int // the frames before the cut; 0: a prefix of them
	}{
		{"pcap", pcap.b, cutPcap, cutAt - 1},
		{"pcapng", ng.b, cutNg, cutAt - 1},
		{"gzip", gzipped, int64(len(gzipped) / 2), 0},
	} {
		if c.cut%4096 == 0 {
			t.Fatalf("%s: the cut falls on a page boundary", c.name)
		}
		for _, workers := range []int{1, 2} {
			p := filepath.Join(t.TempDir(), "c")
			if err := os.WriteFile(p, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := capfile.NewSourceMapped(mapped(t, p))
			if err != nil {
				t.Fatal(err)
			}
			var got [][]byte
			st, err := dump.Scan(src, dump.Options{Workers: workers}, func(r *dump.Record) error {
				got = append(got, bytes.Clone(r.Data))
				if len(got) == 1 {
					return os.Truncate(p, c.cut)
				}
				return nil
			})
			if !errors.Is(err, capfile.ErrShrank) {
				t.Errorf("%s, workers %d: error %v, want ErrShrank", c.name, workers, err)
			}
			if c.n > 0 && len(got) != c.n || len(got) == 0 || len(got) >= frames {
				t.Errorf("%s, workers %d: %d frames, want the %d before the cut", c.name, workers, len(got), c.n)
			}
			for i := range min(len(got), len(want)) {
				if !bytes.Equal(got[i], want[i]) {
					t.Errorf("%s, workers %d: frame %d is %x, want %x", c.name, workers, i+1, got[i], want[i])
					break
				}
			}
			if kinds := st.RoCE + st.NotRoCE + st.Malformed + st.Unsupported + st.MACControl + st.InfiniBand; kinds != st.Frames || st.Frames != len(got) {
				t.Errorf("%s, workers %d: %d frames, %d of them by kind, %d handed on", c.name, workers, st.Frames, kinds, len(got))
			}
		}
	}
}

// poisoned is a Mapping over a copy of a file whose Release overwrites
// what it releases: a Source that read bytes it had released would give
// wrong frames (with a real mapping it would fault them in again, a cost).
type poisoned struct {
	b        []byte
	released int
}

func (p *poisoned) Bytes() []byte        { return p.b }
func (p *poisoned) Size() (int64, error) { return int64(len(p.b)), nil }
func (p *poisoned) Release(off, n int) {
	for i := off; i < off+n; i++ {
		p.b[i] = 0xa5
	}
	p.released += n
}

// TestMappedRelease: NewSourceMapped releases what it has read, most of
// the file, and never reads a byte it has released: the frames are
// those of the stream, pcap, pcapng and gzip, with one decoding
// goroutine and with several.
func TestMappedRelease(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.Messages, cfg.Size, cfg.MTU = 700, 65536, 4096 // 46 MB: a few release steps
	var files [][]byte
	for _, f := range []capfile.Format{capfile.FormatPcap, capfile.FormatPcapng} {
		g, err := gen.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, g, f); err != nil {
			t.Fatal(err)
		}
		files = append(files, buf.Bytes())
	}
	files = append(files, gz(files[0]))
	for i, file := range files {
		stream, err := capfile.NewSource(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		want := readEvery(t, stream)
		for _, workers := range []int{1, 2} {
			p := &poisoned{b: bytes.Clone(file)}
			src, err := capfile.NewSourceMapped(p)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]byte
			st, err := dump.Scan(src, dump.Options{Workers: workers}, func(r *dump.Record) error {
				got = append(got, bytes.Clone(r.Data))
				return nil
			})
			if err != nil || st.Frames != len(want) || len(got) != len(want) {
				t.Fatalf("file %d, workers %d: %d frames, %v; want %d", i, workers, st.Frames, err, len(want))
			}
			for j := range want {
				if !bytes.Equal(got[j], want[j].data) {
					t.Fatalf("file %d, workers %d: frame %d differs from the stream's", i, workers, j+1)
				}
			}
			if p.released < len(file)-3*capfile.ReleaseStep {
				t.Errorf("file %d, workers %d: %d of %d bytes released", i, workers, p.released, len(file))
			}
		}
	}
}
