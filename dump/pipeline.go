package dump

import (
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/google/gopacket"
)

// The pipeline of Scan and Dump when Options.Workers is not 1: a reader
// goroutine copies records into batches, worker goroutines decode each
// batch (and for Dump format its matching lines into the batch's
// output), and the calling goroutine takes the batches in capture order
// to count, call the callbacks and fn, and write. A fixed pool of batches
// is recycled, so memory is bounded and nothing is allocated per frame
// once every batch has been used.
const (
	batchFrames = 256       // records per batch at most
	batchBytes  = 256 << 10 // captured bytes per batch before it is handed on
)

// slot is one record of a batch, as the reader left it: a frame read
// (its bytes in the batch's data) or a record that could not be read
// (rerr). Record.Decode uses only the timestamp and the length of the
// CaptureInfo.
type slot struct {
	ts     time.Time
	number int
	off    int64 // Source.Offset after the record was read
	length int   // CaptureInfo.Length
	rerr   *ReadError
	lo, hi int32 // the captured bytes: data[lo:hi]
	lt     uint16
}

// result is what a worker made of a slot's frame, for the consumer.
type result struct {
	time                time.Time // the frame's, for the delta time formats
	end                 int32     // Dump: the end of the batch's output up to this slot
	kind                Kind
	icrcGood, unchecked bool
	match               bool
}

// batch is a run of consecutive records, recycled through the pool.
type batch struct {
	slots []slot
	res   []result // the workers' side of each slot
	data  []byte   // the records' captured bytes
	recs  []Record // Scan: the decoded record of each slot
	out   []byte   // Dump: the lines of the matching frames, in order
	err   error    // what ended reading after the slots (io.EOF or a read error), nil if reading goes on
	pan   any      // a worker's panic, raised again by the consumer
	part  Part     // ScanParts: the matching frames, added by the worker
	done  chan struct{}
}

// pipeline is the state shared by one Scan's goroutines.
type pipeline struct {
	src    *Source
	opt    *Options
	format bool // Dump: workers format matching frames into batch.out
	// stamp: the lines' times are deltas, which the consumer, in
	// capture order, puts before the lines the workers formatted
	// without them, in lines.
	stamp   bool
	lines   []byte
	ref     timeRef
	free    chan *batch
	work    chan *batch
	order   chan *batch
	quit    chan struct{}
	wg      sync.WaitGroup
	pool    int // batches at most
	created int // batches made so far (reader goroutine only)
	// ScanParts: the worker of each batch adds its matching frames to
	// the batch's part (made by newPart), which the consumer hands to
	// partFn after taking the batch.
	newPart func() Part
	partFn  func(Part) error
}

