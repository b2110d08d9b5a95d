package roce

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/mad"      // registers the MAD layers with ib
	_ "github.com/roce-go/roce/rocev1" // registers Ethertype 0x8915
	"github.com/roce-go/roce/rocev2"
)

// EtherType9100 is the TPID of the outer tag of QinQ before 802.1ad
// (0x9100), which tshark decodes as an 802.1Q tag and gopacket does not
// know: importing this package registers it with gopacket's Ethertype
// table as layers.Dot1Q, so that gopacket.NewPacket and the Layers parser
// go on through such tags as Frame.Decode does. gopacket nests tags
// without limit; Frame.Decode takes MaxVLANs.
const EtherType9100 layers.EthernetType = hdr.EtherType9100

func init() {
	layers.EthernetTypeMetadata[EtherType9100] = layers.EthernetTypeMetadata[layers.EthernetTypeDot1Q]
}

// Layers holds one reusable decoding layer for everything a RoCE frame
// can carry: Ethernet, 802.1Q, IPv4, IPv6, UDP (with RoCEv2's dispatch
// rule), the InfiniBand layers and the management datagrams (MAD, RMPP,
// CM, SA, SMP, SMPDirected, PerfMgt) a UD SEND Only to QP 0 or QP 1
// carries.
type Layers struct {
	Ethernet layers.Ethernet
	Dot1Q    layers.Dot1Q
	IPv4     layers.IPv4
	IPv6     layers.IPv6
	UDP      rocev2.UDP
	IB       ib.Layers
	MAD      mad.Layers
}

// Parser returns a DecodingLayerParser over the layers of l, starting at
// Ethernet. Building it allocates; decoding with it does not. The parser
// keeps its layers in a gopacket.DecodingLayerSparse, a slice indexed by
// layer type, rather than gopacket's default map: with a dozen layers the
// map lookups would cost more than the decoding.
func (l *Layers) Parser() *gopacket.DecodingLayerParser {
	p := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet)
	p.SetDecodingLayerContainer(gopacket.DecodingLayerSparse(nil))
	l.IB.EnableManagement()
	ls := append([]gopacket.DecodingLayer{&l.Ethernet, &l.Dot1Q, &l.IPv4, &l.IPv6, &l.UDP}, l.IB.DecodingLayers()...)
	for _, d := range append(ls, l.MAD.DecodingLayers()...) {
		p.AddDecodingLayer(d)
	}
	return p
}
