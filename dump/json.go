package dump

import (
	"net/netip"
	"slices"
	"strconv"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
)

// AppendJSON appends the frame as one JSON object and a newline to b, with
// the keys of the field table (Fields; docs/keys.md), and returns the extended
// slice. It allocates only when b lacks the capacity.
func (r *Record) AppendJSON(b []byte) []byte { return r.appendJSON(b, "") }

// JSONOptions are the settings of JSON objects beyond the frame's data.
type JSONOptions struct {
	// File, if set, is the name of the capture, written as frame.file
	// (FileKey) after frame.number (see Options.File).
	File string
}

// AppendJSON appends r as one JSON object and a newline to b, as
// Record.AppendJSON does, with the settings of o.
func (o *JSONOptions) AppendJSON(b []byte, r *Record) []byte { return r.appendJSON(b, o.File) }

// appendJSON is AppendJSON, with file the capture's name or empty.
func (r *Record) appendJSON(b []byte, file string) []byte {
	fieldTable() // which sets the rows' keys (at)
	b = append(b, '{')
	b = append(b, kFrameNumber.json[1:]...)
	b = strconv.AppendInt(b, int64(r.Number), 10)
	if file != "" {
		b = append(b, `,"`+FileKey+`":`...)
		b = appendJSONString(b, file)
	}
	if !r.Time.IsZero() { // a Simple Packet Block has no timestamp
		b = append(b, kFrameTimeEpoch.json...)
		b = appendEpoch(b, r)
	}
	b = jUint(b, &kFrameLen, uint64(r.Len))
	b = jUint(b, &kFrameCapLen, uint64(r.capLen))
	if r.LinkType == capfile.LinkTypeERF {
		b = jUint(b, &kErfTypesType, uint64(r.ERFType))
	}
	if r.Kind == KindUnsupported {
		b = append(b, kError.json...)
		b = append(b, '"')
		b = appendUnsupported(b, r)
		return append(b, "\"}\n"...)
	}
	if r.LinkType == capfile.LinkTypeLinuxSLL || r.LinkType == capfile.LinkTypeLinuxSLL2 {
		b = r.appendSLLJSON(b)
	}
	if r.eth != nil {
		b = r.appendNetJSON(b)
	} else if r.Kind == KindInfiniBand || r.Kind == KindNotRoCE {
		if r.HasIPoIB { // the packet IPoIB carries, as tshark decodes it
			b = r.appendL3JSON(b)
		}
		b = r.appendLRHJSON(b)
	}
	switch r.Kind {
	case KindRoCE, KindInfiniBand:
		b = r.appendIBJSON(b)
	case KindMACControl:
		b = r.appendMACCJSON(b)
	}
	if r.HasIPoIB {
		b = r.appendRowsJSON(b, ipoibFields())
	}
	if r.HasDCBX && r.Kind == KindNotRoCE {
		b = r.appendRowsJSON(b, dcbxFields())
	}
	b = r.appendULPJSON(b)
	if r.Kind == KindMalformed {
		b = append(b, kError.json...)
		b = appendJSONString(b, r.Err.Error())
	}
	return append(b, "}\n"...)
}

// appendUnsupported appends "ERF record type N not supported yet" or
// "link type N (NAME) not supported yet".
func appendUnsupported(b []byte, r *Record) []byte {
	if r.LinkType == capfile.LinkTypeERF {
		b = append(b, "ERF record type "...)
		b = strconv.AppendUint(b, uint64(r.ERFType), 10)
	} else {
		b = appendLinkType(b, r)
	}
	return append(b, " not supported yet"...)
}

// appendEpoch appends the capture time as seconds with nine decimals.
func appendEpoch(b []byte, r *Record) []byte {
	return appendEpochOf(b, r.Time.Unix(), r.Time.Nanosecond())
}

// appendEpochOf appends sec seconds and ns nanoseconds since 1970 as
// seconds with nine decimals.
func appendEpochOf(b []byte, sec int64, ns int) []byte {
	if sec < 0 && ns > 0 { // a time before 1970: -0.5 is -1 s + 0.5e9 ns
		sec++
		ns = 1e9 - ns
		if sec == 0 {
			b = append(b, '-')
		}
	}
	b = strconv.AppendInt(b, sec, 10)
	b = append(b, '.')
	return appendPadded(b, uint64(ns), 9)
}

// appendPadded appends v in decimal, zero-padded to width digits.
func appendPadded(b []byte, v uint64, width int) []byte {
	n := 1
	for t := v / 10; t > 0; t /= 10 {
		n++
	}
	n = max(n, width)
	l := len(b)
	b = slices.Grow(b, n)[:l+n]
	putDec(b[l:], v)
	return b
}

