package googlelayers

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/rocev2"
)

// UDP is layers.UDP with RoCEv2's dispatch rule and this module's decoding
// contract: only destination port 4791 leads to a BTH (layers.UDP falls
// back to the source port when the destination port is not registered,
// which would read any datagram sent from port 4791 as RoCE); df may be
// nil; a header cut short or a Length of 1 to 7 gives an error wrapping
// ib.ErrTruncated or ib.ErrBadLength (rocev2.CheckUDPHeader), never a
// panic. Use it in a gopacket.DecodingLayerParser in place of layers.UDP.
type UDP struct {
	layers.UDP
}

// DecodeFromBytes resets u and decodes the UDP header at the start of
// data, as layers.UDP does once rocev2.CheckUDPHeader lets it. A Length
// beyond data marks the packet truncated through df, as gopacket's UDP
// does.
func (u *UDP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if err := rocev2.CheckUDPHeader(data); err != nil {
		u.UDP = layers.UDP{}
		if df != nil && len(data) < hdr.UDPLen {
			df.SetTruncated()
		}
		return err
	}
	if df == nil {
		df = gopacket.NilDecodeFeedback
	}
	// layers.UDP sets every field it decodes, so no reset is needed here.
	return u.UDP.DecodeFromBytes(data, df)
}

// NextLayerType returns LayerTypeBTH for destination port 4791, and
// otherwise what gopacket registers for the destination port, then for
// the source port unless that is 4791.
func (u *UDP) NextLayerType() gopacket.LayerType {
	const port = layers.UDPPort(hdr.RoCEv2Port)
	if u.DstPort == port {
		return LayerTypeBTH
	}
	if lt := u.DstPort.LayerType(); lt != gopacket.LayerTypePayload {
		return lt
	}
	if u.SrcPort != port {
		return u.SrcPort.LayerType()
	}
	return gopacket.LayerTypePayload
}
