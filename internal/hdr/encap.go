package hdr

// Encapsulation names the network header in front of a BTH, which
// decides which of its fields the ICRC masks. Package ib exports it as
// ib.Encapsulation.
type Encapsulation uint8

// The encapsulations of RoCE.
const (
	RoCEv1     Encapsulation = 1 // Ethertype 0x8915: GRH, BTH
	RoCEv2IPv4 Encapsulation = 2 // UDP/4791 over IPv4 (20-byte header): IPv4, UDP, BTH
	RoCEv2IPv6 Encapsulation = 3 // UDP/4791 over IPv6: IPv6, UDP, BTH
)

var encNames = [4]string{"?", "RoCEv1", "RoCEv2/IPv4", "RoCEv2/IPv6"}

// String returns "RoCEv1", "RoCEv2/IPv4" or "RoCEv2/IPv6".
func (e Encapsulation) String() string { return encNames[e&3] }

// GRHLen is the size of the Global Route Header, laid out as an IPv6
// header (IBTA Vol 1, 8.3).
const GRHLen = IPv6Len

// NxtHdrBTH is the GRH NxtHdr value that announces a BTH (IBTA Vol 1, 8.3.1).
const NxtHdrBTH = 0x1b
