package dump

import (
	"net/netip"
	"slices"
	"strconv"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
)

// AppendText appends the frame as one line of text and a newline to b in
// the default format, times in UTC (the zero TextOptions; see
// TextOptions.AppendText), and returns the extended slice. For RoCE
// frames it allocates only when b lacks the capacity.
func (r *Record) AppendText(b []byte) []byte {
	var o TextOptions
	return o.AppendText(b, r)
}

// appendBody appends the line after its time and link-level header.
func (r *Record) appendBody(b []byte, o *TextOptions) []byte {
	switch r.Kind {
	case KindUnsupported:
		if r.LinkType == capfile.LinkTypeERF {
			b = append(b, "ERF record type "...)
			b = strconv.AppendUint(b, uint64(r.ERFType), 10)
		} else {
			b = appendLinkType(b, r)
		}
		b = append(b, " not supported yet len "...)
		b = strconv.AppendInt(b, int64(r.Len), 10)
		return append(b, '\n')
	case KindNotRoCE:
		if r.HasIPoIB {
			return r.appendIPoIBLinkText(b, o)
		}
		if r.HasDCBX {
			return r.appendDCBXText(b, o)
		}
		if r.eth == nil { // native InfiniBand without an IBA transport
			b = r.appendLIDs(b)
			b = append(b, " not IBA transport: LNH "...)
			b = strconv.AppendUint(b, uint64(r.LRH.LNH), 10)
			b = append(b, " len "...)
			b = strconv.AppendInt(b, int64(r.Len), 10)
			return append(b, '\n')
		}
		b = append(b, "not RoCE: "...)
		b = r.appendEndpoints(b, o, true)
		b = append(b, " len "...)
		b = strconv.AppendInt(b, int64(r.Len), 10)
		return append(b, '\n')
	case KindMalformed:
		if r.eth == nil {
			b = appendLinkType(b, r)
		} else {
			b = r.appendVLANs(b, o)
			b = r.appendEndpoints(b, o, false)
		}
		b = append(b, " malformed: "...)
		b = append(b, r.Err.Error()...)
		return append(b, '\n')
	case KindMACControl:
		return r.appendMACCText(b, o)
	case KindInfiniBand:
		b = r.appendLIDs(b)
		if r.HasGRH {
			b = append(b, ' ')
			b = r.RoCE.GRH.SrcGID().AppendTo(b)
			b = append(b, " > "...)
			b = r.RoCE.GRH.DstGID().AppendTo(b)
		}
		b = append(b, " IB "...)
		return r.appendTransport(b, o)
	}
	return r.appendRoCEText(b, o)
}

// appendVLANs appends "vlan ID pcp P " for each tag.
func (r *Record) appendVLANs(b []byte, o *TextOptions) []byte {
	if o.Format.Link { // the link-level header has them
		return b
	}
	for _, v := range r.net.vlans[:r.net.tags] {
		b = append(b, "vlan "...)
		b = strconv.AppendUint(b, uint64(v.ID), 10)
		b = append(b, " pcp "...)
		b = strconv.AppendUint(b, uint64(v.PCP), 10)
		b = append(b, ' ')
	}
	return b
}

// appendEndpoints appends the protocol (when proto is set) and
// "SRC > DST": addresses and ports for IP, MAC addresses otherwise.
func (r *Record) appendEndpoints(b []byte, o *TextOptions, proto bool) []byte {
	n := &r.net
	if len(r.eth) < hdr.EthernetLen {
		return append(b, "runt frame"...)
	}
	if n.ipVer == 0 {
		if proto {
			b = appendEtherType(b, n.innerType)
			if o.Format.Link { // the link-level header has the MACs
				return b
			}
			b = append(b, ' ')
		} else if o.Format.Link {
			return b
		}
		e := hdr.Ethernet(r.eth)
		src, dst := e.Src(), e.Dst()
		b = appendMAC(b, src[:])
		b = append(b, " > "...)
		return appendMAC(b, dst[:])
	}
	return r.appendIPEndpoints(b, o, proto)
}

// endpointsKey is what the text of IP endpoints with ports depends on.
type endpointsKey struct {
	ipVer        uint8
	src, dst     [16]byte
	sport, dport uint16
}

// endpointsText is the text of endpoints appendIPEndpoints wrote with
// ports: text[:n], n 0 when there is none.
type endpointsText struct {
	key  endpointsKey
	n    int
	text [100]byte
}

