package ib

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// eth holds what every extended transport header layer shares: its bytes,
// what follows it, and (inside a Layers set) the BTH that says which
// header comes next.
type eth struct {
	layers.BaseLayer
	kind Header
	bth  *BTH // set by Layers; nil for a header decoded on its own
	mads bool // Layers.EnableManagement: a MAD follows a UD SEND to QP 0 or 1
}

// decode splits data into the header's bytes and what follows. On an
// error it leaves Contents and Payload nil (the caller zeroes the fields
// of its own); the link to the BTH is kept.
func (e *eth) decode(data []byte, kind Header, df gopacket.DecodeFeedback) error {
	n := kind.Len()
	e.kind = kind
	if len(data) < n {
		e.Contents, e.Payload = nil, nil
		setTruncated(df)
		return truncated(kind.String(), 0, n, len(data))
	}
	e.Contents, e.Payload = data[:n], data[n:]
	return nil
}

// setTruncated tells df, when there is one, that the input was cut short.
// gopacket's DecodingLayerParser passes itself; callers of DecodeFromBytes
// may pass nil.
func setTruncated(df gopacket.DecodeFeedback) {
	if df != nil {
		df.SetTruncated()
	}
}

// NextLayerType returns the header the opcode puts after this one, or
// gopacket.LayerTypePayload when only data follows (the management layer
// for a MAD, in a set after Layers.EnableManagement). A header decoded
// outside a Layers set does not know its opcode and always returns the
// payload type.
func (e *eth) NextLayerType() gopacket.LayerType {
	if e.bth != nil {
		if n := e.bth.hdrs.after(e.kind); n != NoHeader {
			return n.LayerType()
		}
		if e.mads {
			return e.bth.dataLayer(e.Payload, true)
		}
	}
	return payloadOrZero(e.Payload)
}
