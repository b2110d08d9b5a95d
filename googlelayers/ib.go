package googlelayers

import (
	"encoding/binary"
	"errors"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/layertype"
)

// Each layer below embeds the header of package ib, whose fields and
// methods it keeps (bth.OpCode, aeth.Credits()), and a layers.BaseLayer
// (its bytes, Contents, and what follows, Payload), and adds the methods
// of a gopacket layer, each a call to ib's codec: Decode or Split,
// Serialize, and which header follows.

// tell returns err after telling df (which may be nil) that the input
// was cut short: the payload was cut (cut) or err wraps ib.ErrTruncated.
// It is small enough to inline; told is the rare path.
func tell(df gopacket.DecodeFeedback, cut bool, err error) error {
	if cut || err != nil {
		told(df, cut, err)
	}
	return err
}

func told(df gopacket.DecodeFeedback, cut bool, err error) {
	if df != nil && (cut || errors.Is(err, ib.ErrTruncated)) {
		df.SetTruncated()
	}
}

// LRH is ib.LRH, the Local Route Header of native InfiniBand, as a layer:
// it hands on the bytes after it up to the VCRC, and keeps the VCRC.
type LRH struct {
	layers.BaseLayer
	ib.LRH
}

// LayerType returns LayerTypeLRH.
func (h *LRH) LayerType() gopacket.LayerType { return LayerTypeLRH }

// CanDecode returns LayerTypeLRH.
func (h *LRH) CanDecode() gopacket.LayerClass { return LayerTypeLRH }

// NextLayerType returns LayerTypeBTH or LayerTypeGRH according to LNH.
func (h *LRH) NextLayerType() gopacket.LayerType {
	switch h.LNH {
	case ib.LNHIBALocal:
		return LayerTypeBTH
	case ib.LNHIBAGlobal:
		return LayerTypeGRH
	}
	return payloadOrZero(h.Payload)
}

// DecodeFromBytes decodes the header and trims the payload to PktLen
// (ib.LRH.Split). df may be nil. On an error h is left zeroed. A PktLen
// beyond data (a packet cut short by the capture) is no error: the
// payload is what was captured and df is told the packet was truncated,
// as gopacket's IP layers do.
func (h *LRH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	rest, cut, err := h.Split(data)
	if err != nil {
		h.BaseLayer = layers.BaseLayer{}
	} else {
		h.Contents, h.Payload = data[:ib.LRHLen], rest
	}
	return tell(df, cut, err)
}

// SerializeTo is ib.LRH.Serialize.
func (h *LRH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// LinkFlow returns the flow between the LIDs, so that LRH is a
// gopacket.LinkLayer.
func (h *LRH) LinkFlow() gopacket.Flow {
	var s, d [2]byte
	binary.BigEndian.PutUint16(s[:], h.SLID)
	binary.BigEndian.PutUint16(d[:], h.DLID)
	return gopacket.NewFlow(layers.EndpointMAC, s[:], d[:])
}

func decodeLRH(data []byte, p gopacket.PacketBuilder) error {
	h := &LRH{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	p.SetLinkLayer(h)
	return p.NextDecoder(h.NextLayerType())
}

// GRH is ib.GRH, the Global Route Header, as a layer. PayLen counts the
// bytes after the GRH up to and including the ICRC, so GRH hands on
// exactly those bytes: anything after them (Ethernet padding, an FCS) is
// not part of the packet.
type GRH struct {
	layers.BaseLayer
	ib.GRH
}

// LayerType returns LayerTypeGRH.
func (h *GRH) LayerType() gopacket.LayerType { return LayerTypeGRH }

// CanDecode returns LayerTypeGRH.
func (h *GRH) CanDecode() gopacket.LayerClass { return LayerTypeGRH }

// NextLayerType returns LayerTypeBTH when NxtHdr is 0x1B.
func (h *GRH) NextLayerType() gopacket.LayerType {
	if h.NextHeader() {
		return LayerTypeBTH
	}
	return payloadOrZero(h.Payload)
}

// DecodeFromBytes decodes the header and trims the payload to PayLen
// (ib.GRH.Split). df may be nil. On an error h is left zeroed. A PayLen
// beyond data (a packet cut short by the capture) is no error: the
// payload is what was captured and df is told the packet was truncated,
// as gopacket's IP layers do.
func (h *GRH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	rest, cut, err := h.Split(data)
	if err != nil {
		h.BaseLayer = layers.BaseLayer{}
	} else {
		h.Contents, h.Payload = data[:ib.GRHLen], rest
	}
	return tell(df, cut, err)
}

// SerializeTo is ib.GRH.Serialize.
func (h *GRH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	return h.Serialize(b, ib.SerializeOptions(opts))
}

// NetworkFlow returns the flow between the GIDs, so that GRH is a
// gopacket.NetworkLayer (RoCEv1 frames have no other network layer).
func (h *GRH) NetworkFlow() gopacket.Flow {
	return gopacket.NewFlow(layers.EndpointIPv6, h.SGID[:], h.DGID[:])
}

func decodeGRH(data []byte, p gopacket.PacketBuilder) error {
	h := &GRH{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	p.SetNetworkLayer(h)
	return p.NextDecoder(h.NextLayerType())
}

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

// decodeBTH is the gopacket decoder for a BTH and all the extended headers
// its opcode lists, each added as its own layer, then the payload.
func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	pk, _ := p.(gopacket.Packet)
	// gopacket routes a UDP datagram by its source port when its
	// destination port is not registered; RoCEv2 is keyed on the
	// destination port alone.
	if pk != nil {
		if u, ok := pk.TransportLayer().(*layers.UDP); ok && u.DstPort != hdr.RoCEv2Port {
			return p.NextDecoder(gopacket.LayerTypePayload)
		}
	}
	bth := &BTH{}
	if err := bth.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(bth)
	hs := bth.OpCode.Headers()
	rest := bth.Payload
	for i := 0; i < hs.Len(); i++ {
		l := newETH(hs.At(i), &bth.BTH)
		if err := l.DecodeFromBytes(rest, p); err != nil {
			return err
		}
		p.AddLayer(l)
		rest = l.LayerPayload()
	}
	native := pk != nil && pk.Layer(gopacket.LayerType(layertype.LRH.Num)) != nil
	return p.NextDecoder(payloadLayer(&bth.BTH, rest, native))
}
