package nvmeof

// The names of the codes, from the specifications' tables: NVMe Base 2.0
// (Figure 28, admin opcodes; Figures 100 to 104, status codes; Figure 36,
// properties), the NVM Command Set 1.0 (Figure 18, I/O opcodes), NVMe-oF
// 1.1 (Figure 10, Fabrics command types; Figure 25, Connect status).

// FabricsType is the command type (FCTYPE) of a Fabrics command.
type FabricsType uint8

// The Fabrics command types.
const (
	PropertySet     FabricsType = 0x00
	Connect         FabricsType = 0x01
	PropertyGet     FabricsType = 0x04
	AuthSend        FabricsType = 0x05
	AuthReceive     FabricsType = 0x06
	Disconnect      FabricsType = 0x08
	fabricsTypesLen             = 0x09
)

// String returns the type's name, "" for a code NVMe-oF does not define.
func (t FabricsType) String() string {
	if t < fabricsTypesLen {
		return fabricsTypes[t]
	}
	return ""
}

var fabricsTypes = [fabricsTypesLen]string{
	PropertySet: "Property Set",
	Connect:     "Connect",
	PropertyGet: "Property Get",
	AuthSend:    "Authentication Send",
	AuthReceive: "Authentication Receive",
	Disconnect:  "Disconnect",
}

// The admin and I/O opcodes a connection uses, named where Go code wants
// them (the full tables are below).
const (
	OpIdentify        = 0x06
	OpGetLogPage      = 0x02
	OpSetFeatures     = 0x09
	OpGetFeatures     = 0x0a
	OpAsyncEvent      = 0x0c
	OpKeepAlive       = 0x18
	OpFlush           = 0x00
	OpWrite           = 0x01
	OpRead            = 0x02
	OpWriteZeroes     = 0x08
	OpDatasetMgmt     = 0x09
	OpCompare         = 0x05
	OpWriteUncorrect  = 0x04
	OpVerify          = 0x0c
	OpCopy            = 0x19
	OpFormatNVM       = 0x80
	OpSecuritySend    = 0x81
	OpSecurityReceive = 0x82
)

var adminOpcodes = [256]string{
	0x00:              "Delete I/O Submission Queue",
	0x01:              "Create I/O Submission Queue",
	OpGetLogPage:      "Get Log Page",
	0x04:              "Delete I/O Completion Queue",
	0x05:              "Create I/O Completion Queue",
	OpIdentify:        "Identify",
	0x08:              "Abort",
	OpSetFeatures:     "Set Features",
	OpGetFeatures:     "Get Features",
	OpAsyncEvent:      "Asynchronous Event Request",
	0x0d:              "Namespace Management",
	0x10:              "Firmware Commit",
	0x11:              "Firmware Image Download",
	0x14:              "Device Self-test",
	0x15:              "Namespace Attachment",
	OpKeepAlive:       "Keep Alive",
	0x19:              "Directive Send",
	0x1a:              "Directive Receive",
	0x1c:              "Virtualization Management",
	0x1d:              "NVMe-MI Send",
	0x1e:              "NVMe-MI Receive",
	0x20:              "Capacity Management",
	0x24:              "Lockdown",
	0x7c:              "Doorbell Buffer Config",
	OpFormatNVM:       "Format NVM",
	OpSecuritySend:    "Security Send",
	OpSecurityReceive: "Security Receive",
	0x84:              "Sanitize",
	0x86:              "Get LBA Status",
}

var ioOpcodes = [256]string{
	OpFlush:          "Flush",
	OpWrite:          "Write",
	OpRead:           "Read",
	OpWriteUncorrect: "Write Uncorrectable",
	OpCompare:        "Compare",
	OpWriteZeroes:    "Write Zeroes",
	OpDatasetMgmt:    "Dataset Management",
	OpVerify:         "Verify",
	0x0d:             "Reservation Register",
	0x0e:             "Reservation Report",
	0x11:             "Reservation Acquire",
	0x15:             "Reservation Release",
	OpCopy:           "Copy",
}

var sglTypes = [16]string{
	SGLDataBlock:          "Data Block",
	SGLBitBucket:          "Bit Bucket",
	SGLSegment:            "Segment",
	SGLLastSegment:        "Last Segment",
	SGLKeyedDataBlock:     "Keyed Data Block",
	SGLTransportDataBlock: "Transport Data Block",
}

var sglSubTypes = [16]string{
	SGLAddress:       "Address",
	SGLOffset:        "Offset",
	SGLInvalidateKey: "Invalidate Key",
}

var statusTypes = [8]string{
	0: "Generic Command Status",
	1: "Command Specific Status",
	2: "Media and Data Integrity Errors",
	3: "Path Related Status",
	7: "Vendor Specific",
}

