package gen_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
)

// The default scenario: an RC RDMA WRITE of 64 KiB at MTU 4096 and its
// ACK, decoded frame by frame.
func Example() {
	g, err := gen.New(gen.DefaultConfig())
	if err != nil {
		log.Fatal(err)
	}
	var f roce.Frame
	for g.Next() {
		if err := f.Decode(g.Frame()); err != nil {
			log.Fatal(err)
		}
		p := &f.Packet
		fmt.Printf("%s %-22v psn %d payload %d\n", g.Time().Format("15:04:05.000000000"), p.BTH.OpCode, p.BTH.PSN, len(p.Payload))
	}
	if err := g.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 00:00:00.000000000 RC RDMA WRITE First    psn 2597161 payload 4096
	// 00:00:00.000000335 RC RDMA WRITE Middle   psn 2597162 payload 4096
	// 00:00:00.000000669 RC RDMA WRITE Middle   psn 2597163 payload 4096
	// 00:00:00.000001004 RC RDMA WRITE Middle   psn 2597164 payload 4096
	// 00:00:00.000001338 RC RDMA WRITE Middle   psn 2597165 payload 4096
	// 00:00:00.000001672 RC RDMA WRITE Middle   psn 2597166 payload 4096
	// 00:00:00.000002006 RC RDMA WRITE Middle   psn 2597167 payload 4096
	// 00:00:00.000002340 RC RDMA WRITE Middle   psn 2597168 payload 4096
	// 00:00:00.000002675 RC RDMA WRITE Middle   psn 2597169 payload 4096
	// 00:00:00.000003009 RC RDMA WRITE Middle   psn 2597170 payload 4096
	// 00:00:00.000003343 RC RDMA WRITE Middle   psn 2597171 payload 4096
	// 00:00:00.000003677 RC RDMA WRITE Middle   psn 2597172 payload 4096
	// 00:00:00.000004012 RC RDMA WRITE Middle   psn 2597173 payload 4096
	// 00:00:00.000004346 RC RDMA WRITE Middle   psn 2597174 payload 4096
	// 00:00:00.000004680 RC RDMA WRITE Middle   psn 2597175 payload 4096
	// 00:00:00.000005014 RC RDMA WRITE Last     psn 2597176 payload 4096
	// 00:00:00.000006349 RC Acknowledge         psn 2597176 payload 0
}

// Set takes the options by the names cmd/rocegen gives its flags.
func ExampleConfig_Set() {
	c := gen.DefaultConfig()
	for _, kv := range [][2]string{{"op", "read"}, {"size", "10K"}, {"mtu", "4096"}, {"encap", "v2-ipv6"}} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			log.Fatal(err)
		}
	}
	g, err := gen.New(c)
	if err != nil {
		log.Fatal(err)
	}
	var f roce.Frame
	for g.Next() {
		f.Decode(g.Frame())
		fmt.Printf("%-8v %v %d bytes\n", g.Kind(), f.Packet.BTH.OpCode, len(f.Packet.Payload))
	}
	// Output:
	// request  RC RDMA READ Request 0 bytes
	// read-response RC RDMA READ Response First 4096 bytes
	// read-response RC RDMA READ Response Middle 4096 bytes
	// read-response RC RDMA READ Response Last 2048 bytes
}

// A scenario file plays phases one after the other; Write turns the
// frames into a capture file.
func ExampleParseScenario() {
	scenario := `
# two connections write 8 KiB each; every 4th packet is marked CE
op=write size=8K mtu=1024 qps=2 ce-every=4
# then UD datagrams, paused by PFC on priority 3
transport=ud op=send size=512 messages=4 pfc-every=2 pfc-prio=3
`
	phases, err := gen.ParseScenario(strings.NewReader(scenario), gen.DefaultConfig())
	if err != nil {
		log.Fatal(err)
	}
	g, err := gen.NewScenario(phases)
	if err != nil {
		log.Fatal(err)
	}
	var capture bytes.Buffer
	n, err := gen.Write(&capture, g, capfile.FormatPcap)
	if err != nil {
		log.Fatal(err)
	}
	s := g.Stats()
	fmt.Printf("%d frames: %d requests, %d responses, %d CE marks, %d CNPs, %d PFC\n",
		n, s.Requests, s.Responses, s.CE, s.CNPs, s.PFC)
	// Output:
	// 28 frames: 20 requests, 2 responses, 4 CE marks, 4 CNPs, 2 PFC
}
