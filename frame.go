package roce

import (
	"net/netip"
	"slices"
	"strconv"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/wire"
	"github.com/roce-go/roce/rocev2"
)

// VLAN is one 802.1Q (TPID 0x8100), 802.1ad (TPID 0x88a8) or pre-802.1ad
// QinQ (TPID 0x9100) tag.
type VLAN struct {
	TPID uint16 // 0x8100, 0x88a8 or 0x9100; AppendTo writes 0x8100 for 0
	PCP  uint8  // priority code point, 3 bits (the 802.1p priority)
	DEI  bool   // drop eligible indicator
	ID   uint16 // VLAN identifier, 12 bits
}

// Frame is a whole RoCE frame: Ethernet, up to MaxVLANs VLAN tags, the GRH
// (RoCEv1) or IP and UDP headers (RoCEv2), and the transport packet.
//
// For RoCEv2 the IP header is held as the GRH it maps to (see rocev2):
// TClass is the TOS or Traffic Class byte (DSCP and ECN), HopLmt the TTL
// or Hop Limit, FlowLabel the IPv6 flow label (0 for IPv4), SGID and DGID
// the addresses (IPv4-mapped for IPv4), PayLen the transport length. The
// few IPv4 and UDP fields a GRH has no room for have their own fields;
// an encapsulation that has no such header ignores them when building
// (the IPv4 fields outside RoCEv2/IPv4, the UDP fields for RoCEv1), and
// Decode sets them to zero.
type Frame struct {
	Dst, Src [6]byte
	VLANs    [wire.MaxTags]VLAN // the first NumVLANs are the tags, outermost first
	NumVLANs int                // 0 to MaxVLANs
	Encap    ib.Encapsulation
	GRH      ib.GRH

	IPv4ID       uint16 // IPv4 Identification
	IPv4Flags    uint16 // IPv4 flags and fragment offset (0x4000: DF); never a fragment
	IPv4Checksum uint16 // IPv4 header checksum as received; AppendTo computes it

	// SrcPort is the UDP source port; AppendTo derives it from
	// GRH.FlowLabel when 0 (as rdma_flow_label_to_udp_sport does, over
	// IPv4 too, where the flow label has no field of its own).
	SrcPort uint16
	DstPort uint16 // UDP destination port, 4791; AppendTo writes 4791 when 0
	// UDPChecksum says whether the frame carries a UDP checksum. Decode
	// sets it when the field is not zero; AppendTo then computes one, and
	// writes zero otherwise (what RoCEv2 senders do over IPv4).
	UDPChecksum bool

	Packet ib.Packet // BTH, extended headers, payload, pad, ICRC

	// Raw is the RoCE packet as received, from the first byte of the GRH
	// or IP header through the ICRC, or through the last byte captured
	// when Truncated is set. VerifyICRC reads it.
	Raw []byte

	// Truncated says that the capture kept fewer bytes than the headers
	// declare (a capture with a small snap length, editcap -s): the IP,
	// UDP or GRH lengths run past the end of the bytes decoded, but the
	// BTH was captured and decoded. The cut may fall anywhere after the
	// BTH: the extended headers captured whole are decoded, the one the
	// cut falls in keeps its whole fields (Packet.Captured says how much
	// of each header is there). Packet.Payload then holds the payload
	// bytes captured, Packet.BTH.Pad is empty and Packet.BTH.ICRC zero
	// (Packet.BTH.Truncated is set too), and VerifyICRC returns
	// ib.ErrUnchecked. A frame cut before the end of its BTH does not
	// decode (ib.ErrTruncated).
	Truncated bool
	// WireLen is the frame's length from its first byte through the ICRC
	// as its headers declare it, whether or not it was all captured
	// (Ethernet padding and an FCS after the ICRC are not counted).
	WireLen int

	// err holds the error of the last frame that did not decode, so that
	// Decode allocates nothing (see Decode).
	err errs.Slot
}

// MaxVLANs is the most VLAN tags a Frame holds. Decode takes tags of
// TPID 0x8100, 0x88a8 and 0x9100 in any order and nesting, as tshark
// does, and refuses a frame with more than MaxVLANs of them with an
// error wrapping ib.ErrUnsupported, rather than take a tag for the
// network header.
const MaxVLANs = wire.MaxTags

