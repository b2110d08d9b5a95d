package mad

// PerfDataLen is the size of the data field of a performance management
// MAD, which holds the attribute (IBTA Vol 1, 16.1.1).
const PerfDataLen = 192

// Offsets in a performance management MAD (IBTA Vol 1, 16.1.1).
const (
	perfOffResv = 24 // 40 reserved bytes
	perfOffData = 64 // 192 bytes of data
)

// PerfMgt is a performance management MAD, management class 0x04 (IBTA
// Vol 1, 16.1.1), the whole 256-byte MAD:
//
//	bytes  0-23   common MAD header
//	bytes 24-63   reserved (40 bytes)
//	bytes 64-255  data: the attribute (PortCounters, ...)
//
// Decode, DecodeData and AppendTo are as SMP's.
type PerfMgt struct {
	Header                   // common MAD header; MgmtClass is ClassPerfMgt
	Resv40 [40]byte          // reserved
	Data   [PerfDataLen]byte // the attribute
}

// Decode decodes the 256-byte MAD at the start of b, resetting m first.
// It refuses a b shorter than Len (ErrTruncated) and a MAD of a class
// other than ClassPerfMgt (ErrUnsupported).
func (m *PerfMgt) Decode(b []byte) error {
	*m = PerfMgt{}
	return decodeMADLayout(m, "PerfMgt", b, ClassPerfMgt)
}

// DecodeData decodes d, the MAD data, under the header h decoded before
// it, resetting m first, as SMP.DecodeData does.
func (m *PerfMgt) DecodeData(h *Header, d []byte) error {
	*m = PerfMgt{}
	return decodeMADData(m, "PerfMgt", h, d)
}

// Len returns Len, the bytes AppendTo writes: the whole MAD.
func (m *PerfMgt) Len() int { return Len }

// decodeData reads the fields after the common header from d, the MAD
// data.
func (m *PerfMgt) decodeData(d []byte) error { return m.walk(codec{b: d, name: "PerfMgt"}) }

func (m *PerfMgt) putData(p []byte) { _ = m.walk(codec{b: p, enc: true, name: "PerfMgt"}) }

// walk describes the fields after the common header, in the MAD data.
func (m *PerfMgt) walk(c codec) error {
	c.raw(m.Resv40[:], perfOffResv-HeaderLen)
	c.raw(m.Data[:], perfOffData-HeaderLen)
	return c.err
}

// Validate reports a field AppendTo cannot encode as a *FieldError: a
// MgmtClass other than ClassPerfMgt ("PerfMgt.MgmtClass") or a method
// wider than 7 bits.
func (m *PerfMgt) Validate() error { return checkClass("PerfMgt.MgmtClass", &m.Header, ClassPerfMgt) }

// AppendTo appends the 256-byte MAD to b. It refuses, appending nothing,
// what Validate refuses.
func (m *PerfMgt) AppendTo(b []byte) ([]byte, error) { return appendMAD(m, b) }

// PerfAttribute is the AttributeID of a performance management MAD (IBTA
// Vol 1, 16.1.2).
type PerfAttribute uint16

// The performance management attributes. This package decodes the data
// of PortCounters and PortCountersExtended; the others are named only.
const (
	PerfAttrClassPortInfo                 PerfAttribute = 0x0001
	PerfAttrPortSamplesControl            PerfAttribute = 0x0010
	PerfAttrPortSamplesResult             PerfAttribute = 0x0011
	PerfAttrPortCounters                  PerfAttribute = 0x0012
	PerfAttrPortRcvErrorDetails           PerfAttribute = 0x0015
	PerfAttrPortXmitDiscardDetails        PerfAttribute = 0x0016
	PerfAttrPortOpRcvCounters             PerfAttribute = 0x0017
	PerfAttrPortFlowCtlCounters           PerfAttribute = 0x0018
	PerfAttrPortVLOpPackets               PerfAttribute = 0x0019
	PerfAttrPortVLOpData                  PerfAttribute = 0x001a
	PerfAttrPortVLXmitFlowCtlUpdateErrors PerfAttribute = 0x001b
	PerfAttrPortVLXmitWaitCounters        PerfAttribute = 0x001c
	PerfAttrPortCountersExtended          PerfAttribute = 0x001d
	PerfAttrPortSamplesResultExtended     PerfAttribute = 0x001e
)

