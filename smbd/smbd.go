package smbd

import (
	"github.com/roce-go/roce/internal/errs"
)

// Port is the port SMB Direct listens on (MS-SMBD 2.1): the RDMA-CM
// REQ of a connection names it in its service ID.
const Port = 5445

// Version1 is the one SMB Direct protocol version, 1.0 (MS-SMBD 2.2.1).
const Version1 = 0x0100

// DefaultMaxFragmentedSize is the largest SMB2 message, put together from
// its fragments, that a Reassembler accepts when its Max is zero: the
// MaxFragmentedSize a Windows client announces, 1 MiB.
const DefaultMaxFragmentedSize = 1 << 20

// The lengths of the SMB Direct structures.
const (
	NegotiateRequestLen  = 20 // MS-SMBD 2.2.1
	NegotiateResponseLen = 32 // MS-SMBD 2.2.2
	DataTransferLen      = 20 // the header of a data transfer message, MS-SMBD 2.2.3
	BufferDescriptorLen  = 16 // SMB_DIRECT_BUFFER_DESCRIPTOR_V1, MS-SMBD 2.2.3.1
)

// NegotiateRequest is the first message a client sends on a connection
// (MS-SMBD 2.2.1):
//
//	bytes 0-1   MinVersion         the lowest version the client speaks, 0x0100
//	bytes 2-3   MaxVersion         the highest, 0x0100
//	bytes 4-5   Reserved
//	bytes 6-7   CreditsRequested   the send credits the client asks for
//	bytes 8-11  PreferredSendSize  the longest message the client wishes to send
//	bytes 12-15 MaxReceiveSize     the longest message the client can receive
//	bytes 16-19 MaxFragmentedSize  the longest SMB2 message put together from fragments
type NegotiateRequest struct {
	MinVersion        uint16
	MaxVersion        uint16
	Reserved          uint16
	CreditsRequested  uint16
	PreferredSendSize uint32
	MaxReceiveSize    uint32
	MaxFragmentedSize uint32
}

var errNegReqCut = errs.TruncatedTable("SMB Direct Negotiate Request", 0, NegotiateRequestLen)

// Decode reads the request at the start of b.
func (n *NegotiateRequest) Decode(b []byte) error {
	if len(b) < NegotiateRequestLen {
		*n = NegotiateRequest{}
		return errNegReqCut[len(b)]
	}
	*n = NegotiateRequest{MinVersion: le.Uint16(b), MaxVersion: le.Uint16(b[2:]), Reserved: le.Uint16(b[4:]),
		CreditsRequested: le.Uint16(b[6:]), PreferredSendSize: le.Uint32(b[8:]), MaxReceiveSize: le.Uint32(b[12:]),
		MaxFragmentedSize: le.Uint32(b[16:])}
	return nil
}

// Len returns NegotiateRequestLen.
func (n *NegotiateRequest) Len() int { return NegotiateRequestLen }

// AppendTo appends the request's 20 bytes to b.
func (n *NegotiateRequest) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint16(b, n.MinVersion)
	b = le.AppendUint16(b, n.MaxVersion)
	b = le.AppendUint16(b, n.Reserved)
	b = le.AppendUint16(b, n.CreditsRequested)
	b = le.AppendUint32(b, n.PreferredSendSize)
	b = le.AppendUint32(b, n.MaxReceiveSize)
	return le.AppendUint32(b, n.MaxFragmentedSize), nil
}

// NegotiateResponse is the server's answer to the Negotiate Request, its
// first message on the connection (MS-SMBD 2.2.2):
//
//	bytes 0-1   MinVersion         the lowest version the server speaks
//	bytes 2-3   MaxVersion         the highest
//	bytes 4-5   NegotiatedVersion  the version of the connection, 0x0100
//	bytes 6-7   Reserved
//	bytes 8-9   CreditsRequested   the send credits the server asks for
//	bytes 10-11 CreditsGranted     the send credits it grants the client
//	bytes 12-15 Status             an NTSTATUS: 0 success, 0xC00000BB not supported
//	bytes 16-19 MaxReadWriteSize   the longest RDMA transfer of one READ or WRITE
//	bytes 20-23 PreferredSendSize
//	bytes 24-27 MaxReceiveSize
//	bytes 28-31 MaxFragmentedSize
type NegotiateResponse struct {
	MinVersion        uint16
	MaxVersion        uint16
	NegotiatedVersion uint16
	Reserved          uint16
	CreditsRequested  uint16
	CreditsGranted    uint16
	Status            uint32
	MaxReadWriteSize  uint32
	PreferredSendSize uint32
	MaxReceiveSize    uint32
	MaxFragmentedSize uint32
}

var errNegRespCut = errs.TruncatedTable("SMB Direct Negotiate Response", 0, NegotiateResponseLen)

