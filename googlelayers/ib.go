package googlelayers

import (
	"encoding/binary"
	"errors"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
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
