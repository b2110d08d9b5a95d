package mad

// The SA records this package decodes (IBTA Vol 1, 15.2.5). Like the CM
// messages, each describes its layout once in its walk method; byte
// fields alias the decoded input.

// The sizes of the records.
const (
	PathRecordLen     = 64
	NodeRecordLen     = 108
	PortInfoRecordLen = 68
	ServiceRecordLen  = 176
	MCMemberRecordLen = 52
)

// PathRecord is a path between two ports (IBTA Vol 1, 15.2.5.16).
type PathRecord struct {
	ServiceID              uint64 // reserved before IBTA 1.2 (tshark 4.0 shows it so)
	DGID                   [16]byte
	SGID                   [16]byte
	DLID                   uint16
	SLID                   uint16
	RawTraffic             bool
	Resv44                 uint8  // reserved, 3 bits
	FlowLabel              uint32 // 20 bits
	HopLimit               uint8
	TClass                 uint8
	Reversible             bool
	NumbPath               uint8 // 7 bits
	PKey                   uint16
	QoSClass               uint16 // 12 bits (reserved before IBTA 1.2)
	SL                     uint8  // 4 bits
	MTUSelector            uint8  // 2 bits
	MTU                    uint8  // 6 bits
	RateSelector           uint8  // 2 bits
	Rate                   uint8  // 6 bits
	PacketLifeTimeSelector uint8  // 2 bits
	PacketLifeTime         uint8  // 6 bits
	Preference             uint8
	Resv58                 []byte // reserved, 6 bytes
}

func (r *PathRecord) walk(c codec) error {
	c.u64(&r.ServiceID, "ServiceID", 0)
	c.gid(&r.DGID, 8)
	c.gid(&r.SGID, 24)
	c.u16(&r.DLID, "DLID", 40, 0, 16)
	c.u16(&r.SLID, "SLID", 42, 0, 16)
	c.flag(&r.RawTraffic, "RawTraffic", 44, 0)
	c.u8(&r.Resv44, "Resv44", 44, 1, 3)
	c.u32(&r.FlowLabel, "FlowLabel", 44, 4, 20)
	c.u8(&r.HopLimit, "HopLimit", 47, 0, 8)
	c.u8(&r.TClass, "TClass", 48, 0, 8)
	c.flag(&r.Reversible, "Reversible", 49, 0)
	c.u8(&r.NumbPath, "NumbPath", 49, 1, 7)
	c.u16(&r.PKey, "PKey", 50, 0, 16)
	c.u16(&r.QoSClass, "QoSClass", 52, 0, 12)
	c.u8(&r.SL, "SL", 53, 4, 4)
	c.u8(&r.MTUSelector, "MTUSelector", 54, 0, 2)
	c.u8(&r.MTU, "MTU", 54, 2, 6)
	c.u8(&r.RateSelector, "RateSelector", 55, 0, 2)
	c.u8(&r.Rate, "Rate", 55, 2, 6)
	c.u8(&r.PacketLifeTimeSelector, "PacketLifeTimeSelector", 56, 0, 2)
	c.u8(&r.PacketLifeTime, "PacketLifeTime", 56, 2, 6)
	c.u8(&r.Preference, "Preference", 57, 0, 8)
	c.data(&r.Resv58, "Resv58", 58, 6)
	return c.err
}

// NodeRecord is the NodeInfo and NodeDescription of a node (IBTA Vol 1,
// 15.2.5.2), decoded with the SMP attribute types: the record holds the
// 40 bytes of NodeInfo (the SMP data less its reserved tail) and the 64 of
// NodeDescription.
type NodeRecord struct {
	LID             uint16
	Resv2           uint16
	NodeInfo        NodeInfo
	NodeDescription NodeDescription
}

// The offsets of the SMP attributes in the records, and the bytes of
// NodeInfo a NodeRecord holds.
const (
	offRecordAttr = 4
	nodeInfoLen   = 40
)

func (r *NodeRecord) walk(c codec) error {
	c.u16(&r.LID, "LID", 0, 0, 16)
	c.u16(&r.Resv2, "Resv2", 2, 0, 16)
	const ni, nd = offRecordAttr, offRecordAttr + nodeInfoLen
	// The attributes' own layouts, over their bytes of the record.
	if err := r.NodeInfo.walk(codec{b: c.b[ni:nd], enc: c.enc, name: "NodeInfo"}); c.err == nil {
		c.err = err
	}
	if err := r.NodeDescription.walk(codec{b: c.b[nd : nd+SMPDataLen], enc: c.enc, name: "NodeDescription"}); c.err == nil {
		c.err = err
	}
	return c.err
}

