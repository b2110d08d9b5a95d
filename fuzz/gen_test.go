package fuzz

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc64"
	"strings"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/pfc"
)

// FuzzGenerate reads its input as a scenario (lines of key=value, the
// flags of cmd/rocegen) and plays it: every configuration gen accepts must
// produce frames that decode (roce.Frame, cnp, pfc), carry a valid ICRC
// unless bad ICRCs were asked for, have non-decreasing timestamps, and come
// out byte-identical on a second run. Refusals, the scenario's syntax
// errors too, must start with "roce: " and wrap gen.ErrConfig; nothing
// may panic.
func FuzzGenerate(f *testing.F) {
	for _, s := range []string{
		"",
		"op=read size=10K mtu=1024 qps=3",
		"transport=ud op=send-imm size=200 messages=5 encap=v2-ipv6 vlan=7",
		"transport=xrc op=cmp-swap messages=4\nop=fetch-add gap=1us",
		"op=write size=5000 mtu=256 ce-every=3 pfc-every=4 bad-icrc=0.5 cnp-interval=1us",
		"encap=v1 op=send-inv size=0 ack-every=1",
		"op=flush size=64K\nop=atomic-write psn=16777215",
		"transport=uc op=write-imm size=1M ce-fraction=0.3 rate=25G",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		base := gen.DefaultConfig()
		base.Size, base.MTU = 1000, 256
		phases, err := gen.ParseScenario(strings.NewReader(text), base)
		if err != nil {
			// A syntax error, an unknown key, a bad value, no phase, a
			// line too long for the scanner: said "roce: " first, and
			// matching ErrConfig (or the scanner's ErrTooLong).
			if !errors.Is(err, gen.ErrConfig) && !errors.Is(err, bufio.ErrTooLong) || !strings.HasPrefix(err.Error(), "roce: ") {
				t.Fatalf("ParseScenario: %q wraps neither ErrConfig nor bufio.ErrTooLong, or lacks the prefix", err)
			}
			return
		}
		// Keep a run short (a slow input near the end of -fuzztime makes
		// the fuzzer fail with "context deadline exceeded"): few phases,
		// at most 512 frames read.
		if len(phases) > 8 {
			return
		}
		for i := range phases {
			if phases[i].Messages > 64 || phases[i].QPs > 64 || phases[i].Size > 1<<20 {
				return
			}
		}
		sum := func() (uint64, int) {
			g, err := gen.NewScenario(phases)
			if err != nil {
				if !errors.Is(err, gen.ErrConfig) {
					t.Fatalf("NewScenario: %v does not wrap ErrConfig", err)
				}
				return 0, -1
			}
			h := crc64.New(crc64.MakeTable(crc64.ECMA))
			var prev int64
			n := 0
			var fr roce.Frame
			for ; n < 512 && g.Next(); n++ {
				b := g.Frame()
				h.Write(b)
				ts := g.Time().UnixNano()
				if ts < prev {
					t.Fatalf("frame %d: timestamp goes back", n)
				}
				prev = ts
				switch {
				case binary.BigEndian.Uint16(b[12:]) == uint16(pfc.EthernetTypeMACControl):
					if g.Kind() != gen.KindPFC || len(b) != pfc.MinFrameLen {
						t.Fatalf("frame %d: MAC Control frame of kind %v, %d bytes", n, g.Kind(), len(b))
					}
					continue
				case cnp.IsCNP(b):
					if err := cnp.Decode(&fr.Packet, b); err != nil || g.Kind() != gen.KindCNP {
						t.Fatalf("frame %d: CNP of kind %v: %v", n, g.Kind(), err)
					}
				default:
					if err := fr.Decode(b); err != nil {
						t.Fatalf("frame %d (%v): %v", n, g.Kind(), err)
					}
				}
				if err := roce.VerifyFrame(b); err != nil && g.Stats().BadICRC == 0 {
					t.Fatalf("frame %d (%v): %v, no bad ICRC asked for", n, g.Kind(), err)
				}
			}
			if err := g.Err(); err != nil {
				t.Fatal(err)
			}
			if n < 512 && g.Stats().Frames != n {
				t.Fatalf("Stats.Frames %d, read %d", g.Stats().Frames, n)
			}
			return h.Sum64(), n
		}
		a, n := sum()
		if b, m := sum(); a != b || n != m {
			t.Fatalf("two runs differ: %d frames %x, %d frames %x", n, a, m, b)
		}
	})
}
