package dcbx_test

import (
	"testing"

	"github.com/roce-go/roce/dcbx"
)

// TLVs.Decode walks the TLVs itself and decodes the four DCBX TLVs; its
// baseline, gopacket.NewPacket decoding the frame into its LLDP layers,
// is googlelayers' BenchmarkBaselineGopacketLLDP.
func BenchmarkDecodeLLDPDU(b *testing.B) {
	pdu := lldpdu(goldenFrames()[0])
	var d dcbx.TLVs
	b.ReportAllocs()
	for b.Loop() {
		if err := d.Decode(pdu); err != nil || !d.HasAppPriority {
			b.Fatal(err)
		}
	}
}

// Building the four DCBX TLVs of that frame.
func BenchmarkAppend(b *testing.B) {
	var d dcbx.TLVs
	if err := d.Decode(lldpdu(goldenFrames()[0])); err != nil {
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
