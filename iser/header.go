package iser

import (
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// HeaderLen is the length of the iSER header.
const HeaderLen = 28

// Opcode is the iSER message type, the high four bits of the header's
// first byte.
type Opcode uint8

// The iSER opcodes (RFC 7145, 9.2).
const (
	OpControl    Opcode = 1 // iSCSI control-type PDU: an iSCSI PDU follows
	OpHello      Opcode = 2 // iSER Hello (initiator to target)
	OpHelloReply Opcode = 3 // iSER HelloReply (target to initiator)
)

var opcodeNames = [16]string{OpControl: "iSCSI Control-Type", OpHello: "Hello", OpHelloReply: "HelloReply"}

// String returns the opcode's name, or "Opcode(N)".
func (o Opcode) String() string {
	if o < 16 && opcodeNames[o] != "" {
		return opcodeNames[o]
	}
	return "Opcode(" + strconv.Itoa(int(o)) + ")"
}

// The flags of the header's first byte below the opcode, as tshark names
// them (iser.flags.wsv, .rsv, .rej).
const (
	FlagWSV = 0x08 // Write STag Valid: the target reads the data from WriteSTag, WriteBaseOffset
	FlagRSV = 0x04 // Read STag Valid: the target writes the data to ReadSTag, ReadBaseOffset
	FlagRej = 0x01 // HelloReply: the target rejects the connection
)

// Header is the iSER header (RFC 7145, 9.2), in front of every iSCSI
// control-type PDU:
//
//	byte  0     Opcode (bits 7:4), WSV (bit 3), RSV (bit 2), reserved
//	bytes 1-3   reserved
//	bytes 4-7   Write STag    (the initiator's buffer the target RDMA READs)
//	bytes 8-15  Write Base Offset
//	bytes 16-19 Read STag     (the buffer the target RDMA WRITEs)
//	bytes 20-27 Read Base Offset
type Header struct {
	Opcode          Opcode
	Flags           uint8 // the low four bits of byte 0 (FlagWSV, FlagRSV, FlagRej)
	WriteSTag       uint32
	WriteBaseOffset uint64
	ReadSTag        uint32
	ReadBaseOffset  uint64
}

// WSV reports the Write STag Valid flag.
func (h *Header) WSV() bool { return h.Flags&FlagWSV != 0 }

// RSV reports the Read STag Valid flag.
func (h *Header) RSV() bool { return h.Flags&FlagRSV != 0 }

var errHeaderCut = errs.TruncatedTable("iSER header", 0, HeaderLen)

// Decode reads the header at the start of b.
func (h *Header) Decode(b []byte) error {
	if len(b) < HeaderLen {
		*h = Header{}
		return errHeaderCut[len(b)]
	}
	*h = Header{Opcode: Opcode(b[0] >> 4), Flags: b[0] & 0x0f, WriteSTag: be.Uint32(b[4:]), WriteBaseOffset: be.Uint64(b[8:]),
		ReadSTag: be.Uint32(b[16:]), ReadBaseOffset: be.Uint64(b[20:])}
	return nil
}

// Split returns the bytes after the header: the iSCSI PDU of a
// control-type message.
func (h *Header) Split(b []byte) ([]byte, error) {
	if err := h.Decode(b); err != nil {
		return nil, err
	}
	return b[HeaderLen:], nil
}

// Len returns HeaderLen.
func (h *Header) Len() int { return HeaderLen }

// Validate reports an opcode or flags wider than their four bits.
func (h *Header) Validate() error {
	if err := errs.Fit("Header.Opcode", uint64(h.Opcode), 4); err != nil {
		return err
	}
	return errs.Fit("Header.Flags", uint64(h.Flags), 4)
}

// AppendTo appends the header's 28 bytes to b.
func (h *Header) AppendTo(b []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return b, err
	}
	b = append(b, byte(h.Opcode)<<4|h.Flags, 0, 0, 0)
	b = be.AppendUint32(b, h.WriteSTag)
	b = be.AppendUint64(b, h.WriteBaseOffset)
	b = be.AppendUint32(b, h.ReadSTag)
	return be.AppendUint64(b, h.ReadBaseOffset), nil
}

// CMDataLen is the length of the iSER part of the RDMA-CM REQ's private
// data, after the IP CM header (RFC 7145, 9.1).
const CMDataLen = 4

// The flags of the iSER CM private data's first byte.
const (
	CMZBVANotSupported     = 0x80 // the initiator does not support zero-based virtual addresses
	CMSendWInvNotSupported = 0x40 // the initiator does not support Send with Invalidate
)

// CMData is the iSER private data of the RDMA-CM REQ (RFC 7145, 9.1):
// byte 0 the flags (CMZBVANotSupported, CMSendWInvNotSupported), bytes
// 1-3 reserved.
type CMData struct {
	Flags uint8
}

var errCMCut = errs.TruncatedTable("iSER CM private data", 0, CMDataLen)

// Decode reads the private data at the start of b.
func (c *CMData) Decode(b []byte) error {
	if len(b) < CMDataLen {
		*c = CMData{}
		return errCMCut[len(b)]
	}
	*c = CMData{Flags: b[0]}
	return nil
}

// Len returns CMDataLen.
func (c *CMData) Len() int { return CMDataLen }

// AppendTo appends the private data's 4 bytes to b.
func (c *CMData) AppendTo(b []byte) ([]byte, error) { return append(b, c.Flags, 0, 0, 0), nil }
