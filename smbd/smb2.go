package smbd

import (
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// HeaderLen is the length of the SMB2 header, its StructureSize
// (MS-SMB2 2.2.1).
const HeaderLen = 64

// ProtocolID is the SMB2 header's first four bytes, 0xFE 'S' 'M' 'B', read
// little-endian.
const ProtocolID = 0x424d53fe

// Command is an SMB2 command code (MS-SMB2 2.2.1.2).
type Command uint16

// The SMB2 commands.
const (
	CmdNegotiate      Command = 0x00
	CmdSessionSetup   Command = 0x01
	CmdLogoff         Command = 0x02
	CmdTreeConnect    Command = 0x03
	CmdTreeDisconnect Command = 0x04
	CmdCreate         Command = 0x05
	CmdClose          Command = 0x06
	CmdFlush          Command = 0x07
	CmdRead           Command = 0x08
	CmdWrite          Command = 0x09
	CmdLock           Command = 0x0a
	CmdIoctl          Command = 0x0b
	CmdCancel         Command = 0x0c
	CmdEcho           Command = 0x0d
	CmdQueryDirectory Command = 0x0e
	CmdChangeNotify   Command = 0x0f
	CmdQueryInfo      Command = 0x10
	CmdSetInfo        Command = 0x11
	CmdOplockBreak    Command = 0x12
)

var commandNames = [...]string{"NEGOTIATE", "SESSION_SETUP", "LOGOFF", "TREE_CONNECT", "TREE_DISCONNECT", "CREATE", "CLOSE",
	"FLUSH", "READ", "WRITE", "LOCK", "IOCTL", "CANCEL", "ECHO", "QUERY_DIRECTORY", "CHANGE_NOTIFY", "QUERY_INFO", "SET_INFO",
	"OPLOCK_BREAK"}

// String returns the command's name as MS-SMB2 writes it without its
// "SMB2 " prefix ("READ", "SESSION_SETUP"), or "Command(0xN)".
func (c Command) String() string {
	if int(c) < len(commandNames) {
		return commandNames[c]
	}
	return "Command(0x" + strconv.FormatUint(uint64(c), 16) + ")"
}

// The flags of the SMB2 header (MS-SMB2 2.2.1.2).
const (
	FlagServerToRedir     = 0x00000001 // SMB2_FLAGS_SERVER_TO_REDIR: a response
	FlagAsyncCommand      = 0x00000002 // SMB2_FLAGS_ASYNC_COMMAND: the ASYNC header, an AsyncId in place of ProcessID and TreeID
	FlagRelatedOperations = 0x00000004 // SMB2_FLAGS_RELATED_OPERATIONS: a compounded request related to the one before
	FlagSigned            = 0x00000008 // SMB2_FLAGS_SIGNED
	FlagPriorityMask      = 0x00000070 // SMB2_FLAGS_PRIORITY_MASK
	FlagDFSOperations     = 0x10000000 // SMB2_FLAGS_DFS_OPERATIONS
	FlagReplayOperation   = 0x20000000 // SMB2_FLAGS_REPLAY_OPERATION
)

// Status is an NTSTATUS (MS-ERREF 2.3), the status of an SMB2 response
// and of the SMB Direct Negotiate Response.
type Status uint32

// The NTSTATUS values an SMB Direct exchange commonly carries (MS-ERREF
// 2.3.1).
const (
	StatusSuccess                Status = 0x00000000
	StatusPending                Status = 0x00000103
	StatusBufferOverflow         Status = 0x80000005
	StatusInvalidParameter       Status = 0xc000000d
	StatusEndOfFile              Status = 0xc0000011
	StatusMoreProcessingRequired Status = 0xc0000016
	StatusAccessDenied           Status = 0xc0000022
	StatusObjectNameNotFound     Status = 0xc0000034
	StatusLogonFailure           Status = 0xc000006d
	StatusInsufficientResources  Status = 0xc000009a
	StatusNotSupported           Status = 0xc00000bb
	StatusBadNetworkName         Status = 0xc00000cc
	StatusFileClosed             Status = 0xc0000128
)

var statusNames = map[Status]string{
	StatusSuccess: "STATUS_SUCCESS", StatusPending: "STATUS_PENDING", StatusBufferOverflow: "STATUS_BUFFER_OVERFLOW",
	StatusInvalidParameter: "STATUS_INVALID_PARAMETER", StatusEndOfFile: "STATUS_END_OF_FILE",
	StatusMoreProcessingRequired: "STATUS_MORE_PROCESSING_REQUIRED", StatusAccessDenied: "STATUS_ACCESS_DENIED",
	StatusObjectNameNotFound: "STATUS_OBJECT_NAME_NOT_FOUND", StatusLogonFailure: "STATUS_LOGON_FAILURE",
	StatusInsufficientResources: "STATUS_INSUFFICIENT_RESOURCES", StatusNotSupported: "STATUS_NOT_SUPPORTED",
	StatusBadNetworkName: "STATUS_BAD_NETWORK_NAME", StatusFileClosed: "STATUS_FILE_CLOSED",
}

// String returns the status's name, "STATUS_SUCCESS", or "0xXXXXXXXX" for
// one the package does not name.
func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	const digits = "0123456789abcdef"
	b := [10]byte{'0', 'x'}
	for i := range 8 {
		b[9-i] = digits[s>>(4*i)&0xf]
	}
	return string(b[:])
}

