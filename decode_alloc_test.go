package roce_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// oddOutcomes counts what Frame.Decode made of the inputs of the odd-frame
// corpus.
type oddOutcomes struct{ roce, notRoCE, malformed, cut int }

// TestDecodeNoAllocsOddFrames asserts the allocation contract of
// Frame.Decode on malformed and odd frames: every frame of the test
// captures, the hand-built and tagged frames and the fuzzers' kept
// inputs, whole, cut at every length and with single bytes changed
// (corpus.EachOdd), decoded into one reused Frame, allocate nothing at
// all. The same run must give what a first run gave (the closure did its
// work), the errors must wrap the sentinels and read "roce: ...".
func TestDecodeNoAllocsOddFrames(t *testing.T) {
	var extra []corpus.Frame
	for _, fs := range [][][]byte{testcaps.Handmade(t), testcaps.Tagged(t), testcaps.EthernetARP(t)} {
		for _, f := range fs {
			extra = append(extra, corpus.Frame{LinkType: 1, Data: f})
		}
	}
	var frames []corpus.Frame
	for _, f := range corpus.Odd(t, 60, extra...) {
		if f.LinkType == 1 {
			frames = append(frames, f)
		}
	}
	buf := make([]byte, 0, 1<<16)
	f := new(roce.Frame)
	frameSink = f // on the heap, where its error stays put (errs.Slot)
	run := func(check bool) (o oddOutcomes) {
		corpus.EachOdd(frames, buf, func(_ uint16, data []byte, _ int) {
			err := f.Decode(data)
			switch {
			case err == nil && f.Truncated:
				o.cut++
			case err == nil:
				o.roce++
			case errors.Is(err, ib.ErrNotRoCE):
				o.notRoCE++
			default:
				o.malformed++
				if check && (!strings.HasPrefix(err.Error(), "roce: ") || !wrapsSentinel(err)) {
					t.Errorf("%x: %v does not wrap a sentinel", data, err)
				}
			}
		})
		return o
	}
	want := run(true)
	var got oddOutcomes
	allocs := testing.AllocsPerRun(1, func() { got = run(false) })
	if got != want || want.malformed < 50000 || want.roce == 0 || want.notRoCE == 0 || want.cut == 0 {
		t.Fatalf("outcomes %+v, first run %+v", got, want)
	}
	n := want.roce + want.notRoCE + want.malformed + want.cut
	if allocs != 0 {
		t.Fatalf("Frame.Decode allocated %v times over %d inputs (%+v)", allocs, n, want)
	}
	t.Logf("%d inputs from %d frames: %+v, no allocation", n, len(frames), want)
}

// frameSink keeps the Frame of TestDecodeNoAllocsOddFrames on the heap: a
// Frame on a stack that moves makes a new error at its next one.
var frameSink *roce.Frame

// wrapsSentinel reports whether err wraps one of ib's sentinels.
func wrapsSentinel(err error) bool {
	for _, s := range []error{ib.ErrTruncated, ib.ErrBadLength, ib.ErrBadPad, ib.ErrBadVersion, ib.ErrUnsupported, ib.ErrBadValue} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// TestDecodeErrorHeld checks what Decode's error is when it costs no
// allocation: an *ib.Error, the same message and sentinel a fresh Frame
// gives, overwritten only by the next malformed frame, and a Frame
// copied holds its own.
func TestDecodeErrorHeld(t *testing.T) {
	good := vec(t, "v1")
	cutA, cutB := good[:40], good[:20]
	var f roce.Frame
	errA := f.Decode(cutA)
	var e *ib.Error
	if !errors.As(errA, &e) || !errors.Is(errA, ib.ErrTruncated) {
		t.Fatalf("error %v", errA)
	}
	msgA := errA.Error()
	var fresh roce.Frame
	if err := fresh.Decode(cutA); err.Error() != msgA {
		t.Errorf("a fresh Frame says %v, a reused one %v", err, errA)
	}
	if err := f.Decode(good); err != nil || errA.Error() != msgA {
		t.Fatalf("after a good frame: %v, the error now %v", err, errA)
	}
	g := f // a copy makes its own error
	errB := g.Decode(cutB)
	if errA.Error() != msgA || errB.Error() == msgA {
		t.Errorf("the copy's error %v changed the original's, %v", errB, errA)
	}
	kept := *e
	if f.Decode(cutB); kept.Error() != msgA {
		t.Errorf("a copied *ib.Error changed: %v", &kept)
	}
}
