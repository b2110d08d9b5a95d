package samegoogle_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	ggopacket "github.com/google/gopacket"
	glayers "github.com/google/gopacket/layers"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/rocelayers"
)

// TestDCBXSameAsGoogle decodes the LLDP frames of the golden DCBX capture
// with each module's NewPacket and the DCBX TLVs from the LLDP layers of
// each, TLV by TLV (DecodeValue) and organizationally specific TLV by TLV
// (DecodeOrg): the fork's DCBX must hold what dcbx.TLVs holds, the same
// verdicts, and what dcbx.TLVs.Decode reads from the bytes.
func TestDCBXSameAsGoogle(t *testing.T) {
	frames, tlvs := 0, 0
	for _, c := range captures(t) {
		if c.name != "dcbx_lldp.pcap" {
			continue
		}
		for i, data := range c.frames {
			gp := ggopacket.NewPacket(data, glayers.LayerTypeEthernet, ggopacket.Default)
			fp := gopacket.NewPacket(data, layers.LayerTypeEthernet, gopacket.Default)
			gl, gok := gp.Layer(glayers.LayerTypeLinkLayerDiscovery).(*glayers.LinkLayerDiscovery)
			fl, fok := fp.Layer(layers.LayerTypeLinkLayerDiscovery).(*layers.LinkLayerDiscovery)
			gi, _ := gp.Layer(glayers.LayerTypeLinkLayerDiscoveryInfo).(*glayers.LinkLayerDiscoveryInfo)
			fi, _ := fp.Layer(layers.LayerTypeLinkLayerDiscoveryInfo).(*layers.LinkLayerDiscoveryInfo)
			if !gok || !fok || gi == nil || fi == nil || len(gl.Values) != len(fl.Values) || len(gi.OrgTLVs) != len(fi.OrgTLVs) {
				t.Fatalf("frame %d: the LLDP layers differ: %v\n%v", i+1, gp, fp)
			}
			var g, byOrg googlelayers.DCBX
			var f, fOrg rocelayers.DCBX
			for j := range gl.Values {
				gdone, gerr := g.DecodeValue(gl.Values[j])
				fdone, ferr := f.DecodeValue(fl.Values[j])
				if gdone != fdone || (gerr == nil) != (ferr == nil) {
					t.Fatalf("frame %d TLV %d: Google %v %v, fork %v %v", i+1, j, gdone, gerr, fdone, ferr)
				}
				if gdone {
					tlvs++
				}
			}
			for j := range gi.OrgTLVs {
				gdone, gerr := byOrg.DecodeOrg(gi.OrgTLVs[j])
				fdone, ferr := fOrg.DecodeOrg(fi.OrgTLVs[j])
				if gdone != fdone || (gerr == nil) != (ferr == nil) {
					t.Fatalf("frame %d org TLV %d: Google %v %v, fork %v %v", i+1, j, gdone, gerr, fdone, ferr)
				}
			}
			var raw dcbx.TLVs
			if err := raw.Decode(data[14:]); err != nil {
				t.Fatalf("frame %d: %v", i+1, err)
			}
			for name, d := range map[string]dcbx.TLVs{"DecodeValue": f.TLVs, "DecodeOrg": fOrg.TLVs, "Google's DecodeOrg": byOrg.TLVs, "Decode": raw} {
				if diff := cmp.Diff(g.TLVs, d, cmpopts.IgnoreUnexported(dcbx.TLVs{})); diff != "" { // the error each holds
					t.Fatalf("frame %d: Google's DecodeValue and %s differ (-google +other):\n%s", i+1, name, diff)
				}
			}
			frames++
		}
	}
	t.Logf("%d LLDP frames, %d DCBX TLVs decoded alike", frames, tlvs)
	if frames == 0 || tlvs == 0 {
		t.Errorf("%d frames, %d DCBX TLVs", frames, tlvs)
	}
}