// Header is the SMB2 header in front of every SMB2 message (MS-SMB2
// 2.2.1.2, the SYNC header; 2.2.1.1, the ASYNC header, when Flags has
// FlagAsyncCommand):
//
//	bytes 0-3   ProtocolId     0xFE 'S' 'M' 'B'
//	bytes 4-5   StructureSize  64
//	bytes 6-7   CreditCharge
//	bytes 8-11  Status         the NTSTATUS of a response; ChannelSequence and Reserved in a request
//	bytes 12-13 Command
//	bytes 14-15 CreditRequest/CreditResponse
//	bytes 16-19 Flags
//	bytes 20-23 NextCommand    the offset of the next compounded message, 0 for the last
//	bytes 24-31 MessageId
//	bytes 32-35 Reserved       (ProcessId; AsyncId's low half in the ASYNC header)
//	bytes 36-39 TreeId         (AsyncId's high half in the ASYNC header)
//	bytes 40-47 SessionId
//	bytes 48-63 Signature
type Header struct {
	CreditCharge uint16
	Status       Status
	Command      Command
	Credits      uint16 // CreditRequest in a request, CreditResponse in a response
	Flags        uint32
	NextCommand  uint32
	MessageID    uint64
	ProcessID    uint32
	TreeID       uint32
	SessionID    uint64
	Signature    [16]byte
}

// Response reports the flag SMB2_FLAGS_SERVER_TO_REDIR.
func (h *Header) Response() bool { return h.Flags&FlagServerToRedir != 0 }

// Async reports the flag SMB2_FLAGS_ASYNC_COMMAND.
func (h *Header) Async() bool { return h.Flags&FlagAsyncCommand != 0 }

// AsyncID returns the AsyncId of the ASYNC header, bytes 32-39, which
// the SYNC header's ProcessID and TreeID occupy.
func (h *Header) AsyncID() uint64 { return uint64(h.TreeID)<<32 | uint64(h.ProcessID) }

var (
	errHeaderCut  = errs.TruncatedTable("SMB2 header", 0, HeaderLen)
	errProtocolID = errs.Kind(errs.ErrBadVersion, "SMB2 header: ProtocolId is not 0xFE 'S' 'M' 'B'")
	errHeaderSize = errs.Kind(errs.ErrBadLength, "SMB2 header: StructureSize is not 64")
)

// Decode reads the header at the start of b, refusing a ProtocolId
// other than ProtocolID with ErrBadVersion and a StructureSize other
// than 64 with ErrBadLength.
func (h *Header) Decode(b []byte) error {
	if len(b) < HeaderLen {
		*h = Header{}
		return errHeaderCut[len(b)]
	}
	if le.Uint32(b) != ProtocolID {
		*h = Header{}
		return errProtocolID
	}
	if le.Uint16(b[4:]) != HeaderLen {
		*h = Header{}
		return errHeaderSize
	}
	*h = Header{CreditCharge: le.Uint16(b[6:]), Status: Status(le.Uint32(b[8:])), Command: Command(le.Uint16(b[12:])),
		Credits: le.Uint16(b[14:]), Flags: le.Uint32(b[16:]), NextCommand: le.Uint32(b[20:]), MessageID: le.Uint64(b[24:]),
		ProcessID: le.Uint32(b[32:]), TreeID: le.Uint32(b[36:]), SessionID: le.Uint64(b[40:])}
	copy(h.Signature[:], b[48:64])
	return nil
}

// Len returns HeaderLen.
func (h *Header) Len() int { return HeaderLen }

// AppendTo appends the header's 64 bytes to b.
func (h *Header) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint32(b, ProtocolID)
	b = le.AppendUint16(b, HeaderLen)
	b = le.AppendUint16(b, h.CreditCharge)
	b = le.AppendUint32(b, uint32(h.Status))
	b = le.AppendUint16(b, uint16(h.Command))
	b = le.AppendUint16(b, h.Credits)
	b = le.AppendUint32(b, h.Flags)
	b = le.AppendUint32(b, h.NextCommand)
	b = le.AppendUint64(b, h.MessageID)
	b = le.AppendUint32(b, h.ProcessID)
	b = le.AppendUint32(b, h.TreeID)
	b = le.AppendUint64(b, h.SessionID)
	return append(b, h.Signature[:]...), nil
}