// PortInfoRecord is the PortInfo of a port (IBTA Vol 1, 15.2.5.3),
// decoded with the SMP PortInfo type.
type PortInfoRecord struct {
	EndportLID uint16
	PortNum    uint8
	Options    uint8 // reserved before IBTA 1.3
	PortInfo   PortInfo
}

func (r *PortInfoRecord) walk(c codec) error {
	c.u16(&r.EndportLID, "EndportLID", 0, 0, 16)
	c.u8(&r.PortNum, "PortNum", 2, 0, 8)
	c.u8(&r.Options, "Options", 3, 0, 8)
	const pi = offRecordAttr
	if err := r.PortInfo.walk(codec{b: c.b[pi : pi+SMPDataLen], enc: c.enc, name: "PortInfo"}); c.err == nil {
		c.err = err
	}
	return c.err
}

// ServiceRecord is a service registered with the SA (IBTA Vol 1,
// 15.2.5.14).
type ServiceRecord struct {
	ServiceID     uint64
	ServiceGID    [16]byte
	ServicePKey   uint16
	Resv26        uint16
	ServiceLease  uint32 // seconds; 0xFFFFFFFF is infinite
	ServiceKey    [16]byte
	ServiceName   []byte // 64 bytes, UTF-8, NUL padded
	ServiceData8  [16]uint8
	ServiceData16 [8]uint16
	ServiceData32 [4]uint32
	ServiceData64 [2]uint64
}

func (r *ServiceRecord) walk(c codec) error {
	c.u64(&r.ServiceID, "ServiceID", 0)
	c.gid(&r.ServiceGID, 8)
	c.u16(&r.ServicePKey, "ServicePKey", 24, 0, 16)
	c.u16(&r.Resv26, "Resv26", 26, 0, 16)
	c.u32(&r.ServiceLease, "ServiceLease", 28, 0, 32)
	c.gid(&r.ServiceKey, 32)
	c.data(&r.ServiceName, "ServiceName", 48, 64)
	c.gid((*[16]byte)(&r.ServiceData8), 112)
	for i := range r.ServiceData16 {
		c.u16(&r.ServiceData16[i], "ServiceData16", 128+2*i, 0, 16)
	}
	for i := range r.ServiceData32 {
		c.u32(&r.ServiceData32[i], "ServiceData32", 144+4*i, 0, 32)
	}
	for i := range r.ServiceData64 {
		c.u64(&r.ServiceData64[i], "ServiceData64", 160+8*i)
	}
	return c.err
}

// MCMemberRecord is a multicast group membership (IBTA Vol 1, 15.2.5.17).
type MCMemberRecord struct {
	MGID                   [16]byte
	PortGID                [16]byte
	QKey                   uint32
	MLID                   uint16
	MTUSelector            uint8 // 2 bits
	MTU                    uint8 // 6 bits
	TClass                 uint8
	PKey                   uint16
	RateSelector           uint8  // 2 bits
	Rate                   uint8  // 6 bits
	PacketLifeTimeSelector uint8  // 2 bits
	PacketLifeTime         uint8  // 6 bits
	SL                     uint8  // 4 bits
	FlowLabel              uint32 // 20 bits
	HopLimit               uint8
	Scope                  uint8 // 4 bits
	JoinState              uint8 // 4 bits: FullMember 1, NonMember 2, SendOnlyNonMember 4
	ProxyJoin              bool
	Resv49                 uint32 // reserved, 23 bits
}

func (r *MCMemberRecord) walk(c codec) error {
	c.gid(&r.MGID, 0)
	c.gid(&r.PortGID, 16)
	c.u32(&r.QKey, "QKey", 32, 0, 32)
	c.u16(&r.MLID, "MLID", 36, 0, 16)
	c.u8(&r.MTUSelector, "MTUSelector", 38, 0, 2)
	c.u8(&r.MTU, "MTU", 38, 2, 6)
	c.u8(&r.TClass, "TClass", 39, 0, 8)
	c.u16(&r.PKey, "PKey", 40, 0, 16)
	c.u8(&r.RateSelector, "RateSelector", 42, 0, 2)
	c.u8(&r.Rate, "Rate", 42, 2, 6)
	c.u8(&r.PacketLifeTimeSelector, "PacketLifeTimeSelector", 43, 0, 2)
	c.u8(&r.PacketLifeTime, "PacketLifeTime", 43, 2, 6)
	c.u8(&r.SL, "SL", 44, 0, 4)
	c.u32(&r.FlowLabel, "FlowLabel", 44, 4, 20)
	c.u8(&r.HopLimit, "HopLimit", 47, 0, 8)
	c.u8(&r.Scope, "Scope", 48, 0, 4)
	c.u8(&r.JoinState, "JoinState", 48, 4, 4)
	c.flag(&r.ProxyJoin, "ProxyJoin", 49, 0)
	c.u32(&r.Resv49, "Resv49", 49, 1, 23)
	return c.err
}
