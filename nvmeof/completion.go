package nvmeof

import "github.com/roce-go/roce/internal/errs"

// CompletionLen is the length of a response capsule's completion: one
// completion queue entry.
const CompletionLen = 16

// Completion is a completion queue entry, the response capsule of a
// command (NVMe Base 2.0, 4.2.1; NVMe-oF 1.1, 2.2):
//
//	bytes 0-3   DW0     command specific result
//	bytes 4-7   DW1     command specific result (reserved for most)
//	bytes 8-9   SQHD    submission queue head pointer
//	bytes 10-11 SQID    submission queue identifier
//	bytes 12-13 CID     the command's identifier
//	bytes 14-15 P (bit 0) and the status field (bits 15:1): SC bits 8:1,
//	            SCT bits 11:9, CRD bits 13:12, M bit 14, DNR bit 15
type Completion struct {
	DW0    uint32
	DW1    uint32
	SQHD   uint16
	SQID   uint16
	CID    uint16
	Phase  bool
	Status Status
}

// Status is the status field of a completion: bits 15:1 of its last two
// bytes, shifted down one.
type Status uint16

// SC returns the status code.
func (s Status) SC() uint8 { return uint8(s) }

// SCT returns the status code type: 0 generic, 1 command specific, 2
// media and data integrity errors, 3 path related, 7 vendor specific.
func (s Status) SCT() uint8 { return uint8(s>>8) & 7 }

// CRD returns the command retry delay (0 to 3).
func (s Status) CRD() uint8 { return uint8(s>>11) & 3 }

// More reports M: more status information in the Error Information log.
func (s Status) More() bool { return s>>13&1 != 0 }

// DNR reports Do Not Retry.
func (s Status) DNR() bool { return s>>14&1 != 0 }

// OK reports whether the command succeeded: SCT 0, SC 0.
func (s Status) OK() bool { return s.SC() == 0 && s.SCT() == 0 }

// Name returns the name of the status code under its type, "" for one
// this package does not name. fabrics says that the command was a
// Fabrics command, whose command specific codes are its own.
func (s Status) Name(fabrics bool) string {
	switch s.SCT() {
	case 0:
		return genericStatus[s.SC()]
	case 1:
		if fabrics {
			return fabricsStatus[s.SC()]
		}
		return commandStatus[s.SC()]
	case 2:
		return mediaStatus[s.SC()]
	case 3:
		return pathStatus[s.SC()]
	}
	return ""
}

// TypeName returns the name of the status code type.
func (s Status) TypeName() string { return statusTypes[s.SCT()] }

var errCompletionCut = errs.TruncatedTable("NVMe completion", 0, CompletionLen)

// Decode reads the completion at the start of b.
func (c *Completion) Decode(b []byte) error {
	if len(b) < CompletionLen {
		*c = Completion{}
		return errCompletionCut[len(b)]
	}
	w := le.Uint16(b[14:])
	*c = Completion{DW0: le.Uint32(b), DW1: le.Uint32(b[4:]), SQHD: le.Uint16(b[8:]), SQID: le.Uint16(b[10:]),
		CID: le.Uint16(b[12:]), Phase: w&1 != 0, Status: Status(w >> 1)}
	return nil
}

// Len returns CompletionLen.
func (c *Completion) Len() int { return CompletionLen }

// Validate reports a status field wider than its 15 bits.
func (c *Completion) Validate() error { return errs.Fit("Completion.Status", uint64(c.Status), 15) }

// AppendTo appends the completion's 16 bytes to b.
func (c *Completion) AppendTo(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	b = le.AppendUint32(b, c.DW0)
	b = le.AppendUint32(b, c.DW1)
	b = le.AppendUint16(b, c.SQHD)
	b = le.AppendUint16(b, c.SQID)
	b = le.AppendUint16(b, c.CID)
	w := uint16(c.Status) << 1
	if c.Phase {
		w |= 1
	}
	return le.AppendUint16(b, w), nil
}
