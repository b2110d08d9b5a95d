package nvmeof

import (
	"encoding/binary"
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

var le = binary.LittleEndian

// CommandLen is the length of a command capsule's command: one
// submission queue entry.
const CommandLen = 64

// Command is a submission queue entry, the first 64 bytes of a command
// capsule (NVMe Base 2.0, 4.2; NVMe-oF 1.1, 2.1):
//
//	byte 0      OPC       opcode
//	byte 1      FUSE      bits 1:0; PSDT bits 7:6 (SGLs: 01b or 10b over fabrics)
//	bytes 2-3   CID       command identifier
//	bytes 4-7   NSID      namespace (a Fabrics command: FCTYPE in byte 4)
//	bytes 8-15  CDW2-3
//	bytes 16-23 MPTR      metadata pointer
//	bytes 24-39 SGL1      the data pointer: one SGL descriptor over fabrics
//	bytes 40-63 CDW10-15  command specific
type Command struct {
	Opcode uint8
	Fuse   uint8 // FUSE, 2 bits
	Rsvd1  uint8 // bits 5:2 of byte 1, reserved, kept for byte-exact re-encoding
	PSDT   uint8 // PRP or SGL for data transfer, 2 bits
	CID    uint16
	NSID   uint32
	CDW2   uint32
	CDW3   uint32
	MPTR   uint64
	SGL1   SGL
	CDW    [6]uint32 // CDW10 to CDW15
}

// The opcode of every Fabrics command (NVMe-oF 1.1, 3): FCTYPE says which.
const OpcodeFabrics = 0x7f

var errCommandCut = errs.TruncatedTable("NVMe command", 0, CommandLen)

// Decode reads the command at the start of b.
func (c *Command) Decode(b []byte) error {
	if len(b) < CommandLen {
		*c = Command{}
		return errCommandCut[len(b)]
	}
	*c = Command{Opcode: b[0], Fuse: b[1] & 3, Rsvd1: b[1] >> 2 & 0xf, PSDT: b[1] >> 6, CID: le.Uint16(b[2:]),
		NSID: le.Uint32(b[4:]), CDW2: le.Uint32(b[8:]), CDW3: le.Uint32(b[12:]), MPTR: le.Uint64(b[16:])}
	c.SGL1.parse(b[24:40])
	for i := range c.CDW {
		c.CDW[i] = le.Uint32(b[40+4*i:])
	}
	return nil
}

// Split decodes the command at the start of a command capsule and returns
// the capsule's in-capsule data, the bytes after it.
func (c *Command) Split(capsule []byte) ([]byte, error) {
	if err := c.Decode(capsule); err != nil {
		return nil, err
	}
	return capsule[CommandLen:], nil
}

// Len returns CommandLen.
func (c *Command) Len() int { return CommandLen }

// Validate reports the first field whose value does not fit.
func (c *Command) Validate() error {
	for _, f := range []struct {
		name string
		v    uint64
		bits uint
	}{{"Command.Fuse", uint64(c.Fuse), 2}, {"Command.Rsvd1", uint64(c.Rsvd1), 4}, {"Command.PSDT", uint64(c.PSDT), 2}} {
		if err := errs.Fit(f.name, f.v, f.bits); err != nil {
			return err
		}
	}
	return c.SGL1.Validate()
}

// AppendTo appends the command's 64 bytes to b.
func (c *Command) AppendTo(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	b = append(b, c.Opcode, c.Fuse|c.Rsvd1<<2|c.PSDT<<6)
	b = le.AppendUint16(b, c.CID)
	b = le.AppendUint32(b, c.NSID)
	b = le.AppendUint32(b, c.CDW2)
	b = le.AppendUint32(b, c.CDW3)
	b = le.AppendUint64(b, c.MPTR)
	b = c.SGL1.append(b)
	for _, w := range c.CDW {
		b = le.AppendUint32(b, w)
	}
	return b, nil
}

// IsFabrics reports whether the command is a Fabrics command.
func (c *Command) IsFabrics() bool { return c.Opcode == OpcodeFabrics }

// FabricsType returns FCTYPE, byte 4 of a Fabrics command.
func (c *Command) FabricsType() FabricsType { return FabricsType(c.NSID) }

// Name returns the command's name: of its Fabrics command type, or of its
// opcode on an admin queue (admin) or on an I/O queue of the NVM command
// set; "" for a code neither defines.
func (c *Command) Name(admin bool) string {
	switch {
	case c.IsFabrics():
		return c.FabricsType().String()
	case admin:
		return adminOpcodes[c.Opcode]
	}
	return ioOpcodes[c.Opcode]
}

// The fields of the commands' dwords 10 to 15, by the command that has
// them (NVMe Base 2.0, 5 and the NVM Command Set 1.0, 3; NVMe-oF 1.1, 3).

// SLBA returns the starting LBA of a Read, Write, Write Zeroes, Compare or
// Verify (CDW10-11).
func (c *Command) SLBA() uint64 { return uint64(c.CDW[0]) | uint64(c.CDW[1])<<32 }

// NLB returns the number of logical blocks of a Read, Write, Write Zeroes,
// Compare or Verify, as the command holds it: 0-based (CDW12 bits 15:0).
func (c *Command) NLB() uint16 { return uint16(c.CDW[2]) }

// Ranges returns the number of ranges of a Dataset Management, 0-based
// (CDW10 bits 7:0).
func (c *Command) Ranges() uint8 { return uint8(c.CDW[0]) }

// CNS returns an Identify's Controller or Namespace Structure (CDW10 bits
// 7:0).
func (c *Command) CNS() uint8 { return uint8(c.CDW[0]) }

// LogID returns a Get Log Page's log page identifier (CDW10 bits 7:0).
func (c *Command) LogID() uint8 { return uint8(c.CDW[0]) }

// FeatureID returns a Set or Get Features' feature identifier (CDW10 bits
// 7:0).
func (c *Command) FeatureID() uint8 { return uint8(c.CDW[0]) }

// RecFmt returns a Connect's record format (CDW10 bits 15:0).
func (c *Command) RecFmt() uint16 { return uint16(c.CDW[0]) }

// QID returns the queue a Connect creates (CDW10 bits 31:16): 0 is the
// admin queue.
func (c *Command) QID() uint16 { return uint16(c.CDW[0] >> 16) }

// SQSize returns a Connect's submission queue size, 0-based (CDW11 bits
// 15:0).
func (c *Command) SQSize() uint16 { return uint16(c.CDW[1]) }

// CAttr returns a Connect's connect attributes (CDW11 bits 23:16).
func (c *Command) CAttr() uint8 { return uint8(c.CDW[1] >> 16) }

// KATO returns a Connect's keep alive timeout in milliseconds (CDW12).
func (c *Command) KATO() uint32 { return c.CDW[2] }

// PropertySize returns the size of the property a Property Get or Set
// names: 4 or 8 bytes (ATTRIB, CDW10 bits 2:0: 0 is 4 bytes, 1 is 8).
func (c *Command) PropertySize() int {
	if c.CDW[0]&7 == 1 {
		return 8
	}
	return 4
}

// PropertyOffset returns the offset of the property a Property Get or Set
// names (OFST, CDW11): 0x14 is CC, 0x1c CSTS (see PropertyName).
func (c *Command) PropertyOffset() uint32 { return c.CDW[1] }

// PropertyValue returns the value a Property Set writes (CDW12-13).
func (c *Command) PropertyValue() uint64 { return uint64(c.CDW[2]) | uint64(c.CDW[3])<<32 }

// SecurityProtocol returns an Authentication Send's or Receive's security
// protocol (SECP, CDW10 bits 31:24).
func (c *Command) SecurityProtocol() uint8 { return uint8(c.CDW[0] >> 24) }

// TransferLength returns an Authentication Send's transfer length or an
// Authentication Receive's allocation length (CDW11).
func (c *Command) TransferLength() uint32 { return c.CDW[1] }

// SGLLen is the length of an SGL descriptor.
const SGLLen = 16

// SGL is an SGL descriptor (NVMe Base 2.0, 4.1.2): 16 bytes, the type in
// the high four bits of the last byte and the sub type in the low four.
// A Keyed SGL Data Block (type 4) is what an RDMA transfer uses: a
// 3-byte length and the remote key of the host's memory; an SGL Data
// Block (type 0) with the Offset sub type says the data is in the
// capsule.
//
//	bytes 0-7   Address
//	bytes 8-14  Keyed: Length (bytes 8-10), Key (bytes 11-14); otherwise Length (bytes 8-11)
//	byte 15     Type (bits 7:4), SubType (bits 3:0)
type SGL struct {
	Address uint64
	Length  uint32 // 24 bits in a Keyed SGL Data Block
	Key     uint32 // Keyed SGL Data Block only
	Rsvd    uint32 // the bytes between Length and the type, reserved: 3 bytes of other types, kept for byte-exact re-encoding
	Type    SGLType
	SubType SGLSubType
}

// SGLType is the descriptor type of an SGL descriptor.
type SGLType uint8

// The SGL descriptor types (NVMe Base 2.0, Figure 117).
const (
	SGLDataBlock          SGLType = 0x0
	SGLBitBucket          SGLType = 0x1
	SGLSegment            SGLType = 0x2
	SGLLastSegment        SGLType = 0x3
	SGLKeyedDataBlock     SGLType = 0x4
	SGLTransportDataBlock SGLType = 0x5
)

// String returns the type's name, or "" for a reserved one.
func (t SGLType) String() string { return sglTypes[t&0xf] }

// SGLSubType is the sub type of an SGL descriptor.
type SGLSubType uint8

// The SGL descriptor sub types (NVMe Base 2.0, Figure 118; NVMe/RDMA 1.0,
// 3.4: Invalidate Key, the transport-specific sub type of a Keyed SGL
// Data Block).
const (
	SGLAddress       SGLSubType = 0x0
	SGLOffset        SGLSubType = 0x1
	SGLInvalidateKey SGLSubType = 0xf
)

// String returns the sub type's name, or "" for a reserved one.
func (t SGLSubType) String() string { return sglSubTypes[t&0xf] }

// Keyed reports whether the descriptor is a Keyed SGL Data Block: its
// data moves by RDMA READ or WRITE of Length bytes at Address with Key.
func (s *SGL) Keyed() bool { return s.Type == SGLKeyedDataBlock }

// InCapsule reports whether the descriptor points into the capsule: an
// SGL Data Block with the Offset sub type (its data is the capsule's, at
// Address bytes after the command).
func (s *SGL) InCapsule() bool { return s.Type == SGLDataBlock && s.SubType == SGLOffset }

// Decode reads the descriptor at the start of b.
func (s *SGL) Decode(b []byte) error {
	if len(b) < SGLLen {
		*s = SGL{}
		return errSGLCut[len(b)]
	}
	s.parse(b)
	return nil
}

var errSGLCut = errs.TruncatedTable("SGL descriptor", 0, SGLLen)

func (s *SGL) parse(b []byte) {
	*s = SGL{Address: le.Uint64(b), Type: SGLType(b[15] >> 4), SubType: SGLSubType(b[15] & 0xf)}
	if s.Type == SGLKeyedDataBlock {
		s.Length = uint32(b[8]) | uint32(b[9])<<8 | uint32(b[10])<<16
		s.Key = le.Uint32(b[11:])
		return
	}
	s.Length = le.Uint32(b[8:])
	s.Rsvd = uint32(b[12]) | uint32(b[13])<<8 | uint32(b[14])<<16
}

// Len returns SGLLen.
func (s *SGL) Len() int { return SGLLen }

// Validate reports the first field whose value does not fit.
func (s *SGL) Validate() error {
	lenBits, rsvdBits := uint(32), uint(24)
	if s.Type == SGLKeyedDataBlock {
		lenBits, rsvdBits = 24, 0
	}
	for _, f := range []struct {
		name string
		v    uint64
		bits uint
	}{{"SGL.Length", uint64(s.Length), lenBits}, {"SGL.Rsvd", uint64(s.Rsvd), rsvdBits}, {"SGL.Type", uint64(s.Type), 4}, {"SGL.SubType", uint64(s.SubType), 4}} {
		if err := errs.Fit(f.name, f.v, f.bits); err != nil {
			return err
		}
	}
	if s.Type != SGLKeyedDataBlock && s.Key != 0 {
		return &errs.FieldError{Field: "SGL.Key", Text: strconv.FormatUint(uint64(s.Key), 10), Reason: "is set in a descriptor that is not a Keyed SGL Data Block", Err: errs.ErrBadValue}
	}
	return nil
}

// AppendTo appends the descriptor's 16 bytes to b.
func (s *SGL) AppendTo(b []byte) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return b, err
	}
	return s.append(b), nil
}

func (s *SGL) append(b []byte) []byte {
	b = le.AppendUint64(b, s.Address)
	if s.Type == SGLKeyedDataBlock {
		b = append(b, byte(s.Length), byte(s.Length>>8), byte(s.Length>>16))
		b = le.AppendUint32(b, s.Key)
	} else {
		b = le.AppendUint32(b, s.Length)
		b = append(b, byte(s.Rsvd), byte(s.Rsvd>>8), byte(s.Rsvd>>16))
	}
	return append(b, byte(s.Type)<<4|byte(s.SubType))
}