// workers returns how many decoding goroutines opt asks for.
func (opt *Options) workers() int {
	if opt.Workers > 0 {
		return opt.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// runPipeline is Scan (fn gets each matching Record) or
// Dump (fn nil: the lines of the matching frames are written to w) on the
// pipeline.
func runPipeline(src *Source, opt *Options, workers int, w io.Writer, fn func(r *Record) error) (st Stats, err error) {
	return runPipelineParts(startPipeline(src, opt, workers, fn == nil, nil), w, fn, nil)
}

// runPipelineParts is runPipeline on p, with partFn called on each
// batch's part (ScanParts) after fn on its records.
func runPipelineParts(p *pipeline, w io.Writer, fn func(r *Record) error, partFn func(Part) error) (st Stats, err error) {
	opt := p.opt
	p.partFn = partFn
	defer p.stop()
	for {
		b := <-p.order // the reader sends every batch up to the last
		<-b.done
		if b.pan != nil {
			panic(b.pan)
		}
		before := st
		out, last, stop, ferr := p.take(b, &st, fn)
		if ferr == nil && b.part != nil {
			ferr = p.partFn(b.part)
		}
		if p.format && last > 0 {
			if n, werr := w.Write(out[:last]); werr != nil {
				// Count the frames up to the one whose line failed,
				// as writing line by line would have.
				st = before
				for i := range b.slots {
					if opt.Count > 0 && st.Matched >= opt.Count {
						break
					}
					if recount(&st, &b.slots[i], &b.res[i]) && (int(b.res[i].end) > n || int(b.res[i].end) >= last) {
						break
					}
				}
				return st, werr
			}
		}
		if ferr != nil {
			return st, ferr
		}
		if stop || opt.Count > 0 && st.Matched >= opt.Count {
			return st, nil
		}
		if b.err != nil {
			if b.err == io.EOF {
				return st, nil
			}
			return st, b.err
		}
		p.free <- b
	}
}

// take counts the slots of batch b in st and hands the matching frames
// on, in capture order, until opt.Count frames matched (stop) or fn
// fails (ferr): to fn (Scan), or as the lines of out up to last (Dump).
// With delta times (p.stamp) out is p.lines, where each line gets its
// time before the line the worker formatted, and b.res[i].end becomes
// the end of slot i's line in out.
func (p *pipeline) take(b *batch, st *Stats, fn func(r *Record) error) (out []byte, last int, stop bool, ferr error) {
	opt := p.opt
	out = b.out
	if p.stamp {
		out = p.lines[:0]
		defer func() { p.lines = out }()
	}
	var lineStart int32 // where slot i's line starts in b.out
	for i := range b.slots {
		if opt.Count > 0 && st.Matched >= opt.Count {
			return out, last, true, nil
		}
		res := &b.res[i]
		start := lineStart
		lineStart = res.end
		if !countSlot(st, opt, &b.slots[i], res) {
			continue
		}
		ref := p.ref.next(opt.Text.Time, res.time)
		if !p.format && p.newPart != nil {
			continue // ScanParts: the part has the frame
		}
		if !p.format {
			b.recs[i].TimeRef = ref
			if ferr = fn(&b.recs[i]); ferr != nil {
				return out, last, false, ferr
			}
			continue
		}
		if p.stamp {
			out = appendDelta(out, res.time, ref, opt.Text.Nano)
			out = append(out, ' ')
			out = append(out, b.out[start:res.end]...)
			res.end = int32(len(out))
		}
		last = int(res.end)
	}
	return out, last, false, nil
}

// startPipeline starts the reader and the workers of a pipeline over
// src; format says the workers format lines (Dump) rather than keep
// Records (Scan).
func startPipeline(src *Source, opt *Options, workers int, format bool, newPart func() Part) *pipeline {
	p := &pipeline{src: src, opt: opt, format: format, pool: 2*workers + 2, newPart: newPart}
	p.stamp = format && !opt.JSON && opt.Text.Time.delta()
	p.free = make(chan *batch, p.pool)
	p.work = make(chan *batch, p.pool)
	p.order = make(chan *batch, p.pool)
	p.quit = make(chan struct{})
	p.wg.Add(1 + workers)
	go p.read()
	for i := 0; i < workers; i++ {
		go p.decode()
	}
	return p
}

// stop ends the pipeline's goroutines and waits for them.
func (p *pipeline) stop() {
	close(p.quit)
	p.wg.Wait()
}

// countSlot counts slot s in st, calling opt's Unreadable and Progress
// as Scan does, and reports whether the frame matched the filter.
func countSlot(st *Stats, opt *Options, s *slot, r *result) bool {
	if s.rerr != nil {
		st.Unreadable++
		if opt.Unreadable != nil {
			opt.Unreadable(s.rerr)
		}
		return false
	}
	st.Frames++
	if opt.Progress != nil && st.Frames%ProgressEvery == 0 {
		opt.Progress(st.Frames, s.off)
	}
	countKind(st, r.kind, s.lt, r.icrcGood, r.unchecked)
	if !r.match {
		return false
	}
	st.Matched++
	return true
}

// recount is countSlot without the callbacks.
func recount(st *Stats, s *slot, r *result) bool {
	if s.rerr != nil {
		st.Unreadable++
		return false
	}
	st.Frames++
	countKind(st, r.kind, s.lt, r.icrcGood, r.unchecked)
	if r.match {
		st.Matched++
	}
	return r.match
}

// countKind counts a decoded frame of kind k and link type lt.
func countKind(st *Stats, k Kind, lt uint16, icrcGood, unchecked bool) {
	switch k {
	case KindRoCE:
		st.RoCE++
	case KindNotRoCE:
		st.NotRoCE++
		return
	case KindMalformed:
		st.Malformed++
		return
	case KindUnsupported:
		st.Unsupported++
		if lt == LinkTypeERF {
			st.UnsupportedERF++
		}
		return
	case KindMACControl:
		st.MACControl++
		return
	case KindInfiniBand:
		st.InfiniBand++
	default:
		return
	}
	if unchecked {
		st.Truncated++
	} else if !icrcGood {
		st.BadICRC++
	}
}

// read is the reader goroutine: it fills batches from the pool in
// capture order and hands each to the workers and to the consumer, until
// the end of the capture, a read error, or quit.
func (p *pipeline) read() {
	defer p.wg.Done()
	p.src.batched = true // fillGuarded checks a mapped file's size per batch
	defer func() { p.src.batched = false }()
	for {
		var b *batch
		select {
		case b = <-p.free:
		case <-p.quit:
			return
		default:
			if p.created < p.pool {
				p.created++
				b = &batch{slots: make([]slot, 0, batchFrames), res: make([]result, batchFrames), data: make([]byte, 0, 64<<10), done: make(chan struct{}, 1)}
				break
			}
			select {
			case b = <-p.free:
			case <-p.quit:
				return
			}
		}
		p.fillGuarded(b)
		// order and work hold the whole pool: these never block.
		p.order <- b
		p.work <- b
		if b.err != nil {
			return
		}
	}
}

// fillGuarded is fill, with a capture file that shrinks under its
// mapping an error of b rather than a crash (NewSourceBytes) or than
// records past its new end (NewSourceMapped: the batch is checked
// against the file's size once it is filled, its bytes copied).
func (p *pipeline) fillGuarded(b *batch) {
	defer p.src.checkShrunk(b)
	defer p.src.unguard(p.src.guard(), &b.err)
	p.fill(b)
}

// fill reads records into b until it is full or reading ends.
func (p *pipeline) fill(b *batch) {
	b.slots, b.data, b.err, b.pan = b.slots[:0], b.data[:0], nil, nil
	for len(b.slots) < batchFrames && len(b.data) < batchBytes {
		data, ci, lt, err := p.src.Next()
		if err != nil {
			if re, ok := err.(*ReadError); ok && !re.Fatal {
				b.slots = append(b.slots, slot{rerr: re, off: p.src.Offset()})
				continue
			}
			b.err = err
			return
		}
		lo := len(b.data)
		b.data = append(b.data, data...)
		b.slots = append(b.slots, slot{ts: ci.Timestamp, number: p.src.Number(), off: p.src.Offset(), length: ci.Length,
			lo: int32(lo), hi: int32(len(b.data)), lt: lt})
	}
}

// decode is a worker goroutine: it decodes the frames of each batch it
// takes, into the batch's Records for Scan or into its own Record for
// Dump, whose lines it appends to the batch's output.
func (p *pipeline) decode() {
	defer p.wg.Done()
	var own Record // Dump and ScanParts: one Record per worker, its clock cache with it
	own.Location, own.Speed, own.Text, own.File = p.opt.Location, p.opt.Speed, p.opt.Text, p.opt.File
	for {
		select {
		case b := <-p.work:
			p.decodeBatch(b, &own)
			b.done <- struct{}{}
		case <-p.quit:
			return
		}
	}
}

func (p *pipeline) decodeBatch(b *batch, own *Record) {
	defer func() {
		if e := recover(); e != nil {
			b.pan = e
		}
	}()
	b.out = b.out[:0]
	if p.newPart != nil {
		if b.part == nil {
			b.part = p.newPart()
		}
		b.part.Reset()
	}
	for len(b.recs) < len(b.slots) && !p.format && p.newPart == nil {
		b.recs = append(b.recs, Record{Location: p.opt.Location, Speed: p.opt.Speed, Text: p.opt.Text, File: p.opt.File})
	}
	for i := range b.slots {
		s, res := &b.slots[i], &b.res[i]
		if s.rerr != nil {
			*res = result{end: int32(len(b.out))}
			continue
		}
		r := own // Dump, and ScanParts, whose parts take what they need of each frame
		if !p.format && p.newPart == nil {
			r = &b.recs[i]
		}
		ci := gopacket.CaptureInfo{Timestamp: s.ts, Length: s.length, CaptureLength: int(s.hi - s.lo)}
		r.Decode(s.number, ci, s.lt, b.data[s.lo:s.hi:s.hi])
		match := p.opt.keep(r)
		if match && b.part != nil {
			b.part.Add(r)
		}
		if match && p.format {
			switch {
			case p.opt.JSON:
				b.out = r.AppendJSON(b.out)
			case p.stamp:
				b.out = r.appendLine(b.out)
			default:
				b.out = r.AppendText(b.out)
				if p.opt.Verbose {
					b.out = r.AppendVerbose(b.out)
				}
			}
		}
		*res = result{time: r.Time, end: int32(len(b.out)), kind: r.Kind, icrcGood: r.ICRCGood, unchecked: r.ICRCUnchecked, match: match}
	}
}
