package mad

import (
	"github.com/roce-go/roce/internal/errs"
)

// Sizes in a subnet management packet (IBTA Vol 1, 14.2.1).
const (
	SMPDataLen  = 64 // the SMP data field that holds the attribute
	PathLen     = 64 // each of the directed-route InitialPath and ReturnPath
	MaxHopCount = 63 // the most hops a directed route's 64-byte paths describe
)

// Offsets in an SMP (IBTA Vol 1, 14.2.1.1 and 14.2.1.2), from the first
// byte of the MAD.
const (
	smpOffMKey        = 24  // M_Key, both forms
	smpOffResv        = 32  // LID routed: 32 reserved bytes
	smpOffDrSLID      = 32  // directed route: DrSLID
	smpOffDrDLID      = 34  // directed route: DrDLID
	smpOffDrResv      = 36  // directed route: 28 reserved bytes
	smpOffData        = 64  // SMP data, both forms
	smpOffTail        = 128 // LID routed: 128 reserved bytes
	smpOffInitialPath = 128 // directed route: InitialPath
	smpOffReturnPath  = 192 // directed route: ReturnPath
)

// The directed-route fields the common header's Status and ClassSpecific
// carry (IBTA Vol 1, 14.2.1.2).
const (
	drDirection  = 0x8000 // Status bit 15: D, set on the way back
	drStatusMask = 0x7fff // Status bits 14-0
)

// SMP is a LID-routed subnet management packet, management class 0x01
// (IBTA Vol 1, 14.2.1.1), the whole 256-byte MAD:
//
//	bytes   0-23   common MAD header
//	bytes  24-31   M_Key
//	bytes  32-63   reserved (32 bytes)
//	bytes  64-127  SMP data: the attribute (NodeInfo, PortInfo, ...)
//	bytes 128-255  reserved (128 bytes)
//
// Decode and AppendTo take the whole MAD; DecodeData the 232 bytes after
// a header decoded before them. Decode the attribute the header's
// AttributeID names from Data, for example with NodeInfo.Decode.
type SMP struct {
	Header                         // common MAD header; MgmtClass is ClassSubnLID
	MKey    uint64                 // M_Key
	Resv32  [32]byte               // reserved
	Data    [SMPDataLen]byte       // SMP data
	Resv128 [Len - smpOffTail]byte // reserved
}

// SMPDirected is a directed-route subnet management packet, management
// class 0x81 (IBTA Vol 1, 14.2.1.2), the whole 256-byte MAD:
//
//	bytes   0-23   common MAD header, whose Status holds the D bit
//	               (bit 15) and the SMP status (bits 14-0) and whose
//	               ClassSpecific holds the hop pointer (high byte) and
//	               the hop count (low byte)
//	bytes  24-31   M_Key
//	bytes  32-33   DrSLID
//	bytes  34-35   DrDLID
//	bytes  36-63   reserved (28 bytes)
//	bytes  64-127  SMP data: the attribute
//	bytes 128-191  InitialPath: the port numbers of the outbound route
//	bytes 192-255  ReturnPath: the port numbers of the route back
//
// Direction, SMPStatus, HopPointer and HopCount read the fields packed
// into the header; SetDirection, SetSMPStatus and SetHops write them.
// Decode, DecodeData and AppendTo are as SMP's.
type SMPDirected struct {
	Header                       // common MAD header; MgmtClass is ClassSubnDR
	MKey        uint64           // M_Key
	DrSLID      uint16           // directed-route source LID (0xffff: permissive)
	DrDLID      uint16           // directed-route destination LID (0xffff: permissive)
	Resv28      [28]byte         // reserved
	Data        [SMPDataLen]byte // SMP data
	InitialPath [PathLen]byte    // outbound ports; entry 0 is unused
	ReturnPath  [PathLen]byte    // return ports; entry 0 is unused
}

