package dump

import (
	"encoding/binary"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/wire"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/pfc"
)

// Kind says what Record.Decode made of a frame.
type Kind uint8

// The kinds of frame.
const (
	KindRoCE        Kind = iota // a RoCE frame, decoded: Record.RoCE holds it
	KindNotRoCE                 // a well-formed frame that carries no RoCE packet
	KindMalformed               // a RoCE, InfiniBand or MAC Control frame that does not decode: Record.Err says why
	KindUnsupported             // a link type (or ERF record type) this package does not decode
	KindMACControl              // a MAC Control frame (PAUSE, PFC, ...): Record.MACControl holds it
	KindInfiniBand              // a native InfiniBand packet: Record.LRH, Record.RoCE.GRH and Record.RoCE.Packet hold it
)

var kindNames = [...]string{"RoCE", "not RoCE", "malformed", "unsupported link type", "MAC Control", "InfiniBand"}

// String returns "RoCE", "not RoCE", "malformed", "unsupported link type",
// "MAC Control" or "InfiniBand".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// ERF record types Record decodes.
const (
	ERFTypeEthernet   = 2
	ERFTypeInfiniBand = 21
)

// SLL is the Linux cooked capture header (LINKTYPE_LINUX_SLL, 16 bytes,
// and LINKTYPE_LINUX_SLL2, 20 bytes) of a frame captured on Linux's
// "any" device.
type SLL struct {
	Version  uint8   // 1 or 2
	PktType  uint16  // 0 to us, 1 broadcast, 2 multicast, 3 to another host, 4 sent by us
	HAType   uint16  // ARPHRD_ type of the device (1 Ethernet, 32 InfiniBand, ...)
	HALen    uint16  // bytes of Addr in use
	Addr     [8]byte // link-layer source address
	Protocol uint16  // the Ethertype of what follows
	IfIndex  uint32  // interface index (version 2 only)
}

