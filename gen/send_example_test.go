package gen_test

import (
	"fmt"
	"log"

	"github.com/roce-go/roce/gen"
)

// counter is a gen.PacketWriter that counts what it is given; a
// capture.Handle sends it on an interface instead.
type counter struct{ frames, bytes int }

func (c *counter) WritePacketData(b []byte) error { c.frames++; c.bytes += len(b); return nil }

// Send the default scenario twice at a million packets a second.
func ExampleSend() {
	cfg := gen.DefaultConfig()
	if err := cfg.Set("rate", "1Mpps"); err != nil {
		log.Fatal(err)
	}
	var c counter
	st, err := gen.Send(&c, func() (*gen.Generator, error) { return gen.New(cfg) }, gen.SendOptions{Loops: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Frames, "frames,", st.Bytes, "bytes in", st.Loops, "loops; the writer got", c.frames)
	fmt.Println("at least", st.Frames, "µs:", st.Elapsed.Microseconds() >= int64(st.Frames))
	// Output:
	// 34 frames, 133084 bytes in 2 loops; the writer got 34
	// at least 34 µs: true
}
