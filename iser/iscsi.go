package iser

import (
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// BHSLen is the length of an iSCSI basic header segment.
const BHSLen = 48

// ISCSIOpcode is an iSCSI PDU's opcode, the low six bits of its first
// byte (RFC 7143, 11.2.1.2).
type ISCSIOpcode uint8

// The iSCSI opcodes: the initiator's (0x00 to 0x1f) and the target's
// (0x20 to 0x3f).
const (
	OpNOPOut         ISCSIOpcode = 0x00
	OpSCSICommand    ISCSIOpcode = 0x01
	OpTaskRequest    ISCSIOpcode = 0x02
	OpLoginRequest   ISCSIOpcode = 0x03
	OpTextRequest    ISCSIOpcode = 0x04
	OpDataOut        ISCSIOpcode = 0x05
	OpLogoutRequest  ISCSIOpcode = 0x06
	OpSNACKRequest   ISCSIOpcode = 0x10
	OpNOPIn          ISCSIOpcode = 0x20
	OpSCSIResponse   ISCSIOpcode = 0x21
	OpTaskResponse   ISCSIOpcode = 0x22
	OpLoginResponse  ISCSIOpcode = 0x23
	OpTextResponse   ISCSIOpcode = 0x24
	OpDataIn         ISCSIOpcode = 0x25
	OpLogoutResponse ISCSIOpcode = 0x26
	OpR2T            ISCSIOpcode = 0x31
	OpAsyncMessage   ISCSIOpcode = 0x32
	OpReject         ISCSIOpcode = 0x3f
)

// iscsiOpcodeNames are the opcodes' names, as RFC 7143 gives them.
var iscsiOpcodeNames = [64]string{
	OpNOPOut: "NOP-Out", OpSCSICommand: "SCSI Command", OpTaskRequest: "Task Management Function Request",
	OpLoginRequest: "Login Request", OpTextRequest: "Text Request", OpDataOut: "SCSI Data-Out",
	OpLogoutRequest: "Logout Request", OpSNACKRequest: "SNACK Request", OpNOPIn: "NOP-In",
	OpSCSIResponse: "SCSI Response", OpTaskResponse: "Task Management Function Response",
	OpLoginResponse: "Login Response", OpTextResponse: "Text Response", OpDataIn: "SCSI Data-In",
	OpLogoutResponse: "Logout Response", OpR2T: "Ready To Transfer", OpAsyncMessage: "Asynchronous Message",
	OpReject: "Reject",
}

// String returns the opcode's name, or "ISCSIOpcode(0xNN)".
func (o ISCSIOpcode) String() string {
	if o < 64 && iscsiOpcodeNames[o] != "" {
		return iscsiOpcodeNames[o]
	}
	return "ISCSIOpcode(0x" + strconv.FormatUint(uint64(o), 16) + ")"
}

// Name returns the opcode's name, "" for one not named; unlike String
// it allocates nothing.
func (o ISCSIOpcode) Name() string {
	if o < 64 {
		return iscsiOpcodeNames[o]
	}
	return ""
}

// Target reports whether the target sends PDUs of this opcode.
func (o ISCSIOpcode) Target() bool { return o&0x20 != 0 }

// The flags of byte 1 of a BHS: F for every PDU; the others by opcode.
const (
	FlagFinal    = 0x80 // F: the last PDU of a sequence (or the command's last data)
	FlagRead     = 0x40 // SCSI Command: R, data from the target
	FlagWrite    = 0x20 // SCSI Command: W, data to the target
	FlagAck      = 0x40 // SCSI Data-In: A, acknowledge requested
	FlagBidiOver = 0x10 // SCSI Response: o, bidirectional read residual overflow
	FlagBidiUnd  = 0x08 // SCSI Response: u, bidirectional read residual underflow
	FlagOver     = 0x04 // SCSI Response, Data-In: O, residual overflow
	FlagUnder    = 0x02 // SCSI Response, Data-In: U, residual underflow
	FlagStatus   = 0x01 // SCSI Data-In: S, the PDU carries the command's status
)

// BHS is an iSCSI basic header segment (RFC 7143, 11.2.1), the first 48
// bytes of every PDU:
//
//	byte  0     I (bit 6, immediate delivery) and the opcode (bits 5:0)
//	byte  1     F (bit 7) and the opcode's flags
//	bytes 2-3   opcode specific (SCSI Response: response and status)
//	byte  4     TotalAHSLength, in 4-byte words
//	bytes 5-7   DataSegmentLength
//	bytes 8-15  LUN, or opcode specific
//	bytes 16-19 Initiator Task Tag
//	bytes 20-47 opcode specific: the 32-bit fields the accessors read,
//	            and the SCSI Command's CDB in bytes 32-47
type BHS struct {
	Immediate         bool
	Opcode            ISCSIOpcode
	Flags             uint8
	Specific          [2]byte
	TotalAHSLength    uint8
	DataSegmentLength uint32 // 24 bits
	LUN               uint64
	ITT               uint32
	Rest              [28]byte // bytes 20-47
}

var errBHSCut = errs.TruncatedTable("iSCSI BHS", 0, BHSLen)

// Decode reads the basic header segment at the start of b.
func (h *BHS) Decode(b []byte) error {
	if len(b) < BHSLen {
		*h = BHS{}
		return errBHSCut[len(b)]
	}
	*h = BHS{Immediate: b[0]&0x40 != 0, Opcode: ISCSIOpcode(b[0] & 0x3f), Flags: b[1], Specific: [2]byte{b[2], b[3]},
		TotalAHSLength: b[4], DataSegmentLength: uint32(b[5])<<16 | uint32(b[6])<<8 | uint32(b[7]),
		LUN: be.Uint64(b[8:]), ITT: be.Uint32(b[16:])}
	copy(h.Rest[:], b[20:BHSLen])
	return nil
}

// Split decodes the BHS at the start of b and returns what follows it:
// the additional header segments, then the data segment.
func (h *BHS) Split(b []byte) ([]byte, error) {
	if err := h.Decode(b); err != nil {
		return nil, err
	}
	return b[BHSLen:], nil
}

// Len returns BHSLen.
func (h *BHS) Len() int { return BHSLen }

// Validate reports an opcode wider than its six bits or a data segment
// length wider than its 24.
func (h *BHS) Validate() error {
	if err := errs.Fit("BHS.Opcode", uint64(h.Opcode), 6); err != nil {
		return err
	}
	return errs.Fit("BHS.DataSegmentLength", uint64(h.DataSegmentLength), 24)
}

// AppendTo appends the BHS's 48 bytes to b.
func (h *BHS) AppendTo(b []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return b, err
	}
	b0 := byte(h.Opcode)
	if h.Immediate {
		b0 |= 0x40
	}
	n := h.DataSegmentLength
	b = append(b, b0, h.Flags, h.Specific[0], h.Specific[1], h.TotalAHSLength, byte(n>>16), byte(n>>8), byte(n))
	b = be.AppendUint64(b, h.LUN)
	b = be.AppendUint32(b, h.ITT)
	return append(b, h.Rest[:]...), nil
}