// Decode reads the response at the start of b.
func (n *NegotiateResponse) Decode(b []byte) error {
	if len(b) < NegotiateResponseLen {
		*n = NegotiateResponse{}
		return errNegRespCut[len(b)]
	}
	*n = NegotiateResponse{MinVersion: le.Uint16(b), MaxVersion: le.Uint16(b[2:]), NegotiatedVersion: le.Uint16(b[4:]),
		Reserved: le.Uint16(b[6:]), CreditsRequested: le.Uint16(b[8:]), CreditsGranted: le.Uint16(b[10:]), Status: le.Uint32(b[12:]),
		MaxReadWriteSize: le.Uint32(b[16:]), PreferredSendSize: le.Uint32(b[20:]), MaxReceiveSize: le.Uint32(b[24:]),
		MaxFragmentedSize: le.Uint32(b[28:])}
	return nil
}

// Len returns NegotiateResponseLen.
func (n *NegotiateResponse) Len() int { return NegotiateResponseLen }

// AppendTo appends the response's 32 bytes to b.
func (n *NegotiateResponse) AppendTo(b []byte) ([]byte, error) {
	for _, v := range [...]uint16{n.MinVersion, n.MaxVersion, n.NegotiatedVersion, n.Reserved, n.CreditsRequested, n.CreditsGranted} {
		b = le.AppendUint16(b, v)
	}
	for _, v := range [...]uint32{n.Status, n.MaxReadWriteSize, n.PreferredSendSize, n.MaxReceiveSize, n.MaxFragmentedSize} {
		b = le.AppendUint32(b, v)
	}
	return b, nil
}

// FlagResponseRequested is SMB_DIRECT_RESPONSE_REQUESTED, the one flag
// of a data transfer message (MS-SMBD 2.2.3): the sender asks the peer
// to answer at once, so that credits it needs come back.
const FlagResponseRequested = 0x0001

// DataTransfer is the header of an SMB Direct data transfer message
// (MS-SMBD 2.2.3), every message after the negotiation:
//
//	bytes 0-1   CreditsRequested     the send credits the sender asks for
//	bytes 2-3   CreditsGranted       the send credits it grants the peer
//	bytes 4-5   Flags                FlagResponseRequested
//	bytes 6-7   Reserved
//	bytes 8-11  RemainingDataLength  the bytes of the SMB2 message still to come in later messages
//	bytes 12-15 DataOffset           where the data starts, from the message's first byte: 0 without data, else 8-byte aligned
//	bytes 16-19 DataLength           the bytes of data in this message
//	then padding to DataOffset, then DataLength bytes of data
//
// A message without data (DataLength 0) carries credits alone, or asks
// for a response (a keep-alive).
type DataTransfer struct {
	CreditsRequested    uint16
	CreditsGranted      uint16
	Flags               uint16
	Reserved            uint16
	RemainingDataLength uint32
	DataOffset          uint32
	DataLength          uint32
}

// ResponseRequested reports the flag SMB_DIRECT_RESPONSE_REQUESTED.
func (d *DataTransfer) ResponseRequested() bool { return d.Flags&FlagResponseRequested != 0 }

// DataOffsetMin is the smallest DataOffset of a message with data: the
// header's 20 bytes rounded up to 8.
const DataOffsetMin = 24

var (
	errDataTransferCut = errs.TruncatedTable("SMB Direct data transfer", 0, DataTransferLen)
	errDataOffset      = errs.Kind(errs.ErrBadLength, "SMB Direct data transfer: DataOffset neither 0 nor a multiple of 8 past the header")
	errNoDataOffset    = errs.Kind(errs.ErrBadLength, "SMB Direct data transfer: DataLength without a DataOffset")
	errDataCut         = errs.Kind(errs.ErrTruncated, "SMB Direct data transfer: the data runs past the message")
)

// check reports an offset the layout does not allow, the error of the
// decoder (errDataOffset) or of the builder (naming the field).
func (d *DataTransfer) check(build bool) error {
	switch {
	case d.DataOffset != 0 && (d.DataOffset < DataOffsetMin || d.DataOffset%8 != 0):
		if build {
			return errs.Field("DataTransfer.DataOffset", uint64(d.DataOffset), "is neither 0 nor a multiple of 8 from 24", ErrBadLength)
		}
		return errDataOffset
	case d.DataOffset == 0 && d.DataLength != 0:
		if build {
			return errs.Field("DataTransfer.DataOffset", 0, "is 0 with a DataLength", ErrBadLength)
		}
		return errNoDataOffset
	}
	return nil
}

// Decode reads the header at the start of b. It refuses a DataOffset
// that is neither 0 nor a multiple of 8 from 24, and a DataLength with
// no DataOffset, with ErrBadLength; the data itself it leaves to Data.
func (d *DataTransfer) Decode(b []byte) error {
	if len(b) < DataTransferLen {
		*d = DataTransfer{}
		return errDataTransferCut[len(b)]
	}
	*d = DataTransfer{CreditsRequested: le.Uint16(b), CreditsGranted: le.Uint16(b[2:]), Flags: le.Uint16(b[4:]), Reserved: le.Uint16(b[6:]),
		RemainingDataLength: le.Uint32(b[8:]), DataOffset: le.Uint32(b[12:]), DataLength: le.Uint32(b[16:])}
	return d.check(false)
}

