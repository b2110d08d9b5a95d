package layertype

import (
	"testing"

	"github.com/roce-go/roce/ib"
)

// TestETH: every extended header has its layer type, named as the header,
// numbered 1793 on in header order, and no number is used twice.
func TestETH(t *testing.T) {
	seen := map[int]string{}
	for _, l := range []Type{LRH, GRH, BTH, RDETH, DETH, XRCETH, RETH, AtomicETH, AtomicAckETH, AETH, ImmDt, IETH, FETH,
		MACControl, MAD, RMPP, CM, SA, SMP, SMPDirected, PerfMgt, IPoIB, IPoIBLinkHeader} {
		if n, ok := seen[l.Num]; ok {
			t.Errorf("%d is %s and %s", l.Num, n, l.Name)
		}
		seen[l.Num] = l.Name
		if l.Num < 1000 || l.Num > 1999 {
			t.Errorf("%s: %d is outside the range for applications", l.Name, l.Num)
		}
	}
	for h := ib.HeaderRDETH; int(h) < len(ETH); h++ {
		if ETH[h].Name != h.String() || ETH[h].Num != 1792+int(h) {
			t.Errorf("%v: %+v", h, ETH[h])
		}
	}
	if h := ib.Header(len(ETH)); h.Len() != 0 {
		t.Errorf("%v has no layer type in ETH", h)
	}
	if ETH[ib.NoHeader] != (Type{}) {
		t.Errorf("NoHeader has %+v", ETH[ib.NoHeader])
	}
}
