package capfile

import (
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/internal/errs"
)

// ErrNotCapture means the input is neither a pcap nor a pcapng file.
var ErrNotCapture = errors.New("roce: not a pcap or pcapng capture")

// ErrUnreadable is what a ReadError wraps when the record itself is bad
// (a length beyond its block or beyond MaxSnaplen, an unknown interface,
// a block of a bad length); a capture cut short wraps io.ErrUnexpectedEOF
// instead.
var ErrUnreadable = errors.New("roce: unreadable capture record")

// MaxSnaplen is the largest captured length Source reads: 262144, the
// largest packet Wireshark and libpcap accept for the link types decoded
// here. A pcap record claiming more ends the capture (tshark stops there
// too); a pcapng packet block claiming more is reported and skipped.
const MaxSnaplen = 262144

// ReadError is a record Source.Next could not read: a packet record (it
// still takes a frame number, so that the frames after it keep their
// place) or another pcapng block. When Fatal is false the next call of
// Next goes on with the record after it; when Fatal is true reading
// cannot go on (a pcap file has no way to find the next record, the file
// is cut short) and Next returns the same error again.
type ReadError struct {
	Frame  int    // frame number of the packet record; for other blocks, of the frame that follows
	Packet bool   // the record is a packet record (pcap record, pcapng EPB, SPB or Packet Block)
	Offset int64  // where the record starts in the (decompressed) capture
	Block  string // what the record is: "pcap record", "Enhanced Packet Block", ...
	Reason string // what is wrong with it
	Fatal  bool   // reading cannot go on past it
	Err    error  // ErrUnreadable or io.ErrUnexpectedEOF
}

// Error returns "roce: frame N: BLOCK at offset O: REASON", or for a
// block that is not a packet "roce: before frame N: ...".
func (e *ReadError) Error() string {
	b := make([]byte, 0, 96)
	b = append(b, errs.Prefix...)
	if !e.Packet {
		b = append(b, "before "...)
	}
	b = append(b, "frame "...)
	b = strconv.AppendInt(b, int64(e.Frame), 10)
	b = append(b, ": "...)
	b = append(b, e.Block...)
	b = append(b, " at offset "...)
	b = strconv.AppendInt(b, e.Offset, 10)
	b = append(b, ": "...)
	b = append(b, e.Reason...)
	return string(b)
}

// Unwrap returns ErrUnreadable or io.ErrUnexpectedEOF.
func (e *ReadError) Unwrap() error { return e.Err }

// Magic numbers of the capture formats, as the first four bytes read
// little-endian.
const (
	magicPcapUs     = 0xa1b2c3d4
	magicPcapNs     = 0xa1b23c4d
	magicPcapUsSwap = 0xd4c3b2a1
	magicPcapNsSwap = 0x4d3cb2a1
	magicPcapng     = 0x0a0d0d0a
)

// Source reads the frames of a pcap or pcapng capture, either one
// gzip-compressed too, telling them apart by their magic number. It is
// its own reader of both formats (draft-ietf-opsawg-pcap and
// draft-ietf-opsawg-pcapng): link types in full 16 bits, every pcapng
// section and interface with its own link type, timestamp resolution and
// offset, Enhanced, Simple and obsolete Packet Blocks; other blocks are
// skipped. Memory is bounded whatever the lengths a file claims: no
// record over MaxSnaplen is held, longer blocks are skipped as they are
// read. Next allocates nothing in steady state.
type Source struct {
	lastLT uint16 // the link type of the last frame Next returned
	count  *countReader
	in     input
	whole  *input // NewSourceBytes: the input that holds the file (s.in, or under gzip the compressed one)
	ng     bool
	be     bool // pcap: the file is big-endian
	nano   bool // pcap: nanosecond timestamps
	lt     uint16
	ifs    []ngIface // pcapng: the interfaces of the current section
	n      int       // packet records met, read or not
	read   int       // frames returned
	err    error     // a fatal error, returned again
	// A packet source (NewPacketSource) instead of a file.
	pkt gopacket.PacketDataSource
	zc  gopacket.ZeroCopyPacketDataSource
	// NewSourceMapped: the mapped file, the bytes of it released, and
	// whether Next leaves the check of the file's size to its caller
	// (a pipeline checks whole batches, Shrunk).
	m        Mapping
	released int64
	batched  bool
	// lazyRelease: a pipeline reads the mapping in place and releases
	// it itself, behind the batches it is done with (ReleaseTo).
	lazyRelease bool
	sink        byte // what touch reads, so that the read is kept
}

