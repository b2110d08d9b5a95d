package dump

import (
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
)

// The pipeline of Scan and Dump when Options.Workers is not 1: a reader
// goroutine walks the records into batches, worker goroutines decode each
// batch (and for Dump format its matching lines into the batch's
// output), and the calling goroutine takes the batches in capture order
// to count, call the callbacks and fn, and write. A fixed pool of batches
// is recycled, so memory is bounded and nothing is allocated per frame
// once every batch has been used.
//
// A capture held whole in memory (NewSourceBytes, NewSourceMapped; not
// under gzip) is read in place: a slot's bytes are a view of the file's
// mapping, not a copy, and the consumer releases the pages of a mapped
// file (NewSourceMapped) only behind the batches it has finished with,
// and checks the file's size once per batch, after the workers have read
// it, so that a file that shrinks ends with ErrShrank after its last whole
// record as a copy would. Other captures are copied into the batch's data.
const (
	batchFrames       = 256       // records per batch at most
	batchBytes        = 256 << 10 // captured bytes copied per batch before it is handed on
	batchBytesInPlace = 4 << 20   // the same read in place: what the batches in flight keep resident
)

// slot is one record of a batch, as the reader left it: a frame read
// (its bytes in data) or a record that could not be read (rerr).
// Record.Decode uses only the timestamp and the length of the
// CaptureInfo.
type slot struct {
	ts     time.Time
	number int
	off    int64 // Source.Offset after the record was read
	length int   // CaptureInfo.Length
	rerr   *capfile.ReadError
	data   []byte // the captured bytes: a view of the mapping, or of the batch's data
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
	recs  []Record // Merge: the decoded record of each slot
	out   []byte   // Dump: the lines of the matching frames, in order
	err   error    // what ended reading after the slots (io.EOF or a read error), nil if reading goes on
	pan   any      // a worker's panic, raised again by the consumer
	end   int64    // the Source's input read up to here (Source.ReadEnd) once the batch was filled
	off   int64    // the Source's offset once the batch was filled: the records end there
	part  Part     // ScanParts: the matching frames, added by the worker
	done  chan struct{}
}

