package dump

import (
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/pfc"
)

// fieldTable is the one list of the fields rocedump decodes: every JSON
// key (AppendJSON writes them; TestFieldTableIsJSON checks that the two
// agree on every frame of every test capture) and every field display
// filters compare. To add a field, add its row here, in JSON key order,
// write its key in AppendJSON, and list it in the package documentation.
var fieldTable = cat([]Field{
	numeric("frame.number", FieldUint, 32, false, func(r *Record) (uint64, bool) { return uint64(r.Number), true }),
	{Name: "frame.time_epoch", Type: FieldTime, Get: func(r *Record) (Value, bool) {
		if r.Time.IsZero() {
			return none()
		}
		return Value{Sec: r.Time.Unix(), U: uint64(r.Time.Nanosecond())}, true
	}},
	numeric("frame.len", FieldUint, 32, false, func(r *Record) (uint64, bool) { return uint64(r.Len), true }),
	numeric("frame.cap_len", FieldUint, 32, false, func(r *Record) (uint64, bool) { return uint64(r.capLen), true }),
	{Name: "erf.types.type", Type: FieldUint, Bits: 8, Get: func(r *Record) (Value, bool) {
		if r.LinkType != LinkTypeERF {
			return none()
		}
		return u(uint64(r.ERFType))
	}},
	fSLL("sll.etype", 16, true, func(s *SLL) (uint64, bool) { return uint64(s.Protocol), true }),
	fSLL("sll.ifindex", 32, false, func(s *SLL) (uint64, bool) { return uint64(s.IfIndex), s.Version == 2 }),
	fSLL("sll.hatype", 16, false, func(s *SLL) (uint64, bool) { return uint64(s.HAType), true }),
	fSLL("sll.pkttype", 16, false, func(s *SLL) (uint64, bool) { return uint64(s.PktType), true }),
	fSLL("sll.halen", 16, false, func(s *SLL) (uint64, bool) { return uint64(s.HALen), true }),
	{Name: "sll.src.eth", Type: FieldMAC, Get: func(r *Record) (Value, bool) {
		if s := r.sll(); s != nil && s.HALen == 6 {
			return mac([6]byte(s.Addr[:6]))
		}
		return none()
	}},
	fMAC("eth.dst", "eth.addr", hdr.Ethernet.Dst),
	fMAC("eth.src", "eth.addr", hdr.Ethernet.Src),
	numeric("eth.type", FieldUint, 16, true, func(r *Record) (uint64, bool) {
		if r.ethHdr() == nil {
			return 0, false
		}
		return uint64(r.net.etherType), true
	}),
}, tagFields(), []Field{
	fAddr("ip.src", "ip.addr", 4, FieldIPv4, true),
	fAddr("ip.dst", "ip.addr", 4, FieldIPv4, false),
	fIPv4("ip.dsfield.dscp", 6, func(n *netInfo) uint64 { return uint64(n.tclass >> 2) }),
	fIPv4("ip.dsfield.ecn", 2, func(n *netInfo) uint64 { return uint64(n.tclass & 3) }),
	fIPv4("ip.ttl", 8, func(n *netInfo) uint64 { return uint64(n.ttl) }),
	fIPv4("ip.id", 16, func(n *netInfo) uint64 { return uint64(n.ipID) }),
	fIPv4("ip.proto", 8, func(n *netInfo) uint64 { return uint64(n.proto) }),
	fAddr("ipv6.src", "ipv6.addr", 6, FieldIPv6, true),
	fAddr("ipv6.dst", "ipv6.addr", 6, FieldIPv6, false),
	fIPv6("ipv6.tclass.dscp", 6, false, func(n *netInfo) uint64 { return uint64(n.tclass >> 2) }),
	fIPv6("ipv6.tclass.ecn", 2, false, func(n *netInfo) uint64 { return uint64(n.tclass & 3) }),
	fIPv6("ipv6.flow", 20, true, func(n *netInfo) uint64 { return uint64(n.flow) }),
	fIPv6("ipv6.hlim", 8, false, func(n *netInfo) uint64 { return uint64(n.ttl) }),
	fIPv6("ipv6.nxt", 8, false, func(n *netInfo) uint64 { return uint64(n.proto) }),
	fPort("udp.srcport", "udp.port", 17, true),
	fPort("udp.dstport", "udp.port", 17, false),
	fPort("tcp.srcport", "tcp.port", 6, true),
	fPort("tcp.dstport", "tcp.port", 6, false),
}, arpFields, []Field{
	fGRH("infiniband.grh.ipver", 4, func(g *ib.GRH) uint64 { return uint64(g.IPVer) }),
	fGRH("infiniband.grh.tclass", 8, func(g *ib.GRH) uint64 { return uint64(g.TClass) }),
	fGRH("infiniband.grh.flowlabel", 20, func(g *ib.GRH) uint64 { return uint64(g.FlowLabel) }),
	fGRH("infiniband.grh.paylen", 16, func(g *ib.GRH) uint64 { return uint64(g.PayLen) }),
	fGRH("infiniband.grh.nxthdr", 8, func(g *ib.GRH) uint64 { return uint64(g.NxtHdr) }),
	fGRH("infiniband.grh.hoplmt", 8, func(g *ib.GRH) uint64 { return uint64(g.HopLmt) }),
	{Name: "infiniband.grh.sgid", Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
		if g := r.grh(); g != nil {
			return addr(g.SGID)
		}
		return none()
	}},
	{Name: "infiniband.grh.dgid", Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
		if g := r.grh(); g != nil {
			return addr(g.DGID)
		}
		return none()
	}},
	meaning(fMACC("macc.opcode", 0, 16, true, func(m *pfc.MACControl) uint64 { return uint64(m.Opcode) }),
		func(v uint64) string { return pfc.Opcode(v).String() }),
	fMACC("macc.pause_time", pfc.OpcodePause, 16, false, func(m *pfc.MACControl) uint64 { return uint64(m.PauseTime) }),
	fMACC("macc.cbfc.enbv", pfc.OpcodePFC, 16, true, func(m *pfc.MACControl) uint64 { return uint64(m.PriorityEnableVector) }),
}, pfcFields(), []Field{
	fLRH("infiniband.lrh.vl", 4, func(l *ib.LRH) uint64 { return uint64(l.VL) }),
	fLRH("infiniband.lrh.lver", 4, func(l *ib.LRH) uint64 { return uint64(l.LVer) }),
	fLRH("infiniband.lrh.sl", 4, func(l *ib.LRH) uint64 { return uint64(l.SL) }),
	fLRH("infiniband.lrh.lnh", 2, func(l *ib.LRH) uint64 { return uint64(l.LNH) }),
	fLRH("infiniband.lrh.dlid", 16, func(l *ib.LRH) uint64 { return uint64(l.DLID) }),
	fLRH("infiniband.lrh.pktlen", 11, func(l *ib.LRH) uint64 { return uint64(l.PktLen) }),
	fLRH("infiniband.lrh.slid", 16, func(l *ib.LRH) uint64 { return uint64(l.SLID) }),
	meaning(fBTH("infiniband.bth.opcode", 8, false, func(h *ib.BTH) uint64 { return uint64(h.OpCode) }),
		func(v uint64) string { return ib.Opcode(v).String() }),
	fBTHFlag("infiniband.bth.se", func(h *ib.BTH) bool { return h.SE }),
	fBTHFlag("infiniband.bth.m", func(h *ib.BTH) bool { return h.MigReq }),
	fBTH("infiniband.bth.padcnt", 2, false, func(h *ib.BTH) uint64 { return uint64(h.PadCnt) }),
	fBTH("infiniband.bth.tver", 4, false, func(h *ib.BTH) uint64 { return uint64(h.TVer) }),
	fBTH("infiniband.bth.p_key", 16, true, func(h *ib.BTH) uint64 { return uint64(h.PKey) }),
	fBTHFlag("infiniband.bth.fecn", func(h *ib.BTH) bool { return h.FECN }),
	fBTHFlag("infiniband.bth.becn", func(h *ib.BTH) bool { return h.BECN }),
	fBTH("infiniband.bth.destqp", 24, true, func(h *ib.BTH) uint64 { return uint64(h.DestQP) }),
	fBTHFlag("infiniband.bth.a", func(h *ib.BTH) bool { return h.AckReq }),
	fBTH("infiniband.bth.psn", 24, false, func(h *ib.BTH) uint64 { return uint64(h.PSN) }),
	fETH("infiniband.rdeth.eecnxt", ib.HeaderRDETH, 4, FieldUint, 24, false, func(p *ib.Packet) uint64 { return uint64(p.RDETH.EECnxt) }),
	fETH("infiniband.deth.q_key", ib.HeaderDETH, 4, FieldUint, 32, true, func(p *ib.Packet) uint64 { return uint64(p.DETH.QKey) }),
	fETH("infiniband.deth.srcqp", ib.HeaderDETH, 8, FieldUint, 24, true, func(p *ib.Packet) uint64 { return uint64(p.DETH.SrcQP) }),
	fETH("infiniband.xrceth.xrcsrq", ib.HeaderXRCETH, 4, FieldUint, 24, true, func(p *ib.Packet) uint64 { return uint64(p.XRCETH.XRCSRQ) }),
	fETH("infiniband.reth.va", ib.HeaderRETH, 8, FieldHex64, 64, true, func(p *ib.Packet) uint64 { return p.RETH.VA }),
	fETH("infiniband.reth.r_key", ib.HeaderRETH, 12, FieldUint, 32, true, func(p *ib.Packet) uint64 { return uint64(p.RETH.RKey) }),
	fETH("infiniband.reth.dmalen", ib.HeaderRETH, 16, FieldUint, 32, false, func(p *ib.Packet) uint64 { return uint64(p.RETH.DMALen) }),
	fETH("infiniband.feth.sel", ib.HeaderFETH, 4, FieldUint, 4, false, func(p *ib.Packet) uint64 { return uint64(p.FETH.SEL) }),
	fETH("infiniband.feth.plt", ib.HeaderFETH, 4, FieldUint, 4, false, func(p *ib.Packet) uint64 { return uint64(p.FETH.PLT) }),
	also(fETH("infiniband.atomiceth.va", ib.HeaderAtomicETH, 8, FieldHex64, 64, true, func(p *ib.Packet) uint64 { return p.AtomicETH.VA }), "infiniband.reth.va"),
	also(fETH("infiniband.atomiceth.r_key", ib.HeaderAtomicETH, 12, FieldUint, 32, true, func(p *ib.Packet) uint64 { return uint64(p.AtomicETH.RKey) }), "infiniband.reth.r_key"),
	fETH("infiniband.atomiceth.swapdt", ib.HeaderAtomicETH, 20, FieldDec64, 64, false, func(p *ib.Packet) uint64 { return p.AtomicETH.SwapData }),
	fETH("infiniband.atomiceth.cmpdt", ib.HeaderAtomicETH, 28, FieldDec64, 64, false, func(p *ib.Packet) uint64 { return p.AtomicETH.CompareData }),
	fETH("infiniband.aeth.syndrome", ib.HeaderAETH, 1, FieldUint, 8, false, func(p *ib.Packet) uint64 { return uint64(p.AETH.Syndrome) }),
	fETH("infiniband.aeth.msn", ib.HeaderAETH, 4, FieldUint, 24, false, func(p *ib.Packet) uint64 { return uint64(p.AETH.MSN) }),
	fETH("infiniband.atomicacketh.origremdt", ib.HeaderAtomicAckETH, 8, FieldDec64, 64, false, func(p *ib.Packet) uint64 { return p.AtomicAckETH.OrigRemData }),
	fETH("infiniband.immdt", ib.HeaderImmDt, 4, FieldBytes, 0, false, func(p *ib.Packet) uint64 { return uint64(p.ImmDt.Data) }),
	fETH("infiniband.ieth", ib.HeaderIETH, 4, FieldBytes, 0, false, func(p *ib.Packet) uint64 { return uint64(p.IETH.RKey) }),
	numeric("infiniband.payload.len", FieldUint, 32, false, func(r *Record) (uint64, bool) {
		if !r.isIB() {
			return 0, false
		}
		return uint64(r.payloadLen()), true
	}),
	numeric("infiniband.invariant.crc", FieldUint, 32, true, func(r *Record) (uint64, bool) {
		if !r.isIB() || r.ICRCUnchecked {
			return 0, false
		}
		c := r.RoCE.Packet.BTH.ICRC
		return uint64(c[0])<<24 | uint64(c[1])<<16 | uint64(c[2])<<8 | uint64(c[3]), true
	}),
	{Name: "infiniband.invariant.crc.status", Type: FieldString, Get: func(r *Record) (Value, bool) {
		switch {
		case !r.isIB():
			return none()
		case r.ICRCUnchecked:
			return str("unchecked")
		case r.ICRCGood:
			return str("good")
		}
		return str("bad")
	}},
	numeric("infiniband.variant.crc", FieldUint, 16, true, func(r *Record) (uint64, bool) {
		if r.Kind != KindInfiniBand || len(r.RoCE.Raw)+2 > r.capLen {
			return 0, false
		}
		return uint64(r.LRH.VCRC), true
	}),
	{Name: "_cnp_error", Type: FieldString, Get: func(r *Record) (Value, bool) {
		if !r.isIB() || r.CNPErr == nil {
			return none()
		}
		return str(r.CNPErr.Error())
	}},
}, madFields, ipoibFields, dcbxFields, []Field{
	{Name: "_error", Type: FieldString, Get: func(r *Record) (Value, bool) {
		switch r.Kind {
		case KindMalformed:
			return str(r.Err.Error())
		case KindUnsupported:
			return str(string(appendUnsupported(nil, r)))
		}
		return none()
	}},
})