func (r *Record) appendNetJSON(b []byte) []byte {
	n := &r.net
	if len(r.eth) < hdr.EthernetLen {
		return b
	}
	if r.LinkType == capfile.LinkTypeEthernet || r.LinkType == capfile.LinkTypeERF { // not a header rebuilt from a cooked or raw IP capture
		e := hdr.Ethernet(r.eth)
		dst, src := e.Dst(), e.Src()
		b = jMAC(b, &kEthDst, dst[:])
		b = jMAC(b, &kEthSrc, src[:])
		b = jUint(b, &kEthType, uint64(n.etherType))
	}
	var seen [2]int // tags of each family so far (tagPrefixes)
	for _, v := range n.vlans[:n.tags] {
		f := tagFamily(v.TPID)

		k := &kTag[f][seen[f]]
		seen[f]++
		b = jUint(b, &k[0], uint64(v.PCP))
		b = jBool(b, &k[1], v.DEI)
		b = jUint(b, &k[2], uint64(v.ID))
	}
	return r.appendL3JSON(b)
}

// appendL3JSON appends the keys of what follows the link layer: the IP
// header and the UDP or TCP ports, or the ARP packet.
func (r *Record) appendL3JSON(b []byte) []byte {
	n := &r.net
	switch n.ipVer {
	case 4:
		b = jAddr(b, &kIpSrc, netip.AddrFrom4([4]byte(n.src[:4])))
		b = jAddr(b, &kIpDst, netip.AddrFrom4([4]byte(n.dst[:4])))
		b = jUint(b, &kIpDsfieldDscp, uint64(n.tclass>>2))
		b = jUint(b, &kIpDsfieldEcn, uint64(n.tclass&3))
		b = jUint(b, &kIpTtl, uint64(n.ttl))
		b = jUint(b, &kIpId, uint64(n.ipID))
		b = jUint(b, &kIpProto, uint64(n.proto))
	case 6:
		b = jAddr(b, &kIpv6Src, netip.AddrFrom16(n.src))
		b = jAddr(b, &kIpv6Dst, netip.AddrFrom16(n.dst))
		b = jUint(b, &kIpv6TclassDscp, uint64(n.tclass>>2))
		b = jUint(b, &kIpv6TclassEcn, uint64(n.tclass&3))
		b = jUint(b, &kIpv6Flow, uint64(n.flow))
		b = jUint(b, &kIpv6Hlim, uint64(n.ttl))
		b = jUint(b, &kIpv6Nxt, uint64(n.proto))
	}
	switch n.l4 {
	case 17:
		b = jUint(b, &kUdpSrcport, uint64(n.sport))
		b = jUint(b, &kUdpDstport, uint64(n.dport))
	case 6:
		b = jUint(b, &kTcpSrcport, uint64(n.sport))
		b = jUint(b, &kTcpDstport, uint64(n.dport))
	}
	if r.arp() != nil {
		b = r.appendRowsJSON(b, arpFields())
	}
	return b
}