// InPlace reports whether the frames Next returns are views of the
// whole input, valid as long as it is rather than until the following
// call (NewSourceBytes and NewSourceMapped, not under gzip).
func (s *Source) InPlace() bool { return s.whole != nil && s.whole == &s.in }

// Mapping is a capture file mapped into memory read-only, as
// NewSourceMapped reads it (rocedump's come from internal/mmap).
type Mapping interface {
	// Bytes returns the mapping: the file as long as it was when mapped.
	Bytes() []byte
	// Size returns the file's size now.
	Size() (int64, error)
	// Release says that Bytes()[off:off+n] has been read and is not
	// needed soon: its pages may leave resident memory (a later read of
	// them must still give the file's bytes).
	Release(off, n int)
}

// ErrShrank is the error of reading a capture file's mapping
// (NewSourceMapped, or NewSourceBytes over a mapped file) whose file was
// cut shorter while it was read. It wraps io.ErrUnexpectedEOF, as a
// capture cut short does. NewSourceMapped ends with it after the last
// record wholly before the file's new end; NewSourceBytes, which does not
// know the file, when a page past the new end faults (the rest of the
// page that holds the new end reads as zeros, which it takes for
// records).
var ErrShrank = fmt.Errorf("roce: the file shrank while it was read: it ends before the records that follow: %w", io.ErrUnexpectedEOF)

// Guard, for a Source of NewSourceBytes or NewSourceMapped, makes a
// fault on the memory it reads (a mapped file cut shorter: SIGBUS) a
// panic on the calling goroutine (runtime/debug.SetPanicOnFault), and
// returns the setting to restore; defer Unguard (on the goroutine that
// calls Next) or UnguardViews (on another) with it. For other Sources
// it does nothing.
func (s *Source) Guard() (old bool) {
	if s.whole == nil {
		return false
	}
	return debug.SetPanicOnFault(true)
}

// Unguard, deferred after Guard on the goroutine that calls Next,
// restores the setting, recovers the panic of a fault and sets *err to
// ErrShrank, which Next returns from then on. Other panics go on.
func (s *Source) Unguard(old bool, err *error) {
	if s.whole == nil {
		return
	}
	debug.SetPanicOnFault(old)
	if e := recover(); e != nil {
		if f, ok := e.(interface{ Addr() uintptr }); ok && f != nil {
			s.err = ErrShrank
			*err = ErrShrank
			return
		}
		panic(e)
	}
}

