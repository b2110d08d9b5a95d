package corpus

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Frame is one captured frame and its link type.
type Frame struct {
	LinkType uint16
	Data     []byte
}

// Odd returns the frames the odd-frame corpus is made from (see EachOdd):
// the first perFile frames of every capture and golden file of testdata
// (ERF and link type 242 records among them), every frame of extra, and
// the inputs Go's fuzzer kept in fuzz/testdata/fuzz for the frame, BTH,
// GRH, LRH, CNP, MAC Control, IPoIB and MAD targets, as Ethernet frames
// (the transport and MAD seeds behind RoCEv2/IPv4 headers, the LRH seeds
// as native InfiniBand packets).
func Odd(t testing.TB, perFile int, extra ...Frame) []Frame {
	t.Helper()
	var out []Frame
	for _, dir := range []string{"captures", "golden"} {
		paths, err := filepath.Glob(Path(dir, "*.pcap"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("no captures under testdata/%s: %v", dir, err)
		}
		slices.Sort(paths)
		for _, p := range paths {
			out = append(out, readN(t, p, perFile)...)
		}
	}
	out = append(out, extra...)
	// A RoCEv2/IPv4 header (MACs, IPv4, UDP to 4791) for the seeds of the
	// transport targets; its lengths are left as they are, so that most
	// such frames are malformed in a new way.
	v2 := Hex(t, "020000000002020000000001080045020044123440004011a51fc0a80101c0a80102c00012b700300000")
	for _, target := range []string{"FuzzFrameDecode", "FuzzFrameRoundTrip", "FuzzCNP", "FuzzMACControl", "FuzzBTH", "FuzzGRH", "FuzzMAD", "FuzzIPoIB", "FuzzLRH"} {
		for _, seed := range fuzzSeeds(t, target) {
			switch target {
			case "FuzzFrameDecode", "FuzzFrameRoundTrip", "FuzzCNP", "FuzzMACControl":
				out = append(out, Frame{1, seed})
			case "FuzzLRH":
				out = append(out, Frame{247, seed})
			default:
				out = append(out, Frame{1, append(slices.Clone(v2), seed...)})
			}
		}
	}
	return out
}

// fuzzSeeds returns the []byte arguments of the kept inputs of a fuzz
// target (files of "go test fuzz v1" and one []byte("...") per line).
func fuzzSeeds(t testing.TB, target string) [][]byte {
	t.Helper()
	paths, _ := filepath.Glob(Path("..", "fuzz", "testdata", "fuzz", target, "*"))
	if len(paths) == 0 {
		t.Fatalf("no kept inputs of %s", target)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if q, ok := strings.CutPrefix(line, "[]byte("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				out = append(out, []byte(s))
			}
		}
	}
	return out
}

// Lengths of the cuts and mutations EachOdd makes.
const (
	oddCut    = 200 // cut at every length up to this
	oddMutate = 128 // mutate every byte up to this offset
)

// EachOdd calls fn with every input of the odd-frame corpus made from
// frames: each frame whole, cut at every length up to 200 bytes, both as
// the capture's snap length cuts it (wire length the frame's) and as a
// frame sent short (wire length the cut's), and with each of its first
// 128 bytes set to 0, 0xff, its value plus one and its value with the top
// bit flipped. The data handed to fn is a buffer of EachOdd's, valid
// during the call; buf is that buffer (pass one of 64 KB so that EachOdd
// allocates nothing). It returns the number of inputs.
func EachOdd(frames []Frame, buf []byte, fn func(lt uint16, data []byte, wireLen int)) int {
	n := 0
	for _, f := range frames {
		d := f.Data
		b := append(buf[:0], d...)
		fn(f.LinkType, b, len(d))
		n++
		for cut := range min(len(d), oddCut) {
			fn(f.LinkType, b[:cut:cut], len(d))
			fn(f.LinkType, b[:cut:cut], cut)
			n += 2
		}
		for i := range min(len(d), oddMutate) {
			orig := d[i]
			for _, v := range [...]byte{0, 0xff, orig + 1, orig ^ 0x80} {
				b = append(buf[:0], d...)
				b[i] = v
				fn(f.LinkType, b, len(b))
				n++
			}
		}
	}
	return n
}
