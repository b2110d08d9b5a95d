package mad

import (
	"encoding/binary"
	"net/netip"
	"strconv"
)

// RejectReason is the Reason of a REJ (IBTA Vol 1, 12.6.7.2, Table 105).
type RejectReason uint16

// ARIKind says what the additional reject information (ARI) of a REJ
// holds for its reason (IBTA Vol 1, Table 105).
type ARIKind uint8

// The kinds of ARI.
const (
	ARINone               ARIKind = iota // nothing
	ARIGUID                              // a CA GUID, 8 bytes (Timeout)
	ARIGID                               // a GID, 16 bytes
	ARILID                               // a LID, 2 bytes
	ARISL                                // a service level
	ARITrafficClass                      // a traffic class
	ARIHopLimit                          // a hop limit
	ARIPacketRate                        // a packet rate
	ARIClassPortInfo                     // a ClassPortInfo, 72 bytes (redirection)
	ARIMTU                               // a path MTU
	ARIResponderResources                // responder resources
	ARIRNRRetryCount                     // an RNR retry count
	ARIClassVersion                      // the highest class version supported
	ARIFlowLabel                         // a flow label
	ARIConsumer                          // consumer defined
)

var ariKindNames = [...]string{"none", "GUID", "GID", "LID", "SL", "traffic class", "hop limit",
	"packet rate", "ClassPortInfo", "MTU", "responder resources", "RNR retry count",
	"class version", "flow label", "consumer defined"}

// String names the kind of ARI.
func (k ARIKind) String() string {
	if int(k) < len(ariKindNames) {
		return ariKindNames[k]
	}
	return "ARIKind(" + strconv.Itoa(int(k)) + ")"
}

// rejectReasons is the reject reason table: IBTA's name of each reason
// and what its ARI holds.
var rejectReasons = [...]struct {
	name string
	ari  ARIKind
}{
	1:  {"No QP available", ARINone},
	2:  {"No EEC available", ARINone},
	3:  {"No resources available", ARINone},
	4:  {"Timeout", ARIGUID},
	5:  {"Unsupported request", ARINone},
	6:  {"Invalid Communication ID", ARINone},
	7:  {"Invalid Communication Instance", ARINone},
	8:  {"Invalid Service ID", ARINone},
	9:  {"Invalid Transport Service Type", ARINone},
	10: {"Stale connection", ARINone},
	11: {"RDC does not exist", ARINone},
	12: {"Primary Remote Port GID rejected", ARIGID},
	13: {"Primary Remote Port LID rejected", ARILID},
	14: {"Invalid Primary SL", ARISL},
	15: {"Invalid Primary Traffic Class", ARITrafficClass},
	16: {"Invalid Primary Hop Limit", ARIHopLimit},
	17: {"Invalid Primary Packet Rate", ARIPacketRate},
	18: {"Alternate Remote Port GID rejected", ARIGID},
	19: {"Alternate Remote Port LID rejected", ARILID},
	20: {"Invalid Alternate SL", ARISL},
	21: {"Invalid Alternate Traffic Class", ARITrafficClass},
	22: {"Invalid Alternate Hop Limit", ARIHopLimit},
	23: {"Invalid Alternate Packet Rate", ARIPacketRate},
	24: {"Port and CM Redirection", ARIClassPortInfo},
	25: {"Port Redirection", ARIClassPortInfo},
	26: {"Invalid Path MTU", ARIMTU},
	27: {"Insufficient Responder Resources", ARIResponderResources},
	28: {"Consumer Reject", ARIConsumer},
	29: {"Invalid RNR NAK Retry Count", ARIRNRRetryCount},
	30: {"Duplicate Local Comm ID", ARINone},
	31: {"Unsupported Class Version", ARIClassVersion},
	32: {"Invalid Primary Flow Label", ARIFlowLabel},
	33: {"Invalid Alternate Flow Label", ARIFlowLabel},
	35: {"Vendor Option Not Supported", ARINone},
}

// Reject reasons named in code elsewhere.
const (
	RejectTimeout        RejectReason = 4
	RejectInvalidService RejectReason = 8
	RejectStaleConn      RejectReason = 10
	RejectConsumer       RejectReason = 28
)

