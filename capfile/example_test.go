package capfile_test

import (
	"bytes"
	"fmt"
	"time"

	"github.com/roce-go/roce/capfile"
)

// Write two frames to a pcapng capture in memory and read them back.
func Example() {
	var buf bytes.Buffer
	w := capfile.NewWriter(&buf, capfile.FormatPcapng, capfile.LinkTypeEthernet)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	w.WriteFrame([]byte("first frame"), 64, t0, capfile.LinkTypeEthernet)
	w.WriteFrame([]byte("second"), 6, t0.Add(1500*time.Nanosecond), capfile.LinkTypeInfiniBand)

	src, err := capfile.NewSourceBytes(buf.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		data, ci, lt, err := src.Next()
		if err != nil {
			break
		}
		fmt.Printf("frame %d: %q, %d of %d bytes at %s, link type %d",
			src.Number(), data, ci.CaptureLength, ci.Length, ci.Timestamp.UTC().Format(time.RFC3339Nano), lt)
		if name, ok := capfile.LinkTypeName(lt); ok {
			fmt.Printf(" (%s)", name)
		}
		fmt.Println()
	}
	// Output:
	// frame 1: "first frame", 11 of 64 bytes at 2026-01-02T03:04:05.000000006Z, link type 1
	// frame 2: "second", 6 of 6 bytes at 2026-01-02T03:04:05.000001506Z, link type 247 (InfiniBand)
}
