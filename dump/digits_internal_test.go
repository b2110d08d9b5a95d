package dump

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestDigits: appendDec writes what strconv.AppendUint writes, and
// appendPadded what fmt's %0*d does, at every length and around every
// power of ten; appendHex32 and appendHex64 what %08x and %016x do.
func TestDigits(t *testing.T) {
	vals := []uint64{0, 1, 9, 10, 11, 99, 100, 101, 999_999, math.MaxUint32, math.MaxUint64, math.MaxUint64 - 1}
	for p := uint64(1); p < math.MaxUint64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		vals = append(vals, rng.Uint64()>>rng.IntN(64))
	}
	for _, v := range vals {
		if got, want := string(appendDec([]byte("x"), v)), "x"+strconv.FormatUint(v, 10); got != want {
			t.Errorf("appendDec(%d) = %q, want %q", v, got, want)
		}
		for _, w := range []int{0, 1, 6, 9, 21} {
			if got, want := string(appendPadded([]byte("x"), v, w)), fmt.Sprintf("x%0*d", w, v); got != want {
				t.Errorf("appendPadded(%d, %d) = %q, want %q", v, w, got, want)
			}
		}
		if got, want := string(appendHex64(nil, v)), fmt.Sprintf("%016x", v); got != want {
			t.Errorf("appendHex64(%d) = %q, want %q", v, got, want)
		}
		if got, want := string(appendHex32(nil, uint32(v))), fmt.Sprintf("%08x", uint32(v)); got != want {
			t.Errorf("appendHex32(%d) = %q, want %q", v, got, want)
		}
		if got, want := string(appendHex24(nil, uint32(v)&0xffffff)), fmt.Sprintf("%06x", uint32(v)&0xffffff); got != want {
			t.Errorf("appendHex24(%d) = %q, want %q", v, got, want)
		}
	}
}
