package mad

import (
	"encoding/binary"
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// SMPAttribute is the AttributeID of a subnet management packet (IBTA
// Vol 1, 14.2.5, Table 145).
type SMPAttribute uint16

// The SMP attributes. This package decodes the data of NodeDescription,
// NodeInfo, SwitchInfo, GUIDInfo, PortInfo, P_KeyTable and SMInfo; the
// others are named only.
const (
	SMPAttrNotice                   SMPAttribute = 0x0002
	SMPAttrNodeDescription          SMPAttribute = 0x0010
	SMPAttrNodeInfo                 SMPAttribute = 0x0011
	SMPAttrSwitchInfo               SMPAttribute = 0x0012
	SMPAttrGUIDInfo                 SMPAttribute = 0x0014
	SMPAttrPortInfo                 SMPAttribute = 0x0015
	SMPAttrPKeyTable                SMPAttribute = 0x0016
	SMPAttrSLtoVLMappingTable       SMPAttribute = 0x0017
	SMPAttrVLArbitrationTable       SMPAttribute = 0x0018
	SMPAttrLinearForwardingTable    SMPAttribute = 0x0019
	SMPAttrRandomForwardingTable    SMPAttribute = 0x001a
	SMPAttrMulticastForwardingTable SMPAttribute = 0x001b
	SMPAttrLinkSpeedWidthPairsTable SMPAttribute = 0x001c
	SMPAttrSMInfo                   SMPAttribute = 0x0020
	SMPAttrVendorDiag               SMPAttribute = 0x0030
	SMPAttrLedInfo                  SMPAttribute = 0x0031
)

// smpAttrNames names the SMP attributes as IBTA spells them.
var smpAttrNames = map[SMPAttribute]string{
	SMPAttrNotice:                   "Notice",
	SMPAttrNodeDescription:          "NodeDescription",
	SMPAttrNodeInfo:                 "NodeInfo",
	SMPAttrSwitchInfo:               "SwitchInfo",
	SMPAttrGUIDInfo:                 "GUIDInfo",
	SMPAttrPortInfo:                 "PortInfo",
	SMPAttrPKeyTable:                "P_KeyTable",
	SMPAttrSLtoVLMappingTable:       "SLtoVLMappingTable",
	SMPAttrVLArbitrationTable:       "VLArbitrationTable",
	SMPAttrLinearForwardingTable:    "LinearForwardingTable",
	SMPAttrRandomForwardingTable:    "RandomForwardingTable",
	SMPAttrMulticastForwardingTable: "MulticastForwardingTable",
	SMPAttrLinkSpeedWidthPairsTable: "LinkSpeedWidthPairsTable",
	SMPAttrSMInfo:                   "SMInfo",
	SMPAttrVendorDiag:               "VendorDiag",
	SMPAttrLedInfo:                  "LedInfo",
}

// String returns the attribute's IBTA name, or "0x" and four hex digits
// for an ID it does not know (0xff00-0xffff are vendor specific).
func (a SMPAttribute) String() string { return attrName(smpAttrNames[a], uint16(a)) }

// attrName returns name, or the ID in hex when name is empty.
func attrName(name string, id uint16) string {
	if name != "" {
		return name
	}
	return "0x" + hex(uint64(id), 4)
}

// width is one field a builder checks: its name, its value and the bits
// it has on the wire.
type width struct {
	field string
	v     uint8
	bits  uint
}

// checkWidths returns a *FieldError for the first value that does not
// fit its bits.
func checkWidths(ws []width) error {
	for _, w := range ws {
		if w.v>>w.bits != 0 {
			return errs.Fit(w.field, uint64(w.v), w.bits)
		}
	}
	return nil
}

// checkData returns an error wrapping ErrTruncated when b is shorter
// than the n bytes of the data field an attribute is decoded from.
func checkData(layer string, b []byte, n int) error {
	if len(b) < n {
		return truncated(layer, n, len(b))
	}
	return nil
}

// appendData appends an n-byte data field to b and returns the whole and
// the zeroed new part.
func appendData(b []byte, n int) (whole, added []byte) {
	b = grow(b, n)
	return b, b[len(b)-n:]
}

// bit returns 1 for true.
func bit(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// NodeType is the NodeInfo NodeType (IBTA Vol 1, 14.2.5.3).
type NodeType uint8

// The node types.
const (
	NodeTypeCA     NodeType = 1 // channel adapter
	NodeTypeSwitch NodeType = 2
	NodeTypeRouter NodeType = 3
)

var nodeTypeNames = [...]string{NodeTypeCA: "CA", NodeTypeSwitch: "Switch", NodeTypeRouter: "Router"}

// String returns "CA", "Switch" or "Router", or the number for another
// value.
func (t NodeType) String() string { return enumName(nodeTypeNames[:], uint8(t)) }

// enumName returns names[v], or v in decimal when names has none.
func enumName(names []string, v uint8) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return strconv.Itoa(int(v))
}

// NodeInfo is the NodeInfo attribute (IBTA Vol 1, 14.2.5.3), the first 40
// bytes of the SMP data:
//
//	byte  0 BaseVersion        byte  1 ClassVersion
//	byte  2 NodeType           byte  3 NumPorts
//	bytes 4-11 SystemImageGUID bytes 12-19 NodeGUID   bytes 20-27 PortGUID
//	bytes 28-29 PartitionCap   bytes 30-31 DeviceID   bytes 32-35 Revision
//	byte 36 LocalPortNum       bytes 37-39 VendorID
type NodeInfo struct {
	BaseVersion     uint8    // the MAD base version the node supports
	ClassVersion    uint8    // the SMP class version
	NodeType        NodeType // CA, switch or router
	NumPorts        uint8    // physical ports
	SystemImageGUID uint64   // GUID of the system the node is part of
	NodeGUID        uint64   // GUID of the node
	PortGUID        uint64   // GUID of the port the SMP arrived on
	PartitionCap    uint16   // P_Key table entries per port
	DeviceID        uint16   // device ID, vendor assigned
	Revision        uint32   // device revision, vendor assigned
	LocalPortNum    uint8    // the port the SMP arrived on
	VendorID        uint32   // IEEE OUI of the vendor, 24 bits
}

// Decode decodes the attribute from b, the 64-byte SMP data, resetting n
// first. A shorter b is an error wrapping ErrTruncated.
func (n *NodeInfo) Decode(b []byte) error {
	*n = NodeInfo{}
	if err := checkData("NodeInfo", b, SMPDataLen); err != nil {
		return err
	}
	n.BaseVersion, n.ClassVersion, n.NodeType, n.NumPorts = b[0], b[1], NodeType(b[2]), b[3]
	n.SystemImageGUID = binary.BigEndian.Uint64(b[4:])
	n.NodeGUID = binary.BigEndian.Uint64(b[12:])
	n.PortGUID = binary.BigEndian.Uint64(b[20:])
	n.PartitionCap = binary.BigEndian.Uint16(b[28:])
	n.DeviceID = binary.BigEndian.Uint16(b[30:])
	n.Revision = binary.BigEndian.Uint32(b[32:])
	n.LocalPortNum = b[36]
	n.VendorID = binary.BigEndian.Uint32(b[36:]) & 0xffffff
	return nil
}

// AppendTo appends the 64-byte SMP data to b, reserved bytes zero. It
// refuses, appending nothing, a VendorID wider than 24 bits
// ("NodeInfo.VendorID").
func (n *NodeInfo) AppendTo(b []byte) ([]byte, error) {
	if err := fit24("NodeInfo.VendorID", n.VendorID); err != nil {
		return b, err
	}
	b, p := appendData(b, SMPDataLen)
	p[0], p[1], p[2], p[3] = n.BaseVersion, n.ClassVersion, byte(n.NodeType), n.NumPorts
	binary.BigEndian.PutUint64(p[4:], n.SystemImageGUID)
	binary.BigEndian.PutUint64(p[12:], n.NodeGUID)
	binary.BigEndian.PutUint64(p[20:], n.PortGUID)
	binary.BigEndian.PutUint16(p[28:], n.PartitionCap)
	binary.BigEndian.PutUint16(p[30:], n.DeviceID)
	binary.BigEndian.PutUint32(p[32:], n.Revision)
	binary.BigEndian.PutUint32(p[36:], n.VendorID)
	p[36] = n.LocalPortNum
	return b, nil
}

// NodeDescription is the NodeDescription attribute (IBTA Vol 1,
// 14.2.5.2): the 64-byte NodeString, UTF-8, padded with NUL bytes.
type NodeDescription struct {
	NodeString [SMPDataLen]byte
}

// Decode decodes the attribute from b, the 64-byte SMP data. A shorter b
// is an error wrapping ErrTruncated.
func (n *NodeDescription) Decode(b []byte) error {
	*n = NodeDescription{}
	if err := checkData("NodeDescription", b, SMPDataLen); err != nil {
		return err
	}
	copy(n.NodeString[:], b)
	return nil
}

// AppendTo appends the 64-byte SMP data to b.
func (n *NodeDescription) AppendTo(b []byte) ([]byte, error) {
	return append(b, n.NodeString[:]...), nil
}

// Text returns the NodeString up to its first NUL byte.
func (n *NodeDescription) Text() string {
	s := n.NodeString[:]
	for i, c := range s {
		if c == 0 {
			s = s[:i]
			break
		}
	}
	return string(s)
}

// SMState is the state of a subnet manager (IBTA Vol 1, 14.4.1).
type SMState uint8

// The subnet manager states.
const (
	SMStateNotActive   SMState = 0
	SMStateDiscovering SMState = 1
	SMStateStandby     SMState = 2
	SMStateMaster      SMState = 3
)

var smStateNames = [...]string{SMStateNotActive: "NotActive", SMStateDiscovering: "Discovering",
	SMStateStandby: "Standby", SMStateMaster: "Master"}

// String returns the state's IBTA name, or the number for another value.
func (s SMState) String() string { return enumName(smStateNames[:], uint8(s)) }

// SMInfo is the SMInfo attribute (IBTA Vol 1, 14.2.5.13), the first 21
// bytes of the SMP data:
//
//	bytes 0-7 GUID   bytes 8-15 SM_Key   bytes 16-19 ActCount
//	byte 20   Priority (bits 7-4), SMState (bits 3-0)
type SMInfo struct {
	GUID     uint64  // port GUID of the subnet manager
	SMKey    uint64  // SM_Key (zero unless the requester is trusted)
	ActCount uint32  // counter that increases while the SM is active
	Priority uint8   // administrative priority, 4 bits
	SMState  SMState // state of the SM, 4 bits
}

// Decode decodes the attribute from b, the 64-byte SMP data, resetting s
// first. A shorter b is an error wrapping ErrTruncated.
func (s *SMInfo) Decode(b []byte) error {
	*s = SMInfo{}
	if err := checkData("SMInfo", b, SMPDataLen); err != nil {
		return err
	}
	s.GUID = binary.BigEndian.Uint64(b[0:])
	s.SMKey = binary.BigEndian.Uint64(b[8:])
	s.ActCount = binary.BigEndian.Uint32(b[16:])
	s.Priority, s.SMState = b[20]>>4, SMState(b[20]&0x0f)
	return nil
}

// AppendTo appends the 64-byte SMP data to b, reserved bytes zero. It
// refuses, appending nothing, a Priority or SMState wider than 4 bits.
func (s *SMInfo) AppendTo(b []byte) ([]byte, error) {
	if err := checkWidths([]width{{"SMInfo.Priority", s.Priority, 4}, {"SMInfo.SMState", uint8(s.SMState), 4}}); err != nil {
		return b, err
	}
	b, p := appendData(b, SMPDataLen)
	binary.BigEndian.PutUint64(p[0:], s.GUID)
	binary.BigEndian.PutUint64(p[8:], s.SMKey)
	binary.BigEndian.PutUint32(p[16:], s.ActCount)
	p[20] = s.Priority<<4 | uint8(s.SMState)
	return b, nil
}

// GUIDInfo is the GUIDInfo attribute (IBTA Vol 1, 14.2.5.5): a block of
// eight port GUIDs, the block the AttributeModifier numbers.
type GUIDInfo struct {
	GUIDs [8]uint64
}

// Decode decodes the attribute from b, the 64-byte SMP data. A shorter b
// is an error wrapping ErrTruncated.
func (g *GUIDInfo) Decode(b []byte) error {
	*g = GUIDInfo{}
	if err := checkData("GUIDInfo", b, SMPDataLen); err != nil {
		return err
	}
	for i := range g.GUIDs {
		g.GUIDs[i] = binary.BigEndian.Uint64(b[8*i:])
	}
	return nil
}

// AppendTo appends the 64-byte SMP data to b.
func (g *GUIDInfo) AppendTo(b []byte) ([]byte, error) {
	for _, v := range g.GUIDs {
		b = binary.BigEndian.AppendUint64(b, v)
	}
	return b, nil
}

// PKeyFullMember is the membership bit of a P_Key: set for a full
// member, clear for a limited one. The other 15 bits are the P_Key base.
const PKeyFullMember = 0x8000

// PKeyTable is the P_KeyTable attribute (IBTA Vol 1, 14.2.5.7): a block of
// 32 P_Keys, the block the AttributeModifier numbers (bits 15-0; for a
// switch, the port in bits 31-16). Each P_Key is its membership bit
// (PKeyFullMember) and a 15-bit base.
type PKeyTable struct {
	PKeys [32]uint16
}

// Decode decodes the attribute from b, the 64-byte SMP data. A shorter b
// is an error wrapping ErrTruncated.
func (t *PKeyTable) Decode(b []byte) error {
	*t = PKeyTable{}
	if err := checkData("P_KeyTable", b, SMPDataLen); err != nil {
		return err
	}
	for i := range t.PKeys {
		t.PKeys[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	return nil
}

// AppendTo appends the 64-byte SMP data to b.
func (t *PKeyTable) AppendTo(b []byte) ([]byte, error) {
	for _, v := range t.PKeys {
		b = binary.BigEndian.AppendUint16(b, v)
	}
	return b, nil
}

// SwitchInfo is the SwitchInfo attribute (IBTA Vol 1, 14.2.5.4), the first
// 20 bytes of the SMP data:
//
//	bytes 0-1 LinearFDBCap   bytes 2-3 RandomFDBCap
//	bytes 4-5 MulticastFDBCap  bytes 6-7 LinearFDBTop
//	byte 8 DefaultPort  byte 9 DefaultMulticastPrimaryPort
//	byte 10 DefaultMulticastNotPrimaryPort
//	byte 11 LifeTimeValue (bits 7-3), PortStateChange (bit 2),
//	        OptimizedSLtoVLMappingProgramming (bits 1-0)
//	bytes 12-13 LIDsPerPort  bytes 14-15 PartitionEnforcementCap
//	byte 16 InboundEnforcementCap (bit 7), OutboundEnforcementCap (6),
//	        FilterRawInboundCap (5), FilterRawOutboundCap (4),
//	        EnhancedPortZero (3), reserved (2-0)
//	byte 17 reserved         bytes 18-19 MulticastFDBTop
type SwitchInfo struct {
	LinearFDBCap                      uint16 // linear forwarding table entries supported
	RandomFDBCap                      uint16 // random forwarding table entries supported
	MulticastFDBCap                   uint16 // multicast forwarding table entries supported
	LinearFDBTop                      uint16 // index of the last valid linear entry
	DefaultPort                       uint8  // port for unicast LIDs not in the tables
	DefaultMulticastPrimaryPort       uint8  // port for multicast LIDs not in the table
	DefaultMulticastNotPrimaryPort    uint8  // same, for packets arriving on that port
	LifeTimeValue                     uint8  // packet lifetime in the switch, 5 bits
	PortStateChange                   bool   // a port changed state
	OptimizedSLtoVLMappingProgramming uint8  // 2 bits
	LIDsPerPort                       uint16 // LIDs per port (router: per port)
	PartitionEnforcementCap           uint16 // P_Key entries for enforcement
	InboundEnforcementCap             bool   // inbound partition enforcement supported
	OutboundEnforcementCap            bool   // outbound partition enforcement supported
	FilterRawInboundCap               bool   // inbound raw packet filtering supported
	FilterRawOutboundCap              bool   // outbound raw packet filtering supported
	EnhancedPortZero                  bool   // port 0 is an enhanced port
	MulticastFDBTop                   uint16 // index of the last valid multicast entry
}

// Decode decodes the attribute from b, the 64-byte SMP data, resetting s
// first. A shorter b is an error wrapping ErrTruncated.
func (s *SwitchInfo) Decode(b []byte) error {
	*s = SwitchInfo{}
	if err := checkData("SwitchInfo", b, SMPDataLen); err != nil {
		return err
	}
	s.LinearFDBCap = binary.BigEndian.Uint16(b[0:])
	s.RandomFDBCap = binary.BigEndian.Uint16(b[2:])
	s.MulticastFDBCap = binary.BigEndian.Uint16(b[4:])
	s.LinearFDBTop = binary.BigEndian.Uint16(b[6:])
	s.DefaultPort, s.DefaultMulticastPrimaryPort, s.DefaultMulticastNotPrimaryPort = b[8], b[9], b[10]
	s.LifeTimeValue, s.PortStateChange, s.OptimizedSLtoVLMappingProgramming = b[11]>>3, b[11]&0x04 != 0, b[11]&3
	s.LIDsPerPort = binary.BigEndian.Uint16(b[12:])
	s.PartitionEnforcementCap = binary.BigEndian.Uint16(b[14:])
	s.InboundEnforcementCap, s.OutboundEnforcementCap = b[16]&0x80 != 0, b[16]&0x40 != 0
	s.FilterRawInboundCap, s.FilterRawOutboundCap = b[16]&0x20 != 0, b[16]&0x10 != 0
	s.EnhancedPortZero = b[16]&0x08 != 0
	s.MulticastFDBTop = binary.BigEndian.Uint16(b[18:])
	return nil
}

// AppendTo appends the 64-byte SMP data to b, reserved bits zero. It
// refuses, appending nothing, a LifeTimeValue wider than 5 bits or an
// OptimizedSLtoVLMappingProgramming wider than 2.
func (s *SwitchInfo) AppendTo(b []byte) ([]byte, error) {
	if err := checkWidths([]width{
		{"SwitchInfo.LifeTimeValue", s.LifeTimeValue, 5},
		{"SwitchInfo.OptimizedSLtoVLMappingProgramming", s.OptimizedSLtoVLMappingProgramming, 2},
	}); err != nil {
		return b, err
	}
	b, p := appendData(b, SMPDataLen)
	binary.BigEndian.PutUint16(p[0:], s.LinearFDBCap)
	binary.BigEndian.PutUint16(p[2:], s.RandomFDBCap)
	binary.BigEndian.PutUint16(p[4:], s.MulticastFDBCap)
	binary.BigEndian.PutUint16(p[6:], s.LinearFDBTop)
	p[8], p[9], p[10] = s.DefaultPort, s.DefaultMulticastPrimaryPort, s.DefaultMulticastNotPrimaryPort
	p[11] = s.LifeTimeValue<<3 | bit(s.PortStateChange)<<2 | s.OptimizedSLtoVLMappingProgramming
	binary.BigEndian.PutUint16(p[12:], s.LIDsPerPort)
	binary.BigEndian.PutUint16(p[14:], s.PartitionEnforcementCap)
	p[16] = bit(s.InboundEnforcementCap)<<7 | bit(s.OutboundEnforcementCap)<<6 |
		bit(s.FilterRawInboundCap)<<5 | bit(s.FilterRawOutboundCap)<<4 | bit(s.EnhancedPortZero)<<3
	binary.BigEndian.PutUint16(p[18:], s.MulticastFDBTop)
	return b, nil
}

// fit24 returns a *FieldError when v does not fit 24 bits.
func fit24(field string, v uint32) error { return errs.Fit(field, uint64(v), 24) }
