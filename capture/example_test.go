package capture_test

import (
	"fmt"
	"log"
	"os"
	"os/signal"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capture"
)

// Capture RoCE frames on eth0 until interrupted, printing each one's
// time, length and opcode, then the kernel's counts. The kernel keeps
// the other frames out (RoCEFilter). It needs root (or CAP_NET_RAW), so
// it is compiled but not run.
func Example() {
	h, err := capture.Open("eth0", capture.Options{Snaplen: 256, Filter: capture.RoCEFilter()})
	if err != nil {
		log.Fatal(err) // errors.Is(err, os.ErrPermission) when not root
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	go func() { <-stop; h.Close() }() // the read below then returns io.EOF

	var f roce.Frame
	for {
		data, ci, err := h.ZeroCopyReadPacketData()
		if err != nil {
			break
		}
		if f.Decode(data) == nil {
			fmt.Println(ci.Timestamp.Format("15:04:05.000000000"), ci.Length, f.Packet.BTH.OpCode)
		}
	}
	st, _ := h.Stats()
	fmt.Printf("%d packets received by filter, %d dropped by kernel\n", st.Received, st.Dropped)
}

// A Handle is a gopacket packet source; its link type converts to
// gopacket's (import googlelayers as well for the RoCE layers).
func Example_gopacket() {
	h, err := capture.Open("eth0", capture.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	for p := range gopacket.NewPacketSource(h, layers.LinkType(h.LinkType())).Packets() {
		fmt.Println(p)
	}
}
