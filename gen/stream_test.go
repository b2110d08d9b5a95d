package gen_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
)

// scenarios are small scenario files: every feature a line can set.
var scenarios = []string{
	"op=write size=1K messages=2 qps=2 mtu=256\nop=read size=600 qps=2 mtu=256 gap=10us\n" +
		"transport=ud op=send-imm size=100 messages=3 qp=0x400 pfc-every=2\n",
	"# CE marks, CNP pacing, PFC pauses of the traffic, bad ICRCs\n" +
		"op=write size=8K mtu=1024 qps=3 ce-fraction=0.2 cnp-interval=2us pfc-every=4 pfc-prio=3 pcp=3 bad-icrc=0.1\n\n" +
		"op=fetch-add messages=4 qps=3 gap=1ms   # same connections: PSNs and values carry on\n" +
		"encap=v2-ipv6 vlan=7 transport=xrc op=send-inv size=3K srq=0x500 qps=2 seed=5\n",
	"encap=v1 op=cmp-swap qps=2 messages=2 delay=3us\nencap=v1 op=flush size=0\nop=atomic-write start=2030-01-01T00:00:00Z\n",
	"transport=uc op=write-imm size=0 messages=5",
}

// writeAll writes the capture of g in format f.
func writeAll(t *testing.T, g *gen.Generator, f capfile.Format) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, g, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStreamScenario: StreamScenario writes the same bytes as
// ParseScenario and NewScenario, in both formats.
func TestStreamScenario(t *testing.T) {
	base := gen.DefaultConfig()
	base.Seed = 3
	for i, text := range scenarios {
		for _, f := range []capfile.Format{capfile.FormatPcap, capfile.FormatPcapng} {
			phases, err := gen.ParseScenario(strings.NewReader(text), base)
			if err != nil {
				t.Fatal(err)
			}
			g, err := gen.NewScenario(phases)
			if err != nil {
				t.Fatal(err)
			}
			want := writeAll(t, g, f)
			if err := gen.CheckScenario(strings.NewReader(text), base); err != nil {
				t.Errorf("scenario %d: CheckScenario: %v", i, err)
			}
			g, err = gen.StreamScenario(iotest.OneByteReader(strings.NewReader(text)), base)
			if err != nil {
				t.Fatal(err)
			}
			if got := writeAll(t, g, f); !bytes.Equal(got, want) {
				t.Errorf("scenario %d, %v: streamed %d bytes differ from the parsed %d", i, f, len(got), len(want))
			}
		}
	}
}

// TestStreamScenarioErrors: a bad first line fails StreamScenario, a bad
// later line stops Next after the phases before it, naming its line;
// CheckScenario finds both before anything is generated.
func TestStreamScenarioErrors(t *testing.T) {
	base := gen.DefaultConfig()
	for _, tc := range []struct {
		text  string
		first bool   // StreamScenario itself fails
		want  string // in the error
	}{
		{"", true, "scenario has no phases"},
		{"# only a comment\n\n", true, "scenario has no phases"},
		{"op=jump", true, "scenario line 1: op: unknown operation"},
		{"\n\nmtu=1000", true, "roce: scenario line 3: bad configuration: MTU 1000"},
		{"op=write\n# two\nsize\n", false, `scenario line 3: "size" is not key=value`},
		{"op=write\nop=read\n\nnosuch=1\n", false, `scenario line 4: unknown option "nosuch"`},
		{"op=write\ntransport=ud op=read\n", false, "roce: scenario line 2: bad configuration: UD has no read operation"},
		{"op=write\ndelay=2000h\n", false, "scenario line 2: delay: 2000h0m0s is longer than 1281h1m26.018427387s"},
		{"op=write\n" + strings.Repeat("x", 70000) + "\n", false, "scenario line 2: bufio.Scanner: token too long"},
	} {
		checkErr := gen.CheckScenario(strings.NewReader(tc.text), base)
		if checkErr == nil || !strings.Contains(checkErr.Error(), tc.want) {
			t.Errorf("CheckScenario(%.30q): %v, want %q", tc.text, checkErr, tc.want)
		}
		g, err := gen.StreamScenario(strings.NewReader(tc.text), base)
		if tc.first {
			if err == nil || err.Error() != checkErr.Error() {
				t.Errorf("StreamScenario(%.30q): %v, want %v", tc.text, err, checkErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("StreamScenario(%.30q): %v", tc.text, err)
			continue
		}
		n := 0
		for g.Next() {
			n++
		}
		if err := g.Err(); err == nil || err.Error() != checkErr.Error() || n < 17 {
			t.Errorf("StreamScenario(%.30q): %d frames, then %v; want the first phase's and %v", tc.text, n, err, checkErr)
		}
	}
	// A time error names the phase's line.
	text := "start=2262-01-01T00:00:00Z\ngap=1281h\n\n# 2262-04-17, after LastTime\ngap=1281h\n"
	g, err := gen.StreamScenario(strings.NewReader(text), base)
	if err != nil {
		t.Fatal(err)
	}
	for g.Next() {
	}
	if err := g.Err(); !errors.Is(err, gen.ErrTimeRange) || !strings.HasPrefix(err.Error(), "roce: scenario line 5: ") || g.Stats().Frames != 34 {
		t.Errorf("late phase: %v", err)
	}
}

// lines is a scenario of n lines, made as it is read.
type lines struct {
	n, i int
	buf  []byte
}

func (l *lines) Read(p []byte) (int, error) {
	for len(l.buf) < len(p) && l.i < l.n {
		switch l.i % 4 {
		case 0:
			l.buf = append(l.buf, "op=write size=64 qps=2 # two connections\n"...)
		case 1:
			l.buf = append(l.buf, "op=read size=300 mtu=256 qps=2 gap=1us\n"...)
		case 2:
			l.buf = append(l.buf, "\n"...)
		case 3:
			l.buf = append(l.buf, fmt.Sprintf("transport=ud op=send size=%d ce-every=1\n", l.i%1000)...)
		}
		l.i++
	}
	if len(l.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// liveHeap returns the bytes of live heap objects, after a collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestStreamScenarioMemory plays a scenario of 200,000 lines (the issue's
// 727 MB with every phase held) and checks that the live heap stays
// within 10 MB of where it started, and the count of what was made.
func TestStreamScenarioMemory(t *testing.T) {
	const n = 200_000
	before := liveHeap()
	g, err := gen.StreamScenario(&lines{n: n}, gen.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	peak := uint64(0)
	frames := 0
	for g.Next() {
		if frames++; frames%50_000 == 0 {
			peak = max(peak, liveHeap())
		}
	}
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	peak = max(peak, liveHeap())
	runtime.KeepAlive(g)
	growth := int64(peak) - int64(before)
	t.Logf("%d frames, live heap %d KB before, at most %d KB while playing", frames, before>>10, peak>>10)
	if growth > 10<<20 {
		t.Errorf("the live heap grew by %d MB", growth>>20)
	}
	// Per 4 lines: 2 WRITE Only and their 2 ACKs; 2 READ requests of 2
	// responses each; 1 UD SEND, CE-marked, and its CNP.
	if s := g.Stats(); s.Frames != n/4*12 || s.CNPs != n/4 || frames != s.Frames {
		t.Errorf("%d frames, %d CNPs; want %d and %d", s.Frames, s.CNPs, n/4*12, n/4)
	}
}
