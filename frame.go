package roce

import (
	"encoding/binary"
	"github.com/roce-go/roce/internal/errs"
	"slices"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/wire"
	"github.com/roce-go/roce/rocev2"
)

// VLAN is one 802.1Q (TPID 0x8100) or 802.1ad (TPID 0x88a8) tag.
type VLAN struct {
	TPID uint16 // 0x8100 or 0x88a8
	PCP  uint8  // priority code point, 3 bits (the 802.1p priority)
	DEI  bool   // drop eligible indicator
	ID   uint16 // VLAN identifier, 12 bits
}

// Frame is a whole RoCE frame: Ethernet, up to two VLAN tags, the GRH
// (RoCEv1) or IP and UDP headers (RoCEv2), and the transport packet.
//
// For RoCEv2 the IP header is held as the GRH it maps to (see rocev2):
// TClass is the TOS or Traffic Class byte (DSCP and ECN), HopLmt the TTL
// or Hop Limit, FlowLabel the IPv6 flow label (0 for IPv4), SGID and DGID
// the addresses (IPv4-mapped for IPv4), PayLen the transport length. The
// few IPv4 and UDP fields a GRH has no room for have their own fields.
type Frame struct {
	Dst, Src [6]byte
	VLANs    [wire.MaxTags]VLAN
	NumVLANs int
	Encap    ib.Encapsulation
	GRH      ib.GRH

	IPv4ID       uint16 // IPv4 Identification
	IPv4Flags    uint16 // IPv4 flags and fragment offset (0x4000: DF)
	IPv4Checksum uint16 // IPv4 header checksum as received; AppendTo computes it

	SrcPort uint16 // UDP source port; AppendTo derives it from FlowLabel when 0
	DstPort uint16 // UDP destination port, 4791; AppendTo writes 4791 when 0
	// UDPChecksum says whether the frame carries a UDP checksum. Decode
	// sets it when the field is not zero; AppendTo then computes one, and
	// writes zero otherwise (what RoCEv2 senders do over IPv4).
	UDPChecksum bool

	Packet ib.Packet // BTH, extended headers, payload, pad, ICRC

	// Raw is the RoCE packet as received, from the first byte of the GRH
	// or IP header through the ICRC. VerifyICRC reads it.
	Raw []byte
}

// Decode decodes an Ethernet frame into f, resetting it. It returns an
// error wrapping ib.ErrNotRoCE for a well-formed frame that is not RoCE,
// and errors wrapping the other ib sentinels for malformed ones. It does
// not check the ICRC: see VerifyICRC.
func (f *Frame) Decode(b []byte) error {
	if end, ok := f.decodeUntaggedIPv4(b); ok {
		return f.Packet.Decode(b[ipv4BTH:end])
	}
	return f.decode(b)
}

// ipv4BTH is where the BTH starts in an untagged RoCEv2/IPv4 frame.
const ipv4BTH = wire.HeaderLen + rocev2.IPv4HeaderLen + rocev2.UDPHeaderLen

// decodeUntaggedIPv4 is the fast path of Decode for the commonest frame:
// no VLAN tag, IPv4 without options, UDP to port 4791. It decodes the
// headers in front of the BTH and returns where the ICRC ends, or
// reports false, having changed nothing, for any frame it does not take or
// that is malformed; decode then handles it (and says what is wrong).
func (f *Frame) decodeUntaggedIPv4(b []byte) (end int, ok bool) {
	if len(b) < ipv4BTH {
		return 0, false
	}
	h := b[:ipv4BTH]
	ipLen := int(binary.BigEndian.Uint16(h[16:]))
	udpLen := int(binary.BigEndian.Uint16(h[38:]))
	if binary.BigEndian.Uint32(h[12:])>>8 != 0x080045 || h[23] != 17 ||
		binary.BigEndian.Uint16(h[20:])&0x3fff != 0 || binary.BigEndian.Uint16(h[36:]) != wire.RoCEv2Port ||
		wire.HeaderLen+ipLen > len(b) || udpLen < rocev2.UDPHeaderLen || udpLen > ipLen-rocev2.IPv4HeaderLen {
		return 0, false
	}
	copy(f.Dst[:], h[0:6])
	copy(f.Src[:], h[6:12])
	f.NumVLANs = 0
	f.Encap = ib.RoCEv2IPv4
	rocev2.GRHFromIPv4Header(&f.GRH, h[wire.HeaderLen:])
	f.GRH.PayLen = uint16(udpLen - rocev2.UDPHeaderLen)
	f.IPv4ID = binary.BigEndian.Uint16(h[18:])
	f.IPv4Flags = binary.BigEndian.Uint16(h[20:])
	f.IPv4Checksum = binary.BigEndian.Uint16(h[24:])
	f.SrcPort = binary.BigEndian.Uint16(h[34:])
	f.DstPort = wire.RoCEv2Port
	f.UDPChecksum = h[40]|h[41] != 0
	end = wire.HeaderLen + rocev2.IPv4HeaderLen + udpLen
	f.Raw = b[wire.HeaderLen:end]
	return end, true
}