// extHeader is the protocol of an extended transport header: a frame
// has it when its packet has the header (protocolHeader records which).
func extHeader(name string, h ib.Header) Protocol {
	protocolHeader[name] = h
	return Protocol{Name: name, Present: func(r *Record) bool { return r.packet(h) != nil }}
}

// protocolHeader holds the header of each extHeader protocol, so that
// Cells.Fill tests the headers of a packet at once.
var protocolHeader = map[string]ib.Header{}

func meaning(f Field, m func(uint64) string) Field {
	f.Meaning = m
	return f
}

func also(f Field, name string) Field {
	f.Also = name
	return f
}

// protocolTable lists the protocol names display filters test for
// presence, in the order verbose text prints their lines. Wireshark's
// names; the extended headers are subtrees of infiniband, as in
// Wireshark. A field's protocol is the longest of these names that
// begins its name (FieldProtocol).
var protocolTable = []Protocol{
	{"frame", func(r *Record) bool { return true }},
	{"erf", func(r *Record) bool { return r.LinkType == LinkTypeERF }},
	{"sll", func(r *Record) bool { return r.sll() != nil }},
	{"eth", func(r *Record) bool { return r.ethHdr() != nil }},
	{"ieee8021ad", func(r *Record) bool { return r.tag("ieee8021ad.") != nil }},
	{"vlan", func(r *Record) bool { return r.tag("vlan.") != nil }},
	{"ip", func(r *Record) bool { return r.ip(4) != nil }},
	{"ipv6", func(r *Record) bool { return r.ip(6) != nil }},
	{"udp", func(r *Record) bool { return r.l4(17) != nil }},
	{"tcp", func(r *Record) bool { return r.l4(6) != nil }},
	{"arp", func(r *Record) bool { return r.arp() != nil }},
	{"macc", func(r *Record) bool { return r.macc(0) != nil }},
	{"infiniband.lrh", func(r *Record) bool { return r.lrh() != nil }},
	{"infiniband.grh", func(r *Record) bool { return r.grh() != nil }},
	{"infiniband.bth", func(r *Record) bool { return r.bth() != nil }},
	extHeader("infiniband.rdeth", ib.HeaderRDETH),
	extHeader("infiniband.deth", ib.HeaderDETH),
	extHeader("infiniband.xrceth", ib.HeaderXRCETH),
	extHeader("infiniband.reth", ib.HeaderRETH),
	extHeader("infiniband.feth", ib.HeaderFETH),
	extHeader("infiniband.atomiceth", ib.HeaderAtomicETH),
	extHeader("infiniband.aeth", ib.HeaderAETH),
	extHeader("infiniband.atomicacketh", ib.HeaderAtomicAckETH),
	madProtocols[0], madProtocols[1], madProtocols[2], madProtocols[3],
	{"ipoib", func(r *Record) bool { return r.HasIPoIB }},
	{"lldp", func(r *Record) bool { return r.lldp() }},
	// Last, so that verbose text puts the packet's own fields (ImmDt,
	// IETH, payload, ICRC) after its headers.
	{"infiniband", func(r *Record) bool { return r.isIB() || r.lrh() != nil }},
}
