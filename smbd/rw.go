package smbd

import "github.com/roce-go/roce/internal/errs"

// The lengths of the fixed parts of the READ and WRITE messages, after
// the SMB2 header: the StructureSize less the one byte of the variable
// part it counts (MS-SMB2 2.2.19 to 2.2.22).
const (
	ReadRequestLen   = 48 // StructureSize 49
	WriteRequestLen  = 48 // StructureSize 49
	ReadResponseLen  = 16 // StructureSize 17
	WriteResponseLen = 16 // StructureSize 17
)

var (
	errReadReqCut   = errs.TruncatedTable("SMB2 READ Request", HeaderLen, ReadRequestLen)
	errWriteReqCut  = errs.TruncatedTable("SMB2 WRITE Request", HeaderLen, WriteRequestLen)
	errReadRespCut  = errs.TruncatedTable("SMB2 READ Response", HeaderLen, ReadResponseLen)
	errWriteRespCut = errs.TruncatedTable("SMB2 WRITE Response", HeaderLen, WriteResponseLen)
	errRWSize       = errs.Kind(errs.ErrBadLength, "SMB2 READ or WRITE: StructureSize is not the specification's")
	errChannelInfo  = errs.Kind(errs.ErrTruncated, "SMB2 channel information: runs past the message")
)

// body checks the StructureSize of a fixed part of n bytes at the start
// of b, the bytes after the SMB2 header.
func body(b []byte, n int, cut []error) error {
	if len(b) < n {
		return cut[len(b)]
	}
	if int(le.Uint16(b)) != n+1 {
		return errRWSize
	}
	return nil
}

// ReadRequest is the SMB2 READ Request (MS-SMB2 2.2.19), after the SMB2
// header:
//
//	bytes 0-1   StructureSize  49
//	byte  2     Padding        where the server puts the data of its response, from the header
//	byte  3     Flags          SMB2_READFLAG_READ_UNBUFFERED 0x01, _REQUEST_COMPRESSED 0x02
//	bytes 4-7   Length         the bytes to read
//	bytes 8-15  Offset         where in the file
//	bytes 16-31 FileId         persistent and volatile halves
//	bytes 32-35 MinimumCount
//	bytes 36-39 Channel        SMB2_CHANNEL_RDMA_V1 and _INVALIDATE: the server RDMA WRITEs the data
//	bytes 40-43 RemainingBytes
//	bytes 44-45 ReadChannelInfoOffset  from the SMB2 header's first byte
//	bytes 46-47 ReadChannelInfoLength  the bytes of buffer descriptors
//	then the channel information (BufferDescriptor entries) or one byte
type ReadRequest struct {
	Padding           uint8
	Flags             uint8
	Length            uint32
	Offset            uint64
	FileID            [16]byte
	MinimumCount      uint32
	Channel           Channel
	RemainingBytes    uint32
	ChannelInfoOffset uint16
	ChannelInfoLength uint16
}

// Decode reads the request at the start of b, the bytes after the SMB2
// header, refusing a StructureSize other than 49 with ErrBadLength.
func (r *ReadRequest) Decode(b []byte) error {
	if err := body(b, ReadRequestLen, errReadReqCut); err != nil {
		*r = ReadRequest{}
		return err
	}
	*r = ReadRequest{Padding: b[2], Flags: b[3], Length: le.Uint32(b[4:]), Offset: le.Uint64(b[8:]), MinimumCount: le.Uint32(b[32:]),
		Channel: Channel(le.Uint32(b[36:])), RemainingBytes: le.Uint32(b[40:]), ChannelInfoOffset: le.Uint16(b[44:]),
		ChannelInfoLength: le.Uint16(b[46:])}
	copy(r.FileID[:], b[16:32])
	return nil
}

// Len returns ReadRequestLen.
func (r *ReadRequest) Len() int { return ReadRequestLen }

// AppendTo appends the request's fixed 48 bytes to b; the caller appends
// the channel information, or one zero byte when there is none.
func (r *ReadRequest) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint16(b, ReadRequestLen+1)
	b = append(b, r.Padding, r.Flags)
	b = le.AppendUint32(b, r.Length)
	b = le.AppendUint64(b, r.Offset)
	b = append(b, r.FileID[:]...)
	b = le.AppendUint32(b, r.MinimumCount)
	b = le.AppendUint32(b, uint32(r.Channel))
	b = le.AppendUint32(b, r.RemainingBytes)
	b = le.AppendUint16(b, r.ChannelInfoOffset)
	return le.AppendUint16(b, r.ChannelInfoLength), nil
}

// WriteRequest is the SMB2 WRITE Request (MS-SMB2 2.2.21), after the
// SMB2 header:
//
//	bytes 0-1   StructureSize  49
//	bytes 2-3   DataOffset     from the header's first byte, where the data is in the message
//	bytes 4-7   Length         the bytes of data in the message: 0 over an RDMA channel
//	bytes 8-15  Offset         where in the file
//	bytes 16-31 FileId
//	bytes 32-35 Channel        SMB2_CHANNEL_RDMA_V1 and _INVALIDATE: the server RDMA READs the data
//	bytes 36-39 RemainingBytes over an RDMA channel, the bytes to write
//	bytes 40-41 WriteChannelInfoOffset  from the header's first byte
//	bytes 42-43 WriteChannelInfoLength
//	bytes 44-47 Flags          SMB2_WRITEFLAG_WRITE_THROUGH 0x01, _WRITE_UNBUFFERED 0x02
//	then the data or the channel information
type WriteRequest struct {
	DataOffset        uint16
	Length            uint32
	Offset            uint64
	FileID            [16]byte
	Channel           Channel
	RemainingBytes    uint32
	ChannelInfoOffset uint16
	ChannelInfoLength uint16
	Flags             uint32
}

