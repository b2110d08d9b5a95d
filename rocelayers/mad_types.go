package rocelayers

import (
	"github.com/gopacket/gopacket"

	"github.com/roce-go/roce/internal/layertype"
)

// The layer types of the class bodies by number, for the tables of
// mad.go, which the layer types' decoders refer to, so that they cannot
// name the layer types themselves.
var (
	numCM          = gopacket.LayerType(layertype.CM.Num)
	numSA          = gopacket.LayerType(layertype.SA.Num)
	numSMP         = gopacket.LayerType(layertype.SMP.Num)
	numSMPDirected = gopacket.LayerType(layertype.SMPDirected.Num)
	numPerfMgt     = gopacket.LayerType(layertype.PerfMgt.Num)
)