var perfAttrNames = map[PerfAttribute]string{
	PerfAttrClassPortInfo:                 "ClassPortInfo",
	PerfAttrPortSamplesControl:            "PortSamplesControl",
	PerfAttrPortSamplesResult:             "PortSamplesResult",
	PerfAttrPortCounters:                  "PortCounters",
	PerfAttrPortRcvErrorDetails:           "PortRcvErrorDetails",
	PerfAttrPortXmitDiscardDetails:        "PortXmitDiscardDetails",
	PerfAttrPortOpRcvCounters:             "PortOpRcvCounters",
	PerfAttrPortFlowCtlCounters:           "PortFlowCtlCounters",
	PerfAttrPortVLOpPackets:               "PortVLOpPackets",
	PerfAttrPortVLOpData:                  "PortVLOpData",
	PerfAttrPortVLXmitFlowCtlUpdateErrors: "PortVLXmitFlowCtlUpdateErrors",
	PerfAttrPortVLXmitWaitCounters:        "PortVLXmitWaitCounters",
	PerfAttrPortCountersExtended:          "PortCountersExtended",
	PerfAttrPortSamplesResultExtended:     "PortSamplesResultExtended",
}

// String returns the attribute's IBTA name, or "0x" and four hex digits
// for an ID it does not know.
func (a PerfAttribute) String() string { return attrName(perfAttrNames[a], uint16(a)) }

// PortCounters is the PortCounters attribute (IBTA Vol 1, 16.1.3.5), the
// first 44 bytes of the PerfMgt data:
//
//	byte 0 reserved  byte 1 PortSelect  bytes 2-3 CounterSelect
//	bytes 4-5 SymbolErrorCounter  byte 6 LinkErrorRecoveryCounter
//	byte 7 LinkDownedCounter  bytes 8-9 PortRcvErrors
//	bytes 10-11 PortRcvRemotePhysicalErrors
//	bytes 12-13 PortRcvSwitchRelayErrors  bytes 14-15 PortXmitDiscards
//	byte 16 PortXmitConstraintErrors  byte 17 PortRcvConstraintErrors
//	byte 18 CounterSelect2
//	byte 19 LocalLinkIntegrityErrors (bits 7-4),
//	        ExcessiveBufferOverrunErrors (bits 3-0)
//	bytes 20-21 QP1Dropped  bytes 22-23 VL15Dropped
//	bytes 24-27 PortXmitData  bytes 28-31 PortRcvData
//	bytes 32-35 PortXmitPkts  bytes 36-39 PortRcvPkts
//	bytes 40-43 PortXmitWait
//
// The data counters count 4-byte words. CounterSelect2 and QP1Dropped are
// IBTA 1.3 additions (reserved before), PortXmitWait an IBTA 1.2.1 one.
type PortCounters struct {
	PortSelect                   uint8  // the port the counters are of (0xff: all)
	CounterSelect                uint16 // which counters a Set clears
	SymbolErrorCounter           uint16 // minor link errors
	LinkErrorRecoveryCounter     uint8  // link error recoveries
	LinkDownedCounter            uint8  // times the link went down
	PortRcvErrors                uint16 // packets received with errors
	PortRcvRemotePhysicalErrors  uint16 // packets received marked bad (EBP)
	PortRcvSwitchRelayErrors     uint16 // packets a switch could not forward
	PortXmitDiscards             uint16 // outbound packets discarded
	PortXmitConstraintErrors     uint8  // packets not sent for raw filtering or partitions
	PortRcvConstraintErrors      uint8  // packets received and dropped for the same
	CounterSelect2               uint8  // which of the IBTA 1.3 counters a Set clears
	LocalLinkIntegrityErrors     uint8  // 4 bits
	ExcessiveBufferOverrunErrors uint8  // 4 bits
	QP1Dropped                   uint16 // QP1 MADs dropped
	VL15Dropped                  uint16 // VL15 packets dropped
	PortXmitData                 uint32 // data words sent
	PortRcvData                  uint32 // data words received
	PortXmitPkts                 uint32 // packets sent
	PortRcvPkts                  uint32 // packets received
	PortXmitWait                 uint32 // ticks with data to send and no credits
}