// Direction returns the D bit: false on the way out (a request), true on
// the way back (a response).
func (s *SMPDirected) Direction() bool { return s.Status&drDirection != 0 }

// SMPStatus returns the 15-bit status of a directed-route SMP.
func (s *SMPDirected) SMPStatus() uint16 { return uint16(s.Status & drStatusMask) }

// HopPointer returns the hop pointer, the index of the current hop.
func (s *SMPDirected) HopPointer() uint8 { return uint8(s.ClassSpecific >> 8) }

// HopCount returns the hop count, the number of hops of the route.
func (s *SMPDirected) HopCount() uint8 { return uint8(s.ClassSpecific) }

// SetDirection sets the D bit (true: returning).
func (s *SMPDirected) SetDirection(returning bool) {
	s.Status &^= drDirection
	if returning {
		s.Status |= drDirection
	}
}

// SetSMPStatus sets the 15-bit status, keeping the D bit. It refuses a
// status wider than 15 bits with a *FieldError ("SMP.Status").
func (s *SMPDirected) SetSMPStatus(status uint16) error {
	if err := errs.Fit("SMP.Status", uint64(status), 15); err != nil {
		return err
	}
	s.Status = s.Status&drDirection | Status(status)
	return nil
}

// SetHops sets the hop pointer and the hop count. It refuses a hop count
// above MaxHopCount with a *FieldError ("SMP.HopCount") wrapping
// ErrBadLength: the 64-byte paths have no entry for a 64th hop.
func (s *SMPDirected) SetHops(pointer, count uint8) error {
	if err := checkHopCount(count); err != nil {
		return err
	}
	s.ClassSpecific = uint16(pointer)<<8 | uint16(count)
	return nil
}

func checkHopCount(n uint8) error {
	if n <= MaxHopCount {
		return nil
	}
	return errs.Field("SMP.HopCount", uint64(n), "exceeds 63, the last entry of the 64-byte paths", errs.ErrBadLength)
}

// checkMAD checks that b holds a whole MAD of the class a decoder
// expects: a shorter b is an error wrapping ErrTruncated, another class
// one wrapping ErrUnsupported.
func checkMAD(layer string, b []byte, class Class) error {
	if len(b) < Len {
		return truncated(layer, Len, len(b))
	}
	if Class(b[offMgmtClass]) != class {
		return unsupportedClass(layer)
	}
	return nil
}

// checkClass refuses, for a builder, a header whose class is not the one
// the layout belongs to, and a method wider than 7 bits.
func checkClass(field string, h *Header, class Class) error {
	if h.MgmtClass != class {
		return errs.Field(field, uint64(h.MgmtClass), "is not class 0x"+hex(uint64(class), 2), errs.ErrBadValue)
	}
	return h.Validate()
}

// Decode decodes the 256-byte MAD at the start of b, resetting s first.
// It refuses a b shorter than Len (ErrTruncated) and a MAD of a class
// other than ClassSubnLID (ErrUnsupported).
func (s *SMP) Decode(b []byte) error {
	*s = SMP{}
	return decodeMADLayout(s, "SMP", b, ClassSubnLID)
}

// DecodeData decodes d, the MAD data (the DataLen bytes after the
// common header; more are ignored), under the header h decoded before
// it, resetting s first: Header is *h. Fewer bytes give an *Error
// wrapping ErrTruncated.
func (s *SMP) DecodeData(h *Header, d []byte) error {
	*s = SMP{}
	return decodeMADData(s, "SMP", h, d)
}

// Len returns Len, the bytes AppendTo writes: the whole MAD.
func (s *SMP) Len() int { return Len }

// decodeData reads the fields after the common header from d, the MAD
// data (offsets in d are the MAD's less HeaderLen).
func (s *SMP) decodeData(d []byte) error { return s.walk(codec{b: d, name: "SMP"}) }

func (s *SMP) putData(p []byte) { _ = s.walk(codec{b: p, enc: true, name: "SMP"}) }

