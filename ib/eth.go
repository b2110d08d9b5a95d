package ib

import (
	"errors"

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
func (e *eth) decode(data []byte, kind Header) error {
	n := kind.Len()
	e.kind = kind
	if len(data) < n {
		e.Contents, e.Payload = nil, nil
		return truncated(kind.String(), 0, n, len(data))
	}
	e.Contents, e.Payload = data[:n], data[n:]
	return nil
}

// NextHeader returns the header the opcode of the linked BTH puts after
// this one, and NoHeader when only data follows or when the header is
// linked to no BTH (decoded on its own, outside a Layers set).
func (e *eth) NextHeader() Header {
	if e.bth != nil {
		return e.bth.hdrs.After(e.kind)
	}
	return NoHeader
}

// SetBTH links the header to bth, the BTH of its packet, which tells it
// which header follows it (NextHeader). Layers.DecodingLayers links the
// headers of its set; a set of layers of another gopacket module links
// its own.
func (e *eth) SetBTH(bth *BTH) { e.bth = bth }

// tell returns err after telling df (which may be nil) that the input
// was cut short: the payload was cut (cut) or err wraps ErrTruncated.
// It is small enough to inline into each DecodeFromBytes; told is the
// rare path.
func tell(df gopacket.DecodeFeedback, cut bool, err error) error {
	if cut || err != nil {
		told(df, cut, err)
	}
	return err
}

func told(df gopacket.DecodeFeedback, cut bool, err error) {
	if cut || errors.Is(err, ErrTruncated) {
		setTruncated(df)
	}
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
	if n := e.NextHeader(); n != NoHeader {
		return n.LayerType()
	}
	if e.mads && e.bth != nil {
		return e.bth.dataLayer(e.Payload, true)
	}
	return payloadOrZero(e.Payload)
}