// Record is one captured frame, decoded for printing. Decode refills it
// in place; reuse one Record for a whole capture and nothing is allocated
// per frame, malformed frames included: Err (and CNPErr, DCBXErr) is held
// in the Record and stays valid until the next Decode (copy the error's
// value to keep it longer).
type Record struct {
	Number   int       // position in the capture, counting from 1
	Time     time.Time // capture time
	Len      int       // length of the frame on the wire
	Data     []byte    // the captured bytes; aliases the buffer given to Decode
	LinkType uint16    // link type of the capture (or pcapng interface); 1 is Ethernet

	Kind Kind
	// RoCE is the decoded frame when Kind is KindRoCE. For KindInfiniBand
	// its GRH (when HasGRH) and Packet hold the native packet's.
	RoCE roce.Frame
	Err  error // why the frame did not decode (KindMalformed, KindUnsupported)
	// ICRCGood says whether the ICRC recomputed over the frame matches
	// the one it carries (KindRoCE and KindInfiniBand). It is false when
	// ICRCUnchecked is set.
	ICRCGood bool
	// ICRCUnchecked says that the capture cut the frame short (a small
	// snap length): every header was decoded but the ICRC was not
	// captured, so it could not be checked. Such a frame is neither good
	// nor bad; count it apart from bad ICRCs. RoCE.Truncated is set too.
	ICRCUnchecked bool
	// CNPErr is, for a RoCEv2 CNP (opcode 0x81), the first field that
	// breaks the CNP rules (cnp.Check), nil for a conforming one.
	CNPErr error

	MACControl pfc.MACControl // the MAC Control frame when Kind is KindMACControl

	// HasDCBX says that the frame is LLDP with IEEE 802.1Qaz DCBX TLVs
	// (Kind is KindNotRoCE): DCBX holds them, or DCBXErr says why one
	// did not decode.
	HasDCBX bool
	DCBX    dcbx.TLVs
	DCBXErr error

	SLL     SLL    // the cooked header, for capfile.LinkTypeLinuxSLL and capfile.LinkTypeLinuxSLL2
	ERFType uint8  // the ERF record type (without its extension bit), for capfile.LinkTypeERF
	LRH     ib.LRH // the Local Route Header when Kind is KindInfiniBand
	HasGRH  bool   // KindInfiniBand: the packet has a GRH (LRH LNH 3)

	// HasIPoIB says that the frame carries IPoIB: a native InfiniBand
	// packet whose payload ipoib.Match takes for IPoIB, or a record of
	// LinkTypeIPoIB. IPoIB is then its IPoIB header (the packet it
	// carries follows its ipoib.HeaderLen bytes), and IPoIBLink the link
	// header of a LinkTypeIPoIB record.
	HasIPoIB  bool
	IPoIB     ipoib.Header
	IPoIBLink ipoib.LinkHeader

	// ULP is a setting, not a result: the upper-layer protocol Decode
	// reads the payload of RC SEND messages as (ulp.go). The caller sets
	// it (Options.ULP for Scan and Dump); Decode keeps it.
	ULP ULP

	capLen  int    // bytes captured (after an ERF header: the record's body)
	erfLen  int    // bytes of the ERF header and its extension headers
	eth     []byte // the Ethernet frame: Data, or the frame rebuilt from a cooked or ERF record
	scratch []byte // where cooked frames are rebuilt
	net     netInfo
	madj    madRec        // mad_fields.go: the MAD, decoded once for JSON, filters and text
	nvme    nvmeRec       // nvme.go: the NVMe/RDMA capsule, with ULP ULPNVMe
	isr     iserRec       // iser.go: the iSER message, with ULP ULPISER
	madBuf  [mad.Len]byte // a MAD the capture cut, filled out (decodeCutMAD)
	err     errs.Slot     // holds Err when Decode made it, so that decoding allocates nothing
	cnp     cnp.Checker   // holds CNPErr
	// icrcKnown: the next Decode takes icrcWas as what the ICRC check
	// gives rather than computing it again (the pipeline's consumer
	// decoding a frame a worker has checked).
	icrcKnown, icrcWas bool
}

// netInfo is what the Ethernet, IP and UDP or TCP headers say, read
// straight from the bytes or taken from the decoded RoCE frame.
type netInfo struct {
	etherType uint16 // Ethertype after the MAC addresses
	innerType uint16 // Ethertype after the VLAN tags
	l3        int    // offset of what follows the VLAN tags
	tags      int
	vlans     [wire.MaxTags]roce.VLAN
	ipVer     uint8 // 0, 4 or 6
	src, dst  [16]byte
	tclass    uint8 // TOS or Traffic Class
	ttl       uint8
	ipID      uint16
	flow      uint32
	proto     uint8 // IPv4 protocol or IPv6 next header
	l4        uint8 // 17 or 6 when ports were read, else 0
	sport     uint16
	dport     uint16
	arp       arpInfo // Ethertype 0x0806
}

