package smbd_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/roce-go/roce/smbd"
)

// fragments splits msg into data transfer headers and data of at most
// n bytes each, with the remaining lengths MS-SMBD 3.1.5.2 gives them.
func fragments(msg []byte, n int) ([]smbd.DataTransfer, [][]byte) {
	var hs []smbd.DataTransfer
	var ds [][]byte
	for off := 0; off < len(msg); off += n {
		end := min(off+n, len(msg))
		hs = append(hs, smbd.DataTransfer{DataOffset: 24, DataLength: uint32(end - off), RemainingDataLength: uint32(len(msg) - end)})
		ds = append(ds, msg[off:end])
	}
	return hs, ds
}

// TestReassembler: a message split in fragments comes back whole at its
// last fragment, an unfragmented one as it was given, a credit-only
// message in between changes nothing; fragments that disagree, or a
// message longer than Max, are refused with ErrBadLength and the next
// message starts afresh.
func TestReassembler(t *testing.T) {
	msg := make([]byte, 5000)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	var r smbd.Reassembler
	hs, ds := fragments(msg, 1340)
	if len(hs) != 4 || hs[0].RemainingDataLength != 3660 {
		t.Fatalf("%d fragments, first remaining %d", len(hs), hs[0].RemainingDataLength)
	}
	for i := range hs {
		got, err := r.Add(&hs[i], ds[i])
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			if got, err := r.Add(&smbd.DataTransfer{CreditsGranted: 5}, nil); got != nil || err != nil {
				t.Fatalf("credit-only message: %v %v", got, err)
			}
			if have, want := r.Pending(); have != 2680 || want != 2320 {
				t.Errorf("Pending %d %d", have, want)
			}
		}
		if (got != nil) != (i == len(hs)-1) {
			t.Fatalf("fragment %d: message %v", i, got != nil)
		}
		if got != nil && !bytes.Equal(got, msg) {
			t.Fatal("message differs")
		}
	}
	whole := smbd.DataTransfer{DataOffset: 24, DataLength: 10}
	if got, err := r.Add(&whole, msg[:10]); err != nil || &got[0] != &msg[0] || len(got) != 10 {
		t.Fatalf("unfragmented: %v", err)
	}

	// A fragment whose remaining length does not follow.
	r.Add(&hs[0], ds[0])
	bad := hs[2]
	if _, err := r.Add(&bad, ds[2]); !errors.Is(err, smbd.ErrBadLength) {
		t.Fatalf("out of order: %v", err)
	}
	if have, _ := r.Pending(); have != 0 {
		t.Errorf("after a refusal %d bytes pending", have)
	}

	// The bound.
	small := smbd.Reassembler{Max: 4096}
	if _, err := small.Add(&hs[0], ds[0]); !errors.Is(err, smbd.ErrBadLength) {
		t.Fatalf("5000 bytes past a bound of 4096: %v", err)
	}
	if _, err := small.Add(&smbd.DataTransfer{DataOffset: 24, DataLength: 5000}, msg); !errors.Is(err, smbd.ErrBadLength) {
		t.Fatalf("unfragmented past the bound: %v", err)
	}
	h2, d2 := fragments(msg[:4096], 1000)
	var got []byte
	for i := range h2 {
		var err error
		if got, err = small.Add(&h2[i], d2[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, msg[:4096]) {
		t.Fatal("a message of the bound's length differs")
	}
}
