package smbd

import "github.com/roce-go/roce/internal/errs"

// Reassembler puts together the SMB2 message that a sender split over
// several data transfer messages (MS-SMBD 3.1.5.2 and 3.1.5.4): the
// first fragment's RemainingDataLength says how many bytes are still to
// come, each later one's is the previous one's less its own DataLength,
// and the fragment whose RemainingDataLength is 0 ends the message. A
// message longer than Max is refused, so that the buffer stays bounded.
// One Reassembler serves one direction of one connection; the zero
// value is ready, with Max DefaultMaxFragmentedSize.
//
// Once its buffer has grown to the longest message it holds, a
// Reassembler allocates nothing: an unfragmented message it returns as
// it was given, without a copy.
type Reassembler struct {
	// Max is the longest message accepted, the MaxFragmentedSize the
	// receiver announced; 0 means DefaultMaxFragmentedSize.
	Max int

	buf       []byte
	remaining uint32 // the RemainingDataLength the next fragment's data must reduce to
	busy      bool   // a fragmented message is under way
}

var (
	errTooLong   = errs.Kind(errs.ErrBadLength, "SMB Direct reassembly: the message is longer than the bound")
	errRemaining = errs.Kind(errs.ErrBadLength, "SMB Direct reassembly: a fragment's RemainingDataLength disagrees with the one before")
)

func (r *Reassembler) max() int {
	if r.Max > 0 {
		return r.Max
	}
	return DefaultMaxFragmentedSize
}

// Add takes the next data transfer message of the direction, its header
// h and its data (DataTransfer.Data), and returns the SMB2 message when
// that message is complete: data itself for a message that was not
// fragmented, else the Reassembler's buffer, valid until the next call.
// It returns nil while a message is incomplete and for a message without
// data (credits or a keep-alive), which leaves a message under way as it
// is. A fragment that does not continue the message under way, or a
// message longer than Max, is refused with an error matching
// ErrBadLength; the message under way is dropped, and the next
// fragment starts afresh.
func (r *Reassembler) Add(h *DataTransfer, data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, nil
	}
	if !r.busy {
		if h.RemainingDataLength == 0 {
			if len(data) > r.max() {
				return nil, errTooLong
			}
			return data, nil
		}
		if uint64(len(data))+uint64(h.RemainingDataLength) > uint64(r.max()) {
			return nil, errTooLong
		}
		r.buf = append(r.buf[:0], data...)
		r.remaining, r.busy = h.RemainingDataLength, true
		return nil, nil
	}
	if uint64(h.RemainingDataLength)+uint64(len(data)) != uint64(r.remaining) {
		r.Reset()
		return nil, errRemaining
	}
	r.buf = append(r.buf, data...)
	r.remaining = h.RemainingDataLength
	if r.remaining != 0 {
		return nil, nil
	}
	r.busy = false
	return r.buf, nil
}

// Pending returns the bytes of the message under way that have arrived,
// and the bytes still to come; 0, 0 when none is.
func (r *Reassembler) Pending() (have, want int) {
	if !r.busy {
		return 0, 0
	}
	return len(r.buf), int(r.remaining)
}

// Reset drops the message under way, keeping the buffer.
func (r *Reassembler) Reset() { r.buf, r.remaining, r.busy = r.buf[:0], 0, false }
