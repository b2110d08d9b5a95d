package rocev2

import (
	"math/rand"
	"testing"
)

// onesSumSlow is RFC 1071's sum, sixteen bits at a time.
func onesSumSlow(sum uint32, b []byte) uint16 {
	for ; len(b) >= 2; b = b[2:] {
		sum += uint32(b[0])<<8 | uint32(b[1])
	}
	if len(b) == 1 {
		sum += uint32(b[0]) << 8
	}
	for sum > 0xffff {
		sum = sum>>16 + sum&0xffff
	}
	return uint16(sum)
}

func TestOnesSum(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for n := 0; n < 600; n++ {
		b := make([]byte, n)
		r.Read(b)
		if n%5 == 0 {
			for i := range b {
				b[i] = 0xff // sums that fold many times
			}
		}
		seed := uint32(r.Intn(1 << 20))
		if got, want := onesSum(seed, b), onesSumSlow(seed, b); got != want {
			t.Fatalf("len %d seed %#x: %#04x, want %#04x", n, seed, got, want)
		}
	}
}
