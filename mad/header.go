package mad

import (
	"encoding/binary"

	"github.com/roce-go/roce/internal/errs"
)

// Sizes of a MAD (IBTA Vol 1, 13.4.2) and of its common header (13.4.3).
const (
	Len       = 256 // every MAD is 256 bytes
	HeaderLen = 24  // the common MAD header
)

// The offsets of the common MAD header's fields.
const (
	offBaseVersion   = 0
	offMgmtClass     = 1
	offClassVersion  = 2
	offMethod        = 3 // R bit (0x80) and method (7 bits)
	offStatus        = 4
	offClassSpecific = 6
	offTID           = 8
	offAttrID        = 16
	offResv          = 18
	offAttrMod       = 20
)

// Class is a management class (IBTA Vol 1, Table 118).
type Class uint8

// The management classes this package decodes.
const (
	ClassSubnLID Class = 0x01 // subnet management, LID routed
	ClassSubnAdm Class = 0x03 // subnet administration
	ClassPerfMgt Class = 0x04 // performance management
	ClassCM      Class = 0x07 // communication management
	ClassSubnDR  Class = 0x81 // subnet management, directed route
)

// Method is a MAD method (IBTA Vol 1, Table 119), without the response
// bit.
type Method uint8

// The common methods.
const (
	MethodGet           Method = 0x01
	MethodSet           Method = 0x02
	MethodSend          Method = 0x03
	MethodTrap          Method = 0x05
	MethodReport        Method = 0x06
	MethodTrapRepress   Method = 0x07
	MethodGetTable      Method = 0x12
	MethodGetTraceTable Method = 0x13
	MethodGetMulti      Method = 0x14
	MethodDelete        Method = 0x15
)

// responseBit is the R bit of the method byte.
const responseBit = 0x80

// Header is the common MAD header (IBTA Vol 1, 13.4.3):
//
//	+---------------+---------------+---------------+-+-------------+
//	|  BaseVersion  |   MgmtClass   | ClassVersion  |R|   Method    |
//	+---------------+---------------+---------------+-+-------------+
//	|            Status             |        ClassSpecific          |
//	+-------------------------------+-------------------------------+
//	|                        TransactionID (64)                     |
//	+-------------------------------+-------------------------------+
//	|          AttributeID          |           Reserved            |
//	+-------------------------------+-------------------------------+
//	|                       AttributeModifier                       |
//	+---------------------------------------------------------------+
//
// A directed-route SMP reads Status and ClassSpecific as the D bit,
// status, hop pointer and hop count (IBTA Vol 1, 14.2.1.2).
type Header struct {
	BaseVersion       uint8  // 1
	MgmtClass         Class  // management class
	ClassVersion      uint8  // version of the class (2 for CM and SA)
	Response          bool   // R: the method's response bit
	Method            Method // method, 7 bits
	Status            uint16 // status (responses)
	ClassSpecific     uint16 // class-specific
	TransactionID     uint64 // transaction ID
	AttributeID       uint16 // attribute ID
	Resv              uint16 // reserved
	AttributeModifier uint32 // attribute modifier
}

// Decode decodes the header from the start of b, resetting h first.
func (h *Header) Decode(b []byte) error {
	*h = Header{}
	if len(b) < HeaderLen {
		return errs.Truncated("MAD", 0, HeaderLen, len(b))
	}
	h.BaseVersion = b[offBaseVersion]
	h.MgmtClass = Class(b[offMgmtClass])
	h.ClassVersion = b[offClassVersion]
	h.Response = b[offMethod]&responseBit != 0
	h.Method = Method(b[offMethod] &^ responseBit)
	h.Status = binary.BigEndian.Uint16(b[offStatus:])
	h.ClassSpecific = binary.BigEndian.Uint16(b[offClassSpecific:])
	h.TransactionID = binary.BigEndian.Uint64(b[offTID:])
	h.AttributeID = binary.BigEndian.Uint16(b[offAttrID:])
	h.Resv = binary.BigEndian.Uint16(b[offResv:])
	h.AttributeModifier = binary.BigEndian.Uint32(b[offAttrMod:])
	return nil
}

// Validate reports a field value the header cannot carry, as a
// *ib.FieldError.
func (h *Header) Validate() error { return errs.Fit("MAD.Method", uint64(h.Method), 7) }

// AppendTo appends the 24-byte header to b. It refuses, appending nothing,
// a value Validate refuses.
func (h *Header) AppendTo(b []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return b, err
	}
	var p [HeaderLen]byte
	p[offBaseVersion] = h.BaseVersion
	p[offMgmtClass] = byte(h.MgmtClass)
	p[offClassVersion] = h.ClassVersion
	p[offMethod] = byte(h.Method)
	if h.Response {
		p[offMethod] |= responseBit
	}
	binary.BigEndian.PutUint16(p[offStatus:], h.Status)
	binary.BigEndian.PutUint16(p[offClassSpecific:], h.ClassSpecific)
	binary.BigEndian.PutUint64(p[offTID:], h.TransactionID)
	binary.BigEndian.PutUint16(p[offAttrID:], h.AttributeID)
	binary.BigEndian.PutUint16(p[offResv:], h.Resv)
	binary.BigEndian.PutUint32(p[offAttrMod:], h.AttributeModifier)
	return append(b, p[:]...), nil
}
