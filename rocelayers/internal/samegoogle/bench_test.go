package samegoogle_test

import (
	"testing"

	ggopacket "github.com/google/gopacket"
	glayers "github.com/google/gopacket/layers"
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/rocelayers"
)

// madFrame returns the first RoCEv2 frame of the captures that carries a
// CM MAD.
func madFrame(b *testing.B) []byte {
	for _, c := range captures(b) {
		if c.native || c.ipoib || c.gfirst != 0 {
			continue
		}
		for _, f := range c.frames {
			if ggopacket.NewPacket(f, glayers.LayerTypeEthernet, ggopacket.Default).Layer(googlelayers.LayerTypeCM) != nil {
				return f
			}
		}
	}
	b.Fatal("no CM MAD in the captures")
	return nil
}

// BenchmarkParserMADGoogle is the baseline: googlelayers.Layers.Parser of
// Google's gopacket on a RoCEv2 frame carrying a CM REQ.
func BenchmarkParserMADGoogle(b *testing.B) {
	frame := madFrame(b)
	g := newGoogleParser(glayers.LayerTypeEthernet)
	var decoded []ggopacket.LayerType
	b.ReportAllocs()
	for b.Loop() {
		if err := g.p.DecodeLayers(frame, &decoded); err != nil || len(decoded) != 7 {
			b.Fatal(decoded, err)
		}
	}
}

// BenchmarkParserMADFork is rocelayers.Layers.Parser on the same frame.
func BenchmarkParserMADFork(b *testing.B) {
	frame := madFrame(b)
	var l rocelayers.Layers
	p := l.Parser()
	var decoded []gopacket.LayerType
	b.ReportAllocs()
	for b.Loop() {
		if err := p.DecodeLayers(frame, &decoded); err != nil || len(decoded) != 7 {
			b.Fatal(decoded, err)
		}
	}
}
