package samegoogle_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	ggopacket "github.com/google/gopacket"
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/rocelayers"
)

// FuzzSameAsGoogle decodes any bytes, from the layer its first byte
// picks (LRH, GRH, BTH, MAC Control, MAD, the IPoIB link header or
// IPoIB; the SMP, SMPDirected and PerfMgt bodies follow a MAD layer),
// through the DecodingLayerParser of each module and asks for the same
// layers, the same verdict, the same truncation flag and the same header
// fields. Its seeds are the golden and real RoCE packets of the captures,
// cut at their BTH, every MAD of the captures (cut at the MAD) and of
// the golden files, and the link type 242 records.
func FuzzSameAsGoogle(f *testing.F) {
	var l0 rocelayers.Layers
	p0 := l0.Parser()
	var decoded []gopacket.LayerType
	for _, c := range captures(f) {
		if c.ipoib { // a link type 242 record, from the link header
			for _, r := range c.frames {
				f.Add(append([]byte{5}, r...))
			}
			continue
		}
		if c.native {
			continue
		}
		if c.gfirst != 0 { // a golden MAD, from the MAD layer
			for _, m := range c.frames {
				f.Add(append([]byte{4}, m...))
			}
			continue
		}
		for i, frame := range c.frames {
			if p0.DecodeLayers(frame, &decoded) != nil {
				continue
			}
			if i < 40 && len(l0.BTH.Contents) > 0 {
				start := cap(frame) - cap(l0.BTH.Contents)
				f.Add(append([]byte{2}, frame[start:]...))
			}
			if slices.Contains(decoded, rocelayers.LayerTypeMAD) {
				start := cap(frame) - cap(l0.MAD.Contents)
				f.Add(append([]byte{4}, frame[start:]...))
			}
		}
	}
	starts := []struct {
		g ggopacket.LayerType
		f gopacket.LayerType
	}{
		{googlelayers.LayerTypeLRH, rocelayers.LayerTypeLRH},
		{googlelayers.LayerTypeGRH, rocelayers.LayerTypeGRH},
		{googlelayers.LayerTypeBTH, rocelayers.LayerTypeBTH},
		{googlelayers.LayerTypeMACControl, rocelayers.LayerTypeMACControl},
		{googlelayers.LayerTypeMAD, rocelayers.LayerTypeMAD},
		{googlelayers.LayerTypeIPoIBLinkHeader, rocelayers.LayerTypeIPoIBLinkHeader},
		{googlelayers.LayerTypeIPoIB, rocelayers.LayerTypeIPoIB},
	}
	type pair struct {
		g *googleParser
		l *rocelayers.Layers
		p *gopacket.DecodingLayerParser
	}
	var parsers []pair
	for _, s := range starts {
		g := newGoogleParser(s.g)
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
		// After IPoIB, gopacket's own layers decode the packet it carries,
		// and there the modules differ by themselves (v1.1.19 names layers
		// the fork does not for some IP protocols; their IPv6 layers
		// disagree on a cut extension header and on the truncation flag):
		// the layers are compared through IPoIB, the flag only where this
		// module's layers decided.
		theirs := gerr != nil && !strings.HasPrefix(gerr.Error(), "roce: ")
		if k := slices.Index(gd, googlelayers.LayerTypeIPoIB); k >= 0 && k < len(fd) && fd[k] == rocelayers.LayerTypeIPoIB {
			gd, fd, gerr, ferr, theirs = gd[:k+1], fd[:k+1], nil, nil, true
		}
		gtrunc, ftrunc := pp.g.p.Truncated, pp.p.Truncated
		if theirs {
			gtrunc, ftrunc = false, false
		}
		if (gerr == nil) != (ferr == nil) || gtrunc != ftrunc || len(gd) != len(fd) {
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