// UnguardViews is Unguard for a goroutine that reads the frames Next
// returned (views of the mapping, InPlace) but does not call Next
// itself: the Source is left as it is.
func (s *Source) UnguardViews(old bool, err *error) {
	if s.whole == nil {
		return
	}
	debug.SetPanicOnFault(old)
	if e := recover(); e != nil {
		if f, ok := e.(interface{ Addr() uintptr }); ok && f != nil {
			*err = ErrShrank
			return
		}
		panic(e)
	}
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

// NewSource reads the file header of a capture. The error wraps
// ErrNotCapture when r holds something else.
func NewSource(r io.Reader) (*Source, error) {
	s := &Source{count: &countReader{r: r}}
	s.in.init(s.count)
	return s.start()
}

// NewSourceBytes is NewSource for a capture held whole in memory, a
// file mapped or read at once: the frames Next returns are views of b,
// not copies (still valid only until the following call, as for any
// Source), and no byte of b is written.
func NewSourceBytes(b []byte) (*Source, error) {
	s := &Source{count: &countReader{}}
	s.in = input{buf: b, hi: len(b), err: io.EOF, whole: true}
	s.whole = &s.in
	return s.start()
}

// NewSourceMapped is NewSourceBytes for a capture file mapped into
// memory: the frames are views of m.Bytes(). Each record is checked
// against the file's size after it is read (a file cut shorter under its
// mapping reads as zeros up to the end of the page that holds its new
// end, then faults), so that a file that shrinks while it is read ends
// with ErrShrank after its last whole record, and no record past its new
// end comes out. The bytes read are released as reading goes on
// (m.Release, in steps of ReleaseStep), so that resident memory does not
// grow with the file.
func NewSourceMapped(m Mapping) (s *Source, err error) {
	s = &Source{count: &countReader{}, m: m}
	b := m.Bytes()
	s.in = input{buf: b, hi: len(b), err: io.EOF, whole: true}
	s.whole = &s.in
	defer s.Unguard(s.Guard(), &err)
	_, err = s.start()
	if !s.covered(s.whole.end()) { // the file header (under gzip, what was read of the compressed file)
		return nil, ErrShrank
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ReleaseStep is how many bytes of a mapped capture (NewSourceMapped)
// are read between two releases of what was read: a step costs one
// madvise, and resident memory holds up to about two steps of the file.
const ReleaseStep = 8 << 20

// covered reports whether the mapped file still holds its first end
// bytes, asked after they were read: a file cut shorter under its
// mapping reads as zeros, not as its bytes, from its new end to the end
// of that page, and faults past it. The first byte of the page after
// byte end-1 is read: it faults unless the file reaches past that page's
// start, hence past end. Where there is no such page (the end of the
// mapping) or it faults, the file's size is asked.
func (s *Source) covered(end int64) bool {
	b := s.whole.buf
	if end > int64(len(b)) {
		end = int64(len(b))
	}
	if q := (end - 1) | int64(pageSize-1) + 1; q < int64(len(b)) && s.touch(int(q)) {
		return true
	}
	n, err := s.m.Size()
	return err != nil || n >= end // a size it cannot tell: the fault, if any, will tell
}

var pageSize = os.Getpagesize()

// touch reads byte q of the mapping and reports whether that faulted
// not.
func (s *Source) touch(q int) (ok bool) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if e := recover(); e != nil {
			if _, fault := e.(interface{ Addr() uintptr }); !fault {
				panic(e)
			}
			ok = false
		}
	}()
	s.sink += s.whole.buf[q]
	return true
}

// Pipelined hands two of Next's duties on a mapped file
// (NewSourceMapped) over to a pipeline that reads it in batches: with
// check, Next no longer asks the file's size after each record (the
// pipeline calls Shrunk once per batch); with release, Next no longer
// releases the pages it has read (the pipeline calls ReleaseTo behind
// the batches it is done with). Pipelined(false, false) hands them back.
func (s *Source) Pipelined(check, release bool) { s.batched, s.lazyRelease = check, release }

// Shrunk is a pipeline's check of a batch of records read from a mapped
// file (NewSourceMapped, see Pipelined), asked once the batch's bytes
// have been read, end being ReadEnd after the batch: it reports whether
// the file is now shorter than end, and its size then (the records
// whose Offset is past it are to be dropped and reading ends with
// ErrShrank). With own, asked on the goroutine that calls Next, the
// Source ends with ErrShrank too. For other Sources it reports false.
func (s *Source) Shrunk(end int64, own bool) (size int64, shrunk bool) {
	if s.m == nil {
		return 0, false
	}
	n, err := s.m.Size()
	if err != nil || n >= end {
		return n, false
	}
	if own {
		s.err = ErrShrank
	}
	return n, true
}

// ReadEnd returns the end of the bytes of the whole input (NewSourceBytes,
// NewSourceMapped; under gzip, of the compressed input) read so far,
// consumed or looked at: what a check of a mapped file's size (Shrunk)
// must find the file still holds. For other Sources it returns 0.
func (s *Source) ReadEnd() int64 {
	if s.whole == nil {
		return 0
	}
	return s.whole.end()
}

// release hands back the pages of a mapped file read up to a step
// before the current offset.
func (s *Source) release() {
	if !s.lazyRelease {
		s.ReleaseTo(s.whole.off)
	}
}

// ReleaseTo hands back the pages of a mapped file (NewSourceMapped) up
// to a step (ReleaseStep) before off, once two steps are to be
// released: a pipeline that reads the mapping in place (Pipelined with
// release) calls it with the Offset after the last batch it is done
// with. For other Sources it does nothing.
func (s *Source) ReleaseTo(off int64) {
	if s.m != nil && off-s.released >= 2*ReleaseStep {
		end := off - ReleaseStep
		s.m.Release(int(s.released), int(end-s.released))
		s.released = end
	}
}

// start reads the file header.
func (s *Source) start() (*Source, error) {
	hdr, err := s.in.peek(4)
	if len(hdr) == 4 && hdr[0] == 0x1f && hdr[1] == 0x8b { // gzip
		raw := new(input)
		*raw = s.in
		if s.whole != nil {
			s.whole = raw
		}
		gz, gerr := gzip.NewReader(raw)
		if gerr != nil {
			return nil, fmt.Errorf("%w: gzip: %v", ErrNotCapture, gerr)
		}
		s.in.init(gz)
		hdr, err = s.in.peek(4)
		if damaged(err) {
			return nil, fmt.Errorf("%w: gzip: %v", ErrNotCapture, err)
		}
	}
	if len(hdr) < 4 {
		if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("%w: input of %d bytes", ErrNotCapture, len(hdr))
		}
		return nil, err
	}
	switch m := le.u32(hdr); m {
	case magicPcapng:
		s.ng = true
		err = s.startNg()
	case magicPcapUs, magicPcapNs, magicPcapUsSwap, magicPcapNsSwap:
		err = s.startPcap(m)
	default:
		return nil, fmt.Errorf("%w: unknown magic number %02x%02x%02x%02x", ErrNotCapture, hdr[0], hdr[1], hdr[2], hdr[3])
	}
	if err != nil {
		return nil, err // ErrNotCapture, with what the header lacks
	}
	return s, nil
}

