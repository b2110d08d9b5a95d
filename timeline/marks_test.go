package timeline

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
)

// TestThinning: with room for 4 marks, 20 marks leave those numbered 0,
// 8 and 16: each time the list fills, every other mark goes and the
// stride doubles (1, 2, 4, 8), so the kept marks stay evenly spread.
func TestThinning(t *testing.T) {
	var m marks
	for i := 0; i < 20; i++ {
		if m.want(4) {
			m.kept = append(m.kept, Mark{Frame: i})
		}
	}
	var got []int
	for _, k := range m.kept {
		got = append(got, k.Frame)
	}
	if !slices.Equal(got, []int{0, 8, 16}) || m.seen != 20 || m.stride != 8 {
		t.Errorf("kept %v of %d (stride %d); want [0 8 16] of 20, stride 8", got, m.seen, m.stride)
	}
}

// TestMarkKinds: NAKs and retransmissions the analysis reports are drawn
// on the flow they concern, with their cause in the title; marks beyond
// the cap are counted on the page (room for 2: marks 0 and 4 of 5 NAKs
// stay; the frames repeat one PSN, so the analysis finds 4 resends of
// its own, 9 retransmissions in all, of which 0 and 8 stay).
func TestMarkKinds(t *testing.T) {
	g, err := gen.New(gen.DefaultConfig())
	if err != nil || !g.Next() {
		t.Fatal(err)
	}
	frame := append([]byte(nil), g.Frame()...)
	tl := New(Config{MaxMarks: 2})
	var rec dump.Record
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 5; i++ {
		rec.Decode(i+1, gopacket.CaptureInfo{Timestamp: start.Add(time.Duration(i) * time.Microsecond), Length: len(frame), CaptureLength: len(frame)}, capfile.LinkTypeEthernet, frame)
		tl.AddRecord(&rec, "r.pcap")
		key, _ := flow.KeyOf(&rec)
		tl.cur = &rec // as during the analysis of this frame
		tl.event(&flow.Event{Kind: flow.EventRetransmit, Time: rec.Time, Flow: key, Cause: "timeout", EpisodeStart: i == 0})
		tl.event(&flow.Event{Kind: flow.EventNAK, Time: rec.Time, Flow: flow.Key{QP: 99}, Sender: key, HasSender: true})
		tl.cur = nil
	}
	var page strings.Builder
	if err := tl.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	s := page.String()
	for _, want := range []string{`class="mark retransmit"`, `class="mark nak"`, "beginning a go-back-N episode (cause: timeout)",
		"NAK ", "retransmissions: 2 of 9 drawn", "NAKs: 2 of 5 drawn", "frame 1 of r.pcap"} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