// Decode decodes one captured frame of link type lt. number is its
// position in the capture, ci its capture information; data is kept (not
// copied) in r.Data until the next call.
//
// Ethernet frames decode as RoCE, MAC Control or other Ethernet. Linux
// cooked captures (SLL and SLL2) decode like the Ethernet frame they
// stand for: the protocol field gives the Ethertype and the source
// address the source MAC; the destination MAC is unknown (zero). ERF
// records of type 21 decode as native InfiniBand (LRH, optional GRH,
// transport packet, ICRC checked), of type 2 as Ethernet; extension
// headers are skipped.
func (r *Record) Decode(number int, ci gopacket.CaptureInfo, lt uint16, data []byte) {
	r.Number, r.Time, r.Len, r.Data, r.LinkType = number, ci.Timestamp, ci.Length, data, lt
	if r.Len == 0 {
		r.Len = len(data) // a Simple Packet Block's length, or a caller's CaptureInfo without one
	}
	r.Err, r.CNPErr, r.ICRCGood, r.ICRCUnchecked, r.net, r.eth = nil, nil, false, false, netInfo{}, nil
	r.madj.ok, r.madj.cut = false, false
	r.resetULP()
	r.HasGRH, r.HasIPoIB, r.HasDCBX, r.DCBXErr, r.ERFType, r.capLen, r.erfLen = false, false, false, nil, 0, len(data), 0
	switch lt {
	case capfile.LinkTypeEthernet:
		r.decodeEthernet(data)
	case capfile.LinkTypeLinuxSLL, capfile.LinkTypeLinuxSLL2:
		r.decodeSLL(data)
	case capfile.LinkTypeERF:
		r.decodeERF(data)
	case capfile.LinkTypeRaw, capfile.LinkTypeIPv4, capfile.LinkTypeIPv6:
		r.decodeRawIP(data)
	case capfile.LinkTypeInfiniBand:
		r.decodeInfiniBand(data)
	case capfile.LinkTypeIPoIB:
		r.decodeLinkIPoIB(data)
	default:
		r.Kind = KindUnsupported
	}
	r.icrcKnown = false
}

var (
	errERFType = errs.New("ERF", 8, 0, 0, ib.ErrUnsupported)
)

// decodeSLL rebuilds the Ethernet frame a cooked header stands for.
func (r *Record) decodeSLL(data []byte) {
	s := &r.SLL
	*s = SLL{}
	var hl int
	if r.LinkType == capfile.LinkTypeLinuxSLL {
		if len(data) < 16 {
			r.Kind, r.Err = KindMalformed, r.err.Truncated("SLL", 0, 16, len(data))
			return
		}
		s.Version, hl = 1, 16
		s.PktType = binary.BigEndian.Uint16(data)
		s.HAType = binary.BigEndian.Uint16(data[2:])
		s.HALen = binary.BigEndian.Uint16(data[4:])
		copy(s.Addr[:], data[6:14])
		s.Protocol = binary.BigEndian.Uint16(data[14:])
	} else {
		if len(data) < 20 {
			r.Kind, r.Err = KindMalformed, r.err.Truncated("SLL2", 0, 20, len(data))
			return
		}
		s.Version, hl = 2, 20
		s.Protocol = binary.BigEndian.Uint16(data)
		s.IfIndex = binary.BigEndian.Uint32(data[4:])
		s.HAType = binary.BigEndian.Uint16(data[8:])
		s.PktType = uint16(data[10])
		s.HALen = uint16(data[11])
		copy(s.Addr[:], data[12:20])
	}
	b := r.scratch[:0]
	b = append(b, 0, 0, 0, 0, 0, 0)
	if s.HALen == 6 {
		b = append(b, s.Addr[:6]...)
	} else {
		b = append(b, 0, 0, 0, 0, 0, 0)
	}
	b = append(b, byte(s.Protocol>>8), byte(s.Protocol))
	b = append(b, data[hl:]...)
	r.scratch = b
	r.decodeEthernet(b)
}

// decodeERF decodes one ERF record.
func (r *Record) decodeERF(data []byte) {
	if len(data) < 16 {
		r.Kind, r.Err = KindMalformed, r.err.Truncated("ERF", 0, 16, len(data))
		return
	}
	typ := data[8]
	r.ERFType = typ & 0x7f
	// The ERF timestamp: seconds in the upper 32 bits, a binary fraction
	// in the lower 32, finer than the pcap record's microseconds.
	ts := binary.LittleEndian.Uint64(data)
	r.Time = time.Unix(int64(ts>>32), int64((ts&0xffffffff*1_000_000_000+1<<31)>>32))
	off := 16
	for ext := typ&0x80 != 0; ext; {
		if len(data) < off+8 {
			r.Kind, r.Err = KindMalformed, r.err.New("ERF", off, off+8, len(data), ib.ErrTruncated)
			return
		}
		ext = data[off]&0x80 != 0
		off += 8
	}
	r.erfLen = off
	rlen := int(binary.BigEndian.Uint16(data[10:]))
	body := data[off:]
	if rlen >= off && rlen < len(data) {
		body = data[off:rlen]
	}
	// Like Wireshark, count the frame without its ERF header: wlen on
	// the wire, the body as captured (without the padding to rlen).
	wlen := int(binary.BigEndian.Uint16(data[14:]))
	r.Len = wlen
	if wlen < len(body) {
		body = body[:wlen]
	}
	r.capLen = len(body)
	switch r.ERFType {
	case ERFTypeInfiniBand:
		r.decodeIB(body)
	case ERFTypeEthernet:
		if len(body) < 2 {
			r.Kind, r.Err = KindMalformed, r.err.New("ERF", off, off+2, len(data), ib.ErrTruncated)
			return
		}
		r.decodeEthernet(body[2:]) // two bytes of padding come first
	default:
		r.Kind, r.Err = KindUnsupported, errERFType
	}
}