// Next returns the next frame, its capture information and its link
// type. data is valid until the following call. At the end of the
// capture the error is io.EOF. A record that cannot be read gives a
// *ReadError: when its Fatal is false, call Next again for the records
// after it; when true (wrapping io.ErrUnexpectedEOF for a capture cut in
// the middle of a record), reading is over. A pcapng Simple Packet Block
// has no timestamp: ci.Timestamp is the zero time.Time. Of a mapped file
// (NewSourceMapped) that shrinks, Next returns the records wholly before
// its new end, then ErrShrank; a fault on a page past the new end (a
// file cut shorter at the moment its page is read) is a panic that
// a Guard and Unguard around the reading recover as ErrShrank (dump's
// Scan, Dump, ScanParts and Merge do).
func (s *Source) Next() (data []byte, ci gopacket.CaptureInfo, linkType uint16, err error) {
	if s.err != nil {
		return nil, ci, 0, s.err
	}
	if s.pkt != nil {
		data, ci, err = s.nextPacket()
		linkType = s.lt
	} else if s.ng {
		data, ci, linkType, err = s.nextNg()
	} else {
		data, ci, err = s.nextPcap()
		linkType = s.lt
	}
	if s.m != nil && err != io.EOF && !s.mappedRead() {
		err, data = ErrShrank, nil
	}
	if err == nil {
		s.read++
		s.lastLT = linkType
	} else if re, ok := err.(*ReadError); !ok || re.Fatal {
		s.err = err
	}
	return data, ci, linkType, err
}

// mappedRead is what Next does after reading a record of a mapped file
// (NewSourceMapped): it checks the file's size (unless the pipeline
// checks whole batches), reporting false if the file has shrunk below
// what was read, and releases what was read.
func (s *Source) mappedRead() bool {
	if !s.batched && !s.covered(s.whole.end()) {
		return false
	}
	s.release()
	return true
}