// pipeline is the state shared by one Scan's goroutines.
type pipeline struct {
	src    *capfile.Source
	opt    *Options
	format bool // Dump: workers format matching frames into batch.out
	// stamp: the lines' times are deltas, which the consumer, in
	// capture order, puts before the lines the workers formatted
	// without them, in lines.
	stamp bool
	lines []byte
	ref   timeRef
	// inPlace: the slots are views of the Source's whole input; recs:
	// each slot keeps its decoded Record (Merge); rec: Scan's Record on
	// the consumer, which decodes a matching frame again for fn (the
	// workers' ICRC result given, not computed again).
	inPlace bool
	recs    bool
	rec     Record
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
func runPipeline(src *capfile.Source, opt *Options, workers int, w io.Writer, fn func(r *Record) error) (st Stats, err error) {
	return runPipelineParts(startPipeline(src, opt, workers, fn == nil, nil), w, fn, nil)
}

// runPipelineParts is runPipeline on p, with partFn called on each
// batch's part (ScanParts) after fn on its records.
func runPipelineParts(p *pipeline, w io.Writer, fn func(r *Record) error, partFn func(Part) error) (st Stats, err error) {
	opt := p.opt
	p.partFn = partFn
	defer p.stop()
	// In place, fn's Records and the parts' frames are views of the
	// mapping: a fault on it (the file cut shorter) is ErrShrank here
	// too. The deferred stop runs after: the goroutines end either way.
	defer p.src.UnguardViews(p.src.Guard(), &err)
	for {
		b := <-p.order // the reader sends every batch up to the last
		<-b.done
		if b.pan != nil {
			panic(b.pan)
		}
		if p.inPlace {
			p.checkShrunk(b, false) // after the workers read the batch, before anything of it is handed on
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
		if p.inPlace {
			p.src.ReleaseTo(b.off) // every batch before the next is done with
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
			r := &p.rec
			s := &b.slots[i]
			r.icrcKnown, r.icrcWas, r.ULP = true, res.icrcGood, opt.ULP
			r.Decode(s.number, gopacket.CaptureInfo{Timestamp: s.ts, Length: s.length, CaptureLength: len(s.data)}, s.lt, s.data)
			if ferr = fn(r); ferr != nil {
				return out, last, false, ferr
			}
			continue
		}
		if p.stamp {
			if opt.Text.Number {
				out = appendNumber(out, b.slots[i].number)
			}
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
func startPipeline(src *capfile.Source, opt *Options, workers int, format bool, newPart func() Part) *pipeline {
	return startPipelineRecs(src, opt, workers, format, newPart, false)
}

// startPipelineRecs is startPipeline, with recs asking for a decoded
// Record kept in each slot (Merge, which takes frames of several
// pipelines in its own order), read from copies.
func startPipelineRecs(src *capfile.Source, opt *Options, workers int, format bool, newPart func() Part, recs bool) *pipeline {
	p := &pipeline{src: src, opt: opt, format: format, pool: 2*workers + 2, newPart: newPart, recs: recs}
	p.inPlace = !recs && src.InPlace()
	p.stamp = format && !opt.JSON && opt.Fields == nil && opt.Text.Time.delta()
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
		if lt == capfile.LinkTypeERF {
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
	p.src.Pipelined(true, p.inPlace) // a mapped file's size is checked per batch (checkShrunk)
	defer p.src.Pipelined(false, false)
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
		last := b.err != nil // b is the consumer's once sent
		// order and work hold the whole pool: these never block.
		p.order <- b
		p.work <- b
		if last {
			return
		}
	}
}

// fillGuarded is fill, with a capture file that shrinks under its
// mapping an error of b rather than a crash (NewSourceBytes) or than
// records past its new end (NewSourceMapped: the batch is checked
// against the file's size once it is filled, its bytes copied).
func (p *pipeline) fillGuarded(b *batch) {
	if !p.inPlace {
		defer p.checkShrunk(b, true)
	}
	defer p.src.Unguard(p.src.Guard(), &b.err)
	p.fill(b)
}

// checkShrunk is the check of batch b of a mapped file (the Source
// leaves it to the pipeline, see Source.Pipelined): if the file is now
// shorter than what was read, the records past its end are dropped and
// reading ends with ErrShrank. One look at the file's size per batch,
// after its bytes were read: by the reader once it has copied them
// (reader true: the Source then ends too), or by the consumer once the
// workers have read them in place.
func (p *pipeline) checkShrunk(b *batch, reader bool) {
	n, shrunk := p.src.Shrunk(b.end, reader)
	if !shrunk {
		return
	}
	k := 0
	for k < len(b.slots) && b.slots[k].off <= n {
		k++
	}
	b.slots = b.slots[:k]
	b.err = capfile.ErrShrank
}

// fill reads records into b until it is full or reading ends.
func (p *pipeline) fill(b *batch) {
	b.slots, b.data, b.err, b.pan = b.slots[:0], b.data[:0], nil, nil
	defer func() {
		b.off, b.end = p.src.Offset(), p.src.ReadEnd()
	}()
	if p.inPlace {
		for n := 0; len(b.slots) < batchFrames && n < batchBytesInPlace; {
			data, ci, lt, err := p.src.Next()
			if err != nil {
				if re, ok := err.(*capfile.ReadError); ok && !re.Fatal {
					b.slots = append(b.slots, slot{rerr: re, off: p.src.Offset()})
					continue
				}
				b.err = err
				return
			}
			n += len(data)
			b.slots = append(b.slots, slot{ts: ci.Timestamp, number: p.src.Number(), off: p.src.Offset(), length: ci.Length,
				data: data[:len(data):len(data)], lt: lt})
		}
		return
	}
	defer func() { // the views of the copies, once they have stopped moving
		lo := 0
		for i := range b.slots {
			if s := &b.slots[i]; s.rerr == nil {
				n := len(s.data)
				s.data = b.data[lo : lo+n : lo+n]
				lo += n
			}
		}
	}()
	for len(b.slots) < batchFrames && len(b.data) < batchBytes {
		data, ci, lt, err := p.src.Next()
		if err != nil {
			if re, ok := err.(*capfile.ReadError); ok && !re.Fatal {
				b.slots = append(b.slots, slot{rerr: re, off: p.src.Offset()})
				continue
			}
			b.err = err
			return
		}
		b.data = append(b.data, data...)
		b.slots = append(b.slots, slot{ts: ci.Timestamp, number: p.src.Number(), off: p.src.Offset(), length: ci.Length,
			data: data, lt: lt}) // data: its length until the copies stop moving
	}
}

// decode is a worker goroutine: it decodes the frames of each batch it
// takes, into the batch's Records for Scan or into its own Record for
// Dump, whose lines it appends to the batch's output.
func (p *pipeline) decode() {
	defer p.wg.Done()
	var own Record             // Dump and ScanParts: one Record per worker
	txt := p.opt.TextOptions() // and the settings of its lines, with their caches
	js := JSONOptions{File: p.opt.File}
	for {
		select {
		case b := <-p.work:
			p.decodeBatch(b, &own, &txt, &js)
			b.done <- struct{}{}
		case <-p.quit:
			return
		}
	}
}

func (p *pipeline) decodeBatch(b *batch, own *Record, txt *TextOptions, js *JSONOptions) {
	i := 0
	if p.inPlace {
		// A fault on the mapping (the file cut shorter) ends the batch
		// before the frame that faulted; the consumer's look at the
		// file's size gives ErrShrank.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	defer func() {
		if e := recover(); e != nil {
			if f, ok := e.(interface{ Addr() uintptr }); ok && f != nil && p.inPlace {
				b.slots, b.err = b.slots[:i], capfile.ErrShrank
				return
			}
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
	for len(b.recs) < len(b.slots) && p.recs {
		b.recs = append(b.recs, Record{})
	}
	for ; i < len(b.slots); i++ {
		s, res := &b.slots[i], &b.res[i]
		if s.rerr != nil {
			*res = result{end: int32(len(b.out))}
			continue
		}
		r := own // Dump, ScanParts, whose parts take what they need of each frame, and Scan, whose consumer decodes again
		if p.recs {
			r = &b.recs[i]
		}
		ci := gopacket.CaptureInfo{Timestamp: s.ts, Length: s.length, CaptureLength: len(s.data)}
		r.ULP = p.opt.ULP
		r.Decode(s.number, ci, s.lt, s.data)
		match := p.opt.keep(r)
		if match && b.part != nil {
			b.part.Add(r)
		}
		if match && p.format {
			switch {
			case p.opt.Fields != nil:
				b.out = p.opt.Fields.AppendFields(b.out, r)
			case p.opt.JSON:
				b.out = js.AppendJSON(b.out, r)
			case p.stamp: // the consumer puts the time (and number) first
				b.out = r.appendLine(b.out, txt)
			default:
				b.out = txt.AppendText(b.out, r)
			}
			if !p.opt.JSON && p.opt.Fields == nil && p.opt.Verbose {
				b.out = r.AppendVerbose(b.out)
			}
		}
		*res = result{time: r.Time, end: int32(len(b.out)), kind: r.Kind, icrcGood: r.ICRCGood, unchecked: r.ICRCUnchecked, match: match}
	}
}
