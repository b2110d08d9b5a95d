package dump_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/ipoib"
)

// TestDecodeNoAllocsOddFrames asserts the allocation contract of
// Record.Decode on malformed and odd frames of every link type it reads:
// the frames of the test captures (Ethernet, ERF InfiniBand, and Linux
// cooked, raw IP, native InfiniBand and IPoIB records made from them),
// the hand-built, tagged, ARP, IPoIB, MAD (CM, SA, SMP, zero-valued) and
// congestion frames and the fuzzers' kept inputs, whole, cut at every
// length and with single bytes changed (corpus.EachOdd), decoded into one
// reused Record, allocate nothing; the MADs, CNPs and DCBX TLVs whose
// errors Decode keeps to itself included. The same run must give what a
// first run gave.
func TestDecodeNoAllocsOddFrames(t *testing.T) {
	var extra []corpus.Frame
	add := func(lt uint16, fs [][]byte) {
		for _, f := range fs {
			extra = append(extra, corpus.Frame{LinkType: lt, Data: f})
		}
	}
	add(capfile.LinkTypeEthernet, testcaps.Handmade(t))
	add(capfile.LinkTypeEthernet, testcaps.Tagged(t))
	add(capfile.LinkTypeEthernet, testcaps.EthernetARP(t))
	add(capfile.LinkTypeEthernet, madFrames(t))
	add(capfile.LinkTypeEthernet, zeroMADs(t))
	add(capfile.LinkTypeEthernet, testcaps.GoldenSMP(t))
	add(capfile.LinkTypeEthernet, congestionFrames(t))
	native := testcaps.IPoIBNative(t)
	add(capfile.LinkTypeERF, native)
	add(ipoib.LinkType, testcaps.IPoIBLink(t))
	add(ipoib.LinkType, testcaps.IPoIBLinkOf(t, native))
	frames := corpus.Odd(t, 60, extra...)
	// Every Ethernet frame again under the other link types that carry
	// it: cooked (SLL, SLL2), raw IP, and the ERF records' InfiniBand
	// packets as link type 247.
	for _, f := range frames[:len(frames):len(frames)] {
		switch {
		case f.LinkType == capfile.LinkTypeEthernet && len(f.Data) >= 14:
			sll := append([]byte{0, 0, 0, 1, 0, 6}, f.Data[6:12]...)
			sll = append(append(sll, 0, 0), f.Data[12:]...)
			sll2 := append(append([]byte{f.Data[12], f.Data[13], 0, 0, 0, 0, 0, 2, 0, 1, 0, 6}, f.Data[6:12]...), 0, 0)
			frames = append(frames, corpus.Frame{LinkType: capfile.LinkTypeLinuxSLL, Data: sll},
				corpus.Frame{LinkType: capfile.LinkTypeLinuxSLL2, Data: append(sll2, f.Data[14:]...)},
				corpus.Frame{LinkType: capfile.LinkTypeRaw, Data: f.Data[14:]})
		case f.LinkType == capfile.LinkTypeERF && len(f.Data) > 16:
			frames = append(frames, corpus.Frame{LinkType: capfile.LinkTypeInfiniBand, Data: f.Data[16:]})
		}
	}
	buf := make([]byte, 0, 1<<16)
	r := new(dump.Record)
	recordSink = r // on the heap, where its errors stay put
	run := func(check bool) (kinds [8]int, kept int) {
		corpus.EachOdd(frames, buf, func(lt uint16, data []byte, wireLen int) {
			r.Decode(1, gopacket.CaptureInfo{Timestamp: time.Unix(1764400000, 0), Length: wireLen, CaptureLength: len(data)}, lt, data)
			kinds[r.Kind]++
			if r.CNPErr != nil || r.DCBXErr != nil {
				kept++
			}
			if check && r.Kind == dump.KindMalformed && (!strings.HasPrefix(r.Err.Error(), "roce: ") || !errors.Is(r.Err, ib.ErrTruncated) &&
				!errors.Is(r.Err, ib.ErrBadLength) && !errors.Is(r.Err, ib.ErrBadVersion) && !errors.Is(r.Err, ib.ErrBadPad) && !errors.Is(r.Err, ib.ErrUnsupported)) {
				t.Errorf("link type %d %x: %v wraps no sentinel", lt, data, r.Err)
			}
		})
		return kinds, kept
	}
	want, wantKept := run(true)
	var got [8]int
	var gotKept int
	allocs := testing.AllocsPerRun(1, func() { got, gotKept = run(false) })
	n := 0
	for _, c := range want {
		n += c
	}
	if got != want || gotKept != wantKept || want[dump.KindMalformed] < 100000 || want[dump.KindInfiniBand] == 0 || want[dump.KindMACControl] == 0 || wantKept == 0 {
		t.Fatalf("kinds %v (%d CNP or DCBX errors), first run %v (%d)", got, gotKept, want, wantKept)
	}
	if allocs != 0 {
		t.Fatalf("Record.Decode allocated %v times over %d inputs (kinds %v)", allocs, n, want)
	}
	t.Logf("%d inputs from %d frames, by kind %v, %d with a CNP or DCBX error: no allocation", n, len(frames), want[:6], wantKept)
}

// recordSink keeps the Record of TestDecodeNoAllocsOddFrames on the heap:
// a Record on a stack that moves makes a new error at its next one.
var recordSink *dump.Record
