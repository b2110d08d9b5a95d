package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/layertype"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/mad"
)

// The InfiniBand layer types this package registers with gopacket,
// 1790-1802 of the range gopacket leaves to applications (1000-1999), as
// the module's table of layer types (internal/layertype) numbers them;
// rocelayers registers the same numbers with github.com/gopacket/gopacket.
// The extended headers' follow with their layers (eth_gen.go).
var (
	LayerTypeLRH = register(layertype.LRH, decodeLRH)
	LayerTypeGRH = register(layertype.GRH, decodeGRH)
	LayerTypeBTH = register(layertype.BTH, decodeBTH)
)

// register registers layer type t with its decoder; gopacket panics on a
// number registered twice.
func register(t layertype.Type, d func([]byte, gopacket.PacketBuilder) error) gopacket.LayerType {
	return gopacket.RegisterLayerType(t.Num, gopacket.LayerTypeMetadata{Name: t.Name, Decoder: gopacket.DecodeFunc(d)})
}

// registerETH registers the layer type of extended header h, whose
// layer is L, and has newETH make L for h.
func registerETH[L any, P interface {
	*L
	ethLayer
}](h ib.Header) gopacket.LayerType {
	newETHs[h] = func(bth *ib.BTH) ethLayer {
		l := P(new(L))
		l.SetBTH(bth)
		return l
	}
	return register(layertype.ETH[h], decodeETH(h))
}

// EtherType9100 is the TPID of the outer tag of QinQ before 802.1ad
// (0x9100), which tshark decodes as an 802.1Q tag and gopacket does not
// know: importing this package registers it with gopacket's Ethertype
// table as layers.Dot1Q, so that gopacket.NewPacket and the Layers parser
// go on through such tags as roce.Frame.Decode does. gopacket nests tags
// without limit; Frame.Decode takes roce.MaxVLANs.
const EtherType9100 layers.EthernetType = hdr.EtherType9100

// The hooks into gopacket's dispatch tables: Ethertype 0x8915 (RoCEv1,
// also behind 802.1Q tags) to the GRH, 0x9100 to Dot1Q, UDP destination
// port 4791 to the BTH. (pfc.go hooks Ethertype 0x8808, ipoib's layers
// link type 242.)
func init() {
	layers.EthernetTypeMetadata[layers.EthernetType(hdr.EtherTypeRoCE)] = layers.EnumMetadata{
		DecodeWith: LayerTypeGRH, Name: "RoCEv1", LayerType: LayerTypeGRH,
	}
	layers.RegisterUDPPortLayerType(layers.UDPPort(hdr.RoCEv2Port), LayerTypeBTH)
	layers.EthernetTypeMetadata[EtherType9100] = layers.EthernetTypeMetadata[layers.EthernetTypeDot1Q]
}

// The hand-over of a transport packet's payload, the one table of what
// follows the last transport header: a whole MAD to QP 0 or 1 goes to the
// MAD layer, a native packet's IPoIB datagram (ipoib.Match) to the IPoIB
// layer (gopacket.NewPacket only: a DecodingLayerParser's one layer of
// each type would be overwritten by the inner packet's), anything else
// to gopacket.Payload.

// managementLayer is the layer of the payload of a whole UD SEND Only to
// QP 0 or QP 1, and managementLen the shortest payload it takes.
var (
	managementLayer = LayerTypeMAD
	managementLen   = mad.Len
)

// dataLayer returns the layer type of p, the bytes after the last header
// of bth's packet, for a decoder that holds the MAD layers: the MAD layer
// for a whole MAD to QP 0 or 1, else gopacket.LayerTypePayload (or
// LayerTypeZero when there are no bytes and zero is set).
func dataLayer(bth *ib.BTH, p []byte, zero bool) gopacket.LayerType {
	if bth.ToManagement() && len(p) >= managementLen && len(p) > 0 {
		return managementLayer
	}
	if zero {
		return payloadOrZero(p)
	}
	return gopacket.LayerTypePayload
}

// payloadLayer is the layer gopacket.NewPacket decodes the payload after
// the last transport header of bth's packet as; native says the packet is
// native InfiniBand (under an LRH).
func payloadLayer(bth *ib.BTH, payload []byte, native bool) gopacket.LayerType {
	if t := dataLayer(bth, payload, false); t != gopacket.LayerTypePayload {
		return t
	}
	if native && ipoib.Match(bth.OpCode, bth.DestQP, payload) {
		return LayerTypeIPoIB
	}
	return gopacket.LayerTypePayload
}

func payloadOrZero(p []byte) gopacket.LayerType {
	if len(p) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}