// Decode reads the request at the start of b, the bytes after the SMB2
// header, refusing a StructureSize other than 49 with ErrBadLength.
func (w *WriteRequest) Decode(b []byte) error {
	if err := body(b, WriteRequestLen, errWriteReqCut); err != nil {
		*w = WriteRequest{}
		return err
	}
	*w = WriteRequest{DataOffset: le.Uint16(b[2:]), Length: le.Uint32(b[4:]), Offset: le.Uint64(b[8:]), Channel: Channel(le.Uint32(b[32:])),
		RemainingBytes: le.Uint32(b[36:]), ChannelInfoOffset: le.Uint16(b[40:]), ChannelInfoLength: le.Uint16(b[42:]), Flags: le.Uint32(b[44:])}
	copy(w.FileID[:], b[16:32])
	return nil
}

// Len returns WriteRequestLen.
func (w *WriteRequest) Len() int { return WriteRequestLen }

// AppendTo appends the request's fixed 48 bytes to b; the caller appends
// the data or the channel information.
func (w *WriteRequest) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint16(b, WriteRequestLen+1)
	b = le.AppendUint16(b, w.DataOffset)
	b = le.AppendUint32(b, w.Length)
	b = le.AppendUint64(b, w.Offset)
	b = append(b, w.FileID[:]...)
	b = le.AppendUint32(b, uint32(w.Channel))
	b = le.AppendUint32(b, w.RemainingBytes)
	b = le.AppendUint16(b, w.ChannelInfoOffset)
	b = le.AppendUint16(b, w.ChannelInfoLength)
	return le.AppendUint32(b, w.Flags), nil
}

// ReadResponse is the SMB2 READ Response (MS-SMB2 2.2.20), after the
// SMB2 header:
//
//	bytes 0-1   StructureSize  17
//	byte  2     DataOffset     from the header's first byte
//	byte  3     Reserved
//	bytes 4-7   DataLength     the bytes read (over an RDMA channel, the bytes the server RDMA WROTE)
//	bytes 8-11  DataRemaining
//	bytes 12-15 Flags          (Reserved2 before SMB 3.1.1)
type ReadResponse struct {
	DataOffset    uint8
	Reserved      uint8
	DataLength    uint32
	DataRemaining uint32
	Flags         uint32
}

// Decode reads the response at the start of b, the bytes after the SMB2
// header, refusing a StructureSize other than 17 with ErrBadLength.
func (r *ReadResponse) Decode(b []byte) error {
	if err := body(b, ReadResponseLen, errReadRespCut); err != nil {
		*r = ReadResponse{}
		return err
	}
	*r = ReadResponse{DataOffset: b[2], Reserved: b[3], DataLength: le.Uint32(b[4:]), DataRemaining: le.Uint32(b[8:]), Flags: le.Uint32(b[12:])}
	return nil
}

// Len returns ReadResponseLen.
func (r *ReadResponse) Len() int { return ReadResponseLen }

// AppendTo appends the response's fixed 16 bytes to b; the caller
// appends the data, or one zero byte when there is none.
func (r *ReadResponse) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint16(b, ReadResponseLen+1)
	b = append(b, r.DataOffset, r.Reserved)
	b = le.AppendUint32(b, r.DataLength)
	b = le.AppendUint32(b, r.DataRemaining)
	return le.AppendUint32(b, r.Flags), nil
}

// WriteResponse is the SMB2 WRITE Response (MS-SMB2 2.2.22), after the
// SMB2 header:
//
//	bytes 0-1   StructureSize  17
//	bytes 2-3   Reserved
//	bytes 4-7   Count          the bytes written
//	bytes 8-11  Remaining
//	bytes 12-13 WriteChannelInfoOffset
//	bytes 14-15 WriteChannelInfoLength
type WriteResponse struct {
	Reserved          uint16
	Count             uint32
	Remaining         uint32
	ChannelInfoOffset uint16
	ChannelInfoLength uint16
}

// Decode reads the response at the start of b, the bytes after the SMB2
// header, refusing a StructureSize other than 17 with ErrBadLength.
func (w *WriteResponse) Decode(b []byte) error {
	if err := body(b, WriteResponseLen, errWriteRespCut); err != nil {
		*w = WriteResponse{}
		return err
	}
	*w = WriteResponse{Reserved: le.Uint16(b[2:]), Count: le.Uint32(b[4:]), Remaining: le.Uint32(b[8:]),
		ChannelInfoOffset: le.Uint16(b[12:]), ChannelInfoLength: le.Uint16(b[14:])}
	return nil
}

// Len returns WriteResponseLen.
func (w *WriteResponse) Len() int { return WriteResponseLen }

// AppendTo appends the response's 16 bytes to b; the caller appends one
// zero byte for its variable part.
func (w *WriteResponse) AppendTo(b []byte) ([]byte, error) {
	b = le.AppendUint16(b, WriteResponseLen+1)
	b = le.AppendUint16(b, w.Reserved)
	b = le.AppendUint32(b, w.Count)
	b = le.AppendUint32(b, w.Remaining)
	b = le.AppendUint16(b, w.ChannelInfoOffset)
	return le.AppendUint16(b, w.ChannelInfoLength), nil
}

// ChannelInfo returns the channel information of a READ or WRITE
// request, the length bytes at offset off of msg, the SMB2 message from
// its header's first byte: the buffer descriptors, each
// BufferDescriptorLen bytes. It aliases msg; it returns an error
// matching ErrTruncated when the information runs past msg.
func ChannelInfo(msg []byte, off, length uint16) ([]byte, error) {
	if length == 0 {
		return nil, nil
	}
	end := int(off) + int(length)
	if end > len(msg) {
		return nil, errChannelInfo
	}
	return msg[off:end], nil
}
