package dump

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// Format is a capture file format Writer writes.
type Format uint8

// The formats.
const (
	FormatPcap   Format = iota // pcap, nanosecond timestamps
	FormatPcapng               // pcapng, nanosecond timestamps (if_tsresol 9)
)

// String returns "pcap" or "pcapng".
func (f Format) String() string {
	if f == FormatPcapng {
		return "pcapng"
	}
	return "pcap"
}

// ParseFormat parses "pcap" or "pcapng" (in any case).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "pcap":
		return FormatPcap, nil
	case "pcapng":
		return FormatPcapng, nil
	}
	return 0, fmt.Errorf("unknown capture format %q: want pcap or pcapng", s)
}

// FormatOf returns the format a file name asks for: pcapng for a name
// ending in ".pcapng" (in any case), pcap otherwise.
func FormatOf(name string) Format {
	if strings.EqualFold(filepath.Ext(name), ".pcapng") {
		return FormatPcapng
	}
	return FormatPcap
}

// ErrLinkTypes is what Writer.WriteFrame returns when a pcap file would
// need a second link type: a pcap file has one; write pcapng instead.
var ErrLinkTypes = errors.New("dump: frames of more than one link type: a pcap file holds one (write pcapng)")

// Writer writes frames to a pcap or pcapng capture, as they were read:
// captured bytes, original length, timestamp to the nanosecond and link
// type. A pcap file takes its link type from the first frame (or from
// the default given to NewWriter when there is none); a pcapng file
// describes one interface per link type met, as frames come. It writes
// to w as it goes (give it a buffered writer) and allocates nothing per
// frame once its buffer has grown to the longest frame.
type Writer struct {
	w       io.Writer
	format  Format
	started bool
	lt      uint16   // pcap: the file's link type
	ifs     []uint16 // pcapng: the link type of each interface described
	buf     []byte
}

// NewWriter returns a Writer of format f on w. linkType is the link type
// of a pcap file that ends up holding no frame.
func NewWriter(w io.Writer, f Format, linkType uint16) *Writer {
	return &Writer{w: w, format: f, lt: linkType, buf: make([]byte, 0, 2048)}
}

// pcap file header fields this writer uses.
const (
	writeSnaplen = MaxSnaplen
)

// start writes the file header (pcap) or Section Header Block (pcapng).
func (w *Writer) start() error {
	w.started = true
	b := w.buf[:0]
	if w.format == FormatPcap {
		b = binary.LittleEndian.AppendUint32(b, magicPcapNs)
		b = binary.LittleEndian.AppendUint16(b, 2)
		b = binary.LittleEndian.AppendUint16(b, 4)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, writeSnaplen)
		b = binary.LittleEndian.AppendUint32(b, uint32(w.lt))
	} else {
		b = binary.LittleEndian.AppendUint32(b, blockSHB)
		b = binary.LittleEndian.AppendUint32(b, shbMin)
		b = binary.LittleEndian.AppendUint32(b, bom)
		b = binary.LittleEndian.AppendUint16(b, 1)
		b = binary.LittleEndian.AppendUint16(b, 0)
		b = binary.LittleEndian.AppendUint64(b, ^uint64(0)) // section length unknown
		b = binary.LittleEndian.AppendUint32(b, shbMin)
	}
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// iface returns the pcapng interface of link type lt, describing a new
// one in b when it is the first frame of that link type.
func (w *Writer) iface(b []byte, lt uint16) ([]byte, uint32) {
	for i, t := range w.ifs {
		if t == lt {
			return b, uint32(i)
		}
	}
	w.ifs = append(w.ifs, lt)
	const idbLen = 20 + 8 + 4 // header, if_tsresol option padded, opt_endofopt
	b = binary.LittleEndian.AppendUint32(b, blockIDB)
	b = binary.LittleEndian.AppendUint32(b, idbLen)
	b = binary.LittleEndian.AppendUint16(b, lt)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint32(b, writeSnaplen)
	b = binary.LittleEndian.AppendUint16(b, optTSResol)
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = append(b, 9, 0, 0, 0)                  // nanoseconds, padded
	b = binary.LittleEndian.AppendUint32(b, 0) // opt_endofopt
	b = binary.LittleEndian.AppendUint32(b, idbLen)
	return b, uint32(len(w.ifs) - 1)
}

// WriteFrame writes one frame: its captured bytes, its length on the
// wire (origLen; under len(data) it is taken as len(data)), its capture
// time and its link type. A zero time (a pcapng Simple Packet Block's)
// is written as the epoch, as are times before it.
func (w *Writer) WriteFrame(data []byte, origLen int, ts time.Time, linkType uint16) error {
	if !w.started {
		if w.format == FormatPcap {
			w.lt = linkType
		}
		if err := w.start(); err != nil {
			return err
		}
	}
	if len(data) > MaxSnaplen {
		return fmt.Errorf("dump: frame of %d bytes over the limit of %d", len(data), MaxSnaplen)
	}
	if origLen < len(data) {
		origLen = len(data)
	}
	var ns uint64
	if !ts.IsZero() && ts.Unix() >= 0 {
		ns = uint64(ts.UnixNano())
	}
	b := w.buf[:0]
	if w.format == FormatPcap {
		if linkType != w.lt {
			return ErrLinkTypes
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(ns/1e9))
		b = binary.LittleEndian.AppendUint32(b, uint32(ns%1e9))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
		b = binary.LittleEndian.AppendUint32(b, uint32(origLen))
		b = append(b, data...)
	} else {
		var id uint32
		b, id = w.iface(b, linkType)
		pad := -len(data) & 3
		total := uint32(epbMin + len(data) + pad)
		b = binary.LittleEndian.AppendUint32(b, blockEPB)
		b = binary.LittleEndian.AppendUint32(b, total)
		b = binary.LittleEndian.AppendUint32(b, id)
		b = binary.LittleEndian.AppendUint32(b, uint32(ns>>32))
		b = binary.LittleEndian.AppendUint32(b, uint32(ns))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
		b = binary.LittleEndian.AppendUint32(b, uint32(origLen))
		b = append(b, data...)
		b = append(b, zeros[:pad]...)
		b = binary.LittleEndian.AppendUint32(b, total)
	}
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// WriteRecord writes the frame r was decoded from, as WriteFrame.
func (w *Writer) WriteRecord(r *Record) error {
	return w.WriteFrame(r.Data, r.Len, r.Time, r.LinkType)
}

// Close writes the file header when no frame was written, so that the
// file is a capture of no frame. It does not close the underlying
// writer.
func (w *Writer) Close() error {
	if w.started {
		return nil
	}
	return w.start()
}

// LinkType returns the link type of a pcap capture, or of the first
// interface a pcapng capture has described so far; ok is false when a
// pcapng capture has described none.
func (s *Source) LinkType() (lt uint16, ok bool) {
	if !s.ng {
		return s.lt, true
	}
	if len(s.ifs) == 0 {
		return 0, false
	}
	return s.ifs[0].linkType, true
}

var zeros [4]byte
