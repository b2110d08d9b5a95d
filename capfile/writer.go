package capfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/roce-go/roce/internal/errs"
)

// Format is a capture file format Writer writes.
type Format uint8

// The formats.
const (
	FormatPcap   Format = iota // pcap, nanosecond timestamps: 1970 to 2106
	FormatPcapng               // pcapng, nanosecond timestamps (if_tsresol 9, and an if_tsoffset outside 1970 to 2554): MinTime to MaxTime
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
	return 0, errs.Kind(ErrUnknownFormat, fmt.Sprintf("unknown capture format %q: want pcap or pcapng", s))
}

// ErrUnknownFormat is what ParseFormat's error wraps: the text names no
// capture format Writer writes.
var ErrUnknownFormat = errors.New("roce: unknown capture format")

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
var ErrLinkTypes = errors.New("roce: frames of more than one link type: a pcap file holds one (write pcapng)")

// ErrTimeRange is what Writer.WriteFrame returns for a time that a pcap
// file cannot hold: its seconds are 32 bits without sign, 1970 to
// 2106-02-07T06:28:15.999999999Z. pcapng holds any time a Source gives.
var ErrTimeRange = errors.New("roce: a pcap file holds times from 1970 to 2106-02-07T06:28:15.999999999Z (write pcapng)")

// ErrTooLong is what Writer.WriteFrame returns for a frame of more than
// MaxSnaplen bytes, which no Source would read back.
var ErrTooLong = errors.New("roce: frame longer than MaxSnaplen")

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
	opt     WriterOptions
	started bool
	lt      uint16  // pcap: the file's link type
	ifs     []ngOut // pcapng: the interfaces described
	buf     []byte
}

// WriterOptions are what a Writer writes besides the frames. The zero
// value is NewWriter's (with link type 0).
type WriterOptions struct {
	// LinkType is the link type of a pcap file that ends up holding no
	// frame, and the one Start describes.
	LinkType uint16
	// Snaplen is the snapshot length of the pcap file header and of
	// each pcapng interface; 0 means MaxSnaplen. It is the file's word
	// alone: a frame longer than it is written whole (up to MaxSnaplen).
	Snaplen uint32
	// Application names the program that writes the file: the pcapng
	// Section Header Block's shb_userappl option ("" writes none).
	Application string
	// Interface names every interface a pcapng file describes: the
	// if_name option of its Interface Description Blocks ("" writes
	// none).
	Interface string
}

// ngOut is an interface a pcapng Writer has described: a link type and
// the if_tsoffset its timestamps count from.
type ngOut struct {
	lt     uint16
	offset int64
}

// ngSpan is the seconds one interface's timestamps span past its
// if_tsoffset, a power of two: 2^33 s (272 years) of nanoseconds fit in
// the 64 bits of an Enhanced Packet Block's timestamp.
const ngSpan = 1 << 33

// ngLastSec is the last second of nanoseconds since 1970 that 64 bits
// hold (2554-07-21T23:34:33Z): an interface without if_tsoffset takes
// the times from 1970 to it.
const ngLastSec = (1<<64-1)/1_000_000_000 - 1

// NewWriter returns a Writer of format f on w. linkType is the link type
// of a pcap file that ends up holding no frame.
func NewWriter(w io.Writer, f Format, linkType uint16) *Writer {
	return NewWriterOptions(w, f, WriterOptions{LinkType: linkType})
}

// NewWriterOptions returns a Writer of format f on w that writes what o
// asks for besides the frames.
func NewWriterOptions(w io.Writer, f Format, o WriterOptions) *Writer {
	if o.Snaplen == 0 {
		o.Snaplen = MaxSnaplen
	}
	return &Writer{w: w, format: f, opt: o, lt: o.LinkType, buf: make([]byte, 0, 2048)}
}

// Start writes the file header now rather than before the first frame,
// and of a pcapng file the Interface Description Block of
// WriterOptions.LinkType too, so that a file that ends up holding no
// frame still describes its interface (as a capture of an interface
// that saw no traffic does). A pcap file then holds that link type
// alone. Start after the first frame, or a second time, does nothing.
func (w *Writer) Start() error {
	if w.started {
		return nil
	}
	if err := w.start(); err != nil || w.format == FormatPcap {
		return err
	}
	b, _ := w.iface(w.buf[:0], w.opt.LinkType, 0)
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// appendOption appends a pcapng option of code c and value v, padded
// to 4 bytes.
func appendOption(b []byte, c uint16, v string) []byte {
	b = binary.LittleEndian.AppendUint16(b, c)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(v)))
	b = append(b, v...)
	return append(b, zeros[:-len(v)&3]...)
}

