package dump

import "github.com/roce-go/roce/capfile"

// Part is what ScanParts builds on the goroutines that decode: the
// matching frames of a run of consecutive frames of the capture, in a
// form of the caller's (a batch of rows of a table, for example), so
// that the work of each frame is done beside its decoding, in parallel,
// rather than on the goroutine that takes the frames in order.
type Part interface {
	// Add adds a matching frame, after those added since Reset. The
	// Record is only valid during the call.
	Add(r *Record)
	// Reset empties the part, to be filled again.
	Reset()
}

// partFrames is the most frames ScanParts adds to a part with
// opt.Workers 1 or opt.Count set, as the pipeline's batches hold.
const partFrames = batchFrames

// ScanParts is Scan, for callers whose work on each frame is better done
// where it is decoded: it calls Add, on the decoding goroutines, on a
// part made by newPart for each of the matching frames of a run of up
// to 256 consecutive frames, then fn with the part, on the calling
// goroutine, in capture order; fn may keep nothing of it, which is
// Reset and filled again after fn returns. Parts are made as the
// pipeline needs them (a few per decoding goroutine) and reused. The
// Stats, Progress and Unreadable are Scan's.
// With opt.Workers 1, or opt.Count set (a part would hold frames past
// the count), the frames are decoded and added on the calling
// goroutine, to one part.
func ScanParts(src *capfile.Source, opt Options, newPart func() Part, fn func(p Part) error) (Stats, error) {
	if w := opt.workers(); w > 1 && opt.Count == 0 {
		p := startPipeline(src, &opt, w, false, newPart)
		return runPipelineParts(p, nil, nil, fn)
	}
	part, n := newPart(), 0
	var ferr error
	st, err := Scan(src, opt, func(r *Record) error {
		part.Add(r)
		if n++; n < partFrames {
			return nil
		}
		ferr = fn(part)
		part.Reset()
		n = 0
		return ferr
	})
	if ferr == nil && n > 0 { // the frames before the end, a read error's too
		if ferr = fn(part); err == nil {
			err = ferr
		}
	}
	return st, err
}