// Decode decodes an Ethernet frame into f, resetting it. It returns an
// error wrapping ib.ErrNotRoCE for a well-formed frame that is not RoCE,
// and errors wrapping the other ib sentinels for malformed ones (and
// ib.ErrUnsupported for more than MaxVLANs tags). It does not check the
// ICRC: see VerifyICRC.
//
// Decode allocates nothing, malformed frames included, but the one
// *ib.Error that f (and f.Packet) reports malformed frames in, made at
// its first: the error of a malformed frame stays valid until f decodes
// a malformed frame again; copy it (e := *err.(*ib.Error)) to keep it
// longer. Reuse one Frame for many frames (a Frame on a goroutine's
// stack makes a new error after the stack moved).
//
// A frame cut short by the capture decodes when every header through the
// BTH was captured: Truncated says so, WireLen gives the length the
// headers declare, and of the extended headers the frame has what was
// captured (see ib.Packet.DecodeTruncated). Only a frame cut before the
// end of its BTH is an error (wrapping ib.ErrTruncated).
func (f *Frame) Decode(b []byte) error {
	if end, ok := f.decodeUntaggedIPv4(b); ok {
		if end <= len(b) {
			return f.Packet.Decode(b[ipv4BTH:end])
		}
		return f.Packet.DecodeTruncated(b[ipv4BTH:], end-ipv4BTH)
	}
	return f.decode(b)
}

// Where the headers of an untagged RoCEv2/IPv4 frame start.
const (
	ipv4IP  = hdr.EthernetLen
	ipv4UDP = ipv4IP + hdr.IPv4MinLen
	ipv4BTH = ipv4UDP + hdr.UDPLen
)

// decodeUntaggedIPv4 is the fast path of Decode for the commonest frame:
// no VLAN tag, IPv4 without options, UDP to port 4791. It decodes the
// headers in front of the BTH and returns where the ICRC ends (beyond
// len(b) when the capture cut the frame), or
// reports false, having changed nothing, for any frame it does not take or
// that is malformed; decode then handles it (and says what is wrong).
func (f *Frame) decodeUntaggedIPv4(b []byte) (end int, ok bool) {
	if len(b) < ipv4BTH {
		return 0, false
	}
	eth := hdr.Ethernet(b[:ipv4IP])
	ip := hdr.IPv4(b[ipv4IP:ipv4UDP])
	u := hdr.UDP(b[ipv4UDP:ipv4BTH])
	ipLen, udpLen := int(ip.TotalLen()), int(u.Length())
	if eth.Type() != hdr.EtherTypeIPv4 || ip[hdr.IPv4VersionIHL] != hdr.IPv4NoOptions ||
		ip.Protocol() != hdr.IPProtocolUDP || ip.IsFragment() || u.DstPort() != hdr.RoCEv2Port ||
		udpLen < hdr.UDPLen || udpLen > ipLen-hdr.IPv4MinLen {
		return 0, false
	}
	f.Dst = eth.Dst() // one at a time: a tuple assignment copies through temporaries
	f.Src = eth.Src()
	f.VLANs, f.NumVLANs = [wire.MaxTags]VLAN{}, 0
	f.Encap = ib.RoCEv2IPv4
	rocev2.GRHFromIPv4Header(&f.GRH, ip)
	f.GRH.PayLen = uint16(udpLen - hdr.UDPLen)
	f.IPv4ID, f.IPv4Flags, f.IPv4Checksum = ip.ID(), ip.FlagsFrag(), ip.Checksum()
	f.SrcPort, f.DstPort = u.SrcPort(), hdr.RoCEv2Port
	f.UDPChecksum = u.Checksum() != 0
	end = ipv4UDP + udpLen
	f.Raw = b[ipv4IP:min(end, len(b))]
	f.WireLen, f.Truncated = end, end > len(b)
	return end, true
}