// appendIPEndpoints appends the IP version and protocol (when proto is
// set) and the source and destination IP addresses, with the ports when
// they were read.
func (r *Record) appendIPEndpoints(b []byte, o *TextOptions, proto bool) []byte {
	n := &r.net
	var src, dst netip.Addr
	if n.ipVer == 4 {
		src, dst = netip.AddrFrom4([4]byte(n.src[:4])), netip.AddrFrom4([4]byte(n.dst[:4]))
	} else {
		src, dst = netip.AddrFrom16(n.src), netip.AddrFrom16(n.dst)
	}
	if proto {
		if n.ipVer == 4 {
			b = append(b, "IPv4 "...)
		} else {
			b = append(b, "IPv6 "...)
		}
		b = appendIPProto(b, n.proto)
		b = append(b, ' ')
	}
	if n.l4 != 0 {
		// The text of the last two endpoints, kept: a capture's frames
		// come from few of them, requests and responses alternating.
		k := endpointsKey{n.ipVer, n.src, n.dst, n.sport, n.dport}
		cs := &o.endpoints
		for i := range cs {
			if c := &cs[i]; c.n > 0 && c.key == k {
				return append(b, c.text[:c.n]...)
			}
		}
		cs[1] = cs[0]
		c := &cs[0]
		t := netip.AddrPortFrom(src, n.sport).AppendTo(c.text[:0])
		t = append(t, " > "...)
		t = netip.AddrPortFrom(dst, n.dport).AppendTo(t)
		if len(t) > len(c.text) { // not kept (cannot be: the longest is 2*47+3 bytes)
			c.n = 0
			return append(b, t...)
		}
		c.key, c.n = k, len(t)
		return append(b, c.text[:c.n]...)
	}
	b = src.AppendTo(b)
	b = append(b, " > "...)
	return dst.AppendTo(b)
}

func appendEtherType(b []byte, t uint16) []byte {
	switch t {
	case hdr.EtherTypeIPv4:
		return append(b, "IPv4"...)
	case hdr.EtherTypeIPv6:
		return append(b, "IPv6"...)
	case hdr.EtherTypeARP:
		return append(b, "ARP"...)
	case hdr.EtherTypeRoCE:
		return append(b, "RoCEv1"...)
	case hdr.EtherTypeMACControl:
		return append(b, "MAC Control (PAUSE/PFC)"...)
	case hdr.EtherTypeLLDP:
		return append(b, "LLDP"...)
	}
	if t <= maxEthernetLength { // a length: an 802.3 frame, LLC follows
		return append(b, "802.3 LLC"...)
	}
	b = append(b, "Ethertype 0x"...)
	return append(b, hexDigits[t>>12], hexDigits[t>>8&0xf], hexDigits[t>>4&0xf], hexDigits[t&0xf])
}

func appendIPProto(b []byte, p uint8) []byte {
	switch p {
	case 0:
		return append(b, "hop-by-hop"...)
	case 1:
		return append(b, "ICMP"...)
	case 2:
		return append(b, "IGMP"...)
	case 6:
		return append(b, "TCP"...)
	case 17:
		return append(b, "UDP"...)
	case 58:
		return append(b, "ICMPv6"...)
	}
	b = append(b, "proto "...)
	return strconv.AppendUint(b, uint64(p), 10)
}

var ecnNames = [4]string{"Not-ECT", "ECT(1)", "ECT(0)", "CE"}

func (r *Record) appendRoCEText(b []byte, o *TextOptions) []byte {
	f := &r.RoCE
	b = r.appendVLANs(b, o)
	if f.Encap == ib.RoCEv1 {
		b = f.GRH.SrcGID().AppendTo(b)
		b = append(b, " > "...)
		b = f.GRH.DstGID().AppendTo(b)
		b = append(b, " RoCEv1 "...)
	} else {
		b = r.appendEndpoints(b, o, false)
		b = append(b, " RoCEv2 "...)
	}
	return r.appendTransport(b, o)
}

// appendLIDs appends "lid 0x0004 > lid 0x0001 sl 0 vl 0" for a native
// InfiniBand packet.
func (r *Record) appendLIDs(b []byte) []byte {
	l := &r.LRH
	b = append(b, "lid 0x"...)
	b = appendHex16(b, l.SLID)
	b = append(b, " > lid 0x"...)
	b = appendHex16(b, l.DLID)
	b = append(b, " sl "...)
	b = strconv.AppendUint(b, uint64(l.SL), 10)
	b = append(b, " vl "...)
	return strconv.AppendUint(b, uint64(l.VL), 10)
}

