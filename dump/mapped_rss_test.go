//go:build linux

package dump_test

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/mmap"
)

// mappingRss returns the resident size of the mapping that holds b,
// from /proc/self/smaps.
func mappingRss(t *testing.T, b []byte) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	addr := uint64(uintptr(unsafe.Pointer(&b[0])))
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = l <= addr && addr < h
				continue
			}
		}
		if in && strings.HasPrefix(line, "Rss:") {
			kb, err := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("the mapping is not in /proc/self/smaps")
	return 0
}

// TestMappedResidentMemory: reading a mapped capture (NewSourceMapped)
// keeps the mapping's resident memory within a few release steps,
// however large the file: what was read is released as reading goes on.
// (Before, all 64 MB of this file stayed resident: resident memory
// followed the file's size.)
func TestMappedResidentMemory(t *testing.T) {
	const size = 64 << 20
	const frameLen = 1500
	fr := make([]byte, frameLen)
	copy(fr, []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5})
	w := pcapHeader(binary.LittleEndian, true, 0, 1)
	for len(w.b) < size {
		w.record(1700000000, 0, frameLen, frameLen, fr)
	}
	p := filepath.Join(t.TempDir(), "big.pcap")
	if err := os.WriteFile(p, w.b, 0o644); err != nil {
		t.Fatal(err)
	}
	frames := (len(w.b) - 24) / (16 + frameLen)
	t.Run("merge of two", func(t *testing.T) {
		a, b := mapped(t, p), mapped(t, p)
		var in []dump.MergeInput
		for _, m := range []*mmap.File{a, b} {
			src, err := capfile.NewSourceMapped(m)
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, dump.MergeInput{Source: src})
		}
		var peak int64
		n := 0
		_, errs, err := dump.Merge(in, 2, 0, func(i int, r *dump.Record) error {
			if n++; n%4096 == 0 {
				peak = max(peak, mappingRss(t, a.Bytes()), mappingRss(t, b.Bytes()))
			}
			return nil
		})
		if err != nil || errs[0] != nil || errs[1] != nil || n != 2*frames {
			t.Fatalf("%d frames, %v %v; want %d", n, err, errs, 2*frames)
		}
		if limit := int64(3 * capfile.ReleaseStep); peak > limit {
			t.Errorf("a mapping of a %d MB file reached %.1f MB resident; want at most %d MB", size>>20, float64(peak)/(1<<20), limit>>20)
		}
	})
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			m := mapped(t, p)
			src, err := capfile.NewSourceMapped(m)
			if err != nil {
				t.Fatal(err)
			}
			var peak int64
			n := 0
			st, err := dump.Scan(src, dump.Options{Workers: workers}, func(r *dump.Record) error {
				if n++; n%4096 == 0 || n == frames {
					peak = max(peak, mappingRss(t, m.Bytes()))
				}
				return nil
			})
			if err != nil || st.Frames != frames {
				t.Fatalf("%d frames, %v; want %d", st.Frames, err, frames)
			}
			if limit := int64(3 * capfile.ReleaseStep); peak > limit {
				t.Errorf("the mapping of a %d MB file reached %.1f MB resident; want at most %d MB", size>>20, float64(peak)/(1<<20), limit>>20)
			}
			t.Logf("peak resident %.1f MB of the mapping", float64(peak)/(1<<20))
		})
	}
}
