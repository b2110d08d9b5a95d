package dump

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// ErrNotCapture means the input is neither a pcap nor a pcapng file.
var ErrNotCapture = errors.New("dump: not a pcap or pcapng capture")

// Source reads the frames of a pcap or pcapng capture (a gzip-compressed
// pcap too), telling the two apart by their magic number.
type Source struct {
	pcap     *pcapgo.Reader
	ng       *pcapgo.NgReader
	watch    *ngWatch
	count    *countReader
	linkType uint16 // of a pcap file, read from its header
	n        int
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ngWatch follows the block structure of a pcapng stream as it is read
// and keeps the full 16-bit link type of every Interface Description
// Block (gopacket v1.1.19 keeps only 8 bits). Sections after the first
// are not told apart.
type ngWatch struct {
	r         io.Reader
	hdr       [12]byte // type, total length, and the next 4 bytes of a block
	nh        int
	skip      int64 // bytes left in the current block
	be        bool  // the section is big-endian
	dead      bool  // the stream made no sense: stop watching
	linkTypes []uint16
}

func (w *ngWatch) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	w.scan(p[:n])
	return n, err
}

func (w *ngWatch) scan(b []byte) {
	for len(b) > 0 && !w.dead {
		if w.skip > 0 {
			k := int64(len(b))
			if k > w.skip {
				k = w.skip
			}
			b, w.skip = b[k:], w.skip-k
			continue
		}
		k := copy(w.hdr[w.nh:], b)
		w.nh += k
		b = b[k:]
		if w.nh < len(w.hdr) {
			return
		}
		w.nh = 0
		var order binary.ByteOrder = binary.LittleEndian
		if binary.LittleEndian.Uint32(w.hdr[:]) == magicPcapng {
			w.be = binary.LittleEndian.Uint32(w.hdr[8:]) != 0x1a2b3c4d
		}
		if w.be {
			order = binary.BigEndian
		}
		total := int64(order.Uint32(w.hdr[4:]))
		if total < 12 || total%4 != 0 {
			w.dead = true
			return
		}
		if order.Uint32(w.hdr[:]) == 1 { // Interface Description Block
			w.linkTypes = append(w.linkTypes, order.Uint16(w.hdr[8:]))
		}
		w.skip = total - 12
	}
}

// Magic numbers of the capture formats, as the first four bytes read
// little-endian.
const (
	magicPcapUs     = 0xa1b2c3d4
	magicPcapNs     = 0xa1b23c4d
	magicPcapUsSwap = 0xd4c3b2a1
	magicPcapNsSwap = 0x4d3cb2a1
	magicPcapng     = 0x0a0d0d0a
)

// NewSource reads the file header of a capture. The error wraps
// ErrNotCapture when r holds something else.
func NewSource(r io.Reader) (*Source, error) {
	cr := &countReader{r: r}
	br := bufio.NewReaderSize(cr, 1<<16)
	hdr, err := br.Peek(24)
	if len(hdr) < 4 {
		if err == nil || err == io.EOF {
			return nil, fmt.Errorf("%w: input of %d bytes", ErrNotCapture, len(hdr))
		}
		return nil, err
	}
	s := &Source{count: cr}
	switch m := binary.LittleEndian.Uint32(hdr); {
	case m == magicPcapng:
		s.watch = &ngWatch{r: &ngLimit{r: br}}
		s.ng, err = newNgReader(bufio.NewReaderSize(s.watch, 1<<16), pcapgo.NgReaderOptions{WantMixedLinkType: true})
	case m == magicPcapUs || m == magicPcapNs || m == magicPcapUsSwap || m == magicPcapNsSwap:
		if len(hdr) == 24 {
			// gopacket keeps link types in 8 bits; read all 16.
			if m == magicPcapUs || m == magicPcapNs {
				s.linkType = binary.LittleEndian.Uint16(hdr[20:])
			} else {
				s.linkType = binary.BigEndian.Uint16(hdr[22:])
			}
		}
		s.pcap, err = pcapgo.NewReader(br)
	case hdr[0] == 0x1f && hdr[1] == 0x8b: // gzip: pcapgo reads gzipped pcap
		s.pcap, err = pcapgo.NewReader(br)
		if err == nil {
			s.linkType = uint16(s.pcap.LinkType())
		}
	default:
		return nil, fmt.Errorf("%w: unknown magic number %02x%02x%02x%02x", ErrNotCapture, hdr[0], hdr[1], hdr[2], hdr[3])
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotCapture, err)
	}
	if s.pcap != nil && s.pcap.Snaplen() > maxSnaplen {
		s.pcap.SetSnaplen(maxSnaplen) // see maxSnaplen
	}
	return s, nil
}

// Next returns the next frame, its capture information and its link
// type. data is reused by the following call. At the end of the capture
// the error is io.EOF; a capture cut in the middle of a record gives
// io.ErrUnexpectedEOF. For pcap files the link type is read from the
// file header in full; for pcapng it is read from the Interface
// Description Block in full too.
func (s *Source) Next() (data []byte, ci gopacket.CaptureInfo, linkType uint16, err error) {
	if s.pcap != nil {
		data, ci, err = s.pcap.ZeroCopyReadPacketData()
		linkType = s.linkType
	} else {
		data, ci, err = ngRead(s.ng)
		if err == nil && len(ci.AncillaryData) > 0 {
			if lt, ok := ci.AncillaryData[0].(layers.LinkType); ok {
				linkType = uint16(lt)
				// gopacket keeps 8 bits: take the IDB's 16 when they agree.
				if i := ci.InterfaceIndex; i >= 0 && i < len(s.watch.linkTypes) && uint8(s.watch.linkTypes[i]) == uint8(lt) {
					linkType = s.watch.linkTypes[i]
				}
			}
		}
	}
	if err == nil {
		s.n++
	}
	return data, ci, linkType, err
}

// Offset returns how many bytes of the input have been read so far
// (read ahead into a buffer, so a little more than consumed).
func (s *Source) Offset() int64 { return s.count.n }

// Frames returns how many frames Next has returned.
func (s *Source) Frames() int { return s.n }
