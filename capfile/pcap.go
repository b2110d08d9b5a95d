package capfile

import (
	"fmt"
	"io"
	"math/bits"
	"time"

	"github.com/google/gopacket"
)

// order is a byte order: true for big-endian. Methods on a bool inline
// where binary.ByteOrder's interface calls do not.
type order bool

const (
	le order = false
	be order = true
)

func (o order) u16(b []byte) uint16 {
	_ = b[1]
	if o {
		return uint16(b[0])<<8 | uint16(b[1])
	}
	return uint16(b[1])<<8 | uint16(b[0])
}

func (o order) u32(b []byte) uint32 {
	_ = b[3]
	if o {
		return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	}
	return uint32(b[3])<<24 | uint32(b[2])<<16 | uint32(b[1])<<8 | uint32(b[0])
}

func (o order) u64(b []byte) uint64 {
	if o {
		return uint64(o.u32(b))<<32 | uint64(o.u32(b[4:]))
	}
	return uint64(o.u32(b[4:]))<<32 | uint64(o.u32(b))
}

// mulShr returns a*b >> s, computed in 128 bits.
func mulShr(a, b uint64, s uint) uint64 {
	hi, lo := bits.Mul64(a, b)
	switch {
	case s == 0:
		return lo
	case s < 64:
		return hi<<(64-s) | lo>>s
	case s < 128:
		return hi >> (s - 64)
	}
	return 0
}

// The pcap file format (draft-ietf-opsawg-pcap section 4): a 24-byte
// file header, then records of a 16-byte header and the captured bytes.
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+---------------------------------------------------------------+
//	|                          Magic Number                         |
//	+-------------------------------+-------------------------------+
//	|          Major Version        |         Minor Version         |
//	+-------------------------------+-------------------------------+
//	|                           Reserved1                           |
//	|                           Reserved2                           |
//	+---------------------------------------------------------------+
//	|                            SnapLen                            |
//	+-------------------------------+-------------------------------+
//	| FCS |f|0 0 0 0 0 0 0 0 0 0 0 0|         LinkType              |
//	+---------------------------------------------------------------+
//
// A record header holds the timestamp (seconds, then micro- or
// nanoseconds by the magic number), the captured length and the
// original length.
const (
	pcapFileHeaderLen   = 24
	pcapRecordHeaderLen = 16
	pcapLinkType        = 20 // the LinkType and FCS word
	pcapCapLen          = 8  // in the record header
	pcapOrigLen         = 12 // in the record header
)

// startPcap reads the file header. The snapshot length is not used: 0
// means no limit, and tshark reads records longer than it; every record
// up to MaxSnaplen is read.
func (s *Source) startPcap(magic uint32) error {
	h, err := s.in.next(pcapFileHeaderLen)
	if err != nil {
		return fmt.Errorf("%w: pcap file header of %d bytes", ErrNotCapture, len(h))
	}
	s.be = magic == magicPcapUsSwap || magic == magicPcapNsSwap
	s.nano = magic == magicPcapNs || magic == magicPcapNsSwap
	o := order(s.be)
	if major := o.u16(h[4:]); major != 2 {
		return fmt.Errorf("%w: pcap major version %d", ErrNotCapture, major)
	}
	s.lt = uint16(o.u32(h[pcapLinkType:])) // the FCS bits above are not used
	return nil
}

// nextPcap reads one record. pcap has no way to find the next record
// after a bad length, so a record longer than MaxSnaplen ends the
// capture with a fatal ReadError, as it ends tshark's reading ("File has
// N-byte packet, bigger than maximum of 262144").
func (s *Source) nextPcap() (data []byte, ci gopacket.CaptureInfo, err error) {
	off := s.in.off
	h, err := s.in.next(pcapRecordHeaderLen)
	if err != nil {
		if len(h) == 0 && err == io.EOF {
			return nil, ci, io.EOF
		}
		s.n++
		return nil, ci, s.cut(off, true, "pcap record", err)
	}
	s.n++
	o := order(s.be)
	sec, frac := o.u32(h), o.u32(h[4:])
	capLen, origLen := o.u32(h[pcapCapLen:]), o.u32(h[pcapOrigLen:])
	if capLen > MaxSnaplen {
		e := s.unreadable(off, true, "pcap record", fmt.Sprintf("captured length %d over the limit of %d: cannot find the next record", capLen, MaxSnaplen))
		e.Fatal = true
		return nil, ci, e
	}
	data, err = s.in.next(int(capLen))
	if err != nil {
		return nil, ci, s.cut(off, true, "pcap record", err)
	}
	ns := int64(frac)
	if !s.nano {
		ns *= 1000
	}
	ci.Timestamp = time.Unix(int64(sec), ns)
	ci.CaptureLength, ci.Length = int(capLen), int(origLen)
	return data, ci, nil
}