// decode is Decode for any frame.
func (f *Frame) decode(b []byte) error {
	var l wire.Layout
	f.Truncated, f.WireLen = false, 0
	err := wire.LocateCutTo(b, &l, &f.err)
	if err != nil {
		return err
	}
	eth := hdr.Ethernet(b)
	f.Dst, f.Src = eth.Dst(), eth.Src()
	f.VLANs, f.NumVLANs = [wire.MaxTags]VLAN{}, l.Tags
	for i := range l.Tags {
		t := hdr.VLANTag(b[hdr.TagOffset(i):])
		f.VLANs[i] = VLAN{TPID: t.TPID(), PCP: t.PCP(), DEI: t.DEI(), ID: t.VID()}
	}
	f.Encap = l.Enc
	f.IPv4ID, f.IPv4Flags, f.IPv4Checksum = 0, 0, 0
	f.SrcPort, f.DstPort, f.UDPChecksum = 0, 0, false
	net := b[l.Net:]
	switch l.Enc {
	case ib.RoCEv1:
		if err := f.GRH.Decode(net); err != nil {
			return err
		}
	case ib.RoCEv2IPv4:
		if l.UDP-l.Net != hdr.IPv4MinLen {
			return f.err.New("IPv4", l.Net, 0, 0, ib.ErrUnsupported) // options
		}
		ip := hdr.IPv4(net)
		rocev2.GRHFromIPv4Header(&f.GRH, ip)
		f.IPv4ID, f.IPv4Flags, f.IPv4Checksum = ip.ID(), ip.FlagsFrag(), ip.Checksum()
	case ib.RoCEv2IPv6:
		rocev2.GRHFromIPv6Header(&f.GRH, net)
	}
	if l.UDP != 0 {
		u := hdr.UDP(b[l.UDP:])
		f.SrcPort, f.DstPort = u.SrcPort(), u.DstPort()
		f.UDPChecksum = u.Checksum() != 0
		f.GRH.PayLen = uint16(l.End - l.BTH)
	}
	end := min(l.End, len(b))
	f.Raw = b[l.Net:end]
	f.WireLen, f.Truncated = l.End, l.End > len(b)
	return f.Packet.DecodeTruncated(b[min(l.BTH, end):end], l.End-l.BTH)
}

// PayloadLen returns the length of the payload (without pad) as the
// headers declare it: len(Packet.Payload) for a whole frame, and for a
// frame the capture cut short (Truncated) the length the payload had on
// the wire, of which Packet.Payload holds the part captured.
func (f *Frame) PayloadLen() int {
	if !f.Truncated {
		return len(f.Packet.Payload)
	}
	n := f.WireLen - hdr.NetOffset(f.NumVLANs) - f.netLen() - ib.BTHLen - f.Packet.Headers().Size() - ib.ICRCLen
	if f.Packet.BTH.OpCode.Known() {
		n -= int(f.Packet.BTH.PadCnt)
	}
	return max(n, len(f.Packet.Payload))
}

// VerifyICRC checks the ICRC of the decoded frame; the error wraps
// ib.ErrBadICRC on a mismatch. For a frame the capture cut short
// (Truncated) it returns ib.ErrUnchecked: the ICRC was not captured.
func (f *Frame) VerifyICRC() error {
	if f.Truncated {
		return ib.ErrUnchecked
	}
	return ib.VerifyICRC(f.Encap, f.Raw)
}

// What each encapsulation puts between the Ethertype and the BTH, and the
// longest transport packet its 16-bit length fields can announce.
var encaps = [...]struct {
	etherType uint16
	netLen    int
	maxLen    int
}{
	ib.RoCEv1:     {hdr.EtherTypeRoCE, ib.GRHLen, 0xffff},                                                 // GRH PayLen
	ib.RoCEv2IPv4: {hdr.EtherTypeIPv4, hdr.IPv4MinLen + hdr.UDPLen, 0xffff - hdr.IPv4MinLen - hdr.UDPLen}, // IPv4 Total Length
	ib.RoCEv2IPv6: {hdr.EtherTypeIPv6, hdr.IPv6Len + hdr.UDPLen, 0xffff - hdr.UDPLen},                     // IPv6 Payload Length, UDP Length
}

// Len returns the length of the frame AppendTo writes.
func (f *Frame) Len() int {
	return hdr.NetOffset(f.NumVLANs) + f.netLen() + f.Packet.Len()
}

func (f *Frame) netLen() int {
	if int(f.Encap) < len(encaps) && f.Encap != 0 {
		return encaps[f.Encap].netLen
	}
	return ib.GRHLen
}