// decode is Decode for any frame.
func (f *Frame) decode(b []byte) error {
	var l wire.Layout
	err := wire.Locate(b, &l)
	if err != nil {
		return err
	}
	copy(f.Dst[:], b[0:6])
	copy(f.Src[:], b[6:12])
	f.NumVLANs = l.Tags
	for i := 0; i < l.Tags; i++ {
		t := b[12+4*i:]
		tci := binary.BigEndian.Uint16(t[2:])
		f.VLANs[i] = VLAN{TPID: binary.BigEndian.Uint16(t), PCP: uint8(tci >> 13), DEI: tci&0x1000 != 0, ID: tci & 0xfff}
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
		if l.UDP-l.Net != rocev2.IPv4HeaderLen {
			return errs.New("IPv4", l.Net, 0, 0, ib.ErrUnsupported) // options
		}
		rocev2.GRHFromIPv4Header(&f.GRH, net)
		f.IPv4ID = binary.BigEndian.Uint16(net[4:])
		f.IPv4Flags = binary.BigEndian.Uint16(net[6:])
		f.IPv4Checksum = binary.BigEndian.Uint16(net[10:])
	case ib.RoCEv2IPv6:
		rocev2.GRHFromIPv6Header(&f.GRH, net)
	}
	if l.UDP != 0 {
		u := b[l.UDP:]
		f.SrcPort = binary.BigEndian.Uint16(u)
		f.DstPort = binary.BigEndian.Uint16(u[2:])
		f.UDPChecksum = u[6]|u[7] != 0
		f.GRH.PayLen = uint16(l.End - l.BTH)
	}
	f.Raw = b[l.Net:l.End]
	return f.Packet.Decode(b[l.BTH:l.End])
}

// VerifyICRC checks the ICRC of the decoded frame; the error wraps
// ib.ErrBadICRC on a mismatch.
func (f *Frame) VerifyICRC() error { return ib.VerifyICRC(f.Encap, f.Raw) }

// Len returns the length of the frame AppendTo writes.
func (f *Frame) Len() int {
	return f.netOffset() + f.netLen() + f.Packet.Len()
}

func (f *Frame) netOffset() int { return 14 + 4*f.NumVLANs }

func (f *Frame) netLen() int {
	switch f.Encap {
	case ib.RoCEv2IPv4:
		return rocev2.IPv4HeaderLen + rocev2.UDPHeaderLen
	case ib.RoCEv2IPv6:
		return rocev2.IPv6HeaderLen + rocev2.UDPHeaderLen
	}
	return ib.GRHLen
}

