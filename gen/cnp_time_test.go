package gen_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
)

// TestCNPAfterDelay: a CNP answers its CE-marked packet Delay after that
// packet has left the wire, in either direction (the responder's CNP for
// a marked request, the requester's for a marked READ response), and
// goes out as soon as the wire is free then: within two frame times,
// whatever else waits (a burst of READ responses among them). The marked
// packets and the CNPs are read back from the frames; each CNP answers
// the oldest marked packet of its QP not yet answered.
func TestCNPAfterDelay(t *testing.T) {
	scenario, err := os.ReadFile("../docs/timeline-scenario.txt")
	if err != nil {
		t.Fatal(err)
	}
	base := gen.DefaultConfig()
	docs, err := gen.ParseScenario(strings.NewReader(string(scenario)), base)
	if err != nil {
		t.Fatal(err)
	}
	read := base
	read.Op, read.QPs, read.Messages, read.Size, read.MTU, read.CEEvery, read.Delay = gen.OpRead, 3, 30, 32768, 1024, 7, 3*time.Microsecond
	write := base
	write.QPs, write.Messages, write.Size, write.MTU, write.CEEvery = 4, 20, 8192, 1024, 5
	v6 := read
	v6.Encap, v6.Rate = ib.RoCEv2IPv6, 25_000_000_000 // RoCEv2 over IPv6 at 25 Gb/s
	for _, tc := range []struct {
		name   string
		phases []gen.Config
	}{
		{"docs-timeline-scenario", docs}, {"read", []gen.Config{read}}, {"write", []gen.Config{write}}, {"read-v6-25G", []gen.Config{v6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := gen.NewScenario(tc.phases)
			if err != nil {
				t.Fatal(err)
			}
			type mark struct{ due time.Time }
			type cnpKey struct {
				src [16]byte // the CNP's source address
				qp  uint32   // and QP
			}
			waiting := map[cnpKey][]mark{}
			key := func(ip [16]byte, qp uint32) cnpKey { return cnpKey{ip, qp} }
			var f roce.Frame
			ces, cnps, frames := 0, 0, 0
			for g.Next() {
				frames++
				b := g.Frame()
				cfg := tc.phases[0]
				if cnp.IsCNP(b) {
					if err := cnp.Decode(&f.Packet, b); err != nil {
						t.Fatal(err)
					}
					if err := f.Decode(b); err != nil { // the addresses
						t.Fatal(err)
					}
					k := key(f.GRH.SGID, f.Packet.BTH.DestQP)
					q := waiting[k]
					if len(q) == 0 {
						t.Fatalf("frame %d: a CNP to QP %#x with no CE mark waiting", frames, f.Packet.BTH.DestQP)
					}
					m := q[0]
					waiting[k] = q[1:]
					cnps++
					slack := 2 * time.Duration(float64((4096+200)*8)/float64(rateOf(cfg))*1e9)
					if at := g.Time(); at.Before(m.due) || at.Sub(m.due) > slack {
						t.Errorf("frame %d: CNP at %v, due at %v (%v late; at most %v)", frames, at.Sub(g.Start()), m.due.Sub(g.Start()),
							at.Sub(m.due), slack)
					}
					continue
				}
				if g.Kind() != gen.KindRequest && g.Kind() != gen.KindReadResponse {
					continue
				}
				if err := f.Decode(b); err != nil {
					t.Fatal(err)
				}
				if f.GRH.TClass&3 != 3 {
					continue
				}
				ces++
				// The CNP comes from the packet's destination to the QP
				// that sent it: the requester's QP LocalQP+i for a
				// request to RemoteQP+i, and the other way round.
				d := f.Packet.BTH.DestQP
				var sender uint32
				for _, c := range tc.phases {
					if d >= c.RemoteQP && d < c.RemoteQP+uint32(c.QPs) {
						sender = c.LocalQP + (d - c.RemoteQP)
					} else if d >= c.LocalQP && d < c.LocalQP+uint32(c.QPs) {
						sender = c.RemoteQP + (d - c.LocalQP)
					}
				}
				k := key(f.GRH.DGID, sender)
				waiting[k] = append(waiting[k], mark{due: g.Free().Add(delayOf(tc.phases))})
			}
			if err := g.Err(); err != nil {
				t.Fatal(err)
			}
			if ces == 0 || cnps != ces {
				t.Fatalf("%d CE marks, %d CNPs", ces, cnps)
			}
		})
	}
}

func rateOf(c gen.Config) uint64 {
	if c.Rate == 0 {
		return 100_000_000_000
	}
	return uint64(c.Rate)
}

// delayOf returns the Delay of the phases (the same in all of them here).
func delayOf(phases []gen.Config) time.Duration {
	d := phases[0].Delay
	for _, c := range phases {
		if c.Delay != d {
			panic("phases with different delays")
		}
	}
	return d
}
