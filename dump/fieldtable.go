package dump

import (
	"sync"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/pfc"
)

// fieldTable is the field registry: the one list of the fields rocedump
// decodes, and the only place a field is named. Every JSON key, every
// field display filters compare, every Parquet column, every -v field
// and every line of docs/keys.md comes from its rows. To add a field,
// add its row here (or in the file of its protocol's rows), in JSON key
// order, with its description (doc); AppendJSON writes the rows of the
// MAD, IPoIB, DCBX and ARP protocols as they are, and names the others'
// by the index variables their rows set (at): a new one of those needs
// a line there too. TestFieldTableIsJSON checks that AppendJSON and the
// table agree on every frame of every test capture. The table is built
// the first time it is asked for, not when the program starts: text lines
// never ask (TestTextLeavesTableUnbuilt), and its thousands of rows cost
// a run of rocedump in text mode more than a small capture does.
var fieldTable = sync.OnceValue(func() []Field {
	return indexTable(cat([]Field{
		numeric("frame.number", FieldUint, 32, false, func(r *Record) (uint64, bool) { return uint64(r.Number), true }).at(&kFrameNumber).doc("position in the capture, from 1"),
		Field{Name: "frame.time_epoch", Type: FieldTime, Get: func(r *Record) (Value, bool) {
			if r.Time.IsZero() {
				return none()
			}
			return Value{Sec: r.Time.Unix(), U: uint64(r.Time.Nanosecond())}, true
		}}.at(&kFrameTimeEpoch).doc("capture time, seconds since 1970 UTC, 9 decimals (absent for a pcapng Simple Packet Block, which has none)"),
		numeric("frame.len", FieldUint, 32, false, func(r *Record) (uint64, bool) { return uint64(r.Len), true }).at(&kFrameLen).doc("length of the frame on the wire"),
		numeric("frame.cap_len", FieldUint, 32, false, func(r *Record) (uint64, bool) { return uint64(r.capLen), true }).at(&kFrameCapLen).doc("bytes captured"),
		Field{Name: "erf.types.type", Type: FieldUint, Bits: 8, Get: func(r *Record) (Value, bool) {
			if r.LinkType != capfile.LinkTypeERF {
				return none()
			}
			return u(uint64(r.ERFType))
		}}.at(&kErfTypesType).doc("ERF record type (21 InfiniBand), ERF captures only"),
		fSLL("sll.etype", 16, true, func(s *SLL) (uint64, bool) { return uint64(s.Protocol), true }).at(&kSllEtype).doc("SLL, SLL2: protocol (Ethertype); first of the sll keys in SLL2, last in SLL"),
		fSLL("sll.ifindex", 32, false, func(s *SLL) (uint64, bool) { return uint64(s.IfIndex), s.Version == 2 }).at(&kSllIfindex).doc("SLL2: interface index"),
		fSLL("sll.hatype", 16, false, func(s *SLL) (uint64, bool) { return uint64(s.HAType), true }).at(&kSllHatype).doc("SLL, SLL2: ARPHRD_ type (1 Ethernet)"),
		fSLL("sll.pkttype", 16, false, func(s *SLL) (uint64, bool) { return uint64(s.PktType), true }).at(&kSllPkttype).doc("SLL, SLL2: packet type (0 to us ... 4 sent by us)"),
		fSLL("sll.halen", 16, false, func(s *SLL) (uint64, bool) { return uint64(s.HALen), true }).at(&kSllHalen).doc("SLL, SLL2: link-layer address length"),
		Field{Name: "sll.src.eth", Type: FieldMAC, Get: func(r *Record) (Value, bool) {
			if s := r.sll(); s != nil && s.HALen == 6 {
				return mac([6]byte(s.Addr[:6]))
			}
			return none()
		}}.at(&kSllSrcEth).doc("SLL, SLL2: source MAC, when the address is 6 bytes"),
		fMAC("eth.dst", "eth.addr", hdr.Ethernet.Dst).at(&kEthDst).doc("destination MAC, aa:bb:cc:dd:ee:ff (absent for cooked and raw IP link types)"),
		fMAC("eth.src", "eth.addr", hdr.Ethernet.Src).at(&kEthSrc).doc("source MAC"),
		numeric("eth.type", FieldUint, 16, true, func(r *Record) (uint64, bool) {
			if r.ethHdr() == nil {
				return 0, false
			}
			return uint64(r.net.etherType), true
		}).at(&kEthType).doc("the Ethertype after the MACs (0x8100 when tagged)"),
	}, tagFields(), []Field{
		fAddr("ip.src", "ip.addr", 4, FieldIPv4, true).at(&kIpSrc).doc("IPv4 source address"),
		fAddr("ip.dst", "ip.addr", 4, FieldIPv4, false).at(&kIpDst).doc("IPv4 destination address"),
		fIPv4("ip.dsfield.dscp", 6, func(n *netInfo) uint64 { return uint64(n.tclass >> 2) }).at(&kIpDsfieldDscp).doc("IPv4 DSCP, 0-63"),
		fIPv4("ip.dsfield.ecn", 2, func(n *netInfo) uint64 { return uint64(n.tclass & 3) }).at(&kIpDsfieldEcn).doc("IPv4 ECN, 0-3 (1 ECT(1), 2 ECT(0), 3 CE)"),
		fIPv4("ip.ttl", 8, func(n *netInfo) uint64 { return uint64(n.ttl) }).at(&kIpTtl).doc("IPv4 TTL"),
		fIPv4("ip.id", 16, func(n *netInfo) uint64 { return uint64(n.ipID) }).at(&kIpId).doc("IPv4 identification"),
		fIPv4("ip.proto", 8, func(n *netInfo) uint64 { return uint64(n.proto) }).at(&kIpProto).doc("IPv4 protocol (17 UDP)"),
		fAddr("ipv6.src", "ipv6.addr", 6, FieldIPv6, true).at(&kIpv6Src).doc("IPv6 source address"),
		fAddr("ipv6.dst", "ipv6.addr", 6, FieldIPv6, false).at(&kIpv6Dst).doc("IPv6 destination address"),
		fIPv6("ipv6.tclass.dscp", 6, false, func(n *netInfo) uint64 { return uint64(n.tclass >> 2) }).typeWidth(32).at(&kIpv6TclassDscp).doc("IPv6 DSCP, 0-63"),
		fIPv6("ipv6.tclass.ecn", 2, false, func(n *netInfo) uint64 { return uint64(n.tclass & 3) }).typeWidth(32).at(&kIpv6TclassEcn).doc("IPv6 ECN, 0-3"),
		fIPv6("ipv6.flow", 20, true, func(n *netInfo) uint64 { return uint64(n.flow) }).at(&kIpv6Flow).doc("IPv6 flow label"),
		fIPv6("ipv6.hlim", 8, false, func(n *netInfo) uint64 { return uint64(n.ttl) }).at(&kIpv6Hlim).doc("IPv6 hop limit"),
		fIPv6("ipv6.nxt", 8, false, func(n *netInfo) uint64 { return uint64(n.proto) }).at(&kIpv6Nxt).doc("IPv6 next header (17 UDP)"),
		fPort("udp.srcport", "udp.port", 17, true).at(&kUdpSrcport).doc("UDP source port"),
		fPort("udp.dstport", "udp.port", 17, false).at(&kUdpDstport).doc("UDP destination port (4791 for RoCEv2)"),
		fPort("tcp.srcport", "tcp.port", 6, true).at(&kTcpSrcport).doc("TCP source port (frames that are not RoCE)"),
		fPort("tcp.dstport", "tcp.port", 6, false).at(&kTcpDstport).doc("TCP destination port"),
	}, arpFields(), []Field{
		fGRH("infiniband.grh.ipver", 4, func(g *ib.GRH) uint64 { return uint64(g.IPVer) }).at(&kGrhIpver).doc("RoCEv1 GRH: IP version, 6"),
		fGRH("infiniband.grh.tclass", 8, func(g *ib.GRH) uint64 { return uint64(g.TClass) }).typeWidth(16).at(&kGrhTclass).doc("RoCEv1 GRH: traffic class"),
		fGRH("infiniband.grh.flowlabel", 20, func(g *ib.GRH) uint64 { return uint64(g.FlowLabel) }).typeWidth(32).at(&kGrhFlowlabel).doc("RoCEv1 GRH: flow label"),
		fGRH("infiniband.grh.paylen", 16, func(g *ib.GRH) uint64 { return uint64(g.PayLen) }).at(&kGrhPaylen).doc("RoCEv1 GRH: payload length"),
		fGRH("infiniband.grh.nxthdr", 8, func(g *ib.GRH) uint64 { return uint64(g.NxtHdr) }).at(&kGrhNxthdr).doc("RoCEv1 GRH: next header, 27 (BTH)"),
		fGRH("infiniband.grh.hoplmt", 8, func(g *ib.GRH) uint64 { return uint64(g.HopLmt) }).at(&kGrhHoplmt).doc("RoCEv1 GRH: hop limit"),
		Field{Name: "infiniband.grh.sgid", Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
			if g := r.grh(); g != nil {
				return addr(g.SGID)
			}
			return none()
		}}.at(&kGrhSgid).doc("RoCEv1 GRH: source GID, as an IPv6 address"),
		Field{Name: "infiniband.grh.dgid", Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
			if g := r.grh(); g != nil {
				return addr(g.DGID)
			}
			return none()
		}}.at(&kGrhDgid).doc("RoCEv1 GRH: destination GID"),
		meaning(fMACC("macc.opcode", 0, 16, true, func(m *pfc.MACControl) uint64 { return uint64(m.Opcode) }),
			func(v uint64) string { return pfc.Opcode(v).String() }).at(&kMaccOpcode).doc("MAC Control opcode (1 PAUSE, 0x101 PFC)"),
		fMACC("macc.pause_time", pfc.OpcodePause, 16, false, func(m *pfc.MACControl) uint64 { return uint64(m.PauseTime) }).at(&kMaccPauseTime).doc("PAUSE: pause time in quanta"),
		fMACC("macc.cbfc.enbv", pfc.OpcodePFC, 16, true, func(m *pfc.MACControl) uint64 { return uint64(m.PriorityEnableVector) }).at(&kMaccCbfcEnbv).doc("PFC: priority-enable vector, 16 bits"),
	}, pfcFields(), []Field{
		fLRH("infiniband.lrh.vl", 4, func(l *ib.LRH) uint64 { return uint64(l.VL) }).at(&kLrhVl).doc("native IB LRH: virtual lane"),
		fLRH("infiniband.lrh.lver", 4, func(l *ib.LRH) uint64 { return uint64(l.LVer) }).at(&kLrhLver).doc("LRH: link version"),
		fLRH("infiniband.lrh.sl", 4, func(l *ib.LRH) uint64 { return uint64(l.SL) }).at(&kLrhSl).doc("LRH: service level"),
		fLRH("infiniband.lrh.lnh", 2, func(l *ib.LRH) uint64 { return uint64(l.LNH) }).at(&kLrhLnh).doc("LRH: link next header (2 BTH, 3 GRH)"),
		fLRH("infiniband.lrh.dlid", 16, func(l *ib.LRH) uint64 { return uint64(l.DLID) }).at(&kLrhDlid).doc("LRH: destination LID"),
		fLRH("infiniband.lrh.pktlen", 11, func(l *ib.LRH) uint64 { return uint64(l.PktLen) }).at(&kLrhPktlen).doc("LRH: packet length in 4-byte words"),
		fLRH("infiniband.lrh.slid", 16, func(l *ib.LRH) uint64 { return uint64(l.SLID) }).at(&kLrhSlid).doc("LRH: source LID"),
		meaning(fBTH("infiniband.bth.opcode", 8, false, func(h *ib.BTH) uint64 { return uint64(h.OpCode) }),
			func(v uint64) string { return ib.Opcode(v).String() }).at(&kBthOpcode).doc("BTH opcode (10 RC RDMA WRITE Only, 129 CNP, ...)"),
		fBTHFlag("infiniband.bth.se", func(h *ib.BTH) bool { return h.SE }).at(&kBthSe).doc("solicited event"),
		fBTHFlag("infiniband.bth.m", func(h *ib.BTH) bool { return h.MigReq }).at(&kBthM).doc("migration state (MigReq)"),
		fBTH("infiniband.bth.padcnt", 2, false, func(h *ib.BTH) uint64 { return uint64(h.PadCnt) }).at(&kBthPadcnt).doc("pad bytes, 0-3"),
		fBTH("infiniband.bth.tver", 4, false, func(h *ib.BTH) uint64 { return uint64(h.TVer) }).at(&kBthTver).doc("transport header version"),
		fBTH("infiniband.bth.p_key", 16, true, func(h *ib.BTH) uint64 { return uint64(h.PKey) }).at(&kBthPKey).doc("partition key"),
		fBTHFlag("infiniband.bth.fecn", func(h *ib.BTH) bool { return h.FECN }).at(&kBthFecn).doc("FECN (not a Wireshark field)"),
		fBTHFlag("infiniband.bth.becn", func(h *ib.BTH) bool { return h.BECN }).at(&kBthBecn).doc("BECN (not a Wireshark field)"),
		fBTH("infiniband.bth.destqp", 24, true, func(h *ib.BTH) uint64 { return uint64(h.DestQP) }).at(&kBthDestqp).doc("destination QP"),
		fBTHFlag("infiniband.bth.a", func(h *ib.BTH) bool { return h.AckReq }).at(&kBthA).doc("acknowledge request"),
		fBTH("infiniband.bth.psn", 24, false, func(h *ib.BTH) uint64 { return uint64(h.PSN) }).at(&kBthPsn).doc("packet sequence number"),
		fETH("infiniband.rdeth.eecnxt", ib.HeaderRDETH, 4, FieldUint, 24, false, func(p *ib.Packet) uint64 { return uint64(p.RDETH.EECnxt) }).at(&kRdethEecnxt).doc("RDETH: EE context"),
		fETH("infiniband.deth.q_key", ib.HeaderDETH, 4, FieldUint, 32, true, func(p *ib.Packet) uint64 { return uint64(p.DETH.QKey) }).typeWidth(64).at(&kDethQKey).doc("DETH: Q_Key"),
		fETH("infiniband.deth.srcqp", ib.HeaderDETH, 8, FieldUint, 24, true, func(p *ib.Packet) uint64 { return uint64(p.DETH.SrcQP) }).typeWidth(32).at(&kDethSrcqp).doc("DETH: source QP"),
		fETH("infiniband.xrceth.xrcsrq", ib.HeaderXRCETH, 4, FieldUint, 24, true, func(p *ib.Packet) uint64 { return uint64(p.XRCETH.XRCSRQ) }).at(&kXrcethXrcsrq).doc("XRCETH: XRC SRQ (not a Wireshark field)"),
		fETH("infiniband.reth.va", ib.HeaderRETH, 8, FieldHex64, 64, true, func(p *ib.Packet) uint64 { return p.RETH.VA }).at(&kRethVa).doc("RETH: virtual address, \"0x\" and 16 hex digits"),
		fETH("infiniband.reth.r_key", ib.HeaderRETH, 12, FieldUint, 32, true, func(p *ib.Packet) uint64 { return uint64(p.RETH.RKey) }).at(&kRethRKey).doc("RETH: R_Key"),
		fETH("infiniband.reth.dmalen", ib.HeaderRETH, 16, FieldUint, 32, false, func(p *ib.Packet) uint64 { return uint64(p.RETH.DMALen) }).at(&kRethDmalen).doc("RETH: DMA length"),
		fETH("infiniband.feth.sel", ib.HeaderFETH, 4, FieldUint, 4, false, func(p *ib.Packet) uint64 { return uint64(p.FETH.SEL) }).at(&kFethSel).doc("FETH: selectivity level (not a Wireshark field)"),
		fETH("infiniband.feth.plt", ib.HeaderFETH, 4, FieldUint, 4, false, func(p *ib.Packet) uint64 { return uint64(p.FETH.PLT) }).at(&kFethPlt).doc("FETH: placement type (not a Wireshark field)"),
		also(fETH("infiniband.atomiceth.va", ib.HeaderAtomicETH, 8, FieldHex64, 64, true, func(p *ib.Packet) uint64 { return p.AtomicETH.VA }), "infiniband.reth.va").at(&kAtomicethVa).doc("AtomicETH: virtual address, \"0x\" and 16 hex digits (not a Wireshark field)"),
		also(fETH("infiniband.atomiceth.r_key", ib.HeaderAtomicETH, 12, FieldUint, 32, true, func(p *ib.Packet) uint64 { return uint64(p.AtomicETH.RKey) }), "infiniband.reth.r_key").at(&kAtomicethRKey).doc("AtomicETH: R_Key (not a Wireshark field)"),
		fETH("infiniband.atomiceth.swapdt", ib.HeaderAtomicETH, 20, FieldDec64, 64, false, func(p *ib.Packet) uint64 { return p.AtomicETH.SwapData }).at(&kAtomicethSwapdt).doc("AtomicETH: swap or add data, decimal"),
		fETH("infiniband.atomiceth.cmpdt", ib.HeaderAtomicETH, 28, FieldDec64, 64, false, func(p *ib.Packet) uint64 { return p.AtomicETH.CompareData }).at(&kAtomicethCmpdt).doc("AtomicETH: compare data, decimal"),
		fETH("infiniband.aeth.syndrome", ib.HeaderAETH, 1, FieldUint, 8, false, func(p *ib.Packet) uint64 { return uint64(p.AETH.Syndrome) }).at(&kAethSyndrome).doc("AETH: syndrome"),
		fETH("infiniband.aeth.msn", ib.HeaderAETH, 4, FieldUint, 24, false, func(p *ib.Packet) uint64 { return uint64(p.AETH.MSN) }).at(&kAethMsn).doc("AETH: message sequence number"),
		fETH("infiniband.atomicacketh.origremdt", ib.HeaderAtomicAckETH, 8, FieldDec64, 64, false, func(p *ib.Packet) uint64 { return p.AtomicAckETH.OrigRemData }).at(&kAtomicackethOrigremdt).doc("AtomicAckETH: original remote data, decimal"),
		fETH("infiniband.immdt", ib.HeaderImmDt, 4, FieldBytes, 0, false, func(p *ib.Packet) uint64 { return uint64(p.ImmDt.Data) }).at(&kImmdt).doc("immediate data, 8 lowercase hex digits in wire order"),
		fETH("infiniband.ieth", ib.HeaderIETH, 4, FieldBytes, 0, false, func(p *ib.Packet) uint64 { return uint64(p.IETH.RKey) }).at(&kIeth).doc("IETH: the R_Key to invalidate, 8 lowercase hex digits"),
		numeric("infiniband.payload.len", FieldUint, 32, false, func(r *Record) (uint64, bool) {
			if !r.isIB() {
				return 0, false
			}
			return uint64(r.payloadLen()), true
		}).at(&kPayloadLen).doc("payload bytes after the headers, without pad, on the wire (not a Wireshark field)"),
		numeric("infiniband.invariant.crc", FieldUint, 32, true, func(r *Record) (uint64, bool) {
			if !r.isIB() || r.ICRCUnchecked {
				return 0, false
			}
			c := r.RoCE.Packet.BTH.ICRC
			return uint64(c[0])<<24 | uint64(c[1])<<16 | uint64(c[2])<<8 | uint64(c[3]), true
		}).at(&kInvariantCrc).doc("the four ICRC bytes read as a big-endian number, as Wireshark shows them; absent when the capture cut the frame before them"),
		Field{Name: "infiniband.invariant.crc.status", Type: FieldString, Get: func(r *Record) (Value, bool) {
			switch {
			case !r.isIB():
				return none()
			case r.ICRCUnchecked:
				return str("unchecked")
			case r.ICRCGood:
				return str("good")
			}
			return str("bad")
		}}.at(&kInvariantCrcStatus).doc("\"good\" or \"bad\": the ICRC recomputed over the frame; \"unchecked\" when the capture cut the frame short (not a Wireshark field)"),
		numeric("infiniband.variant.crc", FieldUint, 16, true, func(r *Record) (uint64, bool) {
			if r.Kind != KindInfiniBand || len(r.RoCE.Raw)+2 > r.capLen {
				return 0, false
			}
			return uint64(r.LRH.VCRC), true
		}).at(&kVariantCrc).doc("native IB: the VCRC, when captured"),
		Field{Name: "_cnp_error", Type: FieldString, Get: func(r *Record) (Value, bool) {
			if !r.isIB() || r.CNPErr == nil {
				return none()
			}
			return str(r.CNPErr.Error())
		}}.at(&kCnpError).doc("a CNP that breaks a rule of Annex A17.9.3: cnp.Check's reason"),
	}, madFields(), ipoibFields(), dcbxFields(), ulpFields(), []Field{
		Field{Name: "_error", Type: FieldString, Get: func(r *Record) (Value, bool) {
			switch r.Kind {
			case KindMalformed:
				return str(r.Err.Error())
			case KindUnsupported:
				return str(string(appendUnsupported(nil, r)))
			}
			return none()
		}}.at(&kError).doc("why the frame could not be decoded: the error of a malformed RoCE frame, or a link type this package does not decode"),
	}))
})