// walk describes the fields after the common header, in d, the MAD data
// (offsets in d are the MAD's less HeaderLen).
func (s *SMP) walk(c codec) error {
	c.u64(&s.MKey, "MKey", smpOffMKey-HeaderLen)
	c.raw(s.Resv32[:], smpOffResv-HeaderLen)
	c.raw(s.Data[:], smpOffData-HeaderLen)
	c.raw(s.Resv128[:], smpOffTail-HeaderLen)
	return c.err
}

// Validate reports a field AppendTo cannot encode as a *FieldError: a
// MgmtClass other than ClassSubnLID ("SMP.MgmtClass") or a method wider
// than 7 bits.
func (s *SMP) Validate() error { return checkClass("SMP.MgmtClass", &s.Header, ClassSubnLID) }

// AppendTo appends the 256-byte MAD to b. It refuses, appending nothing,
// what Validate refuses.
func (s *SMP) AppendTo(b []byte) ([]byte, error) { return appendMAD(s, b) }

// Decode decodes the 256-byte MAD at the start of b, resetting s first.
// It refuses a b shorter than Len (ErrTruncated), a MAD of a class other
// than ClassSubnDR (ErrUnsupported) and a hop count above MaxHopCount
// (ErrBadLength).
func (s *SMPDirected) Decode(b []byte) error {
	*s = SMPDirected{}
	return decodeMADLayout(s, "SMPDirected", b, ClassSubnDR)
}

// DecodeData decodes d, the MAD data, under the header h decoded before
// it, resetting s first, as SMP.DecodeData does; a hop count in h above
// MaxHopCount is an error wrapping ErrBadLength.
func (s *SMPDirected) DecodeData(h *Header, d []byte) error {
	*s = SMPDirected{}
	return decodeMADData(s, "SMPDirected", h, d)
}

// Len returns Len, the bytes AppendTo writes: the whole MAD.
func (s *SMPDirected) Len() int { return Len }

// decodeData checks the header's hop count and reads the fields after the
// common header from d, the MAD data.
func (s *SMPDirected) decodeData(d []byte) error {
	if s.HopCount() > MaxHopCount {
		return errHops
	}
	return s.walk(codec{b: d, name: "SMPDirected"})
}

func (s *SMPDirected) putData(p []byte) { _ = s.walk(codec{b: p, enc: true, name: "SMPDirected"}) }

// walk describes the fields after the common header, in the MAD data.
func (s *SMPDirected) walk(c codec) error {
	c.u64(&s.MKey, "MKey", smpOffMKey-HeaderLen)
	c.u16(&s.DrSLID, "DrSLID", smpOffDrSLID-HeaderLen, 0, 16)
	c.u16(&s.DrDLID, "DrDLID", smpOffDrDLID-HeaderLen, 0, 16)
	c.raw(s.Resv28[:], smpOffDrResv-HeaderLen)
	c.raw(s.Data[:], smpOffData-HeaderLen)
	c.raw(s.InitialPath[:], smpOffInitialPath-HeaderLen)
	c.raw(s.ReturnPath[:], smpOffReturnPath-HeaderLen)
	return c.err
}

// Validate reports a field AppendTo cannot encode as a *FieldError: a
// MgmtClass other than ClassSubnDR ("SMP.MgmtClass"), a method wider than
// 7 bits, or a hop count above MaxHopCount ("SMP.HopCount", wrapping
// ErrBadLength).
func (s *SMPDirected) Validate() error {
	if err := checkClass("SMP.MgmtClass", &s.Header, ClassSubnDR); err != nil {
		return err
	}
	return checkHopCount(s.HopCount())
}

// AppendTo appends the 256-byte MAD to b. It refuses, appending nothing,
// what Validate refuses.
func (s *SMPDirected) AppendTo(b []byte) ([]byte, error) { return appendMAD(s, b) }
