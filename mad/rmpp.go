package mad

// RMPPLen is the size of the RMPP header.
const RMPPLen = 12

// RMPP is the reliable multi-packet transaction protocol header (IBTA
// Vol 1, 13.6.2), bytes 24-35 of a MAD of a class that uses RMPP (SA, the
// vendor classes 0x30-0x4F), whether the transfer is active or not:
//
//	+---------------+---------------+---------+-----+---------------+
//	|  RMPPVersion  |   RMPPType    |RRespTime|Flags|  RMPPStatus   |
//	+---------------+---------------+---------+-----+---------------+
//	|          Data1: SegmentNumber (DATA, ACK), reserved           |
//	+---------------------------------------------------------------+
//	|   Data2: PayloadLength (DATA), NewWindowLast (ACK), reserved  |
//	+---------------------------------------------------------------+
//
// RMPPVersion 0 (and RMPPFlags without Active) means the MAD is not part
// of an RMPP transfer.
type RMPP struct {
	RMPPVersion uint8 // 1; 0 when RMPP is not in use
	RMPPType    uint8 // RMPPTypeData, ...
	RRespTime   uint8 // response time value, 5 bits
	RMPPFlags   uint8 // RMPPActive | RMPPFirst | RMPPLast, 3 bits
	RMPPStatus  uint8 // RMPPStatusNormal, ...
	Data1       uint32
	Data2       uint32
}

// RMPP types.
const (
	RMPPTypeData  = 1
	RMPPTypeAck   = 2
	RMPPTypeStop  = 3
	RMPPTypeAbort = 4
)

// RMPP flags.
const (
	RMPPActive = 1 << 0
	RMPPFirst  = 1 << 1
	RMPPLast   = 1 << 2
)

// RMPP status codes (IBTA Vol 1, Table 172).
const (
	RMPPStatusNormal           = 0
	RMPPStatusResources        = 1   // resources exhausted
	RMPPStatusTotalTime        = 118 // total time too long
	RMPPStatusInconsistentLast = 119 // inconsistent last and payload length
	RMPPStatusInconsistentFrst = 120 // inconsistent first and segment number
	RMPPStatusBadType          = 121 // bad RMPPType
	RMPPStatusWindowTooSmall   = 122 // NewWindowLast too small
	RMPPStatusSegmentTooBig    = 123 // SegmentNumber too big
	RMPPStatusIllegal          = 124 // illegal status
	RMPPStatusVersion          = 125 // unsupported version
	RMPPStatusRetries          = 126 // too many retries
	RMPPStatusUnspecified      = 127 // unspecified
)

var rmppTypeNames = [...]string{"", "DATA", "ACK", "STOP", "ABORT"}

// TypeName returns "DATA", "ACK", "STOP" or "ABORT", "" for type 0 (not
// RMPP) and others.
func (r *RMPP) TypeName() string {
	if int(r.RMPPType) < len(rmppTypeNames) {
		return rmppTypeNames[r.RMPPType]
	}
	return ""
}

// Active reports whether the MAD is part of an RMPP transfer.
func (r *RMPP) Active() bool { return r.RMPPVersion != 0 && r.RMPPFlags&RMPPActive != 0 }

// SegmentNumber returns Data1 of a DATA or ACK packet, 0 for the others.
func (r *RMPP) SegmentNumber() uint32 {
	if r.RMPPType == RMPPTypeData || r.RMPPType == RMPPTypeAck {
		return r.Data1
	}
	return 0
}

// PayloadLength returns Data2 of a DATA packet (in the first segment the
// length of the whole transfer, in the last the bytes it holds), 0 for
// the others.
func (r *RMPP) PayloadLength() uint32 {
	if r.RMPPType == RMPPTypeData {
		return r.Data2
	}
	return 0
}

// NewWindowLast returns Data2 of an ACK, 0 for the others.
func (r *RMPP) NewWindowLast() uint32 {
	if r.RMPPType == RMPPTypeAck {
		return r.Data2
	}
	return 0
}

func (r *RMPP) walk(c codec) error {
	c.u8(&r.RMPPVersion, "RMPPVersion", 0, 0, 8)
	c.u8(&r.RMPPType, "RMPPType", 1, 0, 8)
	c.u8(&r.RRespTime, "RRespTime", 2, 0, 5)
	c.u8(&r.RMPPFlags, "RMPPFlags", 2, 5, 3)
	c.u8(&r.RMPPStatus, "RMPPStatus", 3, 0, 8)
	c.u32(&r.Data1, "Data1", 4, 0, 32)
	c.u32(&r.Data2, "Data2", 8, 0, 32)
	return c.err
}

// Decode decodes the header from the start of b (the bytes after the
// common MAD header), resetting r first. Fewer than RMPPLen bytes give an
// *Error wrapping ErrTruncated.
func (r *RMPP) Decode(b []byte) error {
	*r = RMPP{}
	return decodeWalker(b, "RMPP", RMPPLen, r)
}

// Len returns RMPPLen, the bytes AppendTo writes.
func (r *RMPP) Len() int { return RMPPLen }

// Validate reports a field wider than its bits, as a *FieldError
// wrapping ErrBadValue.
func (r *RMPP) Validate() error {
	var tmp [RMPPLen]byte
	return r.walk(codec{b: tmp[:], enc: true, name: "RMPP"})
}

// AppendTo appends the 12-byte header to b, refusing (and appending
// nothing) what Validate refuses.
func (r *RMPP) AppendTo(b []byte) ([]byte, error) { return appendWalker(b, "RMPP", RMPPLen, r) }
