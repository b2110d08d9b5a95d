package rocev2

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// Port is the RoCEv2 UDP destination port, 4791 (IBTA Annex A17.2.1).
const Port layers.UDPPort = hdr.RoCEv2Port

func init() {
	layers.RegisterUDPPortLayerType(Port, ib.LayerTypeBTH)
}

// UDP is layers.UDP with RoCEv2's dispatch rule: only destination port
// 4791 leads to a BTH. gopacket's own UDP falls back to the source port
// when the destination port is not registered, which would read any
// datagram sent from port 4791 as RoCE. Use UDP in a
// gopacket.DecodingLayerParser in place of layers.UDP.
type UDP struct {
	layers.UDP
}

// Preallocated errors, indexed by the bytes present or by the Length
// field, so that a malformed datagram costs no allocation.
var (
	errUDPShort  = udpErrs(func(n int) error { return errs.Truncated("UDP", 0, hdr.UDPLen, n) })
	errUDPLength = udpErrs(func(n int) error { return errs.New("UDP", hdr.UDPLength, hdr.UDPLen, n, ib.ErrBadLength) })
)

func udpErrs(mk func(int) error) (t [hdr.UDPLen]error) {
	for n := range t {
		t[n] = mk(n)
	}
	return t
}

// DecodeFromBytes resets u and decodes the UDP header at the start of
// data, as layers.UDP does, with the contract every layer of this module
// keeps: df may be nil, and malformed input gives an error wrapping a
// sentinel (ib.ErrTruncated for fewer than 8 bytes, ib.ErrBadLength for
// a Length field of 1 to 7), never a panic. A Length beyond data marks
// the packet truncated through df, as gopacket's UDP does.
func (u *UDP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if err := CheckUDPHeader(data); err != nil {
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

// CheckUDPHeader reports, without gopacket, what keeps data from starting
// a UDP header that gopacket's UDP layers decode without an error of
// their own: fewer than 8 bytes (an error wrapping ib.ErrTruncated) or a
// Length of 1 to 7 (ib.ErrBadLength). It returns nil otherwise. The
// errors are preallocated: it never allocates.
func CheckUDPHeader(data []byte) error {
	if len(data) < hdr.UDPLen {
		return errUDPShort[len(data)]
	}
	if n := hdr.UDP(data).Length(); n != 0 && n < hdr.UDPLen {
		return errUDPLength[n]
	}
	return nil
}

// NextLayerType returns ib.LayerTypeBTH for destination port 4791, and
// otherwise what gopacket registers for the destination port, then for
// the source port unless that is 4791.
func (u *UDP) NextLayerType() gopacket.LayerType {
	if u.DstPort == Port {
		return ib.LayerTypeBTH
	}
	if lt := u.DstPort.LayerType(); lt != gopacket.LayerTypePayload {
		return lt
	}
	if u.SrcPort != Port {
		return u.SrcPort.LayerType()
	}
	return gopacket.LayerTypePayload
}

// FlowLabelToUDPSrcPort folds a 20-bit flow label into a UDP source port in
// 0xC000-0xFFFF, as Linux (rdma_flow_label_to_udp_sport) and rdma-core
// (ibv_flow_label_to_udp_sport) do: the low 14 bits of the label XOR its
// high 6 bits, with the top two bits of the port set.
func FlowLabelToUDPSrcPort(fl uint32) uint16 {
	fl &= hdr.IPv6FlowLabelMask
	return uint16(0xc000 | (fl&0x3fff ^ (fl&0xfc000)>>14))
}

// CalcFlowLabel derives a flow label from the two QP numbers of a
// connection, the same in both directions, as Linux rdma_calc_flow_label
// does when the application gives none.
func CalcFlowLabel(lqpn, rqpn uint32) uint32 {
	v := uint64(lqpn) * uint64(rqpn)
	v ^= v >> 20
	v ^= v >> 40
	return uint32(v) & hdr.IPv6FlowLabelMask
}
