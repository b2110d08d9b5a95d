package rocev1_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// v3 is vector V3 of docs/icrc-vectors.md, a RoCEv1 SEND Only.
const v3 = "020000000002 020000000001 8915" + // destination, source, Ethertype RoCEv1
	"60000000 0020 1b 40" + // GRH: IPVer 6, TClass 0, flow label 0, PayLen 32, NxtHdr BTH, HopLmt 64
	"fe800000000000000000000000000001 fe800000000000000000000000000002" + // SGID, DGID
	"0470ffff 00000012 80000001" + // BTH: SEND Only, M, PadCnt 3, P_Key 0xffff, QP 0x12, A, PSN 1
	"526f4345207465737420766563 000000" + // "RoCE test vec" and 3 bytes of pad
	"b906246b" // ICRC

func frame(t *testing.T, tag string) []byte {
	t.Helper()
	s := strings.ReplaceAll(v3, " ", "")
	b, err := hex.DecodeString(s[:24] + tag + s[24:])
	require.NoError(t, err)
	return b
}

func TestEtherType(t *testing.T) {
	assert.EqualValues(t, 0x8915, rocev1.EtherType)
}

func TestICRC(t *testing.T) {
	pkt := frame(t, "")[14:]
	require.NoError(t, rocev1.VerifyICRC(pkt))
	pkt[len(pkt)-1] ^= 1
	err := rocev1.VerifyICRC(pkt)
	require.ErrorIs(t, err, ib.ErrBadICRC)
	var ie *ib.ICRCError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, ie.Computed^0x01000000, ie.Received, "one bit of the last byte")
	require.NoError(t, rocev1.PutICRC(pkt))
	require.NoError(t, rocev1.VerifyICRC(pkt))
	assert.Equal(t, byte(0x6b), pkt[len(pkt)-1])
	assert.ErrorIs(t, rocev1.VerifyICRC(pkt[:30]), ib.ErrTruncated)
}
