package gen

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
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
	return 0, fmt.Errorf("unknown capture format %q (want pcap or pcapng)", s)
}

// FormatOf returns the format a file name asks for: PcapNG for names
// ending in .pcapng, Pcap otherwise.
func FormatOf(name string) Format {
	if strings.EqualFold(filepath.Ext(name), ".pcapng") {
		return PcapNG
	}
	return Pcap
}

// snapLen is the snapshot length written in the file header: every
// frame the generator writes is far shorter.
const snapLen = 65535

// Write writes every frame g generates to w as a capture file in format
// f, buffering the writes itself, and returns the number of frames
// written. The file's bytes depend only on the scenario: the pcapng
// section header names the application "rocegen" and nothing of the
// machine.
func Write(w io.Writer, g *Generator, f Format) (int, error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	n := 0
	switch f {
	case Pcap:
		pw := pcapgo.NewWriterNanos(bw)
		if err := pw.WriteFileHeader(snapLen, layers.LinkTypeEthernet); err != nil {
			return 0, err
		}
		for g.Next() {
			if err := pw.WritePacket(g.CaptureInfo(), g.Frame()); err != nil {
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
		return 0, fmt.Errorf("gen: unknown capture format %d", f)
	}
	if err := g.Err(); err != nil {
		return n, err
	}
	return n, bw.Flush()
}