func (r *Record) appendIBJSON(b []byte) []byte {
	f := &r.RoCE
	if r.Kind == KindRoCE && f.Encap == ib.RoCEv1 || r.Kind == KindInfiniBand && r.HasGRH {
		g := &f.GRH
		b = jUint(b, &kGrhIpver, uint64(g.IPVer))
		b = jUint(b, &kGrhTclass, uint64(g.TClass))
		b = jUint(b, &kGrhFlowlabel, uint64(g.FlowLabel))
		b = jUint(b, &kGrhPaylen, uint64(g.PayLen))
		b = jUint(b, &kGrhNxthdr, uint64(g.NxtHdr))
		b = jUint(b, &kGrhHoplmt, uint64(g.HopLmt))
		b = jAddr(b, &kGrhSgid, g.SrcGID())
		b = jAddr(b, &kGrhDgid, g.DstGID())
	}
	p := &f.Packet
	h := &p.BTH
	b = jUint(b, &kBthOpcode, uint64(h.OpCode))
	b = jBool(b, &kBthSe, h.SE)
	b = jBool(b, &kBthM, h.MigReq)
	b = jUint(b, &kBthPadcnt, uint64(h.PadCnt))
	b = jUint(b, &kBthTver, uint64(h.TVer))
	b = jUint(b, &kBthPKey, uint64(h.PKey))
	b = jBool(b, &kBthFecn, h.FECN)
	b = jBool(b, &kBthBecn, h.BECN)
	b = jUint(b, &kBthDestqp, uint64(h.DestQP))
	b = jBool(b, &kBthA, h.AckReq)
	b = jUint(b, &kBthPsn, uint64(h.PSN))
	hs := p.Headers()
	for i := 0; i < hs.Len(); i++ {
		if eh := hs.At(i); h.Truncated && p.Captured(eh) < eh.Len() {
			b = r.appendRowsJSON(b, ethRows()[eh]) // cut by the capture: the fields it kept
		} else {
			b = ethJSON[eh](b, p)
		}
	}
	b = jUint(b, &kPayloadLen, uint64(r.payloadLen()))
	status := icrcStatus[b2u(r.ICRCGood)]
	if r.ICRCUnchecked { // the ICRC bytes were not captured: no crc key
		status = icrcStatus[2]
	} else {
		c := h.ICRC
		b = jUint(b, &kInvariantCrc, uint64(c[0])<<24|uint64(c[1])<<16|uint64(c[2])<<8|uint64(c[3]))
	}
	b = append(b, kInvariantCrcStatus.json...)
	b = append(b, '"')
	b = append(b, status...)
	b = append(b, '"')
	if r.Kind == KindInfiniBand && len(r.RoCE.Raw)+2 <= r.capLen {
		b = jUint(b, &kVariantCrc, uint64(r.LRH.VCRC))
	}
	if r.CNPErr != nil {
		b = append(b, kCnpError.json...)
		b = appendJSONString(b, r.CNPErr.Error())
	}
	if r.madj.ok {
		b = r.appendRowsJSON(b, madFields())
	}
	return b
}

// ethJSON appends the keys of one extended transport header of p, by
// header; TestHeaderTables checks that every header has its entry.
var ethJSON = [...]func(b []byte, p *ib.Packet) []byte{
	ib.NoHeader: func(b []byte, _ *ib.Packet) []byte { return b },
	ib.HeaderRDETH: func(b []byte, p *ib.Packet) []byte {
		return jUint(b, &kRdethEecnxt, uint64(p.RDETH.EECnxt))
	},
	ib.HeaderDETH: func(b []byte, p *ib.Packet) []byte {
		b = jUint(b, &kDethQKey, uint64(p.DETH.QKey))
		return jUint(b, &kDethSrcqp, uint64(p.DETH.SrcQP))
	},
	ib.HeaderXRCETH: func(b []byte, p *ib.Packet) []byte {
		return jUint(b, &kXrcethXrcsrq, uint64(p.XRCETH.XRCSRQ))
	},
	ib.HeaderRETH: func(b []byte, p *ib.Packet) []byte {
		b = jHex64(b, &kRethVa, p.RETH.VA)
		b = jUint(b, &kRethRKey, uint64(p.RETH.RKey))
		return jUint(b, &kRethDmalen, uint64(p.RETH.DMALen))
	},
	ib.HeaderAtomicETH: func(b []byte, p *ib.Packet) []byte {
		b = jHex64(b, &kAtomicethVa, p.AtomicETH.VA)
		b = jUint(b, &kAtomicethRKey, uint64(p.AtomicETH.RKey))
		b = jDec64(b, &kAtomicethSwapdt, p.AtomicETH.SwapData)
		return jDec64(b, &kAtomicethCmpdt, p.AtomicETH.CompareData)
	},
	ib.HeaderAtomicAckETH: func(b []byte, p *ib.Packet) []byte {
		return jDec64(b, &kAtomicackethOrigremdt, p.AtomicAckETH.OrigRemData)
	},
	ib.HeaderAETH: func(b []byte, p *ib.Packet) []byte {
		b = jUint(b, &kAethSyndrome, uint64(p.AETH.Syndrome))
		return jUint(b, &kAethMsn, uint64(p.AETH.MSN))
	},
	ib.HeaderImmDt: func(b []byte, p *ib.Packet) []byte {
		return jHex32(b, &kImmdt, p.ImmDt.Data)
	},
	ib.HeaderIETH: func(b []byte, p *ib.Packet) []byte {
		return jHex32(b, &kIeth, p.IETH.RKey)
	},
	ib.HeaderFETH: func(b []byte, p *ib.Packet) []byte {
		b = jUint(b, &kFethSel, uint64(p.FETH.SEL))
		return jUint(b, &kFethPlt, uint64(p.FETH.PLT))
	},
}