// appendTransport appends the BTH, the extended headers, the payload
// length, the ECN codepoint and the ICRC status.
func (r *Record) appendTransport(b []byte, o *TextOptions) []byte {
	p := &r.RoCE.Packet
	if p.BTH.OpCode == ib.OpCNP {
		return r.appendCNPText(b)
	}
	if o.Format.Quiet {
		return r.appendQuietTransport(b)
	}
	b = appendBTH(b, &p.BTH)
	hs := p.Headers()
	for i := 0; i < hs.Len(); i++ {
		h := hs.At(i)
		if !p.BTH.Truncated {
			b = ethText[h](b, p, h.Len())
			continue
		}
		n := p.Captured(h)
		b = ethText[h](b, p, n)
		if n < h.Len() { // the header the capture cut
			b = cutMark(b, h)
			break
		}
	}
	b = append(b, " payload "...)
	b = appendDec(b, uint64(r.payloadLen()))
	if r.HasIPoIB {
		b = r.appendIPoIB(b, o)
	}
	b = r.appendMAD(b) // a MAD on QP 0 or 1 (text_mad.go)
	b = r.appendULP(b) // a SEND's payload as Record.ULP reads it (ulp.go)
	return r.appendTail(b)
}

// appendBTH appends the opcode, "qp 0x000011 psn 5" and the BTH flags
// that are set, "[SE,A]" for example.
func appendBTH(b []byte, h *ib.BTH) []byte {
	b = appendOpcodeQPPSN(b, h)
	if !h.SE && !h.MigReq && !h.AckReq && !h.FECN && !h.BECN {
		return b
	}
	b = append(b, " ["...)
	sep := false
	for _, fl := range [...]struct {
		on   bool
		name string
	}{{h.SE, "SE"}, {h.MigReq, "M"}, {h.AckReq, "A"}, {h.FECN, "FECN"}, {h.BECN, "BECN"}} {
		if !fl.on {
			continue
		}
		if sep {
			b = append(b, ',')
		}
		b = append(b, fl.name...)
		sep = true
	}
	return append(b, ']')
}

// appendOpcodeQPPSN appends the opcode and "qp 0x000011 psn 5".
func appendOpcodeQPPSN(b []byte, h *ib.BTH) []byte {
	if h.OpCode.Known() {
		b = append(b, h.OpCode.String()...)
	} else {
		b = append(b, "opcode 0x"...)
		b = append(b, hexDigits[h.OpCode>>4], hexDigits[h.OpCode&0xf])
	}
	b = append(b, " qp 0x"...)
	b = appendHex24(b, h.DestQP)
	b = append(b, " psn "...)
	return appendDec(b, uint64(h.PSN))
}

// ethText appends one extended transport header of p as text, by header,
// as far as the capture kept it: n is how many of its bytes the packet
// holds (ib.Packet.Captured), and a field is printed when its bytes are
// all there. TestHeaderTables checks that every header has its entry.
var ethText = [...]func(b []byte, p *ib.Packet, n int) []byte{
	ib.NoHeader: func(b []byte, _ *ib.Packet, _ int) []byte { return b },
	ib.HeaderRDETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < ib.RDETHLen {
			return b
		}
		b = append(b, " rdeth eecnxt 0x"...)
		return appendHex24(b, p.RDETH.EECnxt)
	},
	ib.HeaderDETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < 4 {
			return b
		}
		b = append(b, " deth qkey 0x"...)
		b = appendHex32(b, p.DETH.QKey)
		if n < ib.DETHLen {
			return b
		}
		b = append(b, " srcqp 0x"...)
		return appendHex24(b, p.DETH.SrcQP)
	},
	ib.HeaderXRCETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < ib.XRCETHLen {
			return b
		}
		b = append(b, " xrceth srq 0x"...)
		return appendHex24(b, p.XRCETH.XRCSRQ)
	},
	ib.HeaderRETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < 8 {
			return b
		}
		b = append(b, " reth va 0x"...)
		b = appendHex64(b, p.RETH.VA)
		if n < 12 {
			return b
		}
		b = append(b, " rkey 0x"...)
		b = appendHex32(b, p.RETH.RKey)
		if n < ib.RETHLen {
			return b
		}
		b = append(b, " dmalen "...)
		return appendDec(b, uint64(p.RETH.DMALen))
	},
	ib.HeaderAtomicETH: func(b []byte, p *ib.Packet, n int) []byte {
		a := &p.AtomicETH
		if n < 8 {
			return b
		}
		b = append(b, " atomic va 0x"...)
		b = appendHex64(b, a.VA)
		if n < 12 {
			return b
		}
		b = append(b, " rkey 0x"...)
		b = appendHex32(b, a.RKey)
		if n < 20 {
			return b
		}
		b = append(b, " swap 0x"...)
		b = appendHex64(b, a.SwapData)
		if n < ib.AtomicETHLen {
			return b
		}
		b = append(b, " cmp 0x"...)
		return appendHex64(b, a.CompareData)
	},
	ib.HeaderAtomicAckETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < ib.AtomicAckETHLen {
			return b
		}
		b = append(b, " orig 0x"...)
		return appendHex64(b, p.AtomicAckETH.OrigRemData)
	},
	ib.HeaderAETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < 1 {
			return b
		}
		return appendAETH(b, &p.AETH, n == ib.AETHLen)
	},
	ib.HeaderImmDt: func(b []byte, p *ib.Packet, n int) []byte {
		if n < ib.ImmDtLen {
			return b
		}
		b = append(b, " imm 0x"...)
		return appendHex32(b, p.ImmDt.Data)
	},
	ib.HeaderIETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < ib.IETHLen {
			return b
		}
		b = append(b, " inv rkey 0x"...)
		return appendHex32(b, p.IETH.RKey)
	},
	ib.HeaderFETH: func(b []byte, p *ib.Packet, n int) []byte {
		if n < ib.FETHLen {
			return b
		}
		b = append(b, " feth sel "...)
		b = strconv.AppendUint(b, uint64(p.FETH.SEL), 10)
		b = append(b, " plt "...)
		return strconv.AppendUint(b, uint64(p.FETH.PLT), 10)
	},
}

