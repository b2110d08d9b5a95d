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
	linkType uint16 // of a pcap file, read from its header
	n        int
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
	br := bufio.NewReaderSize(r, 1<<16)
	hdr, err := br.Peek(24)
	if len(hdr) < 4 {
		if err == nil || err == io.EOF {
			return nil, fmt.Errorf("%w: input of %d bytes", ErrNotCapture, len(hdr))
		}
		return nil, err
	}
	s := &Source{}
	switch m := binary.LittleEndian.Uint32(hdr); {
	case m == magicPcapng:
		s.ng, err = pcapgo.NewNgReader(br, pcapgo.NgReaderOptions{WantMixedLinkType: true})
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
	return s, nil
}

// Next returns the next frame, its capture information and its link
// type. data is reused by the following call. At the end of the capture
// the error is io.EOF; a capture cut in the middle of a record gives
// io.ErrUnexpectedEOF. For pcap files the link type is read from the
// file header in full; for pcapng it comes from gopacket, which keeps
// only its low 8 bits (so link types above 255 may be misreported).
func (s *Source) Next() (data []byte, ci gopacket.CaptureInfo, linkType uint16, err error) {
	if s.pcap != nil {
		data, ci, err = s.pcap.ZeroCopyReadPacketData()
		linkType = s.linkType
	} else {
		data, ci, err = s.ng.ZeroCopyReadPacketData()
		if err == nil && len(ci.AncillaryData) > 0 {
			if lt, ok := ci.AncillaryData[0].(layers.LinkType); ok {
				linkType = uint16(lt)
			}
		}
	}
	if err == nil {
		s.n++
	}
	return data, ci, linkType, err
}

// Frames returns how many frames Next has returned.
func (s *Source) Frames() int { return s.n }
