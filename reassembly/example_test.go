package reassembly_test

import (
	"fmt"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/reassembly"
)

// A SEND of three packets captured out of order, with its First resent:
// one message, in PSN order.
func Example() {
	a := reassembly.New(reassembly.Config{}, func(m *reassembly.Message[string]) {
		fmt.Printf("%s %s: %q from PSN %d, frames %d to %d\n", m.Key, m.Opcode, m.Payload, m.FirstPSN, m.First.Frame, m.Last.Frame)
	})
	packet := func(op ib.Operation, psn uint32, data string) *ib.Packet {
		p := new(ib.Packet)
		p.BTH.OpCode, p.BTH.PSN, p.Payload = ib.MakeOpcode(ib.RC, op), psn, []byte(data)
		return p
	}
	key := "10.0.0.1>10.0.0.2 qp 0x11"
	a.Add(key, reassembly.Mark{Frame: 1}, packet(ib.SendFirst, 41, "hello, "))
	a.Add(key, reassembly.Mark{Frame: 2}, packet(ib.SendLast, 43, "!"))
	a.Add(key, reassembly.Mark{Frame: 3}, packet(ib.SendFirst, 41, "hello, "))
	a.Add(key, reassembly.Mark{Frame: 4}, packet(ib.SendMiddle, 42, "world"))
	a.Flush()
	fmt.Printf("%+v\n", a.Stats())
	// Output:
	// 10.0.0.1>10.0.0.2 qp 0x11 RC SEND Last: "hello, world!" from PSN 41, frames 1 to 2
	// {Packets:4 Messages:1 Waited:1 Duplicates:1 Skipped:0 Abandoned:0 Orphans:0 Streams:2}
}