// AppendTo appends the encoded frame to b and returns the extended slice.
// It fixes every length (GRH PayLen, IP lengths, UDP Length, PadCnt),
// computes the IPv4 header checksum, the UDP checksum if UDPChecksum is
// set, and the ICRC; GRH IPVer and NxtHdr are written as 6 and 0x1B. It
// allocates only if b lacks the capacity.
func (f *Frame) AppendTo(b []byte) ([]byte, error) {
	if f.NumVLANs < 0 || f.NumVLANs > wire.MaxTags {
		return b, errs.New("VLAN", 12, wire.MaxTags, f.NumVLANs, ib.ErrUnsupported)
	}
	if f.Encap == ib.RoCEv2IPv4 && !(rocev2.IsIPv4GID(f.GRH.SGID) && rocev2.IsIPv4GID(f.GRH.DGID)) {
		return b, errs.New("IPv4", 0, 0, 0, ib.ErrUnsupported) // GIDs must be IPv4-mapped
	}
	if f.Encap < ib.RoCEv1 || f.Encap > ib.RoCEv2IPv6 {
		return b, errs.New("Frame", 0, 0, 0, ib.ErrUnsupported)
	}
	start := len(b)
	n := f.Len()
	b = slices.Grow(b, n)
	out := b[start : start+n]
	copy(out, f.Dst[:])
	copy(out[6:], f.Src[:])
	off := 12
	for _, v := range f.VLANs[:f.NumVLANs] {
		tpid := v.TPID
		if tpid == 0 {
			tpid = wire.TypeDot1Q
		}
		binary.BigEndian.PutUint16(out[off:], tpid)
		binary.BigEndian.PutUint16(out[off+2:], uint16(v.PCP&7)<<13|uint16(flag(v.DEI))<<12|v.ID&0xfff)
		off += 4
	}
	netOff := off + 2
	tl := f.Packet.Len()
	f.GRH.PayLen = uint16(tl)
	f.GRH.IPVer, f.GRH.NxtHdr = 6, ib.NxtHdrBTH
	net := out[netOff:]
	switch f.Encap {
	case ib.RoCEv1:
		binary.BigEndian.PutUint16(out[off:], wire.TypeRoCE)
		f.GRH.Encode(net)
	case ib.RoCEv2IPv4:
		binary.BigEndian.PutUint16(out[off:], wire.TypeIPv4)
		rocev2.PutIPv4Header(net, &f.GRH, f.IPv4ID, f.IPv4Flags)
		f.IPv4Checksum = binary.BigEndian.Uint16(net[10:])
	case ib.RoCEv2IPv6:
		binary.BigEndian.PutUint16(out[off:], wire.TypeIPv6)
		rocev2.PutIPv6Header(net, &f.GRH)
	}
	bth := netOff + f.netLen()
	if f.Encap != ib.RoCEv1 {
		if f.SrcPort == 0 {
			f.SrcPort = rocev2.FlowLabelToUDPSrcPort(f.GRH.FlowLabel)
		}
		if f.DstPort == 0 {
			f.DstPort = uint16(rocev2.Port)
		}
		rocev2.PutUDPHeader(out[bth-rocev2.UDPHeaderLen:], f.SrcPort, f.DstPort, uint16(tl))
	}
	if _, err := f.Packet.AppendTo(out[:bth]); err != nil {
		return b[:start], err
	}
	if err := ib.PutICRC(f.Encap, net); err != nil {
		return b, err
	}
	if f.UDPChecksum && f.Encap != ib.RoCEv1 {
		udp := out[bth-rocev2.UDPHeaderLen:]
		binary.BigEndian.PutUint16(udp[6:], rocev2.UDPChecksum(net, udp))
	}
	return b[:start+n], nil
}

func flag(v bool) uint16 {
	if v {
		return 1
	}
	return 0
}

// VerifyFrame checks the ICRC of the RoCE frame b (Ethernet first). It
// allocates nothing.
func VerifyFrame(b []byte) error {
	var l wire.Layout
	err := wire.Locate(b, &l)
	if err != nil {
		return err
	}
	return ib.VerifyICRC(l.Enc, b[l.Net:l.End])
}

// VerifyPacket checks the ICRC of a gopacket.Packet decoded from an
// Ethernet frame.
func VerifyPacket(p gopacket.Packet) error { return VerifyFrame(p.Data()) }

// FixICRC computes the ICRC of the RoCE frame b (Ethernet first) and
// writes it in place; a non-zero UDP checksum is recomputed after it,
// since it covers the ICRC. This is the one call to add after
// gopacket.SerializeLayers:
//
//	gopacket.SerializeLayers(buf, opts, &eth, &ip, &udp, &bth, &reth, payload)
//	roce.FixICRC(buf.Bytes())
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
		udp := b[l.UDP:l.End]
		if udp[6]|udp[7] != 0 {
			binary.BigEndian.PutUint16(udp[6:], rocev2.UDPChecksum(net, udp))
		}
	}
	return nil
}
