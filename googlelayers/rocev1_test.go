package googlelayers_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/googlelayers"
)

// v3 is vector V3 of docs/icrc-vectors.md, a RoCEv1 SEND Only.
const v3 = "020000000002 020000000001 8915" + // destination, source, Ethertype RoCEv1
	"60000000 0020 1b 40" + // GRH: IPVer 6, TClass 0, flow label 0, PayLen 32, NxtHdr BTH, HopLmt 64
	"fe800000000000000000000000000001 fe800000000000000000000000000002" + // SGID, DGID
	"0470ffff 00000012 80000001" + // BTH: SEND Only, M, PadCnt 3, P_Key 0xffff, QP 0x12, A, PSN 1
	"526f4345207465737420766563 000000" + // "RoCE test vec" and 3 bytes of pad
	"b906246b" // ICRC

func v3Frame(t *testing.T, tag string) []byte {
	t.Helper()
	s := strings.ReplaceAll(v3, " ", "")
	b, err := hex.DecodeString(s[:24] + tag + s[24:])
	require.NoError(t, err)
	return b
}

// Importing googlelayers makes gopacket decode Ethertype 0x8915, tagged or not,
// down to the payload, and hand the GRH exactly PayLen bytes.
func TestRoCEv1Gopacket(t *testing.T) {
	for name, tag := range map[string]string{"untagged": "", "802.1Q": "81006064"} {
		t.Run(name, func(t *testing.T) {
			b := append(v3Frame(t, tag), 0xde, 0xad, 0xbe, 0xef) // an FCS after the ICRC
			p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
			require.Nil(t, p.ErrorLayer())
			g, ok := p.Layer(googlelayers.LayerTypeGRH).(*googlelayers.GRH)
			require.True(t, ok, "no GRH in %v", p)
			assert.Equal(t, uint16(32), g.PayLen)
			assert.Len(t, g.LayerPayload(), 32)
			bth, ok := p.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
			require.True(t, ok)
			assert.Equal(t, [4]byte{0xb9, 0x06, 0x24, 0x6b}, bth.ICRC)
		})
	}
}
