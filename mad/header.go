package mad

import (
	"encoding/binary"
	"strconv"

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
	Status            Status // status (responses)
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
		return truncated("MAD", HeaderLen, len(b))
	}
	h.BaseVersion = b[offBaseVersion]
	h.MgmtClass = Class(b[offMgmtClass])
	h.ClassVersion = b[offClassVersion]
	h.Response = b[offMethod]&responseBit != 0
	h.Method = Method(b[offMethod] &^ responseBit)
	h.Status = Status(binary.BigEndian.Uint16(b[offStatus:]))
	h.ClassSpecific = binary.BigEndian.Uint16(b[offClassSpecific:])
	h.TransactionID = binary.BigEndian.Uint64(b[offTID:])
	h.AttributeID = binary.BigEndian.Uint16(b[offAttrID:])
	h.Resv = binary.BigEndian.Uint16(b[offResv:])
	h.AttributeModifier = binary.BigEndian.Uint32(b[offAttrMod:])
	return nil
}

// Len returns HeaderLen, the bytes AppendTo writes.
func (h *Header) Len() int { return HeaderLen }

// DataLen is the size of the MAD data, what follows the common header.
const DataLen = Len - HeaderLen

// Validate reports a field value the header cannot carry, as a
// *FieldError wrapping ErrBadValue.
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
	binary.BigEndian.PutUint16(p[offStatus:], uint16(h.Status))
	binary.BigEndian.PutUint16(p[offClassSpecific:], h.ClassSpecific)
	binary.BigEndian.PutUint64(p[offTID:], h.TransactionID)
	binary.BigEndian.PutUint16(p[offAttrID:], h.AttributeID)
	binary.BigEndian.PutUint16(p[offResv:], h.Resv)
	binary.BigEndian.PutUint32(p[offAttrMod:], h.AttributeModifier)
	return append(b, p[:]...), nil
}

// The method names of IBTA Vol 1, Table 119, indexed by the method byte
// (response bit included): a response's name is its request's with
// "Resp", and a Set is answered by a GetResp.
var methodNames = [256]string{
	0x01: "Get", 0x02: "Set", 0x03: "Send", 0x05: "Trap", 0x06: "Report",
	0x07: "TrapRepress", 0x12: "GetTable", 0x13: "GetTraceTable",
	0x14: "GetMulti", 0x15: "Delete",
	0x81: "GetResp", 0x86: "ReportResp", 0x92: "GetTableResp",
	0x93: "GetTraceTableResp", 0x94: "GetMultiResp", 0x95: "DeleteResp",
}

// MethodByte returns the method byte as the wire carries it: the method
// with the response bit.
func (h *Header) MethodByte() uint8 {
	if h.Response {
		return uint8(h.Method) | responseBit
	}
	return uint8(h.Method)
}

// MethodName returns the name of the method ("Get", "GetResp", "Send"),
// or "Method(0x..)" for a method IBTA does not name.
func (h *Header) MethodName() string { return string(h.appendMethod(nil)) }

func (h *Header) appendMethod(b []byte) []byte {
	if s := methodNames[h.MethodByte()]; s != "" {
		return append(b, s...)
	}
	return appendHexName(b, "Method(0x", uint64(h.MethodByte()), 2)
}

// ClassName returns the name of the management class ("CM", "SA"), or
// "Class(0x..)" for a class this package does not know.
func (h *Header) ClassName() string { return h.MgmtClass.String() }

// AttributeName returns the name of the attribute in its class
// ("ConnectRequest", "PathRecord"), or "Attribute(0x....)" for one this
// package does not know.
func (h *Header) AttributeName() string { return string(h.appendAttribute(nil)) }

func (h *Header) appendAttribute(b []byte) []byte {
	if s := classes[h.MgmtClass].attrName(h.AttributeID); s != "" {
		return append(b, s...)
	}
	return appendHexName(b, "Attribute(0x", uint64(h.AttributeID), 4)
}

// String returns the class, method and attribute, "CM Send
// ConnectRequest".
func (h *Header) String() string { return string(h.AppendText(nil)) }

// AppendText appends what String returns to b, allocating only when b
// lacks the capacity.
func (h *Header) AppendText(b []byte) []byte {
	b = h.MgmtClass.appendName(b)
	b = append(b, ' ')
	b = h.appendMethod(b)
	b = append(b, ' ')
	return h.appendAttribute(b)
}

// appendHexName appends prefix, v in hex with digits digits, and ")".
func appendHexName(b []byte, prefix string, v uint64, digits int) []byte {
	b = append(b, prefix...)
	for s := (digits - 1) * 4; s >= 0; s -= 4 {
		b = append(b, "0123456789abcdef"[v>>uint(s)&0xf])
	}
	return append(b, ')')
}

// Status is the status field of a MAD response (IBTA Vol 1, 13.4.7):
// bit 0 busy, bit 1 redirect required, bits 2-4 the invalid-field code,
// bits 8-14 a class-specific code.
type Status uint16

// The invalid-field codes of Status (bits 2-4).
const (
	StatusOK                  = 0 // no invalid fields
	StatusBadVersion          = 1 // class or base version not supported
	StatusMethodUnsupported   = 2 // method not supported
	StatusMethodAttrUnsupport = 3 // method and attribute combination not supported
	StatusInvalidField        = 7 // one or more invalid fields in the attribute or modifier
)

var statusCodeNames = [8]string{
	StatusOK:                  "ok",
	StatusBadVersion:          "bad version",
	StatusMethodUnsupported:   "method not supported",
	StatusMethodAttrUnsupport: "method/attribute combination not supported",
	StatusInvalidField:        "invalid field value",
}

// Busy reports bit 0: the responder is busy and the request was dropped.
func (s Status) Busy() bool { return s&1 != 0 }

// Redirect reports bit 1: redirection required (see ClassPortInfo).
func (s Status) Redirect() bool { return s&2 != 0 }

// Code returns the invalid-field code, bits 2-4.
func (s Status) Code() uint8 { return uint8(s>>2) & 7 }

// ClassCode returns the class-specific code, bits 8-14 (for SA, the
// ERR_ codes of IBTA Vol 1, Table 189).
func (s Status) ClassCode() uint8 { return uint8(s>>8) & 0x7f }

// String describes the status: "ok", "busy", "invalid field value",
// codes without a name in hex.
func (s Status) String() string {
	if s == 0 {
		return "ok"
	}
	var out string
	add := func(t string) {
		if out != "" {
			out += ", "
		}
		out += t
	}
	if s.Busy() {
		add("busy")
	}
	if s.Redirect() {
		add("redirect")
	}
	if c := s.Code(); c != 0 {
		if statusCodeNames[c] != "" {
			add(statusCodeNames[c])
		} else {
			add("code " + strconv.Itoa(int(c)))
		}
	}
	if c := s.ClassCode(); c != 0 {
		add("class code " + strconv.Itoa(int(c)))
	}
	return out
}

// hex formats v in lowercase hex with at least digits digits.
func hex(v uint64, digits int) string {
	s := strconv.FormatUint(v, 16)
	for len(s) < digits {
		s = "0" + s
	}
	return s
}
