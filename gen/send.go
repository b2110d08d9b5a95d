package gen

import (
	"runtime"
	"time"
)

// PacketWriter is where Send puts frames: a live interface
// (capture.Handle) or a gopacket pcap handle, anything with gopacket's
// WritePacketData.
type PacketWriter interface {
	WritePacketData(data []byte) error
}

// SendOptions are the settings of Send.
type SendOptions struct {
	// Loops is how many times the scenario is sent, one after the other
	// on one clock; 0 sends it again and again until Stop is closed.
	Loops int
	// Stop, when closed, ends Send after the frame being sent.
	Stop <-chan struct{}
}

// SendStats is what Send sent.
type SendStats struct {
	Frames int // frames sent
	Bytes  int // their bytes, as handed to the writer (no FCS)
	// WireBits counts the frames as the line rate does: each with its
	// 4-byte FCS (at least 64 bytes in all), 8-byte preamble and 12-byte
	// inter-frame gap.
	WireBits uint64
	Loops    int // loops sent whole
	// Elapsed is the time from the first frame on: until the last one
	// was sent and its time on the wire at the scenario's rate had
	// passed, or until Send was stopped.
	Elapsed time.Duration
}

// PacketsPerSecond returns Frames over Elapsed (0 for no time).
func (s SendStats) PacketsPerSecond() float64 { return perSecond(float64(s.Frames), s.Elapsed) }

// BitsPerSecond returns WireBits over Elapsed: the rate on the wire,
// to compare with Config.Rate.
func (s SendStats) BitsPerSecond() float64 { return perSecond(float64(s.WireBits), s.Elapsed) }

func perSecond(v float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return v / d.Seconds()
}

// wireBits is a frame of n bytes on the wire: with its FCS, at least 64
// bytes, then the preamble and the inter-frame gap.
func wireBits(n int) uint64 { return uint64(max(n+4, 64)+8+12) * 8 }

// BatchWriter is a PacketWriter that also sends several frames in one
// call (capture.Handle: one sendmmsg system call), returning how many it
// sent and, when not all, the error of the first one it did not.
type BatchWriter interface {
	PacketWriter
	WritePacketBatch(frames [][]byte) (int, error)
}

// sendBatch is the most frames Send hands a BatchWriter at once.
const sendBatch = 32

// Send sends the frames of the generators next returns to w at the times
// of their timestamps, as tcpreplay replays a capture: the first frame at
// once, every other one when its time after the first has come on the
// monotonic clock, so that the frames go out at the rate the timestamps
// follow (Config.Rate or Config.PacketRate; at the default 100 Gb/s
// the host, not the schedule, sets the pace). A frame that falls late
// is sent at once and the schedule is kept, so lateness never
// accumulates: a run holds its rate over its length. Frames already due
// together go to a BatchWriter in one call, up to 32, which lets a late
// sender catch up sooner. next is called once per loop
// (SendOptions.Loops) and must return the same scenario each time; each
// loop starts when the one before has left the wire free, plus the first
// phase's Gap. Send returns what it sent and the first error of next, of
// a Generator or of w.
func Send(w PacketWriter, next func() (*Generator, error), opt SendOptions) (SendStats, error) {
	s := sender{w: w, p: NewPacer()}
	s.bw, _ = w.(BatchWriter)
	err := s.run(next, opt)
	if ferr := s.flush(); err == nil {
		err = ferr
	}
	s.st.Elapsed = s.p.Elapsed()
	if err == nil && !s.stopped {
		s.st.Elapsed = max(s.st.Elapsed, s.offset-s.lead)
	}
	return s.st, err
}

// sender is the state of one Send.
type sender struct {
	w            PacketWriter
	bw           BatchWriter // w, when it takes batches
	p            *Pacer
	st           SendStats
	offset, lead time.Duration // the loop's start on p's clock; the first frame's time in the first loop
	pending      [][]byte      // frames due, not yet sent: copies in bufs
	bufs         [sendBatch][]byte
	stopped      bool
}