// The names of the VLAN fields, by tag, for errors.
var vlanFields = func() (names [wire.MaxTags][3]string) {
	for i := range names {
		n := "VLANs[" + strconv.Itoa(i) + "]."
		names[i] = [3]string{n + "TPID", n + "PCP", n + "ID"}
	}
	return names
}()

// Validate reports the first field of f that AppendTo refuses: a value
// that does not fit its field, or that Decode would not give back. The
// error is an *ib.FieldError naming the field and the value; it wraps
// ib.ErrBadValue, or ib.ErrBadLength for a transport packet too long for
// the length fields or a payload its opcode does not allow (see
// ib.Packet.Validate). Validate allocates nothing when f is valid.
func (f *Frame) Validate() error {
	if err := f.validateFrame(); err != nil {
		return err
	}
	return f.Packet.Validate()
}

// validateFrame is Validate without the transport packet's own fields,
// which ib.Packet.AppendTo checks before it writes anything.
func (f *Frame) validateFrame() error {
	if f.NumVLANs < 0 || f.NumVLANs > wire.MaxTags {
		return errs.Field("NumVLANs", uint64(f.NumVLANs), "is not between 0 and "+strconv.Itoa(wire.MaxTags), ib.ErrBadValue)
	}
	for i, v := range f.VLANs[:f.NumVLANs] {
		names := &vlanFields[i]
		if v.TPID != 0 && !hdr.IsTPID(v.TPID) {
			return errs.Field(names[0], uint64(v.TPID), "is not 0x8100 (802.1Q), 0x88a8 (802.1ad) or 0x9100", ib.ErrBadValue)
		}
		if v.PCP > hdr.MaxPCP {
			return errs.Fit(names[1], uint64(v.PCP), 3)
		}
		if v.ID > hdr.MaxVID {
			return errs.Fit(names[2], uint64(v.ID), 12)
		}
	}
	if f.Encap == 0 || int(f.Encap) >= len(encaps) {
		return errs.Field("Encap", uint64(f.Encap), "is not RoCEv1, RoCEv2/IPv4 or RoCEv2/IPv6", ib.ErrBadValue)
	}
	if f.GRH.FlowLabel > hdr.IPv6FlowLabelMask {
		return errs.Fit("GRH.FlowLabel", uint64(f.GRH.FlowLabel), 20)
	}
	if f.Encap == ib.RoCEv2IPv4 {
		if err := ipv4Mapped("GRH.SGID", &f.GRH.SGID); err != nil {
			return err
		}
		if err := ipv4Mapped("GRH.DGID", &f.GRH.DGID); err != nil {
			return err
		}
		if f.IPv4Flags&hdr.IPv4FragMask != 0 {
			return errs.Field("IPv4Flags", uint64(f.IPv4Flags), "makes a fragment (MF or a fragment offset set), which is not RoCEv2", ib.ErrBadValue)
		}
	}
	if f.Encap != ib.RoCEv1 && f.DstPort != 0 && f.DstPort != hdr.RoCEv2Port {
		return errs.Field("DstPort", uint64(f.DstPort), "is not 4791 (0x12b7), the RoCEv2 port (0 writes it)", ib.ErrBadValue)
	}
	if n, limit := f.Packet.Len(), encaps[f.Encap].maxLen; n > limit {
		return errs.Field("Packet length", uint64(n), "does not fit the 16-bit length fields of "+f.Encap.String()+
			" (at most "+strconv.Itoa(limit)+" bytes, BTH through ICRC)", ib.ErrBadLength)
	}
	return nil
}

// ipv4Mapped refuses a GID that is not IPv4-mapped. The error shows the
// GID as an address.
func ipv4Mapped(field string, gid *[16]byte) error {
	if rocev2.IsIPv4GID(*gid) {
		return nil
	}
	return &errs.FieldError{Field: field, Text: netip.AddrFrom16(*gid).String(),
		Reason: "is not IPv4-mapped (RoCEv2/IPv4 needs ::ffff:a.b.c.d)", Err: ib.ErrBadValue}
}