var genericStatus = [256]string{
	0x00: "Successful Completion",
	0x01: "Invalid Command Opcode",
	0x02: "Invalid Field in Command",
	0x03: "Command ID Conflict",
	0x04: "Data Transfer Error",
	0x05: "Commands Aborted due to Power Loss Notification",
	0x06: "Internal Error",
	0x07: "Command Abort Requested",
	0x08: "Command Aborted due to SQ Deletion",
	0x09: "Command Aborted due to Failed Fused Command",
	0x0a: "Command Aborted due to Missing Fused Command",
	0x0b: "Invalid Namespace or Format",
	0x0c: "Command Sequence Error",
	0x0d: "Invalid SGL Segment Descriptor",
	0x0e: "Invalid Number of SGL Descriptors",
	0x0f: "Data SGL Length Invalid",
	0x10: "Metadata SGL Length Invalid",
	0x11: "SGL Descriptor Type Invalid",
	0x12: "Invalid Use of Controller Memory Buffer",
	0x13: "PRP Offset Invalid",
	0x14: "Atomic Write Unit Exceeded",
	0x15: "Operation Denied",
	0x16: "SGL Offset Invalid",
	0x18: "Host Identifier Inconsistent Format",
	0x19: "Keep Alive Timer Expired",
	0x1a: "Keep Alive Timeout Invalid",
	0x1b: "Command Aborted due to Preempt and Abort",
	0x1c: "Sanitize Failed",
	0x1d: "Sanitize In Progress",
	0x1e: "SGL Data Block Granularity Invalid",
	0x1f: "Command Not Supported for Queue in CMB",
	0x20: "Namespace is Write Protected",
	0x21: "Command Interrupted",
	0x22: "Transient Transport Error",
	0x80: "LBA Out of Range",
	0x81: "Capacity Exceeded",
	0x82: "Namespace Not Ready",
	0x83: "Reservation Conflict",
	0x84: "Format In Progress",
}

var commandStatus = [256]string{
	0x00: "Completion Queue Invalid",
	0x01: "Invalid Queue Identifier",
	0x02: "Invalid Queue Size",
	0x03: "Abort Command Limit Exceeded",
	0x05: "Asynchronous Event Request Limit Exceeded",
	0x06: "Invalid Firmware Slot",
	0x07: "Invalid Firmware Image",
	0x08: "Invalid Interrupt Vector",
	0x09: "Invalid Log Page",
	0x0a: "Invalid Format",
	0x0d: "Feature Identifier Not Saveable",
	0x0e: "Feature Not Changeable",
	0x0f: "Feature Not Namespace Specific",
	0x80: "Conflicting Attributes",
	0x81: "Invalid Protection Information",
	0x82: "Attempted Write to Read Only Range",
}

var fabricsStatus = [256]string{
	0x80: "Connect Incompatible Format",
	0x81: "Connect Controller Busy",
	0x82: "Connect Invalid Parameters",
	0x83: "Connect Restart Discovery",
	0x84: "Connect Invalid Host",
	0x85: "Invalid Queue Type",
	0x90: "Discover Restart",
	0x91: "Authentication Required",
}

var mediaStatus = [256]string{
	0x80: "Write Fault",
	0x81: "Unrecovered Read Error",
	0x82: "End-to-end Guard Check Error",
	0x83: "End-to-end Application Tag Check Error",
	0x84: "End-to-end Reference Tag Check Error",
	0x85: "Compare Failure",
	0x86: "Access Denied",
	0x87: "Deallocated or Unwritten Logical Block",
	0x88: "End-to-End Storage Tag Check Error",
}

var pathStatus = [256]string{
	0x00: "Internal Path Error",
	0x01: "Asymmetric Access Persistent Loss",
	0x02: "Asymmetric Access Inaccessible",
	0x03: "Asymmetric Access Transition",
	0x60: "Controller Pathing Error",
	0x70: "Host Pathing Error",
	0x71: "Command Aborted By Host",
}

// PropertyName returns the name of the controller property at offset
// off (NVMe Base 2.0, Figure 36), "" for one it does not name.
func PropertyName(off uint32) string {
	for _, p := range properties {
		if p.off == off {
			return p.name
		}
	}
	return ""
}

var properties = [...]struct {
	off  uint32
	name string
}{
	{0x00, "Controller Capabilities (CAP)"},
	{0x08, "Version (VS)"},
	{0x0c, "Interrupt Mask Set (INTMS)"},
	{0x10, "Interrupt Mask Clear (INTMC)"},
	{0x14, "Controller Configuration (CC)"},
	{0x1c, "Controller Status (CSTS)"},
	{0x20, "NVM Subsystem Reset (NSSR)"},
	{0x24, "Admin Queue Attributes (AQA)"},
	{0x28, "Admin Submission Queue Base Address (ASQ)"},
	{0x30, "Admin Completion Queue Base Address (ACQ)"},
	{0x64, "Controller Ready Timeouts (CRTO)"},
}