// Number returns the frame number of the last packet record Next met,
// read or not: frames count from 1 in the order of the file, as
// Wireshark numbers them.
func (s *Source) Number() int { return s.n }

// Offset returns how many bytes of the input have been read so far
// (read ahead into a buffer, so a little more than consumed; of the
// compressed input for a gzip file).
func (s *Source) Offset() int64 {
	if s.whole != nil {
		return s.whole.off
	}
	return s.count.n
}

// Frames returns how many frames Next has returned.
func (s *Source) Frames() int { return s.read }

// unreadable returns the ReadError of the record at off.
func (s *Source) unreadable(off int64, packet bool, block, reason string) *ReadError {
	fr := s.n + 1
	if packet {
		fr = s.n
	}
	return &ReadError{Frame: fr, Packet: packet, Offset: off, Block: block, Reason: reason, Err: ErrUnreadable}
}

// cut returns the fatal ReadError of a record cut short by the end of
// the input or by damage to a gzip stream, or err itself when reading
// failed otherwise (an error of the file or reader underneath).
func (s *Source) cut(off int64, packet bool, block string, err error) error {
	if damaged(err) {
		e := s.unreadable(off, packet, block, "the compressed capture is damaged here ("+err.Error()+")")
		e.Fatal = true
		return e
	}
	if err != io.ErrUnexpectedEOF && err != io.EOF {
		return err
	}
	e := s.unreadable(off, packet, block, "cut short by the end of the capture")
	e.Fatal, e.Err = true, io.ErrUnexpectedEOF
	return e
}

// damaged reports whether err is gzip's finding that the compressed
// stream is corrupt (a bad deflate block, header or checksum), rather
// than an error of the reader underneath, which it passes on unchanged.
// Reading cannot go on past it, as in Wireshark ("The compressed file
// appears to be damaged or corrupt").
func damaged(err error) bool {
	var corrupt flate.CorruptInputError
	return errors.As(err, &corrupt) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader)
}

// The capture times a Source gives, exactly: MinTime to MaxTime,
// 2^63 - 1 - 62135596800 seconds either side of 1970 (years
// -292277020688 to 292277024627), the most seconds a time.Time holds
// (it counts them from the year 1 in an int64). Every output of the
// package writes any time of the span exactly. pcap's times (1970 to
// 2106) lie within it; a pcapng timestamp outside it (only a resolution
// of a second or coarser, or an if_tsoffset near 2^63 seconds, reach
// there) is an unreadable record (ReadError), named with its frame.
var (
	MinTime = time.Unix(-maxSec, 0).UTC()
	MaxTime = time.Unix(maxSec, 999_999_999).UTC()
)

const maxSec = 1<<63 - 1 - 62135596800

// timeOf converts a count of units of 10^-exp seconds (or 2^-exp
// seconds when base2) to a time, exactly (finer than a nanosecond, cut
// to the nanosecond), adding offset seconds; ok is false when the time
// falls outside MinTime to MaxTime.
func timeOf(units uint64, base2 bool, exp uint8, offset int64) (t time.Time, ok bool) {
	var sec, ns uint64
	switch {
	case base2:
		if exp < 64 {
			sec = units >> exp
			units &= 1<<exp - 1
		}
		ns = mulShr(units, 1e9, uint(exp))
	case exp <= 9:
		p := pow10[exp]
		sec, ns = units/p, units%p*pow10[9-exp]
	case exp < 20:
		p := pow10[exp]
		sec, ns = units/p, units%p/pow10[exp-9]
	case exp < 29: // every count is under a second
		ns = units / pow10[exp-9]
	}
	var s int64
	switch {
	case offset >= 0:
		if offset > maxSec || sec > uint64(maxSec-offset) {
			return t, false
		}
		s = int64(sec) + offset
	default:
		back := uint64(-(offset + 1)) + 1 // -offset, up to 2^63
		if sec >= back {
			if sec-back > maxSec {
				return t, false
			}
			s = int64(sec - back)
		} else {
			if back-sec > maxSec {
				return t, false
			}
			s = -int64(back - sec)
		}
	}
	return time.Unix(s, int64(ns)), true
}