// AppendTo appends the encoded frame to b and returns the extended slice.
// It fixes every length (GRH PayLen, IP lengths, UDP Length, PadCnt),
// computes the IPv4 header checksum, the UDP checksum if UDPChecksum is
// set, and the ICRC, and stores in f what it wrote: PayLen, IPVer 6,
// NxtHdr 0x1B, IPv4Checksum, SrcPort and DstPort when they were 0,
// PadCnt.
//
// It first calls Validate and refuses, leaving b and f as they were, a
// frame whose fields do not fit or that Decode would not read back as
// it was given. It allocates only if b lacks the capacity.
func (f *Frame) AppendTo(b []byte) ([]byte, error) {
	if err := f.validateFrame(); err != nil {
		return b, err
	}
	start := len(b)
	n := f.Len()
	b = slices.Grow(b, n)
	out := b[start : start+n]
	e := &encaps[f.Encap]
	netOff := hdr.NetOffset(f.NumVLANs)
	bth := netOff + e.netLen
	// The transport packet first: it validates its own fields and writes
	// nothing when it refuses them.
	if _, err := f.Packet.AppendTo(out[:bth]); err != nil {
		return b[:start], err
	}
	hdr.Ethernet(out).SetAddresses(f.Dst, f.Src)
	for i, v := range f.VLANs[:f.NumVLANs] {
		tpid := v.TPID
		if tpid == 0 {
			tpid = hdr.EtherTypeDot1Q
		}
		hdr.VLANTag(out[hdr.TagOffset(i):]).Set(tpid, v.PCP, v.DEI, v.ID)
	}
	hdr.PutEtherType(out, f.NumVLANs, e.etherType)
	net := out[netOff:]
	tl := n - bth
	f.GRH.PayLen = uint16(tl)
	f.GRH.IPVer, f.GRH.NxtHdr = 6, ib.NxtHdrBTH
	switch f.Encap {
	case ib.RoCEv1:
		if err := f.GRH.Encode(net); err != nil {
			return b[:start], err
		}
	case ib.RoCEv2IPv4:
		rocev2.PutIPv4Header(net, &f.GRH, f.IPv4ID, f.IPv4Flags)
		f.IPv4Checksum = hdr.IPv4(net).Checksum()
	case ib.RoCEv2IPv6:
		rocev2.PutIPv6Header(net, &f.GRH)
	}
	var udp hdr.UDP
	if f.Encap != ib.RoCEv1 {
		if f.SrcPort == 0 {
			f.SrcPort = rocev2.FlowLabelToUDPSrcPort(f.GRH.FlowLabel)
		}
		if f.DstPort == 0 {
			f.DstPort = hdr.RoCEv2Port
		}
		udp = hdr.UDP(out[bth-hdr.UDPLen:])
		rocev2.PutUDPHeader(udp, f.SrcPort, f.DstPort, uint16(tl))
	}
	if err := ib.PutICRC(f.Encap, net); err != nil {
		return b[:start], err
	}
	if f.UDPChecksum && udp != nil {
		udp.FixChecksum(net)
	}
	return b[:start+n], nil
}

// VerifyFrame checks the ICRC of the RoCE frame b (Ethernet first). It
// allocates nothing but the error of a mismatch. A frame the capture cut
// before the end of its ICRC, its headers in front of the BTH present,
// gives ib.ErrUnchecked.
func VerifyFrame(b []byte) error {
	var l wire.Layout
	err := wire.LocateCut(b, &l)
	if err != nil {
		return err
	}
	if l.End > len(b) {
		return ib.ErrUnchecked
	}
	return ib.VerifyICRC(l.Enc, b[l.Net:l.End])
}

// FixICRC computes the ICRC of the RoCE frame b (Ethernet first) and
// writes it in place; a non-zero UDP checksum is recomputed after it,
// since it covers the ICRC. This is the one call to add after a
// serializer that leaves the ICRC to be computed (gopacket.SerializeLayers
// with the layers of package googlelayers, which has it as
// googlelayers.FixICRC).
func FixICRC(b []byte) error {
	var l wire.Layout
	err := wire.Locate(b, &l)
	if err != nil {
		return err
	}
	net := b[l.Net:l.End]
	if err := ib.PutICRC(l.Enc, net); err != nil {
		return err
	}
	if l.UDP != 0 {
		if udp := hdr.UDP(b[l.UDP:l.End]); udp.Checksum() != 0 {
			udp.FixChecksum(net)
		}
	}
	return nil
}
