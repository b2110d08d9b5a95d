package timeline_test

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/timeline"
)

// A generated RDMA WRITE of 16 packets, two of them marked CE and
// answered by CNPs, and a PFC frame pausing priority 3: the page has one
// flow series carrying two CE marks and two CNPs, and one pause.
func Example() {
	cfg := gen.DefaultConfig()
	cfg.CEEvery, cfg.PFCEvery = 8, 10
	g, err := gen.New(cfg)
	if err != nil {
		panic(err)
	}
	tl := timeline.New(timeline.Config{})
	var rec dump.Record
	for n := 1; g.Next(); n++ {
		f := g.Frame()
		rec.Decode(n, gopacket.CaptureInfo{Timestamp: g.Time(), Length: len(f), CaptureLength: len(f)}, capfile.LinkTypeEthernet, f)
		tl.AddRecord(&rec, "write.pcap")
	}
	var page strings.Builder
	if err := tl.WriteHTML(&page); err != nil {
		panic(err)
	}
	count := func(re string) int { return len(regexp.MustCompile(re).FindAllString(page.String(), -1)) }
	fmt.Println("flows:", count(`<g class="series"`))
	fmt.Println("CE marks:", count(`class="mark ce"`), "CNPs:", count(`class="mark cnp"`))
	fmt.Println("pauses:", count(`<rect class="pause"`))
	fmt.Println("bin:", tl.Page().Bin)
	// Output:
	// flows: 2
	// CE marks: 2 CNPs: 2
	// pauses: 1
	// bin: 50ns
}
