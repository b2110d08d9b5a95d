package gen

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/roce-go/roce/capfile"
)

// pcapLastTime is the last time a pcap file holds: its seconds field is
// an unsigned 32-bit count from 1970.
var pcapLastTime = time.Unix(math.MaxUint32, 999_999_999).UTC() // 2106-02-07T06:28:15.999999999Z

// CheckTime reports whether a capture file of format f holds the time t
// as the generator writes it: a pcap file from 1970 to
// 2106-02-07T06:28:15.999999999Z (32-bit unsigned seconds), a pcapng
// file from 1970 to LastTime (its 64-bit nanosecond ticks as
// time.Time.UnixNano gives them). The error wraps ErrTimeRange.
func CheckTime(f capfile.Format, t time.Time) error {
	last := LastTime
	if f == capfile.FormatPcap {
		last = pcapLastTime
	}
	switch {
	case t.Before(FirstTime):
		return fmt.Errorf("%w: %s is before %s, the first time a %v file holds", ErrTimeRange, t.Format(time.RFC3339Nano), FirstTime.Format(time.RFC3339Nano), f)
	case t.After(last) && f == capfile.FormatPcap:
		return fmt.Errorf("%w: %s is after %s, the last time a pcap file holds (pcapng: %s)", ErrTimeRange,
			t.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano), LastTime.Format(time.RFC3339Nano))
	case t.After(last):
		return fmt.Errorf("%w: %s is after %s, the last time a %v file holds", ErrTimeRange, t.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano), f)
	}
	return nil
}

// writerOptions are what Write writes besides the frames: the snapshot
// length in the file header (every frame the generator writes is far
// shorter), and in pcapng the application and interface names.
var writerOptions = capfile.WriterOptions{LinkType: capfile.LinkTypeEthernet, Snaplen: 65535, Application: "rocegen", Interface: "rocegen"}

// Write writes every frame g generates to w as a capture file in format
// f (capfile.Writer), buffering the writes itself, and returns the
// number of frames written. Both formats carry nanosecond timestamps and
// link type Ethernet. The file's bytes depend only on the scenario: the
// pcapng section header names the application "rocegen" and nothing of
// the machine. A frame whose time the format cannot hold (see
// CheckTime) stops Write with an error wrapping ErrTimeRange; when the
// capture's start is such a time, Write writes nothing.
func Write(w io.Writer, g *Generator, f capfile.Format) (int, error) {
	if f != capfile.FormatPcap && f != capfile.FormatPcapng {
		return 0, fmt.Errorf("%w: %d", capfile.ErrUnknownFormat, f)
	}
	if err := CheckTime(f, g.Start()); err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	cw := capfile.NewWriterOptions(bw, f, writerOptions)
	if err := cw.Start(); err != nil {
		return 0, err
	}
	n := 0
	for g.Next() {
		ts := g.Time()
		if f == capfile.FormatPcap && ts.Unix() > math.MaxUint32 {
			return n, fmt.Errorf("%w: frame %d at %s is after %s, the last time a pcap file holds (pcapng: %s)", ErrTimeRange,
				n+1, ts.Format(time.RFC3339Nano), pcapLastTime.Format(time.RFC3339Nano), LastTime.Format(time.RFC3339Nano))
		}
		frame := g.Frame()
		if err := cw.WriteFrame(frame, len(frame), ts, capfile.LinkTypeEthernet); err != nil {
			return n, err
		}
		n++
	}
	if err := g.Err(); err != nil {
		return n, err
	}
	return n, bw.Flush()
}