// optionLen is the length of an option of n bytes of value, padded.
func optionLen(n int) uint32 { return uint32(4 + n + -n&3) }

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
		b = binary.LittleEndian.AppendUint32(b, w.opt.Snaplen)
		b = binary.LittleEndian.AppendUint32(b, uint32(w.lt))
	} else {
		total := uint32(shbMin)
		if app := w.opt.Application; app != "" {
			total += optionLen(len(app)) + 4 // and opt_endofopt
		}
		b = binary.LittleEndian.AppendUint32(b, blockSHB)
		b = binary.LittleEndian.AppendUint32(b, total)
		b = binary.LittleEndian.AppendUint32(b, bom)
		b = binary.LittleEndian.AppendUint16(b, 1)
		b = binary.LittleEndian.AppendUint16(b, 0)
		b = binary.LittleEndian.AppendUint64(b, ^uint64(0)) // section length unknown
		if app := w.opt.Application; app != "" {
			b = appendOption(b, optUserAppl, app)
			b = binary.LittleEndian.AppendUint32(b, 0) // opt_endofopt
		}
		b = binary.LittleEndian.AppendUint32(b, total)
	}
	w.buf = b
	_, err := w.w.Write(b)
	return err
}

// iface returns the pcapng interface of link type lt whose timestamps
// count from offset seconds, describing a new one in b when it is the
// first frame of that link type and offset.
func (w *Writer) iface(b []byte, lt uint16, offset int64) ([]byte, uint32) {
	for i, f := range w.ifs {
		if f.lt == lt && f.offset == offset {
			return b, uint32(i)
		}
	}
	w.ifs = append(w.ifs, ngOut{lt, offset})
	name := w.opt.Interface
	idbLen := uint32(20 + 8 + 4) // header, if_tsresol option padded, opt_endofopt
	if name != "" {
		idbLen += optionLen(len(name))
	}
	if offset != 0 {
		idbLen += 12 // if_tsoffset
	}
	b = binary.LittleEndian.AppendUint32(b, blockIDB)
	b = binary.LittleEndian.AppendUint32(b, idbLen)
	b = binary.LittleEndian.AppendUint16(b, lt)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint32(b, w.opt.Snaplen)
	if name != "" {
		b = appendOption(b, optIfName, name)
	}
	b = binary.LittleEndian.AppendUint16(b, optTSResol)
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = append(b, 9, 0, 0, 0) // nanoseconds, padded
	if offset != 0 {
		b = binary.LittleEndian.AppendUint16(b, optTSOffset)
		b = binary.LittleEndian.AppendUint16(b, 8)
		b = binary.LittleEndian.AppendUint64(b, uint64(offset))
	}
	b = binary.LittleEndian.AppendUint32(b, 0) // opt_endofopt
	b = binary.LittleEndian.AppendUint32(b, idbLen)
	return b, uint32(len(w.ifs) - 1)
}

// WriteFrame writes one frame: its captured bytes, its length on the
// wire (origLen; under len(data) it is taken as len(data)), its capture
// time, exactly, and its link type. A zero time (a pcapng Simple Packet
// Block's) is written as the epoch. pcapng holds every time from MinTime
// to MaxTime: from 1970 to 2554 as nanoseconds since 1970, and outside
// on an interface whose if_tsoffset is a multiple of 2^33 seconds (one
// more Interface Description Block per link type and span of 272
// years). A pcap file holds 1970 to 2106; a time outside is refused
// with ErrTimeRange.
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
		return errs.Kind(ErrTooLong, fmt.Sprintf("frame of %d bytes over the limit of %d", len(data), MaxSnaplen))
	}
	if origLen < len(data) {
		origLen = len(data)
	}
	var sec, ns int64
	if !ts.IsZero() {
		sec, ns = ts.Unix(), int64(ts.Nanosecond())
	}
	b := w.buf[:0]
	if w.format == FormatPcap {
		if linkType != w.lt {
			return ErrLinkTypes
		}
		if sec < 0 || sec > 1<<32-1 {
			return fmt.Errorf("%w: %s", ErrTimeRange, ts.UTC().Format(time.RFC3339Nano))
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(sec))
		b = binary.LittleEndian.AppendUint32(b, uint32(ns))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
		b = binary.LittleEndian.AppendUint32(b, uint32(origLen))
		b = append(b, data...)
	} else {
		var offset int64
		if sec < 0 || sec > ngLastSec {
			offset = sec &^ (ngSpan - 1) // floor to a multiple of the span
		}
		units := uint64(sec-offset)*1_000_000_000 + uint64(ns)
		var id uint32
		b, id = w.iface(b, linkType, offset)
		pad := -len(data) & 3
		total := uint32(epbMin + len(data) + pad)
		b = binary.LittleEndian.AppendUint32(b, blockEPB)
		b = binary.LittleEndian.AppendUint32(b, total)
		b = binary.LittleEndian.AppendUint32(b, id)
		b = binary.LittleEndian.AppendUint32(b, uint32(units>>32))
		b = binary.LittleEndian.AppendUint32(b, uint32(units))
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
