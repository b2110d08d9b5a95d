package dump

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/pfc"
)

// Options says how Dump prints and which frames Scan and Dump hand on.
type Options struct {
	JSON     bool           // JSON Lines instead of text
	Location *time.Location // time zone of text timestamps; nil means UTC
	// Speed is the link speed at which text lines convert PAUSE and PFC
	// quanta to time; 0 means 100 Gb/s.
	Speed pfc.Speed
	// Filter selects the frames handed on; the zero Filter takes all.
	Filter Filter
	// Count stops the scan after that many frames matched the filter;
	// 0 means no limit.
	Count int
	// Progress, if set, is called every ProgressEvery frames read with
	// the number of frames read so far and the number of bytes of the
	// input consumed (see Source.Offset). It must be cheap.
	Progress func(frames int, offset int64)
	// Unreadable, if set, is called with each record of the capture that
	// could not be read and was skipped (Stats.Unreadable counts them);
	// its Error method gives "frame N: ...". Scan goes on after it.
	Unreadable func(err *ReadError)
	// Workers is how many goroutines decode (and for Dump format)
	// frames; 0 means runtime.GOMAXPROCS(0). With more than one, Scan
	// and Dump run a pipeline: a goroutine reads records ahead, in
	// batches of up to 256 records, the workers decode them, and the
	// calling goroutine counts, calls Progress, Unreadable and fn, and
	// writes, in capture order, so that the output, the Stats and the
	// calls are those of Workers 1. What differs: Source is read ahead
	// of the frames handed on (a live capture's lines come out a batch
	// at a time; after Count frames, Source has read up to a batch
	// more), Dump writes once per batch, and on a write error Unreadable
	// and Progress may have been called for up to a batch of records
	// past the frame whose line failed (Stats still stop at that frame).
	// 1 reads, decodes and writes one frame at a time on the calling
	// goroutine: use it for input that arrives slowly (a pipe from a
	// live capture).
	Workers int
}

// ProgressEvery is how many frames Scan reads between two calls of
// Options.Progress.
const ProgressEvery = 4096

// Stats counts the frames Scan read, by kind. Every frame read is
// counted, whether or not it matched the filter.
type Stats struct {
	Frames      int // every frame read
	Matched     int // frames that matched the filter and were handed on
	RoCE        int // RoCE frames decoded
	BadICRC     int // of those and of the InfiniBand ones, frames whose ICRC does not match
	Truncated   int // of those and of the InfiniBand ones, frames cut short by the capture: ICRC unchecked, not in BadICRC
	NotRoCE     int // well-formed frames that are not RoCE
	Malformed   int // RoCE, InfiniBand, MAC Control or cooked frames that did not decode
	Unsupported int // frames of a link type (or ERF record type) not decoded
	MACControl  int // MAC Control frames (PAUSE, PFC, ...)
	InfiniBand  int // native InfiniBand packets decoded (ERF type 21, link type 247)
	// Unreadable counts the records of the capture that could not be
	// read and were skipped (see ReadError): not in Frames.
	Unreadable int
}

// Filter selects frames by their transport header. A frame without a
// BTH (not RoCE, MAC Control, ...) never matches a filter that sets
// anything.
type Filter struct {
	QP        uint32    // destination QP to keep, when HasQP
	HasQP     bool      // filter on QP
	Opcode    ib.Opcode // BTH opcode to keep, when HasOpcode
	HasOpcode bool      // filter on Opcode
}

// Match reports whether the decoded record r passes the filter.
func (f *Filter) Match(r *Record) bool {
	if !f.HasQP && !f.HasOpcode {
		return true
	}
	if r.Kind != KindRoCE && r.Kind != KindInfiniBand {
		return false
	}
	h := &r.RoCE.Packet.BTH
	return (!f.HasQP || h.DestQP == f.QP) && (!f.HasOpcode || h.OpCode == f.Opcode)
}

// ParseQP parses a queue pair number, decimal or hexadecimal with 0x
// ("52", "0x34"), at most 24 bits.
func ParseQP(s string) (uint32, error) {
	v, err := strconv.ParseUint(s, 0, 32)
	if err != nil || v > 0xffffff {
		return 0, fmt.Errorf("bad QP number %q: want 0 to 16777215, decimal or 0x hex", s)
	}
	return uint32(v), nil
}

