package dump

import (
	"strconv"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/internal/errs"
)

// WriteRecord writes the frame r was decoded from to w, as
// capfile.Writer.WriteFrame does (its bytes, its length on the wire,
// its time and its link type); an error names the frame ("roce: frame
// N: ...").
func WriteRecord(w *capfile.Writer, r *Record) error {
	if err := w.WriteFrame(r.Data, r.Len, r.Time, r.LinkType); err != nil {
		return errs.Context("frame "+strconv.Itoa(r.Number), err)
	}
	return nil
}
