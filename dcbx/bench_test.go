package dcbx_test

import (
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/dcbx"
)

// The baseline: gopacket.NewPacket decoding the same frame (golden frame
// 1) into Ethernet and its LLDP layers, which is how a gopacket user gets
// the TLVs that DecodeValue takes.
func BenchmarkBaselineGopacketLLDP(b *testing.B) {
	frame := goldenFrames()[0]
	opts := gopacket.DecodeOptions{NoCopy: true}
	b.ReportAllocs()
	for b.Loop() {
		p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, opts)
		if p.Layer(layers.LayerTypeLinkLayerDiscoveryInfo) == nil {
			b.Fatal(p.ErrorLayer())
		}
	}
}

// DecodeLLDPDU walks the TLVs itself and decodes the four DCBX TLVs.
func BenchmarkDecodeLLDPDU(b *testing.B) {
	pdu := lldpdu(goldenFrames()[0])
	var d dcbx.TLVs
	b.ReportAllocs()
	for b.Loop() {
		if err := d.DecodeLLDPDU(pdu); err != nil || !d.HasAppPriority {
			b.Fatal(err)
		}
	}
}

// Building the four DCBX TLVs of that frame.
func BenchmarkAppend(b *testing.B) {
	var d dcbx.TLVs
	if err := d.DecodeLLDPDU(lldpdu(goldenFrames()[0])); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = d.ETSConfig.AppendTo(buf[:0])
		buf, _ = d.ETSRecommendation.AppendTo(buf)
		buf, _ = d.PFCConfig.AppendTo(buf)
		buf, _ = d.AppPriority.AppendTo(buf)
	}
}
