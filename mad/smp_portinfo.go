package mad

// PortInfo is the PortInfo attribute (IBTA Vol 1, 14.2.5.6), all 64 bytes
// of the SMP data. Fields of a byte or more:
//
//	bytes 0-7 M_Key  bytes 8-15 GidPrefix  bytes 16-17 LID
//	bytes 18-19 MasterSMLID  bytes 20-23 CapabilityMask
//	bytes 24-25 DiagCode  bytes 26-27 M_KeyLeasePeriod
//	byte 28 LocalPortNum  bytes 29-31 LinkWidthEnabled, LinkWidthSupported,
//	LinkWidthActive  bytes 38-40 VLHighLimit, VLArbitrationHighCap,
//	VLArbitrationLowCap  bytes 44-49 M_KeyViolations, P_KeyViolations,
//	Q_KeyViolations  byte 50 GUIDCap  bytes 54-55 MaxCreditHint
//	byte 56 reserved  bytes 57-59 LinkRoundTripLatency
//	bytes 60-61 CapabilityMask2
//
// and the bytes packed with smaller fields, most significant bit first:
//
//	byte 32 LinkSpeedSupported (4), PortState (4)
//	byte 33 PortPhysicalState (4), LinkDownDefaultState (4)
//	byte 34 M_KeyProtectBits (2), reserved (3), LMC (3)
//	byte 35 LinkSpeedActive (4), LinkSpeedEnabled (4)
//	byte 36 NeighborMTU (4), MasterSMSL (4)
//	byte 37 VLCap (4), InitType (4)
//	byte 41 InitTypeReply (4), MTUCap (4)
//	byte 42 VLStallCount (3), HOQLife (5)
//	byte 43 OperationalVLs (4), PartitionEnforcementInbound (1),
//	        PartitionEnforcementOutbound (1), FilterRawInbound (1),
//	        FilterRawOutbound (1)
//	byte 51 ClientReregister (1), MulticastPKeyTrapSuppressionEnabled (2),
//	        SubnetTimeOut (5)
//	byte 52 reserved (3), RespTimeValue (5)
//	byte 53 LocalPhyErrors (4), OverrunErrors (4)
//	byte 62 LinkSpeedExtActive (4), LinkSpeedExtSupported (4)
//	byte 63 reserved (3), LinkSpeedExtEnabled (5)
//
// CapabilityMask2 and the LinkSpeedExt fields are IBTA 1.3 additions, zero
// from older ports. Reserved bits decode to nothing and encode as zero.
type PortInfo struct {
	MKey                                uint64 // M_Key
	GIDPrefix                           uint64 // GID prefix of the port
	LID                                 uint16 // base LID of the port
	MasterSMLID                         uint16 // LID of the master SM
	CapabilityMask                      uint32 // supported capabilities (IsSM, IsTrapSupported, ...)
	DiagCode                            uint16 // diagnostic code
	MKeyLeasePeriod                     uint16 // M_Key lease period, seconds
	LocalPortNum                        uint8  // the port the SMP arrived on
	LinkWidthEnabled                    uint8  // enabled link widths
	LinkWidthSupported                  uint8  // supported link widths
	LinkWidthActive                     uint8  // active link width
	LinkSpeedSupported                  uint8  // 4 bits
	PortState                           uint8  // 4 bits: 1 Down, 2 Init, 3 Armed, 4 Active
	PortPhysicalState                   uint8  // 4 bits: 5 LinkUp, ...
	LinkDownDefaultState                uint8  // 4 bits
	MKeyProtectBits                     uint8  // 2 bits
	LMC                                 uint8  // LID mask control, 3 bits
	LinkSpeedActive                     uint8  // 4 bits
	LinkSpeedEnabled                    uint8  // 4 bits
	NeighborMTU                         uint8  // 4 bits
	MasterSMSL                          uint8  // 4 bits
	VLCap                               uint8  // 4 bits
	InitType                            uint8  // 4 bits
	VLHighLimit                         uint8  // high-priority VL arbitration limit
	VLArbitrationHighCap                uint8  // high-priority VL arbitration table entries
	VLArbitrationLowCap                 uint8  // low-priority VL arbitration table entries
	InitTypeReply                       uint8  // 4 bits
	MTUCap                              uint8  // 4 bits: 1 256, 2 512, 3 1024, 4 2048, 5 4096
	VLStallCount                        uint8  // 3 bits
	HOQLife                             uint8  // head-of-queue lifetime, 5 bits
	OperationalVLs                      uint8  // 4 bits
	PartitionEnforcementInbound         bool   // inbound P_Key enforcement
	PartitionEnforcementOutbound        bool   // outbound P_Key enforcement
	FilterRawInbound                    bool   // inbound raw packet filtering
	FilterRawOutbound                   bool   // outbound raw packet filtering
	MKeyViolations                      uint16 // M_Key violation counter
	PKeyViolations                      uint16 // P_Key violation counter
	QKeyViolations                      uint16 // Q_Key violation counter
	GUIDCap                             uint8  // GUID entries supported
	ClientReregister                    bool   // clients must re-register with the SA
	MulticastPKeyTrapSuppressionEnabled uint8  // 2 bits
	SubnetTimeOut                       uint8  // 5 bits
	RespTimeValue                       uint8  // 5 bits
	LocalPhyErrors                      uint8  // LocalPhyErrors threshold, 4 bits
	OverrunErrors                       uint8  // OverrunErrors threshold, 4 bits
	MaxCreditHint                       uint16 // maximum flow-control credits, 64-byte units
	LinkRoundTripLatency                uint32 // round-trip latency, 24 bits
	CapabilityMask2                     uint16 // more capabilities (IBTA 1.3)
	LinkSpeedExtActive                  uint8  // 4 bits (IBTA 1.3)
	LinkSpeedExtSupported               uint8  // 4 bits (IBTA 1.3)
	LinkSpeedExtEnabled                 uint8  // 5 bits (IBTA 1.3)
}