// FileKey is the JSON key, and Parquet column, that names the capture a
// frame comes from, when Options.File is set. It is not a field of the
// frame, so it has no row.
const FileKey = "frame.file"

// fileKeyDoc describes FileKey in the key reference.
const fileKeyDoc = "the capture's name, when Options.File is set (rocedump with several captures; not a Wireshark field)"

// The rows the fast writers name (AppendJSON, Cells.Fill), their indexes
// and JSON keys
// set by the rows themselves (at).
var (
	kFrameNumber, kFrameTimeEpoch, kFrameLen, kFrameCapLen                                                    key
	kErfTypesType                                                                                             key
	kSllEtype, kSllIfindex, kSllHatype, kSllPkttype, kSllHalen, kSllSrcEth                                    key
	kEthDst, kEthSrc, kEthType                                                                                key
	kIpSrc, kIpDst, kIpDsfieldDscp, kIpDsfieldEcn, kIpTtl, kIpId, kIpProto                                    key
	kIpv6Src, kIpv6Dst, kIpv6TclassDscp, kIpv6TclassEcn, kIpv6Flow, kIpv6Hlim, kIpv6Nxt                       key
	kUdpSrcport, kUdpDstport                                                                                  key
	kTcpSrcport, kTcpDstport                                                                                  key
	kGrhIpver, kGrhTclass, kGrhFlowlabel, kGrhPaylen, kGrhNxthdr, kGrhHoplmt, kGrhSgid, kGrhDgid              key
	kMaccOpcode, kMaccPauseTime, kMaccCbfcEnbv                                                                key
	kLrhVl, kLrhLver, kLrhSl, kLrhLnh, kLrhDlid, kLrhPktlen, kLrhSlid                                         key
	kBthOpcode, kBthSe, kBthM, kBthPadcnt, kBthTver, kBthPKey, kBthFecn, kBthBecn, kBthDestqp, kBthA, kBthPsn key
	kRdethEecnxt                                                                                              key
	kDethQKey, kDethSrcqp                                                                                     key
	kXrcethXrcsrq                                                                                             key
	kRethVa, kRethRKey, kRethDmalen                                                                           key
	kFethSel, kFethPlt                                                                                        key
	kAtomicethVa, kAtomicethRKey, kAtomicethSwapdt, kAtomicethCmpdt                                           key
	kAethSyndrome, kAethMsn                                                                                   key
	kAtomicackethOrigremdt                                                                                    key
	kImmdt                                                                                                    key
	kIeth                                                                                                     key
	kPayloadLen                                                                                               key
	kInvariantCrc, kInvariantCrcStatus                                                                        key
	kVariantCrc                                                                                               key
	kCnpError, kError                                                                                         key
)

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
var protocolTable = append([]Protocol{
	{"frame", func(r *Record) bool { return true }},
	{"erf", func(r *Record) bool { return r.LinkType == capfile.LinkTypeERF }},
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
	// The message a SEND's payload holds (Record.ULP): the protocols'
	// rows of ulps.
}, ulpProtocols()...)
