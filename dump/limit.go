package dump

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"
)

// maxSnaplen bounds the buffer gopacket's pcapgo allocates for a frame.
// pcapgo sizes it from the snapshot length (pcap file header, pcapng
// Interface Description Block) and the captured length the file claims,
// before reading the bytes: a 50-byte file claiming 4 GiB made it
// allocate 4 GiB. 262144 is libpcap's MAXIMUM_SNAPLEN, the largest
// snapshot length libpcap itself reads (found by fuzz.FuzzCaptureReader).
const maxSnaplen = 262144

// errBlockLen means a pcapng packet block claims more captured bytes than
// the block holds, or more than maxSnaplen.
var errBlockLen = errors.New("dump: pcapng packet block with a bad captured length")

// ngLimit passes a pcapng stream through to pcapgo block by block, after
// checking the fields pcapgo allocates by: an Interface Description
// Block's snapshot length is lowered to maxSnaplen (0, "no limit", too),
// and an Enhanced or obsolete Packet Block whose captured length exceeds
// the block or maxSnaplen ends the stream with errBlockLen (libpcap too
// refuses captured lengths above its MAXIMUM_SNAPLEN). A Simple Packet Block's
// length is bounded by the snapshot length.
type ngLimit struct {
	r     io.Reader
	hdr   [24]byte // the start of the current block
	out   []byte   // checked header bytes not yet handed on
	left  int64    // bytes of the current block to pass through as they are
	order binary.ByteOrder
	err   error
}

func (l *ngLimit) Read(p []byte) (int, error) {
	for len(l.out) == 0 && l.left == 0 {
		if l.err != nil {
			return 0, l.err
		}
		l.block()
	}
	if len(l.out) > 0 {
		n := copy(p, l.out)
		l.out = l.out[n:]
		return n, nil
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if err == io.EOF && l.left > 0 {
		l.left = 0
		l.err = io.ErrUnexpectedEOF
		err = nil
		if n == 0 {
			return 0, l.err
		}
	}
	return n, err
}

// block reads and checks the start of the next block.
func (l *ngLimit) block() {
	h := l.hdr[:]
	n, err := io.ReadFull(l.r, h[:12])
	if err != nil {
		l.out, l.err = h[:n], err // io.EOF before a block, else io.ErrUnexpectedEOF
		return
	}
	if binary.LittleEndian.Uint32(h) == magicPcapng { // Section Header Block
		l.order = binary.LittleEndian
		if binary.LittleEndian.Uint32(h[8:]) != 0x1a2b3c4d {
			l.order = binary.BigEndian
		}
	}
	if l.order == nil {
		l.order = binary.LittleEndian
	}
	total := int64(l.order.Uint32(h[4:]))
	if total < 12 { // pcapgo rejects it; pass the rest through unchecked
		l.out, l.left = h[:12], math.MaxInt64
		return
	}
	want := min(total, int64(len(l.hdr)))
	if m, err := io.ReadFull(l.r, h[12:want]); err != nil {
		l.out, l.err = h[:12+m], io.ErrUnexpectedEOF
		return
	}
	switch l.order.Uint32(h) {
	case 1: // Interface Description Block
		if want >= 16 {
			if s := l.order.Uint32(h[12:]); s == 0 || s > maxSnaplen {
				l.order.PutUint32(h[12:], maxSnaplen)
			}
		}
	case 2, 6: // Packet Block, Enhanced Packet Block
		if c := int64(l.order.Uint32(h[20:])); want >= 24 && (c > maxSnaplen || c > total-32) {
			l.err = errBlockLen
			return
		}
	}
	l.out, l.left = h[:want], total-want
}

// errNgPanic means gopacket's pcapng reader panicked on a malformed block.
var errNgPanic = errors.New("dump: malformed pcapng block")

// pcapgo v1.1.19's pcapng reader panics on malformed input: an Interface
// Description Block whose if_tsresol option is 2^-64 or 10^-64 (or finer)
// gets a time unit of zero, and reading a packet of that interface then
// divides by zero (found by fuzz.FuzzCaptureReader). newNgReader and
// ngRead call it and turn a panic into an error wrapping errNgPanic.
func newNgReader(r io.Reader, o pcapgo.NgReaderOptions) (ng *pcapgo.NgReader, err error) {
	defer recoverNg(&err)
	return pcapgo.NewNgReader(r, o)
}

func ngRead(ng *pcapgo.NgReader) (data []byte, ci gopacket.CaptureInfo, err error) {
	defer recoverNg(&err)
	return ng.ZeroCopyReadPacketData()
}

func recoverNg(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: pcapgo: %v", errNgPanic, r)
	}
}