// Data returns the data of the message b whose header d holds, aliasing
// b: nil for a message without data, an error matching ErrTruncated
// when the data runs past b.
func (d *DataTransfer) Data(b []byte) ([]byte, error) {
	if d.DataLength == 0 {
		return nil, nil
	}
	end := uint64(d.DataOffset) + uint64(d.DataLength)
	if end > uint64(len(b)) {
		return nil, errDataCut
	}
	return b[d.DataOffset:end], nil
}

// Len returns DataTransferLen.
func (d *DataTransfer) Len() int { return DataTransferLen }

// AppendTo appends the header's 20 bytes to b; the caller appends the
// padding and data (AppendMessage does all three).
func (d *DataTransfer) AppendTo(b []byte) ([]byte, error) {
	if err := d.check(true); err != nil {
		return b, err
	}
	for _, v := range [...]uint16{d.CreditsRequested, d.CreditsGranted, d.Flags, d.Reserved} {
		b = le.AppendUint16(b, v)
	}
	for _, v := range [...]uint32{d.RemainingDataLength, d.DataOffset, d.DataLength} {
		b = le.AppendUint32(b, v)
	}
	return b, nil
}

// AppendMessage appends to b the whole message: the header with
// DataLength set to len(data) and, when d.DataOffset is 0 and there is
// data, DataOffset set to DataOffsetMin; zero padding up to DataOffset;
// the data. It updates d to what it wrote.
func (d *DataTransfer) AppendMessage(b, data []byte) ([]byte, error) {
	if uint64(len(data)) > 0xffffffff {
		return b, errs.Length("DataTransfer.DataLength", len(data), "does not fit 32 bits", ErrBadValue)
	}
	d.DataLength = uint32(len(data))
	if d.DataOffset == 0 && len(data) > 0 {
		d.DataOffset = DataOffsetMin
	}
	start := len(b)
	b, err := d.AppendTo(b)
	if err != nil {
		return b, err
	}
	if len(data) > 0 {
		for len(b)-start < int(d.DataOffset) {
			b = append(b, 0)
		}
	}
	return append(b, data...), nil
}

// Channel is the RDMA channel of an SMB2 READ or WRITE (MS-SMB2 2.2.19):
// how the data moves.
type Channel uint32

// The channels.
const (
	ChannelNone             Channel = 0 // SMB2_CHANNEL_NONE: the data travels in the SMB2 messages
	ChannelRDMAV1           Channel = 1 // SMB2_CHANNEL_RDMA_V1: the server RDMA READs or WRITEs the buffers the descriptors name
	ChannelRDMAV1Invalidate Channel = 2 // SMB2_CHANNEL_RDMA_V1_INVALIDATE: as RDMA_V1, the server invalidates the token with its response
	ChannelRDMATransform    Channel = 3 // SMB2_CHANNEL_RDMA_TRANSFORM: the data is transformed (encrypted or signed)
)

var channelNames = [...]string{"SMB2_CHANNEL_NONE", "SMB2_CHANNEL_RDMA_V1", "SMB2_CHANNEL_RDMA_V1_INVALIDATE", "SMB2_CHANNEL_RDMA_TRANSFORM"}

// String returns the channel's name, "SMB2_CHANNEL_RDMA_V1", or "" for a
// value MS-SMB2 does not define.
func (c Channel) String() string {
	if int(c) < len(channelNames) {
		return channelNames[c]
	}
	return ""
}

// RDMA reports whether the channel moves the data by RDMA with buffer
// descriptors (RDMA_V1 or RDMA_V1_INVALIDATE).
func (c Channel) RDMA() bool { return c == ChannelRDMAV1 || c == ChannelRDMAV1Invalidate }

// BufferDescriptor is SMB_DIRECT_BUFFER_DESCRIPTOR_V1 (MS-SMBD
// 2.2.3.1), one registered buffer of the client's, an entry of an SMB2
// READ's or WRITE's channel information:
//
//	bytes 0-7   Offset  the buffer's address (its RDMA virtual address)
//	bytes 8-11  Token   the memory key (the remote key the RETH carries)
//	bytes 12-15 Length  the buffer's length
type BufferDescriptor struct {
	Offset uint64
	Token  uint32
	Length uint32
}

var errDescriptorCut = errs.TruncatedTable("SMB Direct buffer descriptor", 0, BufferDescriptorLen)

// Decode reads the descriptor at the start of b.
func (d *BufferDescriptor) Decode(b []byte) error {
	if len(b) < BufferDescriptorLen {
		*d = BufferDescriptor{}
		return errDescriptorCut[len(b)]
	}
	*d = BufferDescriptor{Offset: le.Uint64(b), Token: le.Uint32(b[8:]), Length: le.Uint32(b[12:])}
	return nil
}

// Len returns BufferDescriptorLen.
func (d *BufferDescriptor) Len() int { return BufferDescriptorLen }

// AppendTo appends the descriptor's 16 bytes to b.
func (d *BufferDescriptor) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint64(b, d.Offset)
	b = le.AppendUint32(b, d.Token)
	return le.AppendUint32(b, d.Length), nil
}
