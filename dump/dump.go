package dump

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/pfc"
)

// Options says how Dump prints and which frames Scan and Dump hand on.
type Options struct {
	JSON bool // JSON Lines instead of text
	// Verbose adds after each text line the frame's headers, one line
	// each with every field (Record.AppendVerbose); not with JSON.
	Verbose  bool
	Location *time.Location // time zone of text timestamps; nil means UTC
	// Text says how text lines look (tcpdump's output flags: time
	// formats, hex, link-level header, quiet). Dump keeps the time the
	// delta formats count from over the frames it prints, in capture
	// order, whatever Workers (TextOptions.Follow does it for Scan's).
	Text TextFormat
	// Speed is the link speed at which text lines convert PAUSE and PFC
	// quanta to time; 0 means 100 Gb/s.
	Speed pfc.Speed
	// Filter selects the frames handed on; the zero Filter takes all.
	Filter Filter
	// Match, if set, is a further test a frame must pass, after Filter:
	// a display filter (dfilter.Filter.Match). It is called on the
	// goroutines that decode, concurrently when Workers is above 1, so
	// it must be safe for concurrent use; it must not keep r.
	Match func(r *Record) bool
	// Count stops the scan after that many frames matched the filter;
	// 0 means no limit.
	Count int
	// Progress, if set, is called every ProgressEvery frames read with
	// the number of frames read so far and the number of bytes of the
	// input consumed (see capfile.Source.Offset). It must be cheap.
	Progress func(frames int, offset int64)
	// Unreadable, if set, is called with each record of the capture that
	// could not be read and was skipped (Stats.Unreadable counts them);
	// its Error method gives "roce: frame N: ...". Scan goes on after it.
	Unreadable func(err *capfile.ReadError)
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
	// File, if set, names the capture in each JSON object
	// ("frame.file", after "frame.number"), for output that joins
	// several captures (JSONOptions.File).
	File string
	// Fields, if set, makes Dump write fields lines, tshark's -T fields
	// (FieldsFormat.AppendFields), instead of text or JSON; Dump writes
	// no header line (FieldsFormat.AppendHeader).
	Fields *FieldsFormat
	// ULP is the upper-layer protocol the payloads of RC SEND messages
	// are decoded as (Record.ULP): ULPNone, the zero value, decodes none.
	ULP ULP
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
	// UnsupportedERF counts, of Unsupported, the ERF records of a type
	// not decoded (the ERF link type itself is read).
	UnsupportedERF int
	MACControl     int // MAC Control frames (PAUSE, PFC, ...)
	InfiniBand     int // native InfiniBand packets decoded (ERF type 21, link type 247)
	// Unreadable counts the records of the capture that could not be
	// read and were skipped (see ReadError): not in Frames.
	Unreadable int
}

// Filter selects frames by their transport header. A frame without a
// BTH (not RoCE, MAC Control, ...) never matches a filter that sets
// anything. A frame passes when its destination QP is any of the QPs
// the filter names (QP when HasQP, and QPs), if it names any, and its
// opcode is any of those it names (Opcode when HasOpcode, the set
// Opcodes, and the management datagrams when MAD), if it names any.
// Match allocates nothing.
type Filter struct {
	QP        uint32    // destination QP to keep, when HasQP
	HasQP     bool      // filter on QP
	Opcode    ib.Opcode // BTH opcode to keep, when HasOpcode
	HasOpcode bool      // filter on Opcode
	// QPs are more destination QPs to keep, besides QP. Match reads
	// them one by one: a few QPs, not thousands.
	QPs []uint32
	// Opcodes are more BTH opcodes to keep, besides Opcode.
	Opcodes OpcodeSet
	// MAD keeps the management datagrams: UD SEND Only (with or
	// without Immediate) to QP 0 (SMP) or QP 1 (GMP), as an opcode
	// would.
	MAD bool
}

// OpcodeSet is a set of BTH opcodes, one bit each. The zero set is
// empty.
type OpcodeSet [4]uint64

// Add puts op in the set.
func (s *OpcodeSet) Add(op ib.Opcode) { s[op>>6] |= 1 << (op & 63) }

