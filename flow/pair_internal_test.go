package flow

import (
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
)

// TestPairingScale: rocegen -op write -size 2K -mtu 1024 -qps N
// -messages 3 between one host pair, first PSNs drawn from the seed:
// every connection pairs, and pairing looks at a few request flows per
// response, not at every unpaired (or every) flow between the two hosts
// (with 16,000 connections, those would be thousands per response).
func TestPairingScale(t *testing.T) {
	for _, qps := range []int{500, 4000, 16000} {
		cfg := gen.DefaultConfig()
		cfg.Op, cfg.Size, cfg.MTU, cfg.QPs, cfg.Messages = gen.OpWrite, 2048, 1024, qps, 3
		g, err := gen.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a := New(Config{MaxFlows: 1 << 20})
		var rec dump.Record
		responses := 0
		for n := 1; g.Next(); n++ {
			rec.Decode(n, g.CaptureInfo(), capfile.LinkTypeEthernet, g.Frame())
			a.AddRecord(&rec)
			if g.Kind() == gen.KindAck {
				responses++
			}
		}
		paired := 0
		for _, f := range a.order {
			if f.peer != nil {
				paired++
			}
		}
		if paired != 2*qps {
			t.Errorf("%d QPs: %d of %d flows paired", qps, paired, 2*qps)
		}
		if perResponse := float64(a.visits) / float64(responses); perResponse > 8 {
			t.Errorf("%d QPs: pairing looked at %d request flows for %d responses (%.1f each)", qps, a.visits, responses, perResponse)
		}
		t.Logf("%d QPs: %d request flows looked at for %d responses", qps, a.visits, responses)
	}
}
