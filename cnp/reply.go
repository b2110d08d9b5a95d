package cnp

import (
	"encoding/binary"
	"github.com/roce-go/roce/internal/errs"
	"slices"

	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/wire"
	"github.com/roce-go/roce/rocev2"
)

// DefaultDSCP is the DSCP Reply gives a CNP unless told otherwise: 48
// (CS6). It is the cnp_dscp that NVIDIA ConnectX firmware ships (public
// `mlxconfig query` dumps of ConnectX-5 firmware 16.35 show CNP_DSCP_P1
// 48) and the CNP DSCP of Broadcom's Thor2 deployment guides; see
// /work/shared/docs/wire-format.md section 7.
const DefaultDSCP = 48

// DefaultHopLimit is the TTL or Hop Limit of a CNP built by Reply.
const DefaultHopLimit = 64

// KeepPriority, as Options.Priority, keeps the 802.1p priority of each
// VLAN tag of the received frame.
const KeepPriority = -1

// Options are the choices a notification point makes for the CNPs it
// sends. Start from DefaultOptions and change fields; a nil *Options
// means DefaultOptions().
type Options struct {
	// DSCP of the CNP, 0-63. Default 48.
	DSCP uint8
	// ECN codepoint of the CNP. Default Not-ECT: a CNP is not itself a
	// congestion-controlled flow. (Whether NICs send CNPs ECT or Not-ECT
	// was not verified; the ICRC masks the field, so either is valid.)
	ECN ecn.Codepoint
	// Priority is the 802.1p priority (PCP) written into every VLAN tag
	// the CNP carries, 0-7, or KeepPriority (the default) to copy each
	// tag of the received frame as it is. The CNP carries the received
	// frame's tags, so an untagged frame gets an untagged CNP whatever
	// Priority says. (NVIDIA firmware's own cnp_802p_prio default is 6
	// in the public mlxconfig dumps; Broadcom's guides use 7.)
	Priority int
	// SrcPort is the UDP source port of the CNP; 0 (the default) derives
	// it: from the flow label when the received frame is IPv6 with a
	// non-zero one (as rdma_flow_label_to_udp_sport does), otherwise the
	// received frame's own UDP source port, which RoCEv2 senders derive
	// from the connection's flow and so keeps the CNP on that flow's
	// entropy.
	SrcPort uint16
	// HopLimit is the IPv4 TTL or IPv6 Hop Limit. Default 64.
	HopLimit uint8
	// PKey is the BTH P_Key. Default 0xFFFF.
	PKey uint16
	// AnyECN makes Reply answer frames that are not CE-marked too.
	AnyECN bool
}

// DefaultOptions returns the defaults described on Options.
func DefaultOptions() Options {
	return Options{
		DSCP:     DefaultDSCP,
		ECN:      ecn.NotECT,
		Priority: KeepPriority,
		HopLimit: DefaultHopLimit,
		PKey:     DefaultPKey,
	}
}

var defaultOptions = DefaultOptions()

