package googlelayers_test

import (
	"errors"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/internal/testkit/corpus"
)

// dcbxGolden returns the frames of the DCBX golden capture, which the
// tests of package dcbx build from their specs and check against tshark.
func dcbxGolden(t testing.TB) [][]byte {
	frames := corpus.File(t, "golden", "dcbx_lldp.pcap")
	require.NotEmpty(t, frames)
	return frames
}

// TestDCBX decodes the golden frames with gopacket's LLDP layers and
// hands their TLVs to DecodeValue and DecodeOrg: the same TLVs as
// dcbx.TLVs.Decode reads from the LLDPDU.
func TestDCBX(t *testing.T) {
	withDCBX := 0
	for i, f := range dcbxGolden(t) {
		p := gopacket.NewPacket(f, layers.LayerTypeEthernet, gopacket.Default)
		var want dcbx.TLVs
		require.NoError(t, want.Decode(f[14:]))
		if want.Any() {
			withDCBX++
		}
		l := p.Layer(layers.LayerTypeLinkLayerDiscovery).(*layers.LinkLayerDiscovery)
		var byValue, byOrg googlelayers.DCBX
		for _, v := range l.Values {
			_, err := byValue.DecodeValue(v)
			require.NoError(t, err)
		}
		info := p.Layer(layers.LayerTypeLinkLayerDiscoveryInfo).(*layers.LinkLayerDiscoveryInfo)
		for _, o := range info.OrgTLVs {
			_, err := byOrg.DecodeOrg(o)
			require.NoError(t, err)
		}
		assert.Equal(t, want, byValue.TLVs, "frame %d", i+1)
		assert.Equal(t, want, byOrg.TLVs, "frame %d", i+1)
	}
	assert.Greater(t, withDCBX, 2, "golden frames with DCBX TLVs")
	// Another organization's TLV is left alone.
	var d googlelayers.DCBX
	ok, err := d.DecodeOrg(layers.LLDPOrgSpecificTLV{OUI: 0x00120f, SubType: 11, Info: []byte{8, 8}})
	assert.False(t, ok)
	assert.NoError(t, err)
	assert.False(t, d.Any())
}

// TestDCBXNoAllocs: the gopacket entry points allocate nothing.
func TestDCBXNoAllocs(t *testing.T) {
	frames := dcbxGolden(t)
	var d googlelayers.DCBX
	v := layers.LinkLayerDiscoveryValue{Type: 127, Value: frames[0][14:][24:49]}
	o := layers.LLDPOrgSpecificTLV{OUI: dcbx.OUI, SubType: 11, Info: []byte{0x08, 0x08}}
	for name, f := range map[string]func() error{
		"DecodeValue": func() error {
			ok, err := d.DecodeValue(v)
			if !ok || !d.HasETSConfig {
				return errors.New("not DCBX")
			}
			return err
		},
		"DecodeOrg": func() error {
			ok, err := d.DecodeOrg(o)
			if !ok || !d.HasPFCConfig {
				return errors.New("not DCBX")
			}
			return err
		},
	} {
		require.NoError(t, f(), name)
		assert.Zero(t, testing.AllocsPerRun(100, func() {
			if err := f(); err != nil {
				t.Fatal(name, err)
			}
		}), name)
	}
}

// BenchmarkBaselineGopacketLLDP is the baseline of dcbx's
// BenchmarkDecodeLLDPDU: gopacket.NewPacket decoding the same frame
// (golden frame 1) into Ethernet and its LLDP layers, which is how a
// gopacket user gets the TLVs that DecodeValue takes.
func BenchmarkBaselineGopacketLLDP(b *testing.B) {
	frame := dcbxGolden(b)[0]
	opts := gopacket.DecodeOptions{NoCopy: true}
	b.ReportAllocs()
	for b.Loop() {
		p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, opts)
		if p.Layer(layers.LayerTypeLinkLayerDiscoveryInfo) == nil {
			b.Fatal(p.ErrorLayer())
		}
	}
}