// Decode decodes the attribute from b, the 192-byte PerfMgt data,
// resetting c first. A shorter b is an error wrapping ErrTruncated.
func (c *PortCounters) Decode(b []byte) error {
	*c = PortCounters{}
	return decodeWalker(b, "PortCounters", PerfDataLen, c)
}

// AppendTo appends the 192-byte PerfMgt data to b, reserved bytes zero.
// It refuses, appending nothing, a LocalLinkIntegrityErrors or
// ExcessiveBufferOverrunErrors wider than 4 bits.
func (c *PortCounters) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "PortCounters", PerfDataLen, c)
}

// PortCountersExtended is the PortCountersExtended attribute (IBTA Vol 1,
// 16.1.4.11), the first 184 bytes of the PerfMgt data:
//
//	byte 0 reserved  byte 1 PortSelect  bytes 2-3 CounterSelect
//	bytes 4-7 CounterSelect2
//	bytes 8-71: eight 64-bit data and packet counters, PortXmitData
//	            through PortMulticastRcvPkts, in the order of the fields
//	bytes 72-183: fourteen 64-bit error counters, SymbolErrorCounter
//	            through QP1Dropped, in the order of the fields
//
// The error counters and CounterSelect2 are IBTA 1.3 additions, present
// when the port's ClassPortInfo says so and zero (reserved) otherwise.
type PortCountersExtended struct {
	PortSelect     uint8  // the port the counters are of (0xff: all)
	CounterSelect  uint16 // which data counters a Set clears
	CounterSelect2 uint32 // which error counters a Set clears

	PortXmitData          uint64 // data words sent
	PortRcvData           uint64 // data words received
	PortXmitPkts          uint64 // packets sent
	PortRcvPkts           uint64 // packets received
	PortUnicastXmitPkts   uint64 // unicast packets sent
	PortUnicastRcvPkts    uint64 // unicast packets received
	PortMulticastXmitPkts uint64 // multicast packets sent
	PortMulticastRcvPkts  uint64 // multicast packets received

	SymbolErrorCounter           uint64
	LinkErrorRecoveryCounter     uint64
	LinkDownedCounter            uint64
	PortRcvErrors                uint64
	PortRcvRemotePhysicalErrors  uint64
	PortRcvSwitchRelayErrors     uint64
	PortXmitDiscards             uint64
	PortXmitConstraintErrors     uint64
	PortRcvConstraintErrors      uint64
	LocalLinkIntegrityErrors     uint64
	ExcessiveBufferOverrunErrors uint64
	VL15Dropped                  uint64
	PortXmitWait                 uint64
	QP1Dropped                   uint64
}

// counters returns the 22 64-bit counters in wire order, from byte 8.
func (c *PortCountersExtended) counters() [22]*uint64 {
	return [22]*uint64{&c.PortXmitData, &c.PortRcvData, &c.PortXmitPkts, &c.PortRcvPkts,
		&c.PortUnicastXmitPkts, &c.PortUnicastRcvPkts, &c.PortMulticastXmitPkts, &c.PortMulticastRcvPkts,
		&c.SymbolErrorCounter, &c.LinkErrorRecoveryCounter, &c.LinkDownedCounter, &c.PortRcvErrors,
		&c.PortRcvRemotePhysicalErrors, &c.PortRcvSwitchRelayErrors, &c.PortXmitDiscards,
		&c.PortXmitConstraintErrors, &c.PortRcvConstraintErrors, &c.LocalLinkIntegrityErrors,
		&c.ExcessiveBufferOverrunErrors, &c.VL15Dropped, &c.PortXmitWait, &c.QP1Dropped}
}

