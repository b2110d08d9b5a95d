package rocelayers

import (
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/layertype"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocev1"
	"github.com/roce-go/roce/rocev2"
)

// The layer types of this package, registered with gopacket under the
// numbers of the module's table of layer types (internal/layertype),
// which googlelayers registers with github.com/google/gopacket (ib
// 1790-1802, pfc 1810, mad 1820-1823 and 1835-1837, ipoib 1850-1851), so
// that a layer type of one module converts to the other's by number:
// gopacket.LayerType(googlelayers.LayerTypeBTH) is LayerTypeBTH. The community gopacket registers only 1010 (GTPv2) in
// the range 1000-1999 it leaves to applications. The extended headers'
// layer types are in eth_gen.go.
var (
	LayerTypeLRH        = register(layertype.LRH, decodeLRH)
	LayerTypeGRH        = register(layertype.GRH, decodeGRH)
	LayerTypeBTH        = register(layertype.BTH, decodeBTH)
	LayerTypeMACControl = register(layertype.MACControl, decodeMACControl)

	LayerTypeMAD  = register(layertype.MAD, decodeMAD)
	LayerTypeRMPP = register(layertype.RMPP, decodeRMPP)
	LayerTypeCM   = register(layertype.CM, decodeMAD) // from the MAD header, as in googlelayers
	LayerTypeSA   = register(layertype.SA, decodeMAD)

	LayerTypeSMP         = register(layertype.SMP, decodeMAD)
	LayerTypeSMPDirected = register(layertype.SMPDirected, decodeMAD)
	LayerTypePerfMgt     = register(layertype.PerfMgt, decodeMAD)

	LayerTypeIPoIB           = register(layertype.IPoIB, decode[IPoIB])
	LayerTypeIPoIBLinkHeader = register(layertype.IPoIBLinkHeader, decode[IPoIBLinkHeader])
)

// register registers layer type t of the module's table with its
// decoder.
func register(t layertype.Type, d gopacket.DecodeFunc) gopacket.LayerType {
	return gopacket.RegisterLayerType(t.Num, gopacket.LayerTypeMetadata{Name: t.Name, Decoder: d})
}

// registerETH registers the layer type of extended header h, whose
// layer is L, with the generic decoder (eth_gen.go, generated from
// googlelayers', names the extended headers' layer types).
func registerETH[L any, P interface {
	*L
	layer
}](h ib.Header) gopacket.LayerType {
	return register(layertype.ETH[h], decode[L, P])
}

// The hooks into gopacket's dispatch tables: Ethertype 0x8915 (RoCEv1,
// also behind 802.1Q tags) to the GRH, 0x9100 to Dot1Q, Ethertype 0x8808 to MAC Control,
// UDP destination port 4791 to the BTH, link type 242 (LINKTYPE_IPOIB)
// to the IPoIB link header. handOver (decode.go) names the layer of a
// transport packet's payload: a MAD, IPoIB.
func init() {
	layers.LinkTypeMetadata[ipoib.LinkType] = layers.EnumMetadata{
		DecodeWith: LayerTypeIPoIBLinkHeader, Name: "IPoIB", LayerType: LayerTypeIPoIBLinkHeader,
	}
	layers.EthernetTypeMetadata[rocev1.EtherType] = layers.EnumMetadata{
		DecodeWith: LayerTypeGRH, Name: "RoCEv1", LayerType: LayerTypeGRH,
	}
	layers.EthernetTypeMetadata[layers.EthernetType(pfc.EthernetTypeMACControl)] = layers.EnumMetadata{
		DecodeWith: LayerTypeMACControl, Name: "MACControl", LayerType: LayerTypeMACControl,
	}
	layers.RegisterUDPPortLayerType(layers.UDPPort(rocev2.Port), LayerTypeBTH)
	// TPID 0x9100, the outer tag of QinQ before 802.1ad, as an 802.1Q
	// tag, as tshark and roce.Frame decode it (layers.EthernetType(hdr.EtherType9100)).
	layers.EthernetTypeMetadata[EtherType9100] = layers.EthernetTypeMetadata[layers.EthernetTypeDot1Q]
}

// EtherType9100 is the TPID of the outer tag of QinQ before 802.1ad
// (0x9100), which tshark decodes as an 802.1Q tag: importing this
// package registers it with gopacket's Ethertype table as layers.Dot1Q,
// as googlelayers.EtherType9100 is for Google's gopacket.
const EtherType9100 layers.EthernetType = hdr.EtherType9100