// decodeIB decodes a native InfiniBand packet: LRH, optional GRH,
// transport packet through the ICRC, then the VCRC.
func (r *Record) decodeIB(b []byte) {
	l := &r.LRH
	if err := l.Decode(b); err != nil {
		r.Kind, r.Err = KindMalformed, err
		return
	}
	end := int(l.PktLen) * 4
	if end < ib.LRHLen {
		r.Kind, r.Err = KindMalformed, r.err.New("LRH", 4, ib.LRHLen, end, ib.ErrBadLength)
		return
	}
	// A packet cut by the capture decodes when its headers were captured;
	// one that is shorter than its LRH says, though the capture kept all
	// of it, is malformed.
	cut := end > len(b)
	if cut && !r.capCut() {
		r.Kind, r.Err = KindMalformed, r.err.Truncated("LRH", 4, end, len(b))
		return
	}
	r.RoCE.Truncated, r.RoCE.WireLen = cut, end
	l.VCRC = 0 // the VCRC follows the PktLen words, when captured
	if len(b) >= end+2 {
		l.VCRC = binary.BigEndian.Uint16(b[end:])
	}
	bth := ib.LRHLen
	switch l.LNH {
	case ib.LNHIBAGlobal:
		if end < ib.LRHLen+ib.GRHLen {
			r.Kind, r.Err = KindMalformed, r.err.Truncated("GRH", ib.LRHLen, ib.LRHLen+ib.GRHLen, end)
			return
		}
		if err := r.RoCE.GRH.Decode(b[ib.LRHLen:]); err != nil {
			r.Kind, r.Err = KindMalformed, err
			return
		}
		if r.RoCE.GRH.NxtHdr != ib.NxtHdrBTH {
			r.Kind = KindNotRoCE
			return
		}
		r.HasGRH = true
		bth += ib.GRHLen
	case ib.LNHIBALocal:
	default:
		r.Kind = KindNotRoCE // raw or IPv6 packet, no IBA transport
		return
	}
	captured := min(end, len(b))
	if err := r.RoCE.Packet.DecodeTruncated(b[min(bth, captured):captured], end-bth); err != nil {
		r.Kind, r.Err = KindMalformed, err
		return
	}
	r.Kind = KindInfiniBand
	r.RoCE.Raw = b[:captured]
	r.decodeMAD()
	r.decodeIPoIB()
	r.decodeULP()
	if cut {
		r.ICRCUnchecked = true
		return
	}
	if r.icrcKnown {
		r.ICRCGood = r.icrcWas
		return
	}
	icrc, err := ib.ComputeNativeICRC(b[:end])
	r.ICRCGood = err == nil && icrc == ib.ReceivedICRC(b[:end])
}

// capCut reports whether the capture kept fewer bytes than the frame had
// on the wire (a snap length): only then is a frame shorter than its
// headers declare cut rather than malformed.
func (r *Record) capCut() bool { return r.Len > r.capLen }

