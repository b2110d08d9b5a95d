package nvmeof

import (
	"bytes"

	"github.com/roce-go/roce/internal/errs"
)

// The RDMA-CM private data of the NVMe/RDMA transport binding (NVMe/RDMA
// 1.0, 3.3): what a host puts in the private data of its CM REQ for a
// queue, what the controller answers in its REP or REJ. In a CM REQ of
// RDMA-CM it follows the 36-byte IP-CM header (package mad,
// mad.IPCM), in a REP and a REJ it is the private data itself.

// CMRequestLen, CMAcceptLen and CMRejectLen are the lengths of the
// private data structures.
const (
	CMRequestLen = 32
	CMAcceptLen  = 32
	CMRejectLen  = 4
)

// CMRequest is RDMA_CM_REQUEST, the private data of a host's CM REQ:
//
//	bytes 0-1  RECFMT   record format, 0
//	bytes 2-3  QID      the queue: 0 the admin queue
//	bytes 4-5  HRQSIZE  host receive queue size
//	bytes 6-7  HSQSIZE  host send queue size
//	bytes 8-9  CNTLID   the controller (NVMe-oF 1.1), 0xffff for any
//	bytes 10-31 reserved
type CMRequest struct {
	RecFmt  uint16
	QID     uint16
	HRQSize uint16
	HSQSize uint16
	CntlID  uint16
	Rsvd    [22]byte // kept for byte-exact re-encoding
}

// CMAccept is RDMA_CM_ACCEPT, the private data of the controller's CM REP:
//
//	bytes 0-1  RECFMT   record format, 0
//	bytes 2-3  CRQSIZE  controller receive queue size
//	bytes 4-31 reserved
type CMAccept struct {
	RecFmt  uint16
	CRQSize uint16
	Rsvd    [28]byte // kept for byte-exact re-encoding
}

// CMReject is RDMA_CM_REJECT, the private data of the controller's CM REJ:
//
//	bytes 0-1  RECFMT  record format, 0
//	bytes 2-3  STS     why (CMRejectStatus)
type CMReject struct {
	RecFmt uint16
	Status CMRejectStatus
}

// CMRejectStatus says why a controller rejected a queue's connection.
type CMRejectStatus uint16

// String returns the status's name (NVMe/RDMA 1.0, Figure 7), or "" for
// one it does not define.
func (s CMRejectStatus) String() string {
	if int(s) < len(cmRejectStatus) {
		return cmRejectStatus[s]
	}
	return ""
}

var cmRejectStatus = [...]string{
	1: "Invalid private data length",
	2: "Invalid RECFMT",
	3: "Invalid QID",
	4: "Invalid HSQSIZE",
	5: "Invalid HRQSIZE",
	6: "No resources",
	7: "Invalid IRD",
	8: "Invalid ORD",
	9: "Invalid controller ID",
}

var (
	errCMRequestCut = errs.TruncatedTable("NVMe/RDMA CM request", 0, CMRequestLen)
	errCMAcceptCut  = errs.TruncatedTable("NVMe/RDMA CM accept", 0, CMAcceptLen)
	errCMRejectCut  = errs.TruncatedTable("NVMe/RDMA CM reject", 0, CMRejectLen)
)

// Decode reads the structure at the start of b.
func (r *CMRequest) Decode(b []byte) error {
	if len(b) < CMRequestLen {
		*r = CMRequest{}
		return errCMRequestCut[len(b)]
	}
	*r = CMRequest{RecFmt: le.Uint16(b), QID: le.Uint16(b[2:]), HRQSize: le.Uint16(b[4:]), HSQSize: le.Uint16(b[6:]), CntlID: le.Uint16(b[8:])}
	copy(r.Rsvd[:], b[10:CMRequestLen])
	return nil
}

// Len returns CMRequestLen.
func (r *CMRequest) Len() int { return CMRequestLen }

// AppendTo appends the 32 bytes. Every value encodes: the error is nil.
func (r *CMRequest) AppendTo(b []byte) ([]byte, error) {
	for _, v := range [...]uint16{r.RecFmt, r.QID, r.HRQSize, r.HSQSize, r.CntlID} {
		b = le.AppendUint16(b, v)
	}
	return append(b, r.Rsvd[:]...), nil
}

