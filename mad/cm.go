package mad

import (
	"strconv"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

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
	member func(c *CM) walker // the CM layer's field for it
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

// CM is the gopacket layer of a communication management MAD's data
// (class 0x07): the 232 bytes after the common header, decoded into the
// member that AttributeID names (REQ for a ConnectRequest, ...). Only
// that member is set; the others are zero.
//
// In a Layers set or a gopacket.Packet, AttributeID comes from the MAD
// the layer follows. Decoded on its own, the layer reads the message
// that AttributeID names as the caller set it before DecodeFromBytes;
// SerializeTo writes that message too.
type CM struct {
	layers.BaseLayer
	mad *MAD

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
	// input; SerializeTo writes it back.
	Reserved []byte
}

func (c *CM) link(m *MAD) { c.mad = m }

// LayerType returns LayerTypeCM.
func (c *CM) LayerType() gopacket.LayerType { return LayerTypeCM }

// CanDecode returns LayerTypeCM.
func (c *CM) CanDecode() gopacket.LayerClass { return LayerTypeCM }

// NextLayerType returns gopacket.LayerTypeZero after a CM message, which
// fills the MAD, and gopacket.LayerTypePayload after the data of an
// attribute CM does not define (decoded on its own; in a Layers set the
// MAD sends that data to the payload layer).
func (c *CM) NextLayerType() gopacket.LayerType {
	if len(c.Payload) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}

// Name returns the message's short name ("REQ", "SIDR_REP"), or "" for
// an attribute CM does not define.
func (c *CM) Name() string {
	if a := cmAttrOf(c.AttributeID); a != nil {
		return a.short
	}
	return ""
}

// DecodeFromBytes decodes the MAD data (232 bytes) as the message of the
// attribute, resetting c first; df may be nil. An attribute CM does not
// define leaves every message zero and the data in Payload.
func (c *CM) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	id := c.AttributeID
	if c.mad != nil {
		id = c.mad.AttributeID
	}
	*c = CM{mad: c.mad, AttributeID: id}
	a := cmAttrOf(id)
	if a == nil {
		c.Payload = data
		return nil
	}
	if len(data) < DataLen {
		setTruncated(df)
		return truncated(a.layer, DataLen, len(data))
	}
	if err := decodeWalker(data, a.layer, a.size, a.member(c)); err != nil {
		return err
	}
	c.Contents, c.Payload = data[:DataLen], data[DataLen:] // bytes after the MAD, if any
	c.Reserved = data[a.size:DataLen:DataLen]
	if len(c.Reserved) == 0 {
		c.Reserved = nil
	}
	return nil
}

// SerializeTo prepends the 232 bytes of the message AttributeID names
// (and Reserved after a shorter one). It refuses an attribute CM does not
// define, a field wider than its bits and Reserved longer than its room, with an *ib.FieldError ("roce: CM.REQ.LocalQPN 0x1000000 does
// not fit 24 bits").
func (c *CM) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	a := cmAttrOf(c.AttributeID)
	if a == nil {
		return errs.Field("CM.AttributeID", uint64(c.AttributeID), "is not a CM attribute", errs.ErrBadValue)
	}
	if len(c.Reserved) > DataLen-a.size {
		return errs.Length("CM.Reserved", len(c.Reserved), "longer than the "+strconv.Itoa(DataLen-a.size)+" bytes after "+a.name, errs.ErrBadValue)
	}
	var tmp [DataLen]byte
	if err := a.member(c).walk(codec{b: tmp[:], enc: true, name: a.layer}); err != nil {
		return err
	}
	copy(tmp[a.size:], c.Reserved)
	p, err := b.PrependBytes(DataLen)
	if err != nil {
		return err
	}
	copy(p, tmp[:])
	return nil
}