// run plays the loops, leaving in s.pending the frames not yet sent.
func (s *sender) run(next func() (*Generator, error), opt SendOptions) error {
	for ; opt.Loops == 0 || s.st.Loops < opt.Loops; s.st.Loops++ {
		g, err := next()
		if err != nil {
			return err
		}
		for g.Next() {
			at := g.Time().Sub(g.Start())
			if s.st.Frames == 0 && len(s.pending) == 0 {
				s.lead = at
			}
			due := s.offset + at - s.lead
			if len(s.pending) > 0 && (len(s.pending) == cap(s.pending) || due > s.p.Elapsed()) {
				if err := s.flush(); err != nil {
					return err
				}
			}
			if len(s.pending) == 0 && !s.p.Wait(due, opt.Stop) {
				s.stopped = true
				return nil
			}
			s.add(g.Frame())
		}
		if err := g.Err(); err != nil {
			return err
		}
		if g.Stats().Frames > 0 {
			s.offset += g.Free().Sub(g.Start())
		}
	}
	return nil
}

// add queues a copy of frame, which the Generator will reuse.
func (s *sender) add(frame []byte) {
	if s.pending == nil {
		s.pending = make([][]byte, 0, sendBatch)
		if s.bw == nil {
			s.pending = make([][]byte, 0, 1) // one at a time
		}
	}
	i := len(s.pending)
	s.bufs[i] = append(s.bufs[i][:0], frame...)
	s.pending = append(s.pending, s.bufs[i])
}

// flush sends the frames queued, counting those sent.
func (s *sender) flush() error {
	var err error
	sent := len(s.pending)
	if s.bw != nil && sent > 1 {
		sent, err = s.bw.WritePacketBatch(s.pending)
	} else {
		for i, f := range s.pending {
			if err = s.w.WritePacketData(f); err != nil {
				sent = i
				break
			}
		}
	}
	for _, f := range s.pending[:sent] {
		s.st.Frames++
		s.st.Bytes += len(f)
		s.st.WireBits += wireBits(len(f))
	}
	s.pending = s.pending[:0]
	return err
}

// Pacer waits for deadlines on one monotonic clock started by NewPacer.
// Deadlines are absolute, so the time a late wait loses is not carried
// into the next one: a run of waits keeps its average rate. Long waits
// sleep; the last stretch of every wait, and any wait under
// PacerSleepAbove, yields the processor in a loop (runtime.Gosched),
// because a sleeping goroutine wakes up to a millisecond late on a busy
// host, which pacing at 100,000 packets per second cannot afford.
type Pacer struct {
	start time.Time
}

// PacerSleepAbove is the wait above which Pacer.Wait sleeps, up to this
// much before the deadline; shorter waits, and that last stretch, yield
// the processor until the deadline.
const PacerSleepAbove = 2 * time.Millisecond

// NewPacer returns a Pacer whose clock starts now.
func NewPacer() *Pacer { return &Pacer{start: time.Now()} }

// Elapsed returns the time since NewPacer.
func (p *Pacer) Elapsed() time.Duration { return time.Since(p.start) }

// Wait returns once at has passed on p's clock (at once when it has
// already passed), or false as soon as stop is closed (a nil stop is
// never closed).
func (p *Pacer) Wait(at time.Duration, stop <-chan struct{}) bool {
	select {
	case <-stop:
		return false
	default:
	}
	for spins := 0; ; spins++ {
		d := at - time.Since(p.start)
		if d <= 0 {
			return true
		}
		if d > PacerSleepAbove {
			t := time.NewTimer(d - PacerSleepAbove/2)
			select {
			case <-stop:
				t.Stop()
				return false
			case <-t.C:
			}
			continue
		}
		if spins&1023 == 1023 {
			select {
			case <-stop:
				return false
			default:
			}
		}
		runtime.Gosched()
	}
}
