package roce

import (
	"bytes"
	"errors"
	"math/rand"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
)

// TestDecodeFastPathAgrees checks Decode, which takes untagged RoCEv2/IPv4
// frames by a fast path, against decode, the general path, on every
// golden frame and RoCE capture and on thousands of damaged copies: the
// same fields, or the same error.
func TestDecodeFastPathAgrees(t *testing.T) {
	var golden, captured [][]byte
	for _, name := range []string{"rocev1.pcap", "rocev2_ipv4.pcap", "rocev2_ipv6.pcap"} {
		golden = append(golden, corpus.File(t, "golden", name)...)
	}
	for _, name := range corpus.RoCECaptures {
		captured = append(captured, corpus.Capture(t, name)...)
	}
	frames := append(golden, captured...)
	// Every field, unexported ones included.
	opts := cmp.Options{cmp.Exporter(func(reflect.Type) bool { return true }), cmp.Comparer(bytes.Equal)}
	checked, taken, fast := 0, 0, 0
	check := func(b []byte) {
		t.Helper()
		checked++
		var got, want Frame
		if _, ok := new(Frame).decodeUntaggedIPv4(b); ok {
			taken++
		}
		gerr, werr := got.Decode(b), want.decode(b)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("% x\nDecode: %v\ndecode: %v", b, gerr, werr)
		}
		if gerr != nil {
			for _, s := range []error{ib.ErrTruncated, ib.ErrBadLength, ib.ErrNotRoCE} {
				if errors.Is(gerr, s) != errors.Is(werr, s) {
					t.Fatalf("% x: errors.Is(%v, %v) differs", b, gerr, s)
				}
			}
			return
		}
		fast++
		if d := cmp.Diff(want, got, opts); d != "" {
			t.Fatalf("% x: Decode differs from decode (-decode +Decode):\n%s", b, d)
		}
	}
	r := rand.New(rand.NewSource(1))
	// The bytes the fast path reads, and values worth trying there.
	spots := []int{12, 13, 14, 16, 17, 20, 21, 23, 36, 37, 38, 39, 40, 41}
	values := []byte{0, 1, 0x08, 0x11, 0x12, 0x20, 0x40, 0x45, 0x46, 0x81, 0xb7, 0xff}
	for i, frame := range frames {
		check(frame)
		for _, snap := range []int{54, 66, 80, 94, 128} { // header-only captures
			if snap < len(frame) {
				check(frame[:snap:snap])
			}
		}
		copies := 40 // for each golden frame, fewer for the many captured ones
		if i >= len(golden) {
			copies = 3
		}
		for range copies {
			b := append([]byte(nil), frame...)
			for range 1 + r.Intn(2) {
				if i := spots[r.Intn(len(spots))]; i < len(b) {
					b[i] = values[r.Intn(len(values))]
				}
			}
			if r.Intn(4) == 0 {
				b = b[:r.Intn(len(b)+1)]
			}
			check(b)
		}
	}
	if taken < len(frames)/4 || fast < len(frames)/2 {
		t.Fatalf("%d frames, %d decoded, %d by the fast path: too few to compare", len(frames), fast, taken)
	}
	t.Logf("%d frames and damaged copies, %d taken by the fast path: %d decoded alike, the rest failed alike", checked, taken, fast)
}