// Has reports whether op is in the set.
func (s *OpcodeSet) Has(op ib.Opcode) bool { return s[op>>6]&(1<<(op&63)) != 0 }

// Empty reports whether the set holds no opcode.
func (s *OpcodeSet) Empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// AddQP adds qp to the QPs the filter keeps.
func (f *Filter) AddQP(qp uint32) {
	if !f.HasQP {
		f.QP, f.HasQP = qp, true
		return
	}
	f.QPs = append(f.QPs, qp)
}

// AddOpcodes adds to the filter the opcodes s names, as ParseOpcodes
// reads it.
func (f *Filter) AddOpcodes(s string) error {
	set, mad, err := ParseOpcodes(s)
	if err != nil {
		return err
	}
	for i := range set {
		f.Opcodes[i] |= set[i]
	}
	f.MAD = f.MAD || mad
	return nil
}

// Match reports whether the decoded record r passes the filter.
func (f *Filter) Match(r *Record) bool {
	byQP := f.HasQP || len(f.QPs) > 0
	byOp := f.HasOpcode || f.MAD || !f.Opcodes.Empty()
	if !byQP && !byOp {
		return true
	}
	if r.Kind != KindRoCE && r.Kind != KindInfiniBand {
		return false
	}
	h := &r.RoCE.Packet.BTH
	if byQP && !(f.HasQP && h.DestQP == f.QP) && !hasQP(f.QPs, h.DestQP) {
		return false
	}
	return !byOp || f.HasOpcode && h.OpCode == f.Opcode || f.Opcodes.Has(h.OpCode) ||
		f.MAD && IsMAD(h.OpCode, h.DestQP)
}

func hasQP(qps []uint32, qp uint32) bool {
	for _, q := range qps {
		if q == qp {
			return true
		}
	}
	return false
}

// IsMAD reports whether a packet of BTH opcode op to destination QP qp
// is a management datagram: UD SEND Only or UD SEND Only with Immediate
// to QP 0 (subnet management) or QP 1 (general services).
func IsMAD(op ib.Opcode, qp uint32) bool {
	return qp <= 1 && (op == ib.OpUDSendOnly || op == ib.OpUDSendOnlyWithImmediate)
}

// OpcodeFamilies are the names ParseOpcodes takes for a family of
// opcodes, each with what it holds:
//
//	send    every SEND opcode, every transport (ib.ClassSend)
//	write   every RDMA WRITE opcode (ib.ClassWrite)
//	read    RDMA READ Request and RDMA READ Response First, Middle, Last, Only
//	atomic  CmpSwap, FetchAdd, ATOMIC Acknowledge, ATOMIC WRITE
//	ack     Acknowledge (ACK, NAK, RNR NAK; not ATOMIC Acknowledge)
//	cnp     the RoCEv2 CNP (0x81)
//	mad     management datagrams: UD SEND Only (with Immediate) to QP 0 or 1
var OpcodeFamilies = []string{"send", "write", "read", "atomic", "ack", "cnp", "mad"}

var familyClasses = map[string]ib.Class{
	"send":   ib.ClassSend,
	"write":  ib.ClassWrite,
	"read":   ib.ClassReadRequest | ib.ClassReadResponse,
	"atomic": ib.ClassAtomic | ib.ClassAtomicAck | ib.ClassAtomicWrite,
	"ack":    ib.ClassAck,
	"cnp":    ib.ClassCNP,
}

// ParseOpcodes parses what ParseOpcode takes, or the name of a family
// of opcodes (OpcodeFamilies, in any case): the set of opcodes it
// names, and mad true for the family "mad", which is not a set of
// opcodes but UD SEND to QP 0 or 1.
func ParseOpcodes(s string) (set OpcodeSet, mad bool, err error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "mad" {
		return set, true, nil
	}
	if c, ok := familyClasses[name]; ok {
		for op := 0; op < 256; op++ {
			if ib.Opcode(op).Is(c) {
				set.Add(ib.Opcode(op))
			}
		}
		return set, false, nil
	}
	op, err := ParseOpcode(s)
	if err != nil {
		return set, false, fmt.Errorf("%w, or a family: %s", err, strings.Join(OpcodeFamilies, ", "))
	}
	set.Add(op)
	return set, false, nil
}

