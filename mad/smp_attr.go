package mad

import (
	"strconv"
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
	return decodeWalker(b, "NodeInfo", SMPDataLen, n)
}

// AppendTo appends the 64-byte SMP data to b, reserved bytes zero. It
// refuses, appending nothing, a VendorID wider than 24 bits
// ("NodeInfo.VendorID").
func (n *NodeInfo) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "NodeInfo", SMPDataLen, n)
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
	return decodeWalker(b, "NodeDescription", SMPDataLen, n)
}

// AppendTo appends the 64-byte SMP data to b.
func (n *NodeDescription) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "NodeDescription", SMPDataLen, n)
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
	return decodeWalker(b, "SMInfo", SMPDataLen, s)
}

// AppendTo appends the 64-byte SMP data to b, reserved bytes zero. It
// refuses, appending nothing, a Priority or SMState wider than 4 bits.
func (s *SMInfo) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "SMInfo", SMPDataLen, s)
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
	return decodeWalker(b, "GUIDInfo", SMPDataLen, g)
}

// AppendTo appends the 64-byte SMP data to b.
func (g *GUIDInfo) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "GUIDInfo", SMPDataLen, g)
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
	return decodeWalker(b, "P_KeyTable", SMPDataLen, t)
}

// AppendTo appends the 64-byte SMP data to b.
func (t *PKeyTable) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "P_KeyTable", SMPDataLen, t)
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
	return decodeWalker(b, "SwitchInfo", SMPDataLen, s)
}

// AppendTo appends the 64-byte SMP data to b, reserved bits zero. It
// refuses, appending nothing, a LifeTimeValue wider than 5 bits or an
// OptimizedSLtoVLMappingProgramming wider than 2.
func (s *SwitchInfo) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "SwitchInfo", SMPDataLen, s)
}

func (n *NodeInfo) walk(c codec) error {
	c.u8(&n.BaseVersion, "BaseVersion", 0, 0, 8)
	c.u8(&n.ClassVersion, "ClassVersion", 1, 0, 8)
	t := uint8(n.NodeType)
	c.u8(&t, "NodeType", 2, 0, 8)
	n.NodeType = NodeType(t)
	c.u8(&n.NumPorts, "NumPorts", 3, 0, 8)
	c.u64(&n.SystemImageGUID, "SystemImageGUID", 4)
	c.u64(&n.NodeGUID, "NodeGUID", 12)
	c.u64(&n.PortGUID, "PortGUID", 20)
	c.u16(&n.PartitionCap, "PartitionCap", 28, 0, 16)
	c.u16(&n.DeviceID, "DeviceID", 30, 0, 16)
	c.u32(&n.Revision, "Revision", 32, 0, 32)
	c.u8(&n.LocalPortNum, "LocalPortNum", 36, 0, 8)
	c.u32(&n.VendorID, "VendorID", 36, 8, 24)
	return c.err
}

func (n *NodeDescription) walk(c codec) error {
	c.raw(n.NodeString[:], 0)
	return c.err
}

func (s *SMInfo) walk(c codec) error {
	c.u64(&s.GUID, "GUID", 0)
	c.u64(&s.SMKey, "SMKey", 8)
	c.u32(&s.ActCount, "ActCount", 16, 0, 32)
	c.u8(&s.Priority, "Priority", 20, 0, 4)
	st := uint8(s.SMState)
	c.u8(&st, "SMState", 20, 4, 4)
	s.SMState = SMState(st)
	return c.err
}

func (g *GUIDInfo) walk(c codec) error {
	for i := range g.GUIDs {
		c.u64(&g.GUIDs[i], "GUIDs", 8*i)
	}
	return c.err
}

func (t *PKeyTable) walk(c codec) error {
	for i := range t.PKeys {
		c.u16(&t.PKeys[i], "PKeys", 2*i, 0, 16)
	}
	return c.err
}

func (s *SwitchInfo) walk(c codec) error {
	c.u16(&s.LinearFDBCap, "LinearFDBCap", 0, 0, 16)
	c.u16(&s.RandomFDBCap, "RandomFDBCap", 2, 0, 16)
	c.u16(&s.MulticastFDBCap, "MulticastFDBCap", 4, 0, 16)
	c.u16(&s.LinearFDBTop, "LinearFDBTop", 6, 0, 16)
	c.u8(&s.DefaultPort, "DefaultPort", 8, 0, 8)
	c.u8(&s.DefaultMulticastPrimaryPort, "DefaultMulticastPrimaryPort", 9, 0, 8)
	c.u8(&s.DefaultMulticastNotPrimaryPort, "DefaultMulticastNotPrimaryPort", 10, 0, 8)
	c.u8(&s.LifeTimeValue, "LifeTimeValue", 11, 0, 5)
	c.flag(&s.PortStateChange, "PortStateChange", 11, 5)
	c.u8(&s.OptimizedSLtoVLMappingProgramming, "OptimizedSLtoVLMappingProgramming", 11, 6, 2)
	c.u16(&s.LIDsPerPort, "LIDsPerPort", 12, 0, 16)
	c.u16(&s.PartitionEnforcementCap, "PartitionEnforcementCap", 14, 0, 16)
	c.flag(&s.InboundEnforcementCap, "InboundEnforcementCap", 16, 0)
	c.flag(&s.OutboundEnforcementCap, "OutboundEnforcementCap", 16, 1)
	c.flag(&s.FilterRawInboundCap, "FilterRawInboundCap", 16, 2)
	c.flag(&s.FilterRawOutboundCap, "FilterRawOutboundCap", 16, 3)
	c.flag(&s.EnhancedPortZero, "EnhancedPortZero", 16, 4)
	c.u16(&s.MulticastFDBTop, "MulticastFDBTop", 18, 0, 16)
	return c.err
}

// Validate reports a VendorID wider than 24 bits, as a *FieldError
// wrapping ErrBadValue; AppendTo refuses it.
func (n *NodeInfo) Validate() error { return validateWalker("NodeInfo", SMPDataLen, n) }

// Validate reports a Priority or SMState wider than 4 bits, as a
// *FieldError wrapping ErrBadValue; AppendTo refuses it.
func (s *SMInfo) Validate() error { return validateWalker("SMInfo", SMPDataLen, s) }

// Validate reports a LifeTimeValue wider than 5 bits or an
// OptimizedSLtoVLMappingProgramming wider than 2, as a *FieldError
// wrapping ErrBadValue; AppendTo refuses it.
func (s *SwitchInfo) Validate() error { return validateWalker("SwitchInfo", SMPDataLen, s) }
