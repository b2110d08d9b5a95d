package googlelayers

import (
	"github.com/google/gopacket"

	"github.com/roce-go/roce/internal/layertype"
)

// The layer types of the management datagram layers, under the numbers
// of the module's table (1820-1823 MAD, RMPP, CM, SA; 1835-1837 SMP,
// SMPDirected, PerfMgt). Every one but RMPP decodes from the common MAD
// header: a class body cannot be read without the attribute ID the
// header carries. The BTH and DETH layers hand the payload of a UD SEND
// Only to QP 0 or QP 1, when it holds a whole MAD, to the MAD layer
// (register.go).
var (
	LayerTypeMAD         = registerMAD(layertype.MAD)
	LayerTypeRMPP        = gopacket.RegisterLayerType(layertype.RMPP.Num, gopacket.LayerTypeMetadata{Name: layertype.RMPP.Name, Decoder: gopacket.DecodeFunc(decodeRMPP)})
	LayerTypeCM          = registerMAD(layertype.CM)
	LayerTypeSA          = registerMAD(layertype.SA)
	LayerTypeSMP         = registerMAD(layertype.SMP)
	LayerTypeSMPDirected = registerMAD(layertype.SMPDirected)
	LayerTypePerfMgt     = registerMAD(layertype.PerfMgt)
)

// The layer types of the class bodies by number, for the tables of
// mad.go, which the layer types' decoder refers to, so that they cannot
// name the layer types themselves.
var (
	numCM          = gopacket.LayerType(layertype.CM.Num)
	numSA          = gopacket.LayerType(layertype.SA.Num)
	numSMP         = gopacket.LayerType(layertype.SMP.Num)
	numSMPDirected = gopacket.LayerType(layertype.SMPDirected.Num)
	numPerfMgt     = gopacket.LayerType(layertype.PerfMgt.Num)
)

func registerMAD(t layertype.Type) gopacket.LayerType {
	return gopacket.RegisterLayerType(t.Num, gopacket.LayerTypeMetadata{Name: t.Name, Decoder: gopacket.DecodeFunc(decodeMAD)})
}