// appendSLLJSON appends the sll.* keys of a Linux cooked header.
func (r *Record) appendSLLJSON(b []byte) []byte {
	s := &r.SLL
	if s.Version == 0 {
		return b
	}
	if s.Version == 2 {
		b = jUint(b, &kSllEtype, uint64(s.Protocol))
		b = jUint(b, &kSllIfindex, uint64(s.IfIndex))
	}
	b = jUint(b, &kSllHatype, uint64(s.HAType))
	b = jUint(b, &kSllPkttype, uint64(s.PktType))
	b = jUint(b, &kSllHalen, uint64(s.HALen))
	if s.HALen == 6 {
		b = jMAC(b, &kSllSrcEth, s.Addr[:6])
	}
	if s.Version == 1 {
		b = jUint(b, &kSllEtype, uint64(s.Protocol))
	}
	return b
}

// appendLRHJSON appends the infiniband.lrh.* keys of a native packet.
func (r *Record) appendLRHJSON(b []byte) []byte {
	l := &r.LRH
	b = jUint(b, &kLrhVl, uint64(l.VL))
	b = jUint(b, &kLrhLver, uint64(l.LVer))
	b = jUint(b, &kLrhSl, uint64(l.SL))
	b = jUint(b, &kLrhLnh, uint64(l.LNH))
	b = jUint(b, &kLrhDlid, uint64(l.DLID))
	b = jUint(b, &kLrhPktlen, uint64(l.PktLen))
	return jUint(b, &kLrhSlid, uint64(l.SLID))
}

// The JSON writers of one key: each appends the key of row k (k.json)
// and the value.

// jUint appends ,"key":v.
func jUint(b []byte, k *key, v uint64) []byte {
	b = append(b, k.json...)
	return strconv.AppendUint(b, v, 10)
}

// jDec64 appends ,"key":"v": a 64-bit value as a string of its decimal
// digits, as tshark -T json writes its BASE_DEC 64-bit fields. A JSON
// number above 2^53 loses its low digits in JavaScript and jq.
func jDec64(b []byte, k *key, v uint64) []byte {
	b = append(b, k.json...)
	b = append(b, '"')
	b = strconv.AppendUint(b, v, 10)
	return append(b, '"')
}

// jHex64 appends ,"key":"0x0123456789abcdef": a 64-bit value as a string
// of 16 lowercase hex digits, as tshark -T json writes its BASE_HEX
// 64-bit fields (infiniband.reth.va).
func jHex64(b []byte, k *key, v uint64) []byte {
	b = append(b, k.json...)
	b = append(b, '"', '0', 'x')
	b = appendHex32(b, uint32(v>>32))
	b = appendHex32(b, uint32(v))
	return append(b, '"')
}

// jHex32 appends ,"key":"01234567": four bytes as eight lowercase hex
// digits.
func jHex32(b []byte, k *key, v uint32) []byte {
	b = append(b, k.json...)
	b = append(b, '"')
	b = appendHex32(b, v)
	return append(b, '"')
}

// jBool appends ,"key":true or false.
func jBool(b []byte, k *key, v bool) []byte {
	b = append(b, k.json...)
	return strconv.AppendBool(b, v)
}

// jMAC appends ,"key":"aa:bb:cc:dd:ee:ff".
func jMAC(b []byte, k *key, m []byte) []byte {
	b = append(b, k.json...)
	b = append(b, '"')
	b = appendMAC(b, m)
	return append(b, '"')
}

// jAddr appends ,"key":"ADDRESS".
func jAddr(b []byte, k *key, a netip.Addr) []byte {
	b = append(b, k.json...)
	b = append(b, '"')
	b = a.AppendTo(b)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendHex32 appends v as eight lowercase hex digits.
func appendHex32(b []byte, v uint32) []byte {
	return append(b, hexDigits[v>>28], hexDigits[v>>24&0xf], hexDigits[v>>20&0xf], hexDigits[v>>16&0xf],
		hexDigits[v>>12&0xf], hexDigits[v>>8&0xf], hexDigits[v>>4&0xf], hexDigits[v&0xf])
}

// appendMAC appends a MAC address as aa:bb:cc:dd:ee:ff.
func appendMAC(b []byte, m []byte) []byte {
	for i, c := range m {
		if i > 0 {
			b = append(b, ':')
		}
		b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return b
}

// appendJSONString appends s as a quoted JSON string.
func appendJSONString(b []byte, s string) []byte { return appendJSONText(b, s) }

// appendLinkType appends "link type N (NAME)".
func appendLinkType(b []byte, r *Record) []byte {
	b = append(b, "link type "...)
	b = strconv.AppendUint(b, uint64(r.LinkType), 10)
	if name, ok := capfile.LinkTypeName(r.LinkType); ok {
		b = append(b, " ("...)
		b = append(b, name...)
		b = append(b, ')')
	}
	return b
}
