package flow_test

import (
	"testing"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
)

// When a CE mark comes before the first acknowledgement, the CNP opens the
// response flow: the flow must still be known as RC, pair with its request
// flow, and count the CNPs towards the requester. rocegen says how many
// CE marks and CNPs it wrote.
func TestCNPBeforeAck(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery = 8192, 1024, 3, 2, 5
	g, err := gen.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	an := flow.New(flow.Config{})
	var rec dump.Record
	n := 0
	for g.Next() {
		n++
		f := g.Frame()
		rec.Decode(n, gopacket.CaptureInfo{Timestamp: g.Time(), Length: len(f), CaptureLength: len(f)}, capfile.LinkTypeEthernet, f)
		an.AddRecord(&rec)
	}
	st := g.Stats()
	if st.CE == 0 || st.CNPs != st.CE {
		t.Fatalf("generator: %+v", st)
	}
	r := an.Report()
	var ce, toSender uint64
	for _, f := range r.Flows {
		if f.Transport != "RC" {
			t.Errorf("flow %s > %s qp %#x: transport %q, want RC", f.Src, f.Dst, f.QP, f.Transport)
		}
		if f.Peer == "" {
			t.Errorf("flow %s > %s qp %#x: not paired", f.Src, f.Dst, f.QP)
		}
		ce += f.Stats.CE
		toSender += f.Stats.CNPsToSender
	}
	if len(r.Flows) != 2*cfg.QPs || ce != uint64(st.CE) || toSender != uint64(st.CNPs) {
		t.Fatalf("%d flows, CE %d, CNPs to sender %d; generator wrote %d CE marks and %d CNPs", len(r.Flows), ce, toSender, st.CE, st.CNPs)
	}
}