// ParseQP parses a queue pair number, decimal or hexadecimal with 0x
// ("52", "0x34"), at most 24 bits.
func ParseQP(s string) (uint32, error) {
	v, err := strconv.ParseUint(s, 0, 32)
	if err != nil || v > 0xffffff {
		return 0, errs.Kind(ErrBadArgument, fmt.Sprintf("bad QP number %q: want 0 to 16777215, decimal or 0x hex", s))
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
	return 0, errs.Kind(ErrBadArgument, fmt.Sprintf("unknown opcode %q: give an IBTA name such as \"RC SEND Only\" or a number", s))
}

// ErrBadArgument is what ParseQP, ParseOpcode and ParseOpcodes return
// errors.Is matches: the text they were given names no queue pair or
// opcode.
var ErrBadArgument = errors.New("roce: bad argument")

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
func Scan(src *capfile.Source, opt Options, fn func(r *Record) error) (Stats, error) {
	if w := opt.workers(); w > 1 {
		return runPipeline(src, &opt, w, nil, fn)
	}
	return scanSerial(src, opt, fn)
}

// scanSerial is Scan on the calling goroutine alone.
func scanSerial(src *capfile.Source, opt Options, fn func(r *Record) error) (st Stats, err error) {
	defer src.Unguard(src.Guard(), &err)
	var rec Record
	for {
		if opt.Count > 0 && st.Matched >= opt.Count {
			return st, nil
		}
		data, ci, lt, err := src.Next()
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			if re, ok := err.(*capfile.ReadError); ok && !re.Fatal {
				st.Unreadable++
				if opt.Unreadable != nil {
					opt.Unreadable(re)
				}
				continue
			}
			return st, err
		}
		rec.ULP = opt.ULP
		rec.Decode(src.Number(), ci, lt, data) // before counting: a fault (a mapped file cut shorter) leaves it uncounted
		st.Frames++
		if opt.Progress != nil && st.Frames%ProgressEvery == 0 {
			opt.Progress(st.Frames, src.Offset())
		}
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
			if lt == capfile.LinkTypeERF {
				st.UnsupportedERF++
			}
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
		if !opt.keep(&rec) {
			continue
		}
		st.Matched++
		if err := fn(&rec); err != nil {
			return st, err
		}
	}
}

// TextOptions returns the settings of o's text lines: Location, Text
// and Speed.
func (o *Options) TextOptions() TextOptions {
	return TextOptions{Location: o.Location, Format: o.Text, Speed: o.Speed}
}

// keep reports whether r passes Filter and Match.
func (o *Options) keep(r *Record) bool {
	return o.Filter.Match(r) && (o.Match == nil || o.Match(r))
}

// Dump reads the frames of src and writes one line per frame that
// matches opt.Filter to w, text, JSON or fields (Options.Fields), as Scan reads them. It stops at
// the end of the capture or after opt.Count frames, returning a nil
// error, or at the first read or write error, which it returns after
// writing every frame read before it: io.ErrUnexpectedEOF means the
// capture is cut short. Give it a buffered writer: it writes once per
// frame (once per batch of up to 256 frames with opt.Workers other than
// 1). It allocates nothing per frame in steady state, except for
// malformed frames.
func Dump(w io.Writer, src *capfile.Source, opt Options) (Stats, error) {
	if n := opt.workers(); n > 1 {
		return runPipeline(src, &opt, n, w, nil)
	}
	buf := make([]byte, 0, 4096)
	txt, js := opt.TextOptions(), JSONOptions{File: opt.File}
	return Scan(src, opt, func(r *Record) error {
		if opt.Fields != nil {
			buf = opt.Fields.AppendFields(buf[:0], r)
		} else if opt.JSON {
			buf = js.AppendJSON(buf[:0], r)
		} else {
			txt.Follow(r.Time)
			buf = txt.AppendText(buf[:0], r)
			if opt.Verbose {
				buf = r.AppendVerbose(buf)
			}
		}
		_, err := w.Write(buf)
		return err
	})
}
