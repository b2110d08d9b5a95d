package dump

import (
	"io"
	"time"
)

// Options says how Dump prints.
type Options struct {
	JSON     bool           // JSON Lines instead of text
	Location *time.Location // time zone of text timestamps; nil means UTC
}

// Stats counts the frames Dump printed, by kind.
type Stats struct {
	Frames      int // every frame read
	RoCE        int // RoCE frames decoded
	BadICRC     int // of those, frames whose ICRC does not match
	NotRoCE     int // well-formed frames that are not RoCE
	Malformed   int // RoCE frames that did not decode
	Unsupported int // frames of a link type other than Ethernet
}

// Dump reads every frame of src and writes one line per frame to w, text
// or JSON. It stops at the end of the capture, returning a nil error, or
// at the first read or write error, which it returns after writing every
// frame read before it: io.ErrUnexpectedEOF means the capture is cut
// short. Give it a buffered writer: it writes once per frame. It
// allocates nothing per frame in steady state, except for malformed
// frames.
func Dump(w io.Writer, src *Source, opt Options) (Stats, error) {
	var st Stats
	var rec Record
	rec.Location = opt.Location
	buf := make([]byte, 0, 4096)
	for {
		data, ci, lt, err := src.Next()
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			return st, err
		}
		st.Frames++
		rec.Decode(st.Frames, ci, lt, data)
		switch rec.Kind {
		case KindRoCE:
			st.RoCE++
			if !rec.ICRCGood {
				st.BadICRC++
			}
		case KindNotRoCE:
			st.NotRoCE++
		case KindMalformed:
			st.Malformed++
		case KindUnsupported:
			st.Unsupported++
		}
		if opt.JSON {
			buf = rec.AppendJSON(buf[:0])
		} else {
			buf = rec.AppendText(buf[:0])
		}
		if _, err := w.Write(buf); err != nil {
			return st, err
		}
	}
}
