package gen

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/internal/errs"
)

// Format is a capture file format.
type Format uint8

// The capture formats Write writes. Both carry nanosecond timestamps and
// link type Ethernet.
const (
	Pcap   Format = iota // libpcap, nanosecond variant (magic 0xa1b23c4d)
	PcapNG               // pcapng, one interface
)

// String returns "pcap" or "pcapng".
func (f Format) String() string {
	if f == PcapNG {
		return "pcapng"
	}
	return "pcap"
}

// ParseFormat returns the format named "pcap" or "pcapng".
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "pcap":
		return Pcap, nil
	case "pcapng":
		return PcapNG, nil
	}
	return 0, errs.Kind(ErrConfig, fmt.Sprintf("unknown capture format %q (want pcap or pcapng)", s))
}

// FormatOf returns the format a file name asks for: PcapNG for names
// ending in .pcapng, Pcap otherwise.
func FormatOf(name string) Format {
	if strings.EqualFold(filepath.Ext(name), ".pcapng") {
		return PcapNG
	}
	return Pcap
}

// pcapLastTime is the last time a pcap file holds: its seconds field is
// an unsigned 32-bit count from 1970.
var pcapLastTime = time.Unix(math.MaxUint32, 999_999_999).UTC() // 2106-02-07T06:28:15.999999999Z

// CheckTime reports whether a capture file of format f holds the time t:
// a pcap file from 1970 to 2106-02-07T06:28:15.999999999Z (32-bit
// unsigned seconds), a pcapng file from 1970 to LastTime (its 64-bit
// nanosecond ticks as time.Time.UnixNano gives them). The error wraps
// ErrTimeRange.
func (f Format) CheckTime(t time.Time) error {
	last := LastTime
	if f == Pcap {
		last = pcapLastTime
	}
	switch {
	case t.Before(FirstTime):
		return fmt.Errorf("%w: %s is before %s, the first time a %v file holds", ErrTimeRange, t.Format(time.RFC3339Nano), FirstTime.Format(time.RFC3339Nano), f)
	case t.After(last) && f == Pcap:
		return fmt.Errorf("%w: %s is after %s, the last time a pcap file holds (pcapng: %s)", ErrTimeRange,
			t.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano), LastTime.Format(time.RFC3339Nano))
	case t.After(last):
		return fmt.Errorf("%w: %s is after %s, the last time a %v file holds", ErrTimeRange, t.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano), f)
	}
	return nil
}

// snapLen is the snapshot length written in the file header: every
// frame the generator writes is far shorter.
const snapLen = 65535

// Write writes every frame g generates to w as a capture file in format
// f, buffering the writes itself, and returns the number of frames
// written. The file's bytes depend only on the scenario: the pcapng
// section header names the application "rocegen" and nothing of the
// machine. A frame whose time the format cannot hold (see
// Format.CheckTime) stops Write with an error wrapping ErrTimeRange;
// when the capture's start is such a time, Write writes nothing.
func Write(w io.Writer, g *Generator, f Format) (int, error) {
	if err := f.CheckTime(g.Start()); err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	n := 0
	switch f {
	case Pcap:
		pw := pcapgo.NewWriterNanos(bw)
		if err := pw.WriteFileHeader(snapLen, layers.LinkTypeEthernet); err != nil {
			return 0, err
		}
		for g.Next() {
			ci := g.CaptureInfo()
			if ci.Timestamp.Unix() > math.MaxUint32 {
				return n, fmt.Errorf("%w: frame %d at %s is after %s, the last time a pcap file holds (pcapng: %s)", ErrTimeRange,
					n+1, ci.Timestamp.Format(time.RFC3339Nano), pcapLastTime.Format(time.RFC3339Nano), LastTime.Format(time.RFC3339Nano))
			}
			if err := pw.WritePacket(ci, g.Frame()); err != nil {
				return n, err
			}
			n++
		}
	case PcapNG:
		intf := pcapgo.NgInterface{Name: "rocegen", LinkType: layers.LinkTypeEthernet, TimestampResolution: 9, SnapLength: snapLen}
		nw, err := pcapgo.NewNgWriterInterface(bw, intf, pcapgo.NgWriterOptions{SectionInfo: pcapgo.NgSectionInfo{Application: "rocegen"}})
		if err != nil {
			return 0, err
		}
		for g.Next() {
			if err := nw.WritePacket(g.CaptureInfo(), g.Frame()); err != nil {
				return n, err
			}
			n++
		}
		if err := nw.Flush(); err != nil {
			return n, err
		}
	default:
		return 0, fmt.Errorf("roce: unknown capture format %d", f)
	}
	if err := g.Err(); err != nil {
		return n, err
	}
	return n, bw.Flush()
}
