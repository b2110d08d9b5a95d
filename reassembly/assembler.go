package reassembly

import (
	"time"

	"github.com/roce-go/roce/ib"
)

// Config bounds what an Assembler keeps per stream. The zero value of a
// field means its default.
type Config struct {
	// Window is how many PSNs ahead of the expected one a packet may come
	// and wait for those before it (default 256, what the PSN analysis of
	// package flow calls out of order; at most 1<<16).
	Window int
	// MaxBuffered is how many payload bytes the waiting packets of a
	// stream may hold before the oldest gap is given up (default 4 MiB).
	MaxBuffered int
	// MaxMessage is how many payload bytes of a message are kept (default
	// 1 MiB); the rest is counted in Message.Len but not kept.
	MaxMessage int
}

// The defaults of Config's fields.
const (
	DefaultWindow      = 256
	DefaultMaxBuffered = 4 << 20
	DefaultMaxMessage  = 1 << 20
	maxWindow          = 1 << 16
)

// Mark is where a packet sits in the capture: its frame number and time,
// as the caller gives them to Add.
type Mark struct {
	Frame int
	Time  time.Time
}

// Stream tells the two message streams of a direction apart.
type Stream uint8

// The streams: the requests a QP sends, and the RDMA READ responses it
// sends, which number their packets with the PSNs of the READ Request.
const (
	Requests Stream = iota
	Responses
)

// String returns "requests" or "responses".
func (s Stream) String() string {
	if s == Responses {
		return "responses"
	}
	return "requests"
}

// Message is one reassembled message. Its Payload is valid until the
// deliver function returns; copy it to keep it.
type Message[K comparable] struct {
	Key    K      // the key its packets were added with
	Stream Stream // Requests (SEND, RDMA WRITE) or Responses (RDMA READ response)
	// Opcode is the opcode of the packet that ended the message (Last or
	// Only): it says the operation, the transport, and whether it
	// carried immediate data or an invalidation.
	Opcode   ib.Opcode
	FirstPSN uint32 // PSN of its First (or Only) packet
	LastPSN  uint32 // PSN of its Last (or Only) packet
	Packets  int    // packets it was made of
	First    Mark   // where its First (or Only) packet was captured
	Last     Mark   // where its Last (or Only) packet was captured
	// Payload is the message's data as captured, through its first
	// MaxMessage bytes, and only up to the end of the captured bytes of
	// the first packet the capture cut (see Cut).
	Payload []byte
	Len     int  // payload bytes the message's packets carried as captured, kept or not
	Cut     bool // a packet of it was cut short by the capture: Payload ends where that packet's captured bytes end
	Clipped bool // longer than Config.MaxMessage: Payload holds its first MaxMessage bytes
	// RETH is the RETH of an RDMA WRITE's First or Only packet (virtual
	// address, R_Key, DMA length), valid when HasRETH.
	RETH    ib.RETH
	HasRETH bool
	Imm     uint32 // the immediate data of its Last or Only packet, when Opcode has ib.ClassImmediate
	RKey    uint32 // the R_Key a SEND with Invalidate invalidates, when Opcode has ib.ClassInvalidate
}

// Stats counts what an Assembler did with the packets it was given.
type Stats struct {
	Packets    int // packets added that belong to a message stream (every request and READ response)
	Messages   int // messages delivered
	Waited     int // packets that came ahead of their turn and waited for the PSNs before them
	Duplicates int // packets at a PSN already taken or given up: dropped
	Skipped    int // gaps given up: PSNs that never came
	Abandoned  int // messages opened by a First and never ended: their Last was lost or a gap cut them
	Orphans    int // Middle and Last packets whose message had no First: dropped
	Streams    int // streams made (two per key, made as their first packet comes)
}

// An Assembler reassembles the messages of any number of keys. It is not
// safe for concurrent use.
type Assembler[K comparable] struct {
	cfg     Config
	deliver func(*Message[K])
	keys    map[K]*direction
	msg     Message[K]
	stats   Stats
}

// direction is what an Assembler keeps for one key: its two streams and
// the path MTU learnt from its packets.
type direction struct {
	s   [2]stream
	mtu uint32
}

// New returns an Assembler that calls deliver with each message as it
// completes. The Message is reused: deliver must not keep it.
func New[K comparable](cfg Config, deliver func(*Message[K])) *Assembler[K] {
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	cfg.Window = min(cfg.Window, maxWindow)
	if cfg.MaxBuffered <= 0 {
		cfg.MaxBuffered = DefaultMaxBuffered
	}
	if cfg.MaxMessage <= 0 {
		cfg.MaxMessage = DefaultMaxMessage
	}
	return &Assembler[K]{cfg: cfg, deliver: deliver, keys: make(map[K]*direction)}
}

// Stats returns the counts so far.
func (a *Assembler[K]) Stats() Stats { return a.stats }

// Add gives the Assembler the next packet of the capture, decoded, with
// the key of its direction and where it was captured. Packets of no
// message stream (acknowledgements, CNPs, unknown opcodes) are ignored.
// p is not kept: its payload is copied when the packet has to wait or
// belongs to a message of several packets.
func (a *Assembler[K]) Add(key K, at Mark, p *ib.Packet) {
	op := p.BTH.OpCode
	if !op.Known() || !op.Is(ib.ClassRequest|ib.ClassReadResponse) {
		return
	}
	a.stats.Packets++
	if op.Transport() == ib.UD {
		if op.Is(ib.ClassOnly) {
			var in packet
			in.set(op, at, p)
			a.emitOnly(key, Requests, &in, p.Payload)
		}
		return
	}
	d := a.keys[key]
	if d == nil {
		d = new(direction)
		a.keys[key] = d
		a.stats.Streams += 2
	}
	if op.Is(ib.ClassFullMTU) && !p.BTH.Truncated {
		d.mtu = max(d.mtu, uint32(len(p.Payload)))
	}
	which := Requests
	if op.Is(ib.ClassReadResponse) {
		which = Responses
	}
	var in packet
	in.set(op, at, p)
	a.add(key, d, which, &in, p.Payload)
}

// Flush gives up every gap still open, delivering what waited behind
// them, and forgets every key: call it at the end of the capture.
func (a *Assembler[K]) Flush() {
	for key, d := range a.keys {
		for i := range d.s {
			s := &d.s[i]
			for s.waiting > 0 {
				a.skip(key, d, Stream(i))
			}
			if s.open {
				s.open = false
				a.stats.Abandoned++
			}
		}
		delete(a.keys, key)
	}
}

// packet is what the Assembler keeps of a packet besides its payload.
type packet struct {
	op      ib.Opcode
	psn     uint32
	at      Mark
	cut     bool
	reth    ib.RETH
	hasRETH bool
	imm     uint32
	rkey    uint32
}

func (in *packet) set(op ib.Opcode, at Mark, p *ib.Packet) {
	*in = packet{op: op, psn: p.BTH.PSN & psnMask, at: at, cut: p.BTH.Truncated}
	if op.Is(ib.ClassWrite|ib.ClassReadRequest) && p.Captured(ib.HeaderRETH) == ib.RETHLen {
		in.reth, in.hasRETH = p.RETH, true
	}
	if op.Is(ib.ClassImmediate) {
		in.imm = p.ImmDt.Data
	}
	if op.Is(ib.ClassInvalidate) {
		in.rkey = p.IETH.RKey
	}
}

const psnMask = 1<<24 - 1

// dist returns how far PSN b is after PSN a, modulo 2^24, signed.
func dist(a, b uint32) int32 { return int32((b-a)&psnMask<<8) >> 8 }