// cutMark appends " [|reth]" and the like, tcpdump's mark of the header a
// capture's snap length cut, after the fields of h the capture kept.
func cutMark(b []byte, h ib.Header) []byte {
	b = append(b, " [|"...)
	for _, c := range []byte(h.String()) {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return append(b, ']')
}

// appendTail appends the ECN codepoint when it is not Not-ECT and the
// ICRC status.
func (r *Record) appendTail(b []byte) []byte {
	if ecn, ok := r.ECN(); ok && ecn != 0 {
		b = append(b, " ecn "...)
		b = append(b, ecnNames[ecn]...)
	}
	if r.ICRCUnchecked {
		return append(b, " icrc unchecked\n"...)
	}
	if r.ICRCGood {
		return append(b, " icrc good\n"...)
	}
	return append(b, " icrc bad\n"...)
}

// appendAETH appends " aeth ACK credits N msn M" and the like; without
// msn when the capture kept only the syndrome.
func appendAETH(b []byte, a *ib.AETH, msn bool) []byte {
	b = append(b, " aeth "...)
	b = append(b, a.Type().String()...)
	switch a.Type() {
	case ib.Ack:
		if n, ok := a.Credits(); ok {
			b = append(b, " credits "...)
			b = strconv.AppendInt(b, int64(n), 10)
		}
	case ib.RNRNak:
		b = append(b, " delay "...)
		b = strconv.AppendInt(b, a.RNRDelay().Microseconds(), 10)
		b = append(b, "us"...)
	case ib.Nak:
		b = append(b, ' ')
		if c, _ := a.NakCode(); c <= ib.NakInvalidRDRequest {
			b = append(b, c.String()...)
		} else {
			b = append(b, "code "...)
			b = strconv.AppendUint(b, uint64(c), 10)
		}
	default:
		b = append(b, " value "...)
		b = strconv.AppendUint(b, uint64(a.Value()), 10)
	}
	if !msn {
		return b
	}
	b = append(b, " msn "...)
	return appendDec(b, uint64(a.MSN))
}

func appendHex24(b []byte, v uint32) []byte {
	return append(b, hexDigits[v>>20&0xf], hexDigits[v>>16&0xf], hexDigits[v>>12&0xf], hexDigits[v>>8&0xf],
		hexDigits[v>>4&0xf], hexDigits[v&0xf])
}

func appendHex64(b []byte, v uint64) []byte {
	return appendHex32(appendHex32(b, uint32(v>>32)), uint32(v))
}

// appendDec appends v in decimal, as strconv.AppendUint(b, v, 10) does,
// the digits written in place.
func appendDec(b []byte, v uint64) []byte {
	if v < 10 {
		return append(b, byte('0'+v))
	}
	n := 2
	for t := v / 100; t > 0; t /= 10 {
		n++
	}
	l := len(b)
	b = slices.Grow(b, n)[:l+n]
	putDec(b[l:], v)
	return b
}

// putDec writes v in decimal into the end of d, two digits at a time,
// and zeros before it up to the start of d.
func putDec(d []byte, v uint64) {
	i := len(d)
	for v >= 100 && i >= 2 {
		q := v / 100
		r := v - q*100
		i -= 2
		d[i], d[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		v = q
	}
	for i > 0 {
		i--
		d[i] = byte('0' + v%10)
		v /= 10
	}
}

const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"
