package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/layertype"
)

// The extended transport headers as layers. Inside a Layers set (or a
// packet NewPacket decoded) each is linked to its BTH, whose opcode says
// which header follows it.

// link is what every extended header layer adds to its ib header: its
// bytes, and the BTH that says which header comes next.
type link struct {
	layers.BaseLayer
	bth  *ib.BTH // set by Layers, or by the decoder of its packet; nil for a header decoded on its own
	mads bool    // in a Layers set: a MAD follows a UD SEND to QP 0 or 1
}

// SetBTH links the header to bth, the BTH of its packet, which tells it
// which header follows it. Layers.DecodingLayers links the headers of
// its set.
func (l *link) SetBTH(bth *ib.BTH) { l.bth = bth }

// split sets Contents to the n bytes of the header at the start of data
// (which decoded without an error) and Payload to what follows, or both
// to nil on an error; it tells df of a truncation.
func (l *link) split(data []byte, n int, df gopacket.DecodeFeedback, err error) error {
	if err != nil {
		l.Contents, l.Payload = nil, nil
		return tell(df, false, err)
	}
	l.Contents, l.Payload = data[:n], data[n:]
	return nil
}

// next returns the layer of the header the opcode of the linked BTH puts
// after kind, or gopacket.LayerTypePayload when only data follows (the
// MAD layer for a MAD, in a Layers set). A header decoded outside a set
// or a packet does not know its opcode and returns the payload type.
func (l *link) next(kind ib.Header) gopacket.LayerType {
	if l.bth != nil {
		if n := l.bth.OpCode.Headers().After(kind); n != ib.NoHeader {
			return HeaderLayerType(n)
		}
		if l.mads {
			return dataLayer(l.bth, l.Payload, true)
		}
	}
	return payloadOrZero(l.Payload)
}

// EnableManagement makes the DETH, linked to a BTH, name the MAD layer as
// its next layer for a whole UD SEND Only to QP 0 or QP 1, for a
// DecodingLayerParser that also holds the MAD layers. Layers.DecodingLayers
// calls it.
func (h *DETH) EnableManagement() { h.mads = true }

// HeaderLayerType returns the layer type of extended header h, and
// gopacket.LayerTypePayload for ib.NoHeader (what follows the last
// header).
func HeaderLayerType(h ib.Header) gopacket.LayerType {
	if h > ib.NoHeader && int(h) < len(layertype.ETH) {
		return gopacket.LayerType(layertype.ETH[h].Num)
	}
	return gopacket.LayerTypePayload
}
