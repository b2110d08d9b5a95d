package googlelayers_test

import (
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUDPContract: UDP takes a nil DecodeFeedback, resets itself,
// refuses short input with a sentinel and never panics, where
// layers.UDP would call a nil feedback.
func TestUDPContract(t *testing.T) {
	full := []byte{0xc0, 0x00, 0x12, 0xb7, 0x00, 0x0c, 0x00, 0x00, 1, 2, 3, 4} // 49152 -> 4791, Length 12
	var u googlelayers.UDP
	require.NoError(t, u.DecodeFromBytes(full, nil))
	assert.Equal(t, layers.UDPPort(rocev2.Port), u.DstPort)
	assert.Equal(t, googlelayers.LayerTypeBTH, u.NextLayerType())
	assert.Equal(t, []byte{1, 2, 3, 4}, u.LayerPayload())
	for n := range 8 {
		err := u.DecodeFromBytes(full[:n], nil)
		require.ErrorIs(t, err, ib.ErrTruncated, "%d bytes", n)
		assert.Equal(t, 1, strings.Count(err.Error(), "roce: "), err.Error())
		assert.Equal(t, googlelayers.UDP{}, u, "%d bytes: not reset", n)
	}
	short := append([]byte(nil), full...)
	short[5] = 7 // Length 7: shorter than the header
	err := u.DecodeFromBytes(short, nil)
	require.ErrorIs(t, err, ib.ErrBadLength)
	assert.Equal(t, "roce: UDP at offset 4: bad length (want 8 bytes, have 7)", err.Error())
	long := append([]byte(nil), full...)
	long[5] = 0x40 // Length 64, beyond the data: truncated, as gopacket says
	require.NoError(t, u.DecodeFromBytes(long, nil))
	var df truncated
	require.NoError(t, u.DecodeFromBytes(long, &df))
	assert.True(t, bool(df))
	assert.Equal(t, []byte{1, 2, 3, 4}, u.LayerPayload())

	// Datagrams from port 4791 to elsewhere are not RoCE.
	from := []byte{0x12, 0xb7, 0x30, 0x39, 0x00, 0x08, 0x00, 0x00}
	require.NoError(t, u.DecodeFromBytes(from, gopacket.NilDecodeFeedback))
	assert.Equal(t, gopacket.LayerTypePayload, u.NextLayerType())
	assert.Equal(t, layers.UDPPort(4791), u.SrcPort)
}

type truncated bool

func (t *truncated) SetTruncated() { *t = true }