// Reply appends to dst the CNP that a notification point sends back for
// the received RoCEv2 frame rx, and returns the extended slice. The CNP
// goes to queue pair destQP (24 bits): the sender's QP, which the receiver
// knows from its QP context (the received BTH names only the receiver's
// own QP).
//
// The CNP swaps the received frame's MAC and IP addresses, keeps its VLAN
// tags (with the priority of o.Priority) and, over IPv6, its flow label;
// it is sent to UDP port 4791 from o.SrcPort; the IPv4 header has ID 0,
// DF set and a correct checksum; over IPv6 the UDP checksum is computed
// (RFC 8200 forbids a zero one), over IPv4 it is zero, as RoCEv2 senders
// do. The BTH is as FillPacket describes, with P_Key o.PKey, and the ICRC
// is computed.
//
// Reply refuses, returning dst unchanged: a frame that is not RoCE or is
// malformed (errors wrapping ib.ErrNotRoCE, ib.ErrTruncated, ...), a
// RoCEv1 frame or an IPv4 header with options (ib.ErrUnsupported), a
// transport packet too short for a BTH and ICRC (ib.ErrBadLength), a CNP
// (ErrIsCNP), a frame whose ECN field is not CE unless o.AnyECN is set
// (ErrNotCE), and out-of-range values (ErrRange). It does not check the
// received ICRC. It allocates only if dst lacks the capacity, 94 bytes at
// most plus 8 for two VLAN tags.
func Reply(dst, rx []byte, destQP uint32, o *Options) ([]byte, error) {
	if o == nil {
		o = &defaultOptions
	}
	if destQP > 0xffffff || o.DSCP > ecn.MaxDSCP || o.ECN > ecn.CE || o.Priority > 7 || o.Priority < KeepPriority {
		return dst, ErrRange
	}
	var l wire.Layout
	if err := wire.Locate(rx, &l); err != nil {
		return dst, err
	}
	ipLen := rocev2.IPv6HeaderLen
	switch l.Enc {
	case ib.RoCEv2IPv4:
		if l.UDP-l.Net != rocev2.IPv4HeaderLen {
			return dst, errs.New("IPv4", l.Net, 0, 0, ib.ErrUnsupported) // options
		}
		ipLen = rocev2.IPv4HeaderLen
	case ib.RoCEv2IPv6:
	default:
		return dst, errs.New("Reply", l.EtherType, 0, 0, ib.ErrUnsupported) // RoCEv1
	}
	if l.End-l.BTH < ib.BTHLen+ib.ICRCLen {
		return dst, errs.New("BTH", l.BTH, ib.BTHLen+ib.ICRCLen, l.End-l.BTH, ib.ErrBadLength)
	}
	if ib.Opcode(rx[l.BTH]) == ib.OpCNP {
		return dst, ErrIsCNP
	}
	net := rx[l.Net:l.UDP]
	var tc uint8
	if ipLen == rocev2.IPv4HeaderLen {
		tc = net[1]
	} else {
		tc = net[0]<<4 | net[1]>>4
	}
	if !o.AnyECN && ecn.Codepoint(tc&3) != ecn.CE {
		return dst, ErrNotCE
	}
	sport := o.SrcPort
	var flow uint32
	if ipLen == rocev2.IPv6HeaderLen {
		flow = binary.BigEndian.Uint32(net) & 0xfffff
	}
	if sport == 0 {
		if flow != 0 {
			sport = rocev2.FlowLabelToUDPSrcPort(flow)
		} else {
			sport = binary.BigEndian.Uint16(rx[l.UDP:])
		}
	}

	n := l.Net + ipLen + UDPLen
	start := len(dst)
	dst = slices.Grow(dst, n)
	out := dst[start : start+n]
	copy(out[0:6], rx[6:12])
	copy(out[6:12], rx[0:6])
	copy(out[12:l.Net], rx[12:l.Net]) // VLAN tags and Ethertype
	if o.Priority != KeepPriority {
		for i := range l.Tags {
			t := out[12+4*i+2:]
			t[0] = t[0]&0x1f | uint8(o.Priority)<<5
		}
	}
	ip := out[l.Net : l.Net+ipLen]
	tos := o.DSCP<<2 | uint8(o.ECN)
	if ipLen == rocev2.IPv4HeaderLen {
		ip[0], ip[1] = 0x45, tos
		binary.BigEndian.PutUint16(ip[2:], rocev2.IPv4HeaderLen+UDPLen)
		binary.BigEndian.PutUint32(ip[4:], 0x00004000) // ID 0, DF
		ip[8], ip[9] = o.HopLimit, 17
		ip[10], ip[11] = 0, 0
		copy(ip[12:16], net[16:20])
		copy(ip[16:20], net[12:16])
		binary.BigEndian.PutUint16(ip[10:], ipv4Checksum(ip))
	} else {
		binary.BigEndian.PutUint32(ip, 6<<28|uint32(tos)<<20|flow)
		binary.BigEndian.PutUint16(ip[4:], UDPLen)
		ip[6], ip[7] = 17, o.HopLimit
		copy(ip[8:24], net[24:40])
		copy(ip[24:40], net[8:24])
	}
	udp := out[l.Net+ipLen:]
	binary.BigEndian.PutUint16(udp[0:], sport)
	binary.BigEndian.PutUint16(udp[2:], uint16(rocev2.Port))
	binary.BigEndian.PutUint16(udp[4:], UDPLen)
	udp[6], udp[7] = 0, 0
	bth := udp[8:]
	bth[0], bth[1] = uint8(ib.OpCNP), 0
	binary.BigEndian.PutUint16(bth[2:], o.PKey)
	binary.BigEndian.PutUint32(bth[4:], 0x40<<24|destQP) // BECN, DestQP
	binary.BigEndian.PutUint32(bth[8:], 0)               // AckReq, PSN
	clear(bth[ib.BTHLen : ib.BTHLen+ReservedLen])
	if err := ib.PutICRC(l.Enc, out[l.Net:]); err != nil {
		return dst[:start], err
	}
	if ipLen == rocev2.IPv6HeaderLen {
		binary.BigEndian.PutUint16(udp[6:], rocev2.UDPChecksum(ip, udp))
	}
	return dst[:start+n], nil
}

// ipv4Checksum returns the header checksum of a 20-byte IPv4 header whose
// checksum field is zero.
func ipv4Checksum(h []byte) uint16 {
	var s uint32
	for i := 0; i < rocev2.IPv4HeaderLen; i += 2 {
		s += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	s = s&0xffff + s>>16
	s = s&0xffff + s>>16
	return ^uint16(s)
}