// Final reports the F bit.
func (h *BHS) Final() bool { return h.Flags&FlagFinal != 0 }

// word returns the 32-bit field at byte off (20 to 44) of the BHS.
func (h *BHS) word(off int) uint32 { return be.Uint32(h.Rest[off-20:]) }

// setWord sets the 32-bit field at byte off (20 to 44).
func (h *BHS) setWord(off int, v uint32) { be.PutUint32(h.Rest[off-20:], v) }

// The 32-bit fields of bytes 20 to 47, named as RFC 7143 names them;
// which a PDU has depends on its opcode. Each getter has its setter.

// ExpectedDataTransferLength is the SCSI Command's (bytes 20-23).
func (h *BHS) ExpectedDataTransferLength() uint32 { return h.word(20) }

// TTT is the Target Transfer Tag of SCSI Data-In and Data-Out, R2T,
// NOP-In and NOP-Out, Text (bytes 20-23).
func (h *BHS) TTT() uint32 { return h.word(20) }

// CmdSN is a request's command sequence number (bytes 24-27).
func (h *BHS) CmdSN() uint32 { return h.word(24) }

// StatSN is a response's status sequence number (bytes 24-27).
func (h *BHS) StatSN() uint32 { return h.word(24) }

// ExpStatSN is a request's expected status sequence number (bytes
// 28-31).
func (h *BHS) ExpStatSN() uint32 { return h.word(28) }

// ExpCmdSN is a response's expected command sequence number (bytes
// 28-31).
func (h *BHS) ExpCmdSN() uint32 { return h.word(28) }

// MaxCmdSN is a response's largest command sequence number the target
// will take (bytes 32-35).
func (h *BHS) MaxCmdSN() uint32 { return h.word(32) }

// DataSN is the data sequence number of SCSI Data-In and Data-Out, and
// R2TSN of R2T, ExpDataSN of SCSI Response (bytes 36-39).
func (h *BHS) DataSN() uint32 { return h.word(36) }

// BufferOffset is the offset of the data of SCSI Data-In, Data-Out and
// R2T in the command's buffer (bytes 40-43).
func (h *BHS) BufferOffset() uint32 { return h.word(40) }

// ResidualCount is the residual of SCSI Response and Data-In (bytes
// 44-47).
func (h *BHS) ResidualCount() uint32 { return h.word(44) }

// DesiredDataTransferLength is R2T's (bytes 44-47).
func (h *BHS) DesiredDataTransferLength() uint32 { return h.word(44) }

// SetWord sets the 32-bit field at byte off of the BHS, 20 to 44 and a
// multiple of 4 (the fields the accessors above read).
func (h *BHS) SetWord(off int, v uint32) error {
	if off < 20 || off > 44 || off%4 != 0 {
		return errs.Field("BHS word offset", uint64(off), "want 20 to 44, a multiple of 4", ErrBadValue)
	}
	h.setWord(off, v)
	return nil
}

// Response is a SCSI Response's iSCSI service response (byte 2): 0
// Command Completed at Target, 1 Target Failure.
func (h *BHS) Response() uint8 { return h.Specific[0] }

// Status is the SCSI status of a SCSI Response, and of a SCSI Data-In
// with the S bit (byte 3).
func (h *BHS) Status() uint8 { return h.Specific[1] }

// CDB returns a SCSI Command's command descriptor block (bytes 32-47).
func (h *BHS) CDB() CDB { return CDB(h.Rest[12:28]) }

// SetCDB sets a SCSI Command's CDB.
func (h *BHS) SetCDB(c CDB) { copy(h.Rest[12:28], c[:]) }

// scsiStatusNames are SAM-5's status codes' names.
var scsiStatusNames = map[uint8]string{
	0x00: "GOOD", 0x02: "CHECK CONDITION", 0x04: "CONDITION MET", 0x08: "BUSY",
	0x18: "RESERVATION CONFLICT", 0x28: "TASK SET FULL", 0x30: "ACA ACTIVE", 0x40: "TASK ABORTED",
}

// StatusName returns the name of SCSI status s, "" for one not named.
func StatusName(s uint8) string { return scsiStatusNames[s] }
