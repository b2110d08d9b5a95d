package dump_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/mmap"
	"github.com/roce-go/roce/internal/testcaps"
)

// mapFile maps path read-only: a write to the mapping by the Source
// would fault and fail the test.
func mapFile(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	b, unmap, ok := mmap.Map(f)
	if !ok {
		t.Skip("no mmap here")
	}
	t.Cleanup(func() { unmap() })
	return b
}

type frameRead struct {
	data   []byte
	ci     gopacket.CaptureInfo
	lt     uint16
	number int
	off    int64
	err    string
}

func readEvery(t *testing.T, src *dump.Source) []frameRead {
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
		var re *dump.ReadError
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
	if _, err := gen.Write(&ng, g, gen.PcapNG); err != nil {
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
		stream, err := dump.NewSource(f)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		want := readEvery(t, stream)
		f.Close()
		mapped, err := dump.NewSourceBytes(mapFile(t, p))
		if err != nil {
			t.Fatalf("%s mapped: %v", p, err)
		}
		got := readEvery(t, mapped)
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("%s: %d frames mapped, %d streamed", p, len(got), len(want))
		}
		for i := range want {
			w, g := want[i], got[i]
			if !bytes.Equal(w.data, g.data) || !ciEqual(w.ci, g.ci) || w.lt != g.lt || w.number != g.number || w.err != g.err {
				t.Fatalf("%s frame %d: mapped %+v, streamed %+v", p, i+1, g, w)
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
	if _, err := gen.Write(&buf, g, gen.Pcap); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		p := filepath.Join(t.TempDir(), "c.pcap")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := dump.NewSourceBytes(mapFile(t, p))
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
		if !errors.Is(err, dump.ErrShrank) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("workers %d: %d frames of %d bytes, then %v; want ErrShrank", workers, n, buf.Len(), err)
		}
	}
}

func ciEqual(a, b gopacket.CaptureInfo) bool {
	return a.Timestamp.Equal(b.Timestamp) && a.CaptureLength == b.CaptureLength && a.Length == b.Length &&
		a.InterfaceIndex == b.InterfaceIndex
}