// Decode decodes the attribute from b, the 192-byte PerfMgt data,
// resetting c first. A shorter b is an error wrapping ErrTruncated.
func (c *PortCountersExtended) Decode(b []byte) error {
	*c = PortCountersExtended{}
	return decodeWalker(b, "PortCountersExtended", PerfDataLen, c)
}

// AppendTo appends the 192-byte PerfMgt data to b, reserved bytes zero.
func (c *PortCountersExtended) AppendTo(b []byte) ([]byte, error) {
	return appendWalker(b, "PortCountersExtended", PerfDataLen, c)
}

func (p *PortCounters) walk(c codec) error {
	c.u8(&p.PortSelect, "PortSelect", 1, 0, 8)
	c.u16(&p.CounterSelect, "CounterSelect", 2, 0, 16)
	c.u16(&p.SymbolErrorCounter, "SymbolErrorCounter", 4, 0, 16)
	c.u8(&p.LinkErrorRecoveryCounter, "LinkErrorRecoveryCounter", 6, 0, 8)
	c.u8(&p.LinkDownedCounter, "LinkDownedCounter", 7, 0, 8)
	c.u16(&p.PortRcvErrors, "PortRcvErrors", 8, 0, 16)
	c.u16(&p.PortRcvRemotePhysicalErrors, "PortRcvRemotePhysicalErrors", 10, 0, 16)
	c.u16(&p.PortRcvSwitchRelayErrors, "PortRcvSwitchRelayErrors", 12, 0, 16)
	c.u16(&p.PortXmitDiscards, "PortXmitDiscards", 14, 0, 16)
	c.u8(&p.PortXmitConstraintErrors, "PortXmitConstraintErrors", 16, 0, 8)
	c.u8(&p.PortRcvConstraintErrors, "PortRcvConstraintErrors", 17, 0, 8)
	c.u8(&p.CounterSelect2, "CounterSelect2", 18, 0, 8)
	c.u8(&p.LocalLinkIntegrityErrors, "LocalLinkIntegrityErrors", 19, 0, 4)
	c.u8(&p.ExcessiveBufferOverrunErrors, "ExcessiveBufferOverrunErrors", 19, 4, 4)
	c.u16(&p.QP1Dropped, "QP1Dropped", 20, 0, 16)
	c.u16(&p.VL15Dropped, "VL15Dropped", 22, 0, 16)
	c.u32(&p.PortXmitData, "PortXmitData", 24, 0, 32)
	c.u32(&p.PortRcvData, "PortRcvData", 28, 0, 32)
	c.u32(&p.PortXmitPkts, "PortXmitPkts", 32, 0, 32)
	c.u32(&p.PortRcvPkts, "PortRcvPkts", 36, 0, 32)
	c.u32(&p.PortXmitWait, "PortXmitWait", 40, 0, 32)
	return c.err
}

func (p *PortCountersExtended) walk(c codec) error {
	c.u8(&p.PortSelect, "PortSelect", 1, 0, 8)
	c.u16(&p.CounterSelect, "CounterSelect", 2, 0, 16)
	c.u32(&p.CounterSelect2, "CounterSelect2", 4, 0, 32)
	for i, v := range p.counters() {
		c.u64(v, "counter", 8+8*i)
	}
	return c.err
}

// Validate reports a LocalLinkIntegrityErrors or
// ExcessiveBufferOverrunErrors wider than 4 bits, as a *FieldError
// wrapping ErrBadValue; AppendTo refuses it.
func (p *PortCounters) Validate() error { return validateWalker("PortCounters", PerfDataLen, p) }
