package dump

import (
	"encoding/binary"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/wire"
)

// Kind says what Record.Decode made of a frame.
type Kind uint8

// The kinds of frame.
const (
	KindRoCE        Kind = iota // a RoCE frame, decoded: Record.RoCE holds it
	KindNotRoCE                 // a well-formed frame that carries no RoCE packet
	KindMalformed               // a RoCE frame that does not decode: Record.Err says why
	KindUnsupported             // a link type other than Ethernet
)

var kindNames = [4]string{"RoCE", "not RoCE", "malformed", "unsupported link type"}

// String returns "RoCE", "not RoCE", "malformed" or "unsupported link type".
func (k Kind) String() string { return kindNames[k&3] }

// Record is one captured frame, decoded for printing. Decode refills it
// in place; reuse one Record for a whole capture and nothing is allocated
// per frame (except the error of a malformed frame).
type Record struct {
	Number   int       // position in the capture, counting from 1
	Time     time.Time // capture time
	Len      int       // length of the frame on the wire
	Data     []byte    // the captured bytes; aliases the buffer given to Decode
	LinkType uint16    // link type of the capture (or pcapng interface); 1 is Ethernet

	Kind Kind
	RoCE roce.Frame // the decoded frame when Kind is KindRoCE
	Err  error      // the decode error when Kind is KindMalformed
	// ICRCGood says whether the ICRC recomputed over the frame matches
	// the one it carries (KindRoCE only).
	ICRCGood bool

	// Location is the time zone of the text timestamps; nil means UTC.
	Location *time.Location

	net netInfo
}

// netInfo is what the Ethernet, IP and UDP or TCP headers say, read
// straight from the bytes or taken from the decoded RoCE frame.
type netInfo struct {
	etherType uint16 // Ethertype after the MAC addresses
	innerType uint16 // Ethertype after the VLAN tags
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
}

// LinkTypeEthernet is the pcap link type of Ethernet frames, the only one
// Record decodes. Link types are 16-bit numbers (gopacket's
// layers.LinkType holds only 8 bits, hence a plain uint16 here).
const LinkTypeEthernet = 1

// Decode decodes one captured frame of link type lt. number is its
// position in the capture, ci its capture information; data is kept (not
// copied) in r.Data until the next call.
func (r *Record) Decode(number int, ci gopacket.CaptureInfo, lt uint16, data []byte) {
	r.Number, r.Time, r.Len, r.Data, r.LinkType = number, ci.Timestamp, ci.Length, data, lt
	if r.Len < len(data) {
		r.Len = len(data)
	}
	r.Err, r.ICRCGood, r.net = nil, false, netInfo{}
	if lt != LinkTypeEthernet {
		r.Kind = KindUnsupported
		return
	}
	err := r.RoCE.Decode(data)
	switch {
	case err == nil:
		r.Kind = KindRoCE
		r.ICRCGood = r.RoCE.VerifyICRC() == nil
		r.fromFrame()
	case err == ib.ErrNotRoCE:
		r.Kind = KindNotRoCE
		r.net.peek(data)
	default:
		r.Kind = KindMalformed
		r.Err = err
		r.net.peek(data)
	}
}

// fromFrame fills r.net from the decoded RoCE frame.
func (r *Record) fromFrame() {
	f, n := &r.RoCE, &r.net
	n.etherType = binary.BigEndian.Uint16(r.Data[12:])
	n.tags = f.NumVLANs
	n.vlans = f.VLANs
	switch f.Encap {
	case ib.RoCEv1:
		n.innerType = wire.TypeRoCE
		return
	case ib.RoCEv2IPv4:
		n.innerType, n.ipVer = wire.TypeIPv4, 4
		copy(n.src[:4], f.GRH.SGID[12:])
		copy(n.dst[:4], f.GRH.DGID[12:])
		n.ipID = f.IPv4ID
	case ib.RoCEv2IPv6:
		n.innerType, n.ipVer = wire.TypeIPv6, 6
		n.src, n.dst = f.GRH.SGID, f.GRH.DGID
		n.flow = f.GRH.FlowLabel
	}
	n.tclass, n.ttl, n.proto = f.GRH.TClass, f.GRH.HopLmt, 17
	n.l4, n.sport, n.dport = 17, f.SrcPort, f.DstPort
}

// peek reads what it can of the Ethernet, VLAN, IP and UDP or TCP headers
// of a frame that did not decode as RoCE. It stops at the first header
// that is cut short.
func (n *netInfo) peek(b []byte) {
	if len(b) < wire.HeaderLen {
		return
	}
	n.etherType = binary.BigEndian.Uint16(b[12:])
	off, et, tags, err := wire.Skip(b)
	if err != nil {
		return
	}
	n.innerType, n.tags = et, tags
	for i := 0; i < tags; i++ {
		t := b[12+4*i:]
		tci := binary.BigEndian.Uint16(t[2:])
		n.vlans[i] = roce.VLAN{TPID: binary.BigEndian.Uint16(t), PCP: uint8(tci >> 13), DEI: tci&0x1000 != 0, ID: tci & 0xfff}
	}
	ip := b[off:]
	var l4 []byte
	switch et {
	case wire.TypeIPv4:
		if len(ip) < 20 || ip[0]>>4 != 4 {
			return
		}
		n.ipVer = 4
		n.tclass, n.ttl, n.proto = ip[1], ip[8], ip[9]
		n.ipID = binary.BigEndian.Uint16(ip[4:])
		copy(n.src[:4], ip[12:16])
		copy(n.dst[:4], ip[16:20])
		ihl := int(ip[0]&0x0f) * 4
		if binary.BigEndian.Uint16(ip[6:])&0x3fff != 0 || ihl < 20 || len(ip) < ihl {
			return // a fragment, or a bad header length
		}
		l4 = ip[ihl:]
	case wire.TypeIPv6:
		if len(ip) < 40 || ip[0]>>4 != 6 {
			return
		}
		n.ipVer = 6
		w := binary.BigEndian.Uint32(ip)
		n.tclass, n.flow = uint8(w>>20), w&0xfffff
		n.proto, n.ttl = ip[6], ip[7]
		copy(n.src[:], ip[8:24])
		copy(n.dst[:], ip[24:40])
		l4 = ip[40:]
	default:
		return
	}
	if (n.proto == 17 || n.proto == 6) && len(l4) >= 4 {
		n.l4 = n.proto
		n.sport = binary.BigEndian.Uint16(l4)
		n.dport = binary.BigEndian.Uint16(l4[2:])
	}
}