// Decode decodes the attribute from b, the 64-byte SMP data, resetting p
// first. A shorter b is an error wrapping ErrTruncated.
func (p *PortInfo) Decode(b []byte) error {
	*p = PortInfo{}
	return decodeWalker(b, "PortInfo", SMPDataLen, p)
}

// Validate reports the first field wider than its bits, as a
// *FieldError naming it ("PortInfo.PortState").
func (p *PortInfo) Validate() error {
	return validateWalker("PortInfo", SMPDataLen, p)
}

// AppendTo appends the 64-byte SMP data to b, reserved bits zero. It
// refuses, appending nothing, what Validate refuses.
func (p *PortInfo) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "PortInfo", SMPDataLen, p)
}

// The bits of PortInfo.CapabilityMask (IBTA Vol 1, 14.2.5.6): what the
// port supports. Bits 0, 13 and 28-31 are reserved.
const (
	PortCapIsSM                                  uint32 = 1 << 1
	PortCapIsNoticeSupported                     uint32 = 1 << 2
	PortCapIsTrapSupported                       uint32 = 1 << 3
	PortCapIsOptionalIPDSupported                uint32 = 1 << 4
	PortCapIsAutomaticMigrationSupported         uint32 = 1 << 5
	PortCapIsSLMappingSupported                  uint32 = 1 << 6
	PortCapIsMKeyNVRAM                           uint32 = 1 << 7
	PortCapIsPKeyNVRAM                           uint32 = 1 << 8
	PortCapIsLedInfoSupported                    uint32 = 1 << 9
	PortCapIsSMDisabled                          uint32 = 1 << 10
	PortCapIsSystemImageGUIDSupported            uint32 = 1 << 11
	PortCapIsPKeySwitchExternalPortTrapSupported uint32 = 1 << 12
	PortCapIsExtendedSpeedsSupported             uint32 = 1 << 14 // IBTA 1.3
	PortCapIsCapabilityMask2Supported            uint32 = 1 << 15 // IBTA 1.3: CapabilityMask2 is valid
	PortCapIsCommunicationManagementSupported    uint32 = 1 << 16
	PortCapIsSNMPTunnelingSupported              uint32 = 1 << 17
	PortCapIsReinitSupported                     uint32 = 1 << 18
	PortCapIsDeviceManagementSupported           uint32 = 1 << 19
	PortCapIsVendorClassSupported                uint32 = 1 << 20
	PortCapIsDRNoticeSupported                   uint32 = 1 << 21
	PortCapIsCapabilityMaskNoticeSupported       uint32 = 1 << 22
	PortCapIsBootManagementSupported             uint32 = 1 << 23
	PortCapIsLinkRoundTripLatencySupported       uint32 = 1 << 24
	PortCapIsClientReregistrationSupported       uint32 = 1 << 25
	PortCapIsOtherLocalChangesNoticeSupported    uint32 = 1 << 26
	PortCapIsLinkSpeedWidthPairsTableSupported   uint32 = 1 << 27
)

// portStateNames names the PortState values (IBTA Vol 1, 14.2.5.6, Table
// 155).
var portStateNames = [...]string{0: "NoChange", 1: "Down", 2: "Init", 3: "Armed", 4: "Active", 5: "ActiveDefer"}

// StateName returns the IBTA name of PortState ("Active"), or the number
// for a reserved value.
func (p *PortInfo) StateName() string { return enumName(portStateNames[:], p.PortState) }

