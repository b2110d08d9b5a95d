package rocelayers

import (
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/pfc"
	"github.com/roce-go/roce/rocev1"
	"github.com/roce-go/roce/rocev2"
)

// The layer types of this package, registered with gopacket under the
// numbers their packages (or package googlelayers, for pfc) register
// with github.com/google/gopacket (ib 1790-1802, pfc 1810, mad 1820-1823 and 1835-1837, ipoib 1850-1851), so that a layer type of one module converts to
// the other's by number: gopacket.LayerType(googlelayers.LayerTypeBTH) is
// LayerTypeBTH. The community gopacket registers only 1010 (GTPv2) in
// the range 1000-1999 it leaves to applications.
var (
	LayerTypeLRH          = register(googlelayers.LayerTypeLRH, decodeLRH)
	LayerTypeGRH          = register(googlelayers.LayerTypeGRH, decodeGRH)
	LayerTypeBTH          = register(googlelayers.LayerTypeBTH, decodeBTH)
	LayerTypeRDETH        = register(googlelayers.LayerTypeRDETH, decode[RDETH])
	LayerTypeDETH         = register(googlelayers.LayerTypeDETH, decode[DETH])
	LayerTypeXRCETH       = register(googlelayers.LayerTypeXRCETH, decode[XRCETH])
	LayerTypeRETH         = register(googlelayers.LayerTypeRETH, decode[RETH])
	LayerTypeAtomicETH    = register(googlelayers.LayerTypeAtomicETH, decode[AtomicETH])
	LayerTypeAtomicAckETH = register(googlelayers.LayerTypeAtomicAckETH, decode[AtomicAckETH])
	LayerTypeAETH         = register(googlelayers.LayerTypeAETH, decode[AETH])
	LayerTypeImmDt        = register(googlelayers.LayerTypeImmDt, decode[ImmDt])
	LayerTypeIETH         = register(googlelayers.LayerTypeIETH, decode[IETH])
	LayerTypeFETH         = register(googlelayers.LayerTypeFETH, decode[FETH])
	LayerTypeMACControl   = register(googlelayers.LayerTypeMACControl, decodeMACControl)

	LayerTypeMAD  = register(mad.LayerTypeMAD, decodeMAD)
	LayerTypeRMPP = register(mad.LayerTypeRMPP, decode[RMPP])
	LayerTypeCM   = register(mad.LayerTypeCM, decodeMAD) // from the MAD header, as in mad
	LayerTypeSA   = register(mad.LayerTypeSA, decodeMAD)

	LayerTypeSMP         = register(mad.LayerTypeSMP, decode[SMP])
	LayerTypeSMPDirected = register(mad.LayerTypeSMPDirected, decode[SMPDirected])
	LayerTypePerfMgt     = register(mad.LayerTypePerfMgt, decode[PerfMgt])

	LayerTypeIPoIB           = register(googlelayers.LayerTypeIPoIB, decode[IPoIB])
	LayerTypeIPoIBLinkHeader = register(googlelayers.LayerTypeIPoIBLinkHeader, decode[IPoIBLinkHeader])
)

// googleLayerType is a layer type of github.com/google/gopacket, which
// this package reads only for its number and name.
type googleLayerType interface {
	~int64
	String() string
}

// register registers the layer type numbered and named as g.
func register[G googleLayerType](g G, d gopacket.DecodeFunc) gopacket.LayerType {
	return gopacket.RegisterLayerType(int(g), gopacket.LayerTypeMetadata{Name: g.String(), Decoder: d})
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
	// tag, as tshark and roce.Frame decode it (layers.EthernetType(googlelayers.EtherType9100)).
	layers.EthernetTypeMetadata[layers.EthernetType(googlelayers.EtherType9100)] = layers.EthernetTypeMetadata[layers.EthernetTypeDot1Q]
}
