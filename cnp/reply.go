package cnp

import (
	"slices"

	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/wire"
	"github.com/roce-go/roce/rocev2"
)

// DefaultDSCP is the DSCP Reply gives a CNP unless told otherwise: 48
// (CS6). It is the cnp_dscp that NVIDIA ConnectX firmware ships (public
// `mlxconfig query` dumps of ConnectX-5 firmware 16.35 show CNP_DSCP_P1
// 48) and the CNP DSCP of Broadcom's Thor2 deployment guides; see
// docs/wire-format.md, section 7.
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
// most plus 4 for each VLAN tag.
func Reply(dst, rx []byte, destQP uint32, o *Options) ([]byte, error) {
	if o == nil {
		o = &defaultOptions
	}
	if destQP > 0xffffff || o.DSCP > ecn.MaxDSCP || o.ECN > ecn.CE || o.Priority > hdr.MaxPCP || o.Priority < KeepPriority {
		return dst, ErrRange
	}
	var r reply
	if err := r.fill(rx, destQP, o); err != nil {
		return dst, err
	}
	return r.appendTo(dst)
}

// reply is the CNP that answers a received frame: the received frame's
// layout, with the CNP's network header as the GRH it maps to and its
// transport packet.
type reply struct {
	l       wire.Layout
	rx      []byte
	grh     ib.GRH
	pkt     ib.Packet
	sport   uint16
	pcp     int // o.Priority
	netLen  int // IP header and UDP header
	etherTy uint16
}

// fill sets r to the CNP that answers rx, or says why there is none. The
// options are in range.
func (r *reply) fill(rx []byte, destQP uint32, o *Options) error {
	l := &r.l
	if err := wire.Locate(rx, l); err != nil {
		return err
	}
	r.rx, r.pcp = rx, o.Priority
	// The received network header as the GRH it maps to.
	g := &r.grh
	switch l.Enc {
	case ib.RoCEv2IPv4:
		if l.UDP-l.Net != hdr.IPv4MinLen {
			return errs.New("IPv4", l.Net, 0, 0, ib.ErrUnsupported) // options
		}
		rocev2.GRHFromIPv4Header(g, rx[l.Net:])
		r.netLen, r.etherTy = hdr.IPv4MinLen+hdr.UDPLen, hdr.EtherTypeIPv4
	case ib.RoCEv2IPv6:
		rocev2.GRHFromIPv6Header(g, rx[l.Net:])
		r.netLen, r.etherTy = hdr.IPv6Len+hdr.UDPLen, hdr.EtherTypeIPv6
	default:
		return errs.New("Reply", l.EtherType, 0, 0, ib.ErrUnsupported) // RoCEv1
	}
	if l.End-l.BTH < ib.BTHLen+ib.ICRCLen {
		return errs.New("BTH", l.BTH, ib.BTHLen+ib.ICRCLen, l.End-l.BTH, ib.ErrBadLength)
	}
	if ib.Opcode(rx[l.BTH]) == ib.OpCNP { // the opcode is the BTH's first byte
		return ErrIsCNP
	}
	if !o.AnyECN && ecn.Codepoint(g.TClass&3) != ecn.CE {
		return ErrNotCE
	}
	r.sport = o.SrcPort
	if r.sport == 0 {
		if g.FlowLabel != 0 {
			r.sport = rocev2.FlowLabelToUDPSrcPort(g.FlowLabel)
		} else {
			r.sport = hdr.UDP(rx[l.UDP:]).SrcPort()
		}
	}
	// Back to the sender: addresses swapped, the same flow label.
	g.SGID, g.DGID = g.DGID, g.SGID
	g.TClass = o.DSCP<<2 | uint8(o.ECN)
	g.HopLmt = o.HopLimit
	g.PayLen = PacketLen
	FillPacket(&r.pkt, destQP)
	r.pkt.BTH.PKey = o.PKey
	return nil
}

// appendTo appends the CNP to b: Ethernet with the received frame's
// addresses swapped and its tags (the priority as the options say), the
// IP header (IPv4: ID 0, DF, its checksum), UDP to port 4791 (over IPv6
// with its checksum), the transport packet and its ICRC.
func (r *reply) appendTo(b []byte) ([]byte, error) {
	netOff := hdr.NetOffset(r.l.Tags)
	bth := netOff + r.netLen
	n := bth + PacketLen
	start := len(b)
	b = slices.Grow(b, n)
	out := b[start : start+n]
	if _, err := r.pkt.AppendTo(out[:bth]); err != nil {
		return b[:start], err // not met: Reply checked the QP number
	}
	eth := hdr.Ethernet(r.rx)
	hdr.Ethernet(out).SetAddresses(eth.Src(), eth.Dst())
	for i := range r.l.Tags {
		t := hdr.VLANTag(r.rx[hdr.TagOffset(i):])
		pcp := t.PCP()
		if r.pcp != KeepPriority {
			pcp = uint8(r.pcp)
		}
		hdr.VLANTag(out[hdr.TagOffset(i):]).Set(t.TPID(), pcp, t.DEI(), t.VID())
	}
	hdr.PutEtherType(out, r.l.Tags, r.etherTy)
	net := out[netOff:]
	if r.l.Enc == ib.RoCEv2IPv4 {
		rocev2.PutIPv4Header(net, &r.grh, 0, hdr.IPv4FlagDF)
	} else {
		rocev2.PutIPv6Header(net, &r.grh)
	}
	udp := hdr.UDP(out[bth-hdr.UDPLen:])
	rocev2.PutUDPHeader(udp, r.sport, hdr.RoCEv2Port, PacketLen)
	if err := ib.PutICRC(r.l.Enc, net); err != nil {
		return b[:start], err // not met: the headers were written for it
	}
	if r.l.Enc == ib.RoCEv2IPv6 {
		udp.FixChecksum(net) // RFC 8200 forbids a zero one
	}
	return b[:start+n], nil
}
