package rocev2

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/ib"
)

// Port is the RoCEv2 UDP destination port (IBTA Annex A17.2.1).
const Port layers.UDPPort = 4791

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
// (ibv_flow_label_to_udp_sport) do.
func FlowLabelToUDPSrcPort(fl uint32) uint16 {
	fl &= 0xfffff
	return uint16(0xc000 | (fl&0x3fff ^ (fl&0xfc000)>>14))
}

// CalcFlowLabel derives a flow label from the two QP numbers of a
// connection, the same in both directions, as Linux rdma_calc_flow_label
// does when the application gives none.
func CalcFlowLabel(lqpn, rqpn uint32) uint32 {
	v := uint64(lqpn) * uint64(rqpn)
	v ^= v >> 20
	v ^= v >> 40
	return uint32(v) & 0xfffff
}