// Decode reads the structure at the start of b.
func (a *CMAccept) Decode(b []byte) error {
	if len(b) < CMAcceptLen {
		*a = CMAccept{}
		return errCMAcceptCut[len(b)]
	}
	*a = CMAccept{RecFmt: le.Uint16(b), CRQSize: le.Uint16(b[2:])}
	copy(a.Rsvd[:], b[4:CMAcceptLen])
	return nil
}

// Len returns CMAcceptLen.
func (a *CMAccept) Len() int { return CMAcceptLen }

// AppendTo appends the 32 bytes. Every value encodes: the error is nil.
func (a *CMAccept) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint16(le.AppendUint16(b, a.RecFmt), a.CRQSize)
	return append(b, a.Rsvd[:]...), nil
}

// Decode reads the structure at the start of b.
func (j *CMReject) Decode(b []byte) error {
	if len(b) < CMRejectLen {
		*j = CMReject{}
		return errCMRejectCut[len(b)]
	}
	*j = CMReject{RecFmt: le.Uint16(b), Status: CMRejectStatus(le.Uint16(b[2:]))}
	return nil
}

// Len returns CMRejectLen.
func (j *CMReject) Len() int { return CMRejectLen }

// AppendTo appends the 4 bytes. Every value encodes: the error is nil.
func (j *CMReject) AppendTo(b []byte) ([]byte, error) {
	return le.AppendUint16(le.AppendUint16(b, j.RecFmt), uint16(j.Status)), nil
}

// ConnectDataLen is the length of a Connect command's data.
const ConnectDataLen = 1024

// nqnLen is the room of an NQN in the Connect data: 256 bytes, the NQN
// and a NUL, or the NQN alone when it fills them (which the decoder
// reads as the whole field, so the builder writes it back).
const nqnLen = 256

// ConnectData is the data of a Connect command (NVMe-oF 1.1, Figure 20),
// in its capsule or moved by RDMA READ:
//
//	bytes 0-15    HOSTID   the host identifier
//	bytes 16-17   CNTLID   the controller asked for (0xffff: any, 0xfffe: static)
//	bytes 256-511 SUBNQN   the subsystem's NVMe Qualified Name, NUL-terminated
//	bytes 512-767 HOSTNQN  the host's, NUL-terminated
//
// the rest reserved (zero when built). The NQNs alias the decoded bytes.
type ConnectData struct {
	HostID  [16]byte
	CntlID  uint16
	SubNQN  []byte
	HostNQN []byte
}

var errConnectDataCut = errs.TruncatedTable("NVMe Connect data", 0, ConnectDataLen)

// Decode reads the Connect data at the start of b.
func (d *ConnectData) Decode(b []byte) error {
	if len(b) < ConnectDataLen {
		*d = ConnectData{}
		return errConnectDataCut[len(b)]
	}
	*d = ConnectData{CntlID: le.Uint16(b[16:]), SubNQN: nqn(b[256:512]), HostNQN: nqn(b[512:768])}
	copy(d.HostID[:], b)
	return nil
}

// nqn returns an NQN field up to its first NUL.
func nqn(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i:i]
	}
	return b[:len(b):len(b)]
}

// Len returns ConnectDataLen.
func (d *ConnectData) Len() int { return ConnectDataLen }

// Validate reports an NQN too long for its field (256 bytes) or holding
// a NUL.
func (d *ConnectData) Validate() error {
	for _, f := range []struct {
		name string
		v    []byte
	}{{"ConnectData.SubNQN", d.SubNQN}, {"ConnectData.HostNQN", d.HostNQN}} {
		if len(f.v) > nqnLen || bytes.IndexByte(f.v, 0) >= 0 {
			return &errs.FieldError{Field: f.name, Text: string(f.v), Reason: "is longer than 256 bytes or holds a NUL", Err: errs.ErrBadValue}
		}
	}
	return nil
}

// AppendTo appends the 1024 bytes of the Connect data.
func (d *ConnectData) AppendTo(b []byte) ([]byte, error) {
	if err := d.Validate(); err != nil {
		return b, err
	}
	start := len(b)
	b = append(b, make([]byte, ConnectDataLen)...)
	out := b[start:]
	copy(out, d.HostID[:])
	le.PutUint16(out[16:], d.CntlID)
	copy(out[256:], d.SubNQN)
	copy(out[512:], d.HostNQN)
	return b, nil
}