// decodeEthernet decodes an Ethernet frame e (r.Data itself, or a frame
// rebuilt from another link type).
func (r *Record) decodeEthernet(e []byte) {
	r.eth = e
	err := r.RoCE.Decode(e)
	switch {
	case err == nil:
		r.Kind = KindRoCE
		r.fromFrame()
		r.decodeMAD()
		r.decodeULP()
		if r.RoCE.Truncated {
			if !r.capCut() {
				// The capture kept the whole frame, which is shorter than
				// its headers say: malformed, as before header-only
				// decoding.
				r.Kind, r.Err = KindMalformed, r.err.Truncated("Frame", 0, r.RoCE.WireLen, len(e))
				return
			}
			// Cut by the capture: the ICRC was not captured, and the CNP
			// rules on the payload cannot be checked.
			r.ICRCUnchecked = true
			return
		}
		// CheckICRC, not VerifyICRC: a bad ICRC must not cost an
		// allocation.
		if r.icrcKnown {
			r.ICRCGood = r.icrcWas
		} else {
			_, _, ok, icrcErr := ib.CheckICRC(r.RoCE.Encap, r.RoCE.Raw)
			r.ICRCGood = ok && icrcErr == nil
		}
		if r.RoCE.Packet.BTH.OpCode == ib.OpCNP && r.RoCE.Encap != ib.RoCEv1 {
			r.CNPErr = r.cnp.Check(&r.RoCE.Packet)
		}
	case err == ib.ErrNotRoCE:
		r.Kind = KindNotRoCE
		r.net.peek(e)
		if r.net.innerType == hdr.EtherTypeMACControl {
			if err := r.MACControl.Decode(e[r.net.l3:]); err != nil {
				r.Kind, r.Err = KindMalformed, err
			} else {
				r.Kind = KindMACControl
			}
		}
		if r.net.innerType == hdr.EtherTypeLLDP {
			r.decodeDCBX(e[r.net.l3:])
		}
	default:
		r.Kind = KindMalformed
		r.Err = err
		r.net.peek(e)
	}
}

// fromFrame fills r.net from the decoded RoCE frame.
func (r *Record) fromFrame() {
	f, n := &r.RoCE, &r.net
	n.etherType = hdr.Ethernet(r.eth).Type()
	n.tags = f.NumVLANs
	n.vlans = f.VLANs
	switch f.Encap {
	case ib.RoCEv1:
		n.innerType = hdr.EtherTypeRoCE
		return
	case ib.RoCEv2IPv4:
		n.innerType, n.ipVer = hdr.EtherTypeIPv4, 4
		copy(n.src[:4], f.GRH.SGID[12:])
		copy(n.dst[:4], f.GRH.DGID[12:])
		n.ipID = f.IPv4ID
	case ib.RoCEv2IPv6:
		n.innerType, n.ipVer = hdr.EtherTypeIPv6, 6
		n.src, n.dst = f.GRH.SGID, f.GRH.DGID
		n.flow = f.GRH.FlowLabel
	}
	n.tclass, n.ttl, n.proto = f.GRH.TClass, f.GRH.HopLmt, hdr.IPProtocolUDP
	n.l4, n.sport, n.dport = hdr.IPProtocolUDP, f.SrcPort, f.DstPort
}

// peek reads what it can of the Ethernet, VLAN, IP and UDP or TCP headers
// of a frame that did not decode as RoCE. It stops at the first header
// that is cut short.
func (n *netInfo) peek(b []byte) {
	if len(b) < hdr.EthernetLen {
		return
	}
	n.etherType = hdr.Ethernet(b).Type()
	off, et, tags, err := wire.Skip(b)
	if err != nil {
		return
	}
	n.innerType, n.tags, n.l3 = et, tags, off
	for i := 0; i < tags; i++ {
		t := hdr.VLANTag(b[hdr.TypeOffset+hdr.VLANTagLen*i:])
		n.vlans[i] = roce.VLAN{TPID: t.TPID(), PCP: t.PCP(), DEI: t.DEI(), ID: t.VID()}
	}
	n.peekL3(et, b[off:])
}

