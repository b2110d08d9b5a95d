package mad

// ClassPortInfoLen is the size of the ClassPortInfo attribute.
const ClassPortInfoLen = 72

// ClassPortInfo is the attribute every class answers with its
// capabilities and redirection (IBTA Vol 1, 13.4.8.1, Table 126;
// attribute ID 0x0001 in every class), also the additional information
// of a CM REJ or SIDR_REP that redirects. IBTA's P_Key and Q_Key are
// PKey and QKey here; GIDs are the 16 wire bytes (netip.AddrFrom16 reads
// them).
type ClassPortInfo struct {
	BaseVersion     uint8
	ClassVersion    uint8
	CapabilityMask  uint16
	CapabilityMask2 uint32 // 27 bits
	RespTimeValue   uint8  // 5 bits
	RedirectGID     [16]byte
	RedirectTC      uint8
	RedirectSL      uint8  // 4 bits
	RedirectFL      uint32 // flow label, 20 bits
	RedirectLID     uint16
	RedirectPKey    uint16
	Resv32          uint8  // reserved
	RedirectQP      uint32 // 24 bits
	RedirectQKey    uint32
	TrapGID         [16]byte
	TrapTC          uint8
	TrapSL          uint8  // 4 bits
	TrapFL          uint32 // 20 bits
	TrapLID         uint16
	TrapPKey        uint16
	TrapHL          uint8  // hop limit
	TrapQP          uint32 // 24 bits
	TrapQKey        uint32
}

// AttrClassPortInfo is the attribute ID of ClassPortInfo in every class.
const AttrClassPortInfo = 0x0001

func (a *ClassPortInfo) walk(c codec) error {
	c.u8(&a.BaseVersion, "BaseVersion", 0, 0, 8)
	c.u8(&a.ClassVersion, "ClassVersion", 1, 0, 8)
	c.u16(&a.CapabilityMask, "CapabilityMask", 2, 0, 16)
	c.u32(&a.CapabilityMask2, "CapabilityMask2", 4, 0, 27)
	c.u8(&a.RespTimeValue, "RespTimeValue", 7, 3, 5)
	c.gid(&a.RedirectGID, 8)
	c.u8(&a.RedirectTC, "RedirectTC", 24, 0, 8)
	c.u8(&a.RedirectSL, "RedirectSL", 25, 0, 4)
	c.u32(&a.RedirectFL, "RedirectFL", 25, 4, 20)
	c.u16(&a.RedirectLID, "RedirectLID", 28, 0, 16)
	c.u16(&a.RedirectPKey, "RedirectPKey", 30, 0, 16)
	c.u8(&a.Resv32, "Resv32", 32, 0, 8)
	c.u32(&a.RedirectQP, "RedirectQP", 33, 0, 24)
	c.u32(&a.RedirectQKey, "RedirectQKey", 36, 0, 32)
	c.gid(&a.TrapGID, 40)
	c.u8(&a.TrapTC, "TrapTC", 56, 0, 8)
	c.u8(&a.TrapSL, "TrapSL", 57, 0, 4)
	c.u32(&a.TrapFL, "TrapFL", 57, 4, 20)
	c.u16(&a.TrapLID, "TrapLID", 60, 0, 16)
	c.u16(&a.TrapPKey, "TrapPKey", 62, 0, 16)
	c.u8(&a.TrapHL, "TrapHL", 64, 0, 8)
	c.u32(&a.TrapQP, "TrapQP", 65, 0, 24)
	c.u32(&a.TrapQKey, "TrapQKey", 68, 0, 32)
	return c.err
}

// Decode decodes the attribute from the start of b (at least 72 bytes),
// resetting a first.
func (a *ClassPortInfo) Decode(b []byte) error {
	*a = ClassPortInfo{}
	return decodeWalker(b, "ClassPortInfo", ClassPortInfoLen, a)
}

// AppendTo appends the 72 bytes of the attribute to b, refusing (and
// appending nothing) a field wider than its bits.
func (a *ClassPortInfo) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "ClassPortInfo", ClassPortInfoLen, a)
}
