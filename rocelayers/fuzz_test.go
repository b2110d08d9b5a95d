package rocelayers_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	ggopacket "github.com/google/gopacket"
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocelayers"
)

// FuzzSameAsGoogle decodes any bytes, from the layer its first byte
// picks (LRH, GRH, BTH or MAC Control), through the DecodingLayerParser
// of each module and asks for the same layers, the same verdict, the same
// truncation flag and the same header fields. Only this module's layers
// and the payload take part. Its seeds are the golden and real RoCE
// packets of the captures, cut at their GRH or BTH.
func FuzzSameAsGoogle(f *testing.F) {
	var l0 rocelayers.Layers
	p0 := l0.Parser()
	var decoded []gopacket.LayerType
	for _, c := range captures(f) {
		if c.native {
			continue
		}
		for _, frame := range c.frames[:min(len(c.frames), 40)] {
			if p0.DecodeLayers(frame, &decoded) == nil && len(l0.BTH.Contents) > 0 {
				start := cap(frame) - cap(l0.BTH.Contents)
				f.Add(append([]byte{2}, frame[start:]...))
			}
		}
	}
	starts := []struct {
		g ggopacket.LayerType
		f gopacket.LayerType
	}{
		{ib.LayerTypeLRH, rocelayers.LayerTypeLRH},
		{ib.LayerTypeGRH, rocelayers.LayerTypeGRH},
		{ib.LayerTypeBTH, rocelayers.LayerTypeBTH},
		{pfc.LayerTypeMACControl, rocelayers.LayerTypeMACControl},
	}
	type pair struct {
		g *googleParser
		l *rocelayers.Layers
		p *gopacket.DecodingLayerParser
	}
	var parsers []pair
	for _, s := range starts {
		g := newGoogleParser(false)
		g.p = ggopacket.NewDecodingLayerParser(s.g, append(g.l.IB.DecodingLayers(), &g.mac)...)
		l := &rocelayers.Layers{}
		parsers = append(parsers, pair{g, l, l.ParserFrom(s.f)})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		pp := parsers[int(data[0])%len(parsers)]
		data = data[1:]
		var gd []ggopacket.LayerType
		var fd []gopacket.LayerType
		gerr := pp.g.p.DecodeLayers(data, &gd)
		ferr := pp.p.DecodeLayers(data, &fd)
		if (gerr == nil) != (ferr == nil) || pp.g.p.Truncated != pp.p.Truncated || len(gd) != len(fd) {
			t.Fatalf("Google %v %v (truncated %v), fork %v %v (truncated %v)", gd, gerr, pp.g.p.Truncated, fd, ferr, pp.p.Truncated)
		}
		for j := range gd {
			if gd[j].String() != fd[j].String() {
				t.Fatalf("Google %v, fork %v", gd, fd)
			}
			if gc := core(pp.g.layer(gd[j])); gc != nil {
				if d := cmp.Diff(gc, core(forkLayer(pp.l, fd[j])), anyUnexported); d != "" {
					t.Fatalf("layer %s (-google +fork):\n%s", gd[j], d)
				}
			}
		}
	})
}