// String returns IBTA's name of the reason ("Consumer Reject"), or
// "reason N" for a reason IBTA does not define.
func (r RejectReason) String() string {
	if int(r) < len(rejectReasons) && rejectReasons[r].name != "" {
		return rejectReasons[r].name
	}
	return "reason " + strconv.Itoa(int(r))
}

// ARIKind returns what the ARI of a REJ with this reason holds.
func (r RejectReason) ARIKind() ARIKind {
	if int(r) < len(rejectReasons) {
		return rejectReasons[r].ari
	}
	return ARINone
}

// AdditionalRejectInfo returns the bytes of ARI in use:
// RejectedInfoLength of them, at most the field's 72.
func (m *REJ) AdditionalRejectInfo() []byte {
	return m.ARI[:min(int(m.RejectedInfoLength), len(m.ARI))]
}

// ARIGUID returns the CA GUID of a Timeout reject, and whether the REJ
// carries one.
func (m *REJ) ARIGUID() (uint64, bool) {
	a := m.AdditionalRejectInfo()
	if m.Reason.ARIKind() != ARIGUID || len(a) < 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(a), true
}

// ARIGID returns the GID of a GID reject (reasons 12 and 18), and
// whether the REJ carries one.
func (m *REJ) ARIGID() (netip.Addr, bool) {
	a := m.AdditionalRejectInfo()
	if m.Reason.ARIKind() != ARIGID || len(a) < 16 {
		return netip.Addr{}, false
	}
	return netip.AddrFrom16([16]byte(a[:16])), true
}

// ARILID returns the LID of a LID reject (reasons 13 and 19), and
// whether the REJ carries one.
func (m *REJ) ARILID() (uint16, bool) {
	a := m.AdditionalRejectInfo()
	if m.Reason.ARIKind() != ARILID || len(a) < 2 {
		return 0, false
	}
	return binary.BigEndian.Uint16(a), true
}

// ARIClassPortInfo decodes the ClassPortInfo of a redirecting reject
// (reasons 24 and 25) into p, and reports whether the REJ carries one.
func (m *REJ) ARIClassPortInfo(p *ClassPortInfo) bool {
	return m.Reason.ARIKind() == ARIClassPortInfo && p.Decode(m.AdditionalRejectInfo()) == nil
}

// SIDRStatus is the Status of a SIDR_REP (IBTA Vol 1, 12.11.2, Table
// 114).
type SIDRStatus uint8

// The SIDR_REP status values.
const (
	SIDRSuccess        SIDRStatus = 0 // QPN and Q_Key valid
	SIDRUnsupportedSID SIDRStatus = 1 // service ID not supported
	SIDRRejected       SIDRStatus = 2 // service provider rejected the request
	SIDRNoQP           SIDRStatus = 3 // no QP available
	SIDRRedirect       SIDRStatus = 4 // redirect: ClassPortInfo in AdditionalInformation
	SIDRClassVersion   SIDRStatus = 5 // unsupported class version
)

var sidrStatusNames = [...]string{"QP valid", "Service ID not supported", "Rejected by service provider",
	"No QP available", "Redirect", "Unsupported class version"}

// String names the status, "status N" for one IBTA does not define.
func (s SIDRStatus) String() string {
	if int(s) < len(sidrStatusNames) {
		return sidrStatusNames[s]
	}
	return "status " + strconv.Itoa(int(s))
}

// APStatus is the AP Status of an APR (IBTA Vol 1, 12.8.2, Table 108).
type APStatus uint8

var apStatusNames = [...]string{"AP accepted", "Invalid Communication ID", "Unsupported request",
	"Rejected", "Redirect", "Same as the current path", "Invalid QPN/EECN",
	"Invalid alternate LID", "Invalid alternate GID", "Invalid alternate flow label",
	"Invalid alternate traffic class", "Invalid alternate hop limit",
	"Invalid alternate packet rate", "Invalid alternate SL"}

// String names the status, "status N" for one IBTA does not define.
func (s APStatus) String() string {
	if int(s) < len(apStatusNames) {
		return apStatusNames[s]
	}
	return "status " + strconv.Itoa(int(s))
}