// peekL3 reads what it can of the IP header and the UDP or TCP ports of
// b, a packet of Ethertype et.
func (n *netInfo) peekL3(et uint16, b []byte) {
	var l4 []byte
	switch et {
	case hdr.EtherTypeIPv4:
		l4 = n.peekIPv4(b)
	case hdr.EtherTypeIPv6:
		l4 = n.peekIPv6(b)
	case hdr.EtherTypeARP:
		n.peekARP(b)
	}
	if (n.proto == hdr.IPProtocolUDP || n.proto == ipProtocolTCP) && len(l4) >= hdr.UDPDstPort+2 {
		// TCP's ports sit where UDP's do.
		u := hdr.UDP(l4)
		n.l4, n.sport, n.dport = n.proto, u.SrcPort(), u.DstPort()
	}
}

// ipProtocolTCP is the IPv4 protocol and IPv6 next header number of TCP.
const ipProtocolTCP = 6

// peekIPv4 reads an IPv4 header and returns what follows it, or nil when
// the header is cut short, has a bad length or is a fragment's.
func (n *netInfo) peekIPv4(b []byte) (l4 []byte) {
	ip := hdr.IPv4(b)
	if len(ip) < hdr.IPv4MinLen || ip.Version() != 4 {
		return nil
	}
	n.ipVer = 4
	n.tclass, n.ttl, n.proto = ip.TOS(), ip.TTL(), ip.Protocol()
	n.ipID = ip.ID()
	*(*[4]byte)(n.src[:4]) = ip.Src()
	*(*[4]byte)(n.dst[:4]) = ip.Dst()
	ihl := ip.HeaderLen()
	if ip.IsFragment() || ihl < hdr.IPv4MinLen || len(ip) < ihl {
		return nil
	}
	return ip[ihl:]
}

// peekIPv6 reads an IPv6 fixed header and returns what follows it, or nil
// when the header is cut short.
func (n *netInfo) peekIPv6(b []byte) (l4 []byte) {
	ip := hdr.IPv6(b)
	if len(ip) < hdr.IPv6Len || ip.Version() != 6 {
		return nil
	}
	n.ipVer = 6
	n.tclass, n.flow = ip.TrafficClass(), ip.FlowLabel()
	n.proto, n.ttl = ip.NextHeader(), ip.HopLimit()
	n.src, n.dst = ip.Src(), ip.Dst()
	return ip[hdr.IPv6Len:]
}

// ECN returns the ECN codepoint of a RoCEv2 frame (the low two bits of
// the IP TOS or Traffic Class; the low two bits of the GRH traffic class
// for RoCEv1), and whether the frame has one (RoCE frames only).
func (r *Record) ECN() (uint8, bool) {
	switch r.Kind {
	case KindRoCE:
		return r.RoCE.GRH.TClass & 3, true
	}
	return 0, false
}

// Frame returns the Ethernet frame the record decoded: Data itself for
// Ethernet captures, the frame rebuilt from the cooked header for Linux
// cooked captures (destination MAC zero), the frame inside an ERF
// Ethernet record; nil for native InfiniBand and unsupported link types.
func (r *Record) Frame() []byte { return r.eth }

// payloadLen returns the payload's length (without pad) as the headers
// declare it: the bytes decoded for a whole frame, the length on the wire
// for a frame the capture cut short (ICRCUnchecked).
func (r *Record) payloadLen() int {
	f := &r.RoCE
	if r.Kind != KindInfiniBand || !f.Truncated {
		return f.PayloadLen()
	}
	p := &f.Packet
	n := f.WireLen - ib.LRHLen - ib.BTHLen - p.Headers().Size() - ib.ICRCLen
	if r.HasGRH {
		n -= ib.GRHLen
	}
	if p.BTH.OpCode.Known() {
		n -= int(p.BTH.PadCnt)
	}
	return max(n, len(p.Payload))
}