// resolutionText names a pcapng timestamp resolution: "10^-6", "2^-20".
func resolutionText(base2 bool, exp uint8) string {
	if base2 {
		return "2^-" + strconv.Itoa(int(exp))
	}
	return "10^-" + strconv.Itoa(int(exp))
}

var pow10 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// input is a buffered reader that hands out slices of its buffer: a
// record's bytes are read once, into the buffer, and never copied again.
// The buffer grows to the longest record asked for (bounded by the
// callers: MaxSnaplen and a little more).
type input struct {
	r      io.Reader
	buf    []byte
	lo, hi int
	off    int64 // stream offset of buf[lo]
	err    error
	whole  bool  // buf is the whole input (NewSourceBytes), read-only
	seen   int64 // the end of the bytes handed out so far (peeked, consumed or not)
}

const inputSize = 64 << 10

func (in *input) init(r io.Reader) { *in = input{r: r, buf: make([]byte, inputSize)} }

// fill reads until n bytes are buffered or the input ends.
func (in *input) fill(n int) {
	if in.hi-in.lo >= n || in.whole {
		return
	}
	if n > len(in.buf) {
		b := make([]byte, max(n, 2*len(in.buf)))
		in.hi = copy(b, in.buf[in.lo:in.hi])
		in.lo, in.buf = 0, b
	} else if len(in.buf)-in.lo < n {
		in.hi = copy(in.buf, in.buf[in.lo:in.hi])
		in.lo = 0
	}
	for empty := 0; in.hi-in.lo < n && in.err == nil; {
		m, err := in.r.Read(in.buf[in.hi:])
		in.hi += m
		if err != nil {
			in.err = err
		} else if m == 0 {
			if empty++; empty == 100 {
				in.err = io.ErrNoProgress
			}
		}
	}
}

// end returns the end of the bytes handed out so far, consumed or
// peeked.
func (in *input) end() int64 { return max(in.off, in.seen) }

// peek returns the next n bytes without consuming them, or what there is
// with the error that ended the input.
func (in *input) peek(n int) ([]byte, error) {
	in.fill(n)
	if in.hi-in.lo < n {
		in.seen = max(in.seen, in.off+int64(in.hi-in.lo))
		return in.buf[in.lo:in.hi], in.err
	}
	in.seen = max(in.seen, in.off+int64(n))
	return in.buf[in.lo : in.lo+n], nil
}

// next consumes and returns the next n bytes, valid until the next call.
// Fewer bytes come with io.EOF when there were none, io.ErrUnexpectedEOF
// when some, or the reader's error.
func (in *input) next(n int) ([]byte, error) {
	b, err := in.peek(n)
	in.lo += len(b)
	in.off += int64(len(b))
	if err == io.EOF && len(b) > 0 {
		err = io.ErrUnexpectedEOF
	}
	return b, err
}

// skip consumes n bytes without keeping them.
func (in *input) skip(n int64) error {
	for n > 0 {
		if in.lo == in.hi {
			in.lo, in.hi = 0, 0
			in.fill(1)
			if in.lo == in.hi {
				if in.err == io.EOF {
					return io.ErrUnexpectedEOF
				}
				return in.err
			}
		}
		k := int(min(n, int64(in.hi-in.lo)))
		in.lo += k
		in.off += int64(k)
		n -= int64(k)
	}
	return nil
}

// Read lets gzip read the bytes already buffered, then the rest.
func (in *input) Read(p []byte) (int, error) {
	if in.lo == in.hi {
		if in.err != nil {
			return 0, in.err
		}
		if len(p) >= len(in.buf) {
			return in.r.Read(p)
		}
		in.lo, in.hi = 0, 0
		in.fill(1)
		if in.lo == in.hi {
			return 0, in.err
		}
	}
	n := copy(p, in.buf[in.lo:in.hi])
	in.lo += n
	in.off += int64(n)
	return n, nil
}
