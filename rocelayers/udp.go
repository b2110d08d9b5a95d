package rocelayers

import (
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/rocev2"
)

// UDP is layers.UDP with RoCEv2's dispatch rule and this module's decoding
// contract, as googlelayers.UDP is for Google's gopacket: only destination port
// 4791 leads to a BTH (layers.UDP falls back to the source port, which
// would read any datagram sent from port 4791 as RoCE); df may be nil; a
// header cut short or a Length of 1 to 7 gives an error wrapping
// ib.ErrTruncated or ib.ErrBadLength (rocev2.CheckUDPHeader). Use it in a
// gopacket.DecodingLayerParser in place of layers.UDP.
type UDP struct{ layers.UDP }

// DecodeFromBytes resets u and decodes the UDP header at the start of
// data, as layers.UDP does once rocev2.CheckUDPHeader lets it.
func (u *UDP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if err := rocev2.CheckUDPHeader(data); err != nil {
		u.UDP = layers.UDP{}
		return tell(df, false, err)
	}
	if df == nil {
		df = gopacket.NilDecodeFeedback
	}
	return u.UDP.DecodeFromBytes(data, df) // it sets every field it decodes
}

// NextLayerType returns LayerTypeBTH for destination port 4791, and what
// layers.UDP returns otherwise, except that source port 4791 does not
// lead to a BTH.
func (u *UDP) NextLayerType() gopacket.LayerType {
	const port = layers.UDPPort(rocev2.Port)
	switch {
	case u.DstPort == port:
		return LayerTypeBTH
	case u.SrcPort == port && u.DstPort.LayerType() == gopacket.LayerTypePayload:
		return gopacket.LayerTypePayload
	}
	return u.UDP.NextLayerType()
}
