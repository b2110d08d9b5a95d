// Package layertype is the one table of the gopacket layer types of this
// module: their numbers, in the range 1000-1999 that both gopacket
// modules leave to applications, and their names. The adapters
// (googlelayers for github.com/google/gopacket, the nested module
// rocelayers for github.com/gopacket/gopacket) register them from here,
// so a layer type of one module converts to the other's by number. The
// package builds on ib alone (for the table of the extended headers).
package layertype

import "github.com/roce-go/roce/ib"

// A Type is a layer type's number and name.
type Type struct {
	Num  int
	Name string
}

// The InfiniBand layer types, 1790-1802.
var (
	LRH          = Type{1790, "LRH"}
	GRH          = Type{1791, "GRH"}
	BTH          = Type{1792, "BTH"}
	RDETH        = Type{1793, "RDETH"}
	DETH         = Type{1794, "DETH"}
	XRCETH       = Type{1795, "XRCETH"}
	RETH         = Type{1796, "RETH"}
	AtomicETH    = Type{1797, "AtomicETH"}
	AtomicAckETH = Type{1798, "AtomicAckETH"}
	AETH         = Type{1799, "AETH"}
	ImmDt        = Type{1800, "ImmDt"}
	IETH         = Type{1801, "IETH"}
	FETH         = Type{1802, "FETH"}
)

// MACControl is the layer type of an 802.3 MAC Control frame (PAUSE,
// PFC), 1810.
var MACControl = Type{1810, "MACControl"}

// The management datagram layer types: 1820-1834 for the framework, CM
// and SA, 1835-1849 for SMP and PerfMgt.
var (
	MAD         = Type{1820, "MAD"}
	RMPP        = Type{1821, "RMPP"}
	CM          = Type{1822, "CM"}
	SA          = Type{1823, "SA"}
	SMP         = Type{1835, "SMP"}
	SMPDirected = Type{1836, "SMPDirected"}
	PerfMgt     = Type{1837, "PerfMgt"}
)

// The IPoIB layer types, 1850-1859.
var (
	IPoIB           = Type{1850, "IPoIB"}
	IPoIBLinkHeader = Type{1851, "IPoIBLinkHeader"}
)

// ETH is, by extended header, its layer type; the zero Type for
// ib.NoHeader.
var ETH = [...]Type{
	ib.HeaderRDETH:        RDETH,
	ib.HeaderDETH:         DETH,
	ib.HeaderXRCETH:       XRCETH,
	ib.HeaderRETH:         RETH,
	ib.HeaderAtomicETH:    AtomicETH,
	ib.HeaderAtomicAckETH: AtomicAckETH,
	ib.HeaderAETH:         AETH,
	ib.HeaderImmDt:        ImmDt,
	ib.HeaderIETH:         IETH,
	ib.HeaderFETH:         FETH,
}
