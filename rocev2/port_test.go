package rocev2_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

// TestCheckUDPHeader: fewer than 8 bytes wrap ib.ErrTruncated, a Length
// of 1 to 7 ib.ErrBadLength; a Length of 0 (a jumbogram's) or 8 and more
// passes, beyond the data too.
func TestCheckUDPHeader(t *testing.T) {
	full := []byte{0xc0, 0x00, 0x12, 0xb7, 0x00, 0x0c, 0x00, 0x00, 1, 2, 3, 4} // 49152 -> 4791, Length 12
	require.NoError(t, rocev2.CheckUDPHeader(full))
	for n := range 8 {
		require.ErrorIs(t, rocev2.CheckUDPHeader(full[:n]), ib.ErrTruncated, "%d bytes", n)
	}
	for l := byte(0); l < 0x40; l++ {
		b := append([]byte(nil), full...)
		b[5] = l
		err := rocev2.CheckUDPHeader(b)
		if l >= 1 && l < 8 {
			require.ErrorIs(t, err, ib.ErrBadLength, "Length %d", l)
			continue
		}
		require.NoError(t, err, "Length %d", l)
	}
	assert.Equal(t, "roce: UDP at offset 4: bad length (want 8 bytes, have 7)", rocev2.CheckUDPHeader([]byte{0, 0, 0, 0, 0, 7, 0, 0}).Error())
	assert.EqualValues(t, 4791, rocev2.Port)
}
