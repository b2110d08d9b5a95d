package mad

import (
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// The CM attribute IDs (IBTA Vol 1, 12.6.3, Table 96).
const (
	AttrConnectRequest        = 0x0010 // REQ
	AttrMsgRcptAck            = 0x0011 // MRA
	AttrConnectReject         = 0x0012 // REJ
	AttrConnectReply          = 0x0013 // REP
	AttrReadyToUse            = 0x0014 // RTU
	AttrDisconnectRequest     = 0x0015 // DREQ
	AttrDisconnectReply       = 0x0016 // DREP
	AttrServiceIDResReq       = 0x0017 // SIDR_REQ
	AttrServiceIDResReqResp   = 0x0018 // SIDR_REP
	AttrLoadAlternatePath     = 0x0019 // LAP
	AttrAlternatePathResponse = 0x001A // APR
)

// cmAttr is one row of the CM attribute table.
type cmAttr struct {
	name   string             // IBTA's attribute name, "ConnectRequest"
	short  string             // the message's short name, "REQ"
	layer  string             // the name errors give, "CM.REQ"
	member func(c *CM) walker // the CM field for it
	size   int                // bytes it needs
}

// cmAttrs is the CM attribute table, indexed by attribute ID.
var cmAttrs = [...]cmAttr{
	AttrClassPortInfo:         {"ClassPortInfo", "ClassPortInfo", "CM.ClassPortInfo", func(c *CM) walker { return &c.ClassPortInfo }, ClassPortInfoLen},
	AttrConnectRequest:        {"ConnectRequest", "REQ", "CM.REQ", func(c *CM) walker { return &c.REQ }, DataLen},
	AttrMsgRcptAck:            {"MsgRcptAck", "MRA", "CM.MRA", func(c *CM) walker { return &c.MRA }, DataLen},
	AttrConnectReject:         {"ConnectReject", "REJ", "CM.REJ", func(c *CM) walker { return &c.REJ }, DataLen},
	AttrConnectReply:          {"ConnectReply", "REP", "CM.REP", func(c *CM) walker { return &c.REP }, DataLen},
	AttrReadyToUse:            {"ReadyToUse", "RTU", "CM.RTU", func(c *CM) walker { return &c.RTU }, DataLen},
	AttrDisconnectRequest:     {"DisconnectRequest", "DREQ", "CM.DREQ", func(c *CM) walker { return &c.DREQ }, DataLen},
	AttrDisconnectReply:       {"DisconnectReply", "DREP", "CM.DREP", func(c *CM) walker { return &c.DREP }, DataLen},
	AttrServiceIDResReq:       {"ServiceIDResReq", "SIDR_REQ", "CM.SIDR_REQ", func(c *CM) walker { return &c.SIDRREQ }, DataLen},
	AttrServiceIDResReqResp:   {"ServiceIDResReqResp", "SIDR_REP", "CM.SIDR_REP", func(c *CM) walker { return &c.SIDRREP }, DataLen},
	AttrLoadAlternatePath:     {"LoadAlternatePath", "LAP", "CM.LAP", func(c *CM) walker { return &c.LAP }, DataLen},
	AttrAlternatePathResponse: {"AlternatePathResponse", "APR", "CM.APR", func(c *CM) walker { return &c.APR }, DataLen},
}

// cmAttrOf returns the row of a CM attribute, or nil.
func cmAttrOf(id uint16) *cmAttr {
	if int(id) < len(cmAttrs) && cmAttrs[id].member != nil {
		return &cmAttrs[id]
	}
	return nil
}

// cmAttrName names a CM attribute for the class table.
func cmAttrName(id uint16) string {
	if a := cmAttrOf(id); a != nil {
		return a.name
	}
	return ""
}

// CM is a communication management MAD's data (class 0x07): the 232
// bytes after the common header, decoded into the member that
// AttributeID names (REQ for a ConnectRequest, ...). Only that member is
// set; the others are zero. AttributeID is the common header's: set it
// before Decode (which keeps it and resets the rest), and AppendTo
// writes the message it names.
type CM struct {
	AttributeID   uint16
	ClassPortInfo ClassPortInfo
	REQ           REQ
	MRA           MRA
	REJ           REJ
	REP           REP
	RTU           RTU
	DREQ          DREQ
	DREP          DREP
	SIDRREQ       SIDRREQ
	SIDRREP       SIDRREP
	LAP           LAP
	APR           APR

	// Reserved holds the MAD data after a message shorter than 232
	// bytes (the 160 reserved bytes after a ClassPortInfo), aliasing the
	// input; AppendTo writes it back.
	Reserved []byte
}

// Name returns the message's short name ("REQ", "SIDR_REP"), or "" for
// an attribute CM does not define.
func (c *CM) Name() string {
	if a := cmAttrOf(c.AttributeID); a != nil {
		return a.short
	}
	return ""
}

// Decode decodes data, the MAD data (DataLen bytes or more), as the
// message of the attribute c.AttributeID, resetting everything else in c
// first. An attribute CM does not define (Name returns "") decodes to
// nothing, without an error; fewer than DataLen bytes give an *Error
// wrapping ErrTruncated. Bytes after the MAD data are ignored.
func (c *CM) Decode(data []byte) error {
	*c = CM{AttributeID: c.AttributeID}
	a := cmAttrOf(c.AttributeID)
	if a == nil {
		return nil
	}
	if len(data) < DataLen {
		return truncated(a.layer, DataLen, len(data))
	}
	if err := decodeWalker(data, a.layer, a.size, a.member(c)); err != nil {
		return err
	}
	c.Reserved = data[a.size:DataLen:DataLen]
	if len(c.Reserved) == 0 {
		c.Reserved = nil
	}
	return nil
}

// Len returns DataLen, the bytes AppendTo writes.
func (c *CM) Len() int { return DataLen }

// Validate reports what AppendTo refuses: an attribute CM does not
// define, a field wider than its bits, Reserved longer than its room
// (a *FieldError: "roce: CM.REQ.LocalQPN 0x1000000 does not fit 24
// bits").
func (c *CM) Validate() error {
	var tmp [DataLen]byte
	return c.put(tmp[:])
}

// put writes the message and Reserved into p, DataLen zero bytes, or
// refuses what Validate refuses.
func (c *CM) put(p []byte) error {
	a := cmAttrOf(c.AttributeID)
	if a == nil {
		return errs.Field("CM.AttributeID", uint64(c.AttributeID), "is not a CM attribute", errs.ErrBadValue)
	}
	if len(c.Reserved) > DataLen-a.size {
		return errs.Length("CM.Reserved", len(c.Reserved), "longer than the "+strconv.Itoa(DataLen-a.size)+" bytes after "+a.name, errs.ErrBadValue)
	}
	if err := a.member(c).walk(codec{b: p, enc: true, name: a.layer}); err != nil {
		return err
	}
	copy(p[a.size:], c.Reserved)
	return nil
}

// AppendTo appends the 232 bytes of MAD data: the message AttributeID
// names, then Reserved after a shorter one, zeros after that. It
// refuses, appending nothing, what Validate refuses. A whole MAD is the
// common header (Header.AppendTo) and these bytes.
func (c *CM) AppendTo(b []byte) ([]byte, error) {
	n := len(b)
	b = grow(b, DataLen)
	if err := c.put(b[n:]); err != nil {
		return b[:n], err
	}
	return b, nil
}