// ParseOpcode parses a BTH opcode: its IBTA name as rocedump prints it,
// in any case and with '_' or '-' allowed for spaces ("RC RDMA WRITE
// Only", "rc_send_only", "CNP"), or its number, decimal or 0x hex.
func ParseOpcode(s string) (ib.Opcode, error) {
	if v, err := strconv.ParseUint(s, 0, 8); err == nil {
		return ib.Opcode(v), nil
	}
	name := strings.NewReplacer("_", " ", "-", " ").Replace(strings.TrimSpace(s))
	for op := 0; op < 256; op++ {
		o := ib.Opcode(op)
		if o.Known() && strings.EqualFold(o.String(), name) {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown opcode %q: give an IBTA name such as \"RC SEND Only\" or a number", s)
}

// Scan reads every frame of src, decodes it into a reused Record and,
// for each frame that matches opt.Filter, calls fn, until the end of the
// capture, opt.Count matching frames, or an error. It returns a nil error
// at the end of the capture or of the count, fn's error, or the read
// error: io.ErrUnexpectedEOF means the capture is cut short. A record
// that cannot be read but can be skipped (a ReadError not Fatal) is
// counted in Stats.Unreadable, handed to opt.Unreadable and skipped;
// frames keep their numbers in the file (Record.Number). The Record
// and the bytes it points to are only valid during the call of fn. Scan
// allocates nothing per frame in steady state, except for malformed
// frames. With opt.Workers other than 1 (see Options.Workers) frames are
// decoded on other goroutines, but fn is called on the calling
// goroutine, in capture order, and Scan returns only once they have all
// stopped.
func Scan(src *Source, opt Options, fn func(r *Record) error) (Stats, error) {
	if w := opt.workers(); w > 1 {
		return runPipeline(src, &opt, w, nil, fn)
	}
	var st Stats
	var rec Record
	rec.Location, rec.Speed = opt.Location, opt.Speed
	for {
		if opt.Count > 0 && st.Matched >= opt.Count {
			return st, nil
		}
		data, ci, lt, err := src.Next()
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			if re, ok := err.(*ReadError); ok && !re.Fatal {
				st.Unreadable++
				if opt.Unreadable != nil {
					opt.Unreadable(re)
				}
				continue
			}
			return st, err
		}
		st.Frames++
		if opt.Progress != nil && st.Frames%ProgressEvery == 0 {
			opt.Progress(st.Frames, src.Offset())
		}
		rec.Decode(src.Number(), ci, lt, data)
		switch rec.Kind {
		case KindRoCE:
			st.RoCE++
			if rec.ICRCUnchecked {
				st.Truncated++
			} else if !rec.ICRCGood {
				st.BadICRC++
			}
		case KindNotRoCE:
			st.NotRoCE++
		case KindMalformed:
			st.Malformed++
		case KindUnsupported:
			st.Unsupported++
		case KindMACControl:
			st.MACControl++
		case KindInfiniBand:
			st.InfiniBand++
			if rec.ICRCUnchecked {
				st.Truncated++
			} else if !rec.ICRCGood {
				st.BadICRC++
			}
		}
		if !opt.Filter.Match(&rec) {
			continue
		}
		st.Matched++
		if err := fn(&rec); err != nil {
			return st, err
		}
	}
}

// Dump reads the frames of src and writes one line per frame that
// matches opt.Filter to w, text or JSON, as Scan reads them. It stops at
// the end of the capture or after opt.Count frames, returning a nil
// error, or at the first read or write error, which it returns after
// writing every frame read before it: io.ErrUnexpectedEOF means the
// capture is cut short. Give it a buffered writer: it writes once per
// frame (once per batch of up to 256 frames with opt.Workers other than
// 1). It allocates nothing per frame in steady state, except for
// malformed frames.
func Dump(w io.Writer, src *Source, opt Options) (Stats, error) {
	if n := opt.workers(); n > 1 {
		return runPipeline(src, &opt, n, w, nil)
	}
	buf := make([]byte, 0, 4096)
	return Scan(src, opt, func(r *Record) error {
		if opt.JSON {
			buf = r.AppendJSON(buf[:0])
		} else {
			buf = r.AppendText(buf[:0])
		}
		_, err := w.Write(buf)
		return err
	})
}