func (p *PortInfo) walk(c codec) error {
	c.u64(&p.MKey, "MKey", 0)
	c.u64(&p.GIDPrefix, "GIDPrefix", 8)
	c.u16(&p.LID, "LID", 16, 0, 16)
	c.u16(&p.MasterSMLID, "MasterSMLID", 18, 0, 16)
	c.u32(&p.CapabilityMask, "CapabilityMask", 20, 0, 32)
	c.u16(&p.DiagCode, "DiagCode", 24, 0, 16)
	c.u16(&p.MKeyLeasePeriod, "MKeyLeasePeriod", 26, 0, 16)
	c.u8(&p.LocalPortNum, "LocalPortNum", 28, 0, 8)
	c.u8(&p.LinkWidthEnabled, "LinkWidthEnabled", 29, 0, 8)
	c.u8(&p.LinkWidthSupported, "LinkWidthSupported", 30, 0, 8)
	c.u8(&p.LinkWidthActive, "LinkWidthActive", 31, 0, 8)
	c.u8(&p.LinkSpeedSupported, "LinkSpeedSupported", 32, 0, 4)
	c.u8(&p.PortState, "PortState", 32, 4, 4)
	c.u8(&p.PortPhysicalState, "PortPhysicalState", 33, 0, 4)
	c.u8(&p.LinkDownDefaultState, "LinkDownDefaultState", 33, 4, 4)
	c.u8(&p.MKeyProtectBits, "MKeyProtectBits", 34, 0, 2)
	c.u8(&p.LMC, "LMC", 34, 5, 3)
	c.u8(&p.LinkSpeedActive, "LinkSpeedActive", 35, 0, 4)
	c.u8(&p.LinkSpeedEnabled, "LinkSpeedEnabled", 35, 4, 4)
	c.u8(&p.NeighborMTU, "NeighborMTU", 36, 0, 4)
	c.u8(&p.MasterSMSL, "MasterSMSL", 36, 4, 4)
	c.u8(&p.VLCap, "VLCap", 37, 0, 4)
	c.u8(&p.InitType, "InitType", 37, 4, 4)
	c.u8(&p.VLHighLimit, "VLHighLimit", 38, 0, 8)
	c.u8(&p.VLArbitrationHighCap, "VLArbitrationHighCap", 39, 0, 8)
	c.u8(&p.VLArbitrationLowCap, "VLArbitrationLowCap", 40, 0, 8)
	c.u8(&p.InitTypeReply, "InitTypeReply", 41, 0, 4)
	c.u8(&p.MTUCap, "MTUCap", 41, 4, 4)
	c.u8(&p.VLStallCount, "VLStallCount", 42, 0, 3)
	c.u8(&p.HOQLife, "HOQLife", 42, 3, 5)
	c.u8(&p.OperationalVLs, "OperationalVLs", 43, 0, 4)
	c.flag(&p.PartitionEnforcementInbound, "PartitionEnforcementInbound", 43, 4)
	c.flag(&p.PartitionEnforcementOutbound, "PartitionEnforcementOutbound", 43, 5)
	c.flag(&p.FilterRawInbound, "FilterRawInbound", 43, 6)
	c.flag(&p.FilterRawOutbound, "FilterRawOutbound", 43, 7)
	c.u16(&p.MKeyViolations, "MKeyViolations", 44, 0, 16)
	c.u16(&p.PKeyViolations, "PKeyViolations", 46, 0, 16)
	c.u16(&p.QKeyViolations, "QKeyViolations", 48, 0, 16)
	c.u8(&p.GUIDCap, "GUIDCap", 50, 0, 8)
	c.flag(&p.ClientReregister, "ClientReregister", 51, 0)
	c.u8(&p.MulticastPKeyTrapSuppressionEnabled, "MulticastPKeyTrapSuppressionEnabled", 51, 1, 2)
	c.u8(&p.SubnetTimeOut, "SubnetTimeOut", 51, 3, 5)
	c.u8(&p.RespTimeValue, "RespTimeValue", 52, 3, 5)
	c.u8(&p.LocalPhyErrors, "LocalPhyErrors", 53, 0, 4)
	c.u8(&p.OverrunErrors, "OverrunErrors", 53, 4, 4)
	c.u16(&p.MaxCreditHint, "MaxCreditHint", 54, 0, 16)
	c.u32(&p.LinkRoundTripLatency, "LinkRoundTripLatency", 56, 8, 24)
	c.u16(&p.CapabilityMask2, "CapabilityMask2", 60, 0, 16)
	c.u8(&p.LinkSpeedExtActive, "LinkSpeedExtActive", 62, 0, 4)
	c.u8(&p.LinkSpeedExtSupported, "LinkSpeedExtSupported", 62, 4, 4)
	c.u8(&p.LinkSpeedExtEnabled, "LinkSpeedExtEnabled", 63, 3, 5)
	return c.err
}
