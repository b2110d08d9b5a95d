package rocelayers

import (
	"encoding/binary"
	"errors"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

// Each layer below embeds the header of package ib, whose fields and
// methods it keeps (bth.OpCode, aeth.Credits()), and adds the methods of
// a gopacket layer, each a call to ib's gopacket-free codec: DecodeLayer
// or Decode, Serialize, and the layer type, which converts by number
// from ib's (see register.go).

// tell returns err after telling df (which may be nil) that the input
// was cut short: the payload was cut (cut) or err wraps ib.ErrTruncated.
func tell(df gopacket.DecodeFeedback, cut bool, err error) error {
	if df != nil && (cut || err != nil && errors.Is(err, ib.ErrTruncated)) {
		df.SetTruncated()
	}
	return err
}

// LRH is ib.LRH, the Local Route Header of native InfiniBand, as a layer.
type LRH struct{ ib.LRH }

// LayerType returns LayerTypeLRH.
func (h *LRH) LayerType() gopacket.LayerType { return LayerTypeLRH }

// CanDecode returns LayerTypeLRH.
func (h *LRH) CanDecode() gopacket.LayerClass { return LayerTypeLRH }

// NextLayerType returns LayerTypeBTH or LayerTypeGRH according to LNH.
func (h *LRH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.LRH.NextLayerType()) }

// DecodeFromBytes is ib.LRH.DecodeLayer; df may be nil.
func (h *LRH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	cut, err := h.DecodeLayer(data)
	return tell(df, cut, err)
}

// SerializeTo is ib.LRH.Serialize.
func (h *LRH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// LinkFlow returns the flow between the LIDs, so that LRH is a
// gopacket.LinkLayer.
func (h *LRH) LinkFlow() gopacket.Flow {
	var lids [4]byte
	binary.BigEndian.PutUint16(lids[:2], h.SLID)
	binary.BigEndian.PutUint16(lids[2:], h.DLID)
	return gopacket.NewFlow(layers.EndpointMAC, lids[:2], lids[2:])
}

// GRH is ib.GRH, the Global Route Header, as a layer.
type GRH struct{ ib.GRH }

// LayerType returns LayerTypeGRH.
func (h *GRH) LayerType() gopacket.LayerType { return LayerTypeGRH }

// CanDecode returns LayerTypeGRH.
func (h *GRH) CanDecode() gopacket.LayerClass { return LayerTypeGRH }

// NextLayerType returns LayerTypeBTH when NxtHdr is 0x1B.
func (h *GRH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.GRH.NextLayerType()) }

// DecodeFromBytes is ib.GRH.DecodeLayer; df may be nil.
func (h *GRH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	cut, err := h.DecodeLayer(data)
	return tell(df, cut, err)
}

// SerializeTo is ib.GRH.Serialize.
func (h *GRH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// NetworkFlow returns the flow between the GIDs, so that GRH is a
// gopacket.NetworkLayer (RoCEv1 frames have no other).
func (h *GRH) NetworkFlow() gopacket.Flow {
	return gopacket.NewFlow(layers.EndpointIPv6, h.SGID[:], h.DGID[:])
}

// BTH is ib.BTH, the Base Transport Header, as a layer: it decodes the
// transport packet from the BTH through the ICRC, as ib.BTH does. A BTH
// that gopacket.NewPacket decoded checks the packet's ICRC in
// Packet.VerifyChecksums (see VerifyChecksum).
type BTH struct {
	ib.BTH
	pk gopacket.Packet // the packet NewPacket decoded it in, nil otherwise
}

// LayerType returns LayerTypeBTH.
func (h *BTH) LayerType() gopacket.LayerType { return LayerTypeBTH }

// CanDecode returns LayerTypeBTH.
func (h *BTH) CanDecode() gopacket.LayerClass { return LayerTypeBTH }

// NextLayerType returns the first extended header of the opcode, or
// gopacket.LayerTypePayload when only data follows.
func (h *BTH) NextLayerType() gopacket.LayerType { return gopacket.LayerType(h.BTH.NextLayerType()) }

// DecodeFromBytes is ib.BTH.DecodeLayer given the packet's declared
// length when df says the capture cut it (see ib.BTH.DecodeFromBytes);
// df may be nil.
func (h *BTH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	h.pk = nil
	return tell(df, false, h.DecodeLayer(data, cutLength(data, df)))
}

// cutLength is the length ib.BTH.DecodeLayer wants: len(data) unless df
// says the capture cut the packet, then what the UDP or GRH layer of a
// gopacket.Packet declares, or ib.LengthUnknown.
func cutLength(data []byte, df gopacket.DecodeFeedback) int {
	if d, ok := df.(*gopacket.DecodingLayerParser); ok && d.Truncated {
		return ib.LengthUnknown
	}
	pk, ok := df.(gopacket.Packet)
	if !ok || !pk.Metadata().Truncated {
		return len(data)
	}
	var udpLen uint16
	if u, ok := pk.TransportLayer().(*layers.UDP); ok {
		udpLen = u.Length
	}
	var grh *ib.GRH
	if g, ok := pk.Layer(LayerTypeGRH).(*GRH); ok {
		grh = &g.GRH
	}
	return ib.DeclaredLength(udpLen, grh)
}

// SerializeTo is ib.BTH.Serialize.
func (h *BTH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// decodeBTH is the gopacket decoder of a BTH; the extended headers its
// opcode lists follow through their own decoders, each linked to it.
func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	pk, _ := p.(gopacket.Packet)
	// gopacket's UDP falls back to the source port when the destination
	// port is not registered; RoCEv2 is keyed on the destination alone.
	if pk != nil {
		if u, ok := pk.TransportLayer().(*layers.UDP); ok && u.DstPort != layers.UDPPort(rocev2.Port) {
			return p.NextDecoder(gopacket.LayerTypePayload)
		}
	}
	return decode[BTH](data, p)
}

// eth is what the layer of an extended header is.
type eth interface {
	gopacket.DecodingLayer
	gopacket.Layer
	SetBTH(*ib.BTH)
}
