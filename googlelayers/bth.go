package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/layertype"
)

// BTH is ib.BTH, the Base Transport Header, as a layer: it decodes
// everything from its first byte to the end of the ICRC, splits off the
// PadCnt pad bytes and the 4-byte ICRC (both kept, as received, in Pad
// and ICRC) and leaves the extended headers and the payload in Payload
// for the layers that follow. VerifyPacket checks the ICRC.
type BTH struct {
	layers.BaseLayer
	ib.BTH
}

// LayerType returns LayerTypeBTH.
func (h *BTH) LayerType() gopacket.LayerType { return LayerTypeBTH }

// CanDecode returns LayerTypeBTH.
func (h *BTH) CanDecode() gopacket.LayerClass { return LayerTypeBTH }

// NextLayerType returns the first extended header of the opcode, or
// gopacket.LayerTypePayload when only data follows.
func (h *BTH) NextLayerType() gopacket.LayerType {
	if n := h.NextHeader(); n != ib.NoHeader {
		return HeaderLayerType(n)
	}
	return payloadOrZero(h.Payload)
}

// DecodeFromBytes decodes a transport packet (ib.BTH.Split): data runs
// from the first byte of the BTH to the last byte of the ICRC, as
// RoCEv2's UDP length and RoCEv1's GRH PayLen delimit it. df may be nil.
// On an error h is left zeroed.
//
// A packet cut short by the capture (a small snap length) decodes too,
// as long as the BTH was captured. The layers in front report the cut
// through df (gopacket's IPv4, IPv6 and UDP layers, UDP, GRH): when df is
// a gopacket.Packet whose Metadata().Truncated is set, or a
// *gopacket.DecodingLayerParser whose Truncated is set, and the declared
// length (the UDP Length or GRH PayLen, which a gopacket.Packet makes
// known) exceeds data, h.Truncated is set, Payload holds the captured
// bytes after the BTH, Pad is empty and ICRC is zero. When the cut falls
// inside the extended headers, the layer of the header it falls in then
// fails with ib.ErrTruncated (a gopacket layer is whole or absent;
// ib.Packet.DecodeTruncated keeps the fields captured). A gopacket user
// tells a cut packet by BTH.Truncated (or the packet's
// Metadata().Truncated, or DecodingLayerParser.Truncated) and does not
// check its ICRC: VerifyPacket returns ib.ErrUnchecked for it. Inside a
// DecodingLayerParser the declared length is not known to the BTH, so
// the opcode's payload rules go unchecked on a cut packet.
func (h *BTH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	rest, err := h.Split(data, declaredLen(data, df))
	if err != nil {
		h.BaseLayer = layers.BaseLayer{}
	} else {
		h.Contents, h.Payload = data[:ib.BTHLen], rest
	}
	return tell(df, false, err)
}

// declaredLen returns the length of the transport packet in data as the
// headers in front of it declare it: len(data) unless df reports that the
// capture cut the packet short; then ib.DeclaredLength of the UDP or GRH
// layer when df is a gopacket.Packet, and ib.LengthUnknown otherwise.
func declaredLen(data []byte, df gopacket.DecodeFeedback) int {
	switch d := df.(type) {
	case *gopacket.DecodingLayerParser:
		if d.Truncated {
			return ib.LengthUnknown
		}
	case gopacket.Packet:
		if d.Metadata().Truncated {
			var udpLen uint16
			if u, ok := d.TransportLayer().(*layers.UDP); ok {
				udpLen = u.Length
			}
			var grh *ib.GRH
			if g, ok := d.Layer(gopacket.LayerType(layertype.GRH.Num)).(*GRH); ok {
				grh = &g.GRH
			}
			return ib.DeclaredLength(udpLen, grh)
		}
	}
	return len(data)
}

// SerializeTo is ib.BTH.Serialize: it prepends the BTH and appends the
// pad and the ICRC to the bytes already serialized (the extended headers
// and the payload); compute the ICRC once the outer headers exist
// (FixICRC).
func (h *BTH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}
