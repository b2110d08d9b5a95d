package rocev2

import (
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// Port is the RoCEv2 UDP destination port, 4791 (IBTA Annex A17.2.1).
const Port = hdr.RoCEv2Port

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

// CheckUDPHeader reports what keeps data from starting a UDP header
// that the gopacket UDP layers decode without an error of their own: fewer than 8 bytes (an error wrapping ib.ErrTruncated) or a
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
