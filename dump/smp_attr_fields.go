package dump

import (
	"github.com/roce-go/roce/mad"
	"sync"
)

// attrRec holds the SMP attributes PortInfo and SwitchInfo and the
// PerfMgt attributes PortCounters and PortCountersExtended of a frame's
// MAD, decoded by decodeAttrs for their JSON keys and display filters.
type attrRec struct {
	pi         bool // an SMP PortInfo: portInfo holds it
	portInfo   mad.PortInfo
	si         bool // an SMP SwitchInfo: switchInfo holds it
	switchInfo mad.SwitchInfo
	perf       mad.PerfMgt
	pc         bool // a PerfMgt PortCounters: counters holds it
	counters   mad.PortCounters
	pce        bool // a PerfMgt PortCountersExtended: ext holds it
	ext        mad.PortCountersExtended
}

// decodeAttrs decodes the attribute of the SMP decodeSMP decoded, or of
// the PerfMgt MAD b holds (a whole MAD).
func (m *madRec) decodeAttrs(b []byte) {
	a, s, h := &m.attr, &m.smp, &m.hdr
	a.pi, a.si, a.pc, a.pce = false, false, false, false
	data := s.data()
	if data == nil {
		if h.MgmtClass == mad.ClassPerfMgt && a.perf.Decode(b) == nil {
			d := a.perf.Data[:]
			a.pc = h.AttributeID == uint16(mad.PerfAttrPortCounters) && a.counters.Decode(d) == nil
			a.pce = h.AttributeID == uint16(mad.PerfAttrPortCountersExtended) && a.ext.Decode(d) == nil
		}
		return
	}
	a.pi = h.AttributeID == uint16(mad.SMPAttrPortInfo) && a.portInfo.Decode(data) == nil
	a.si = h.AttributeID == uint16(mad.SMPAttrSwitchInfo) && a.switchInfo.Decode(data) == nil
}

// attrFields are the keys of PortInfo, SwitchInfo, PortCounters and
// PortCountersExtended, tshark 4.0's names and, for its 64-bit fields,
// its representation (BASE_HEX "0x" and 16 digits, BASE_DEC decimal
// digits), in JSON key order. tshark names PortInfo's GidPrefix
// infiniband.portinfo.guid. The fields tshark 4.0 lacks (PortInfo's
// MulticastPKeyTrapSuppressionEnabled, CapabilityMask2 and LinkSpeedExt*,
// SwitchInfo's MulticastFDBTop, PortCounters' CounterSelect2, QP1Dropped
// and PortXmitWait, PortCountersExtended's CounterSelect2 and IBTA 1.3
// error counters) have keys in the style of their neighbours: the IBTA
// name in lower case under the attribute's prefix, the error counters of
// PortCountersExtended named as PortCounters' are.
var attrFields = sync.OnceValue(func() []Field {
	return cat(portInfoFields(), []Field{
		fSW("infiniband.switchinfo.linearfdbcap", 16, func(s *mad.SwitchInfo) uint64 { return uint64(s.LinearFDBCap) }).doc("SMP SwitchInfo: LinearFDBCap"),
		fSW("infiniband.switchinfo.randomfdbcap", 16, func(s *mad.SwitchInfo) uint64 { return uint64(s.RandomFDBCap) }).doc("SwitchInfo: RandomFDBCap"),
		fSW("infiniband.switchinfo.multicastfdbcap", 16, func(s *mad.SwitchInfo) uint64 { return uint64(s.MulticastFDBCap) }).doc("SwitchInfo: MulticastFDBCap"),
		fSW("infiniband.switchinfo.linearfdbtop", 16, func(s *mad.SwitchInfo) uint64 { return uint64(s.LinearFDBTop) }).doc("SwitchInfo: LinearFDBTop"),
		fSW("infiniband.switchinfo.defaultport", 8, func(s *mad.SwitchInfo) uint64 { return uint64(s.DefaultPort) }).doc("SwitchInfo: DefaultPort"),
		fSW("infiniband.switchinfo.defaultmulticastprimaryport", 8, func(s *mad.SwitchInfo) uint64 { return uint64(s.DefaultMulticastPrimaryPort) }).doc("SwitchInfo: DefaultMulticastPrimaryPort"),
		fSW("infiniband.switchinfo.defaultmulticastnotprimaryport", 8, func(s *mad.SwitchInfo) uint64 { return uint64(s.DefaultMulticastNotPrimaryPort) }).doc("SwitchInfo: DefaultMulticastNotPrimaryPort"),
		fSW("infiniband.switchinfo.lifetimevalue", 5, func(s *mad.SwitchInfo) uint64 { return uint64(s.LifeTimeValue) }).doc("SwitchInfo: LifeTimeValue"),
		fSW("infiniband.switchinfo.portstatechange", 1, func(s *mad.SwitchInfo) uint64 { return b2u(s.PortStateChange) }).doc("SwitchInfo: PortStateChange, 0 or 1"),
		fSW("infiniband.switchinfo.optimizedsltovlmappingprogramming", 2, func(s *mad.SwitchInfo) uint64 { return uint64(s.OptimizedSLtoVLMappingProgramming) }).doc("SwitchInfo: OptimizedSLtoVLMappingProgramming"),
		fSW("infiniband.switchinfo.lidsperport", 16, func(s *mad.SwitchInfo) uint64 { return uint64(s.LIDsPerPort) }).doc("SwitchInfo: LIDsPerPort"),
		fSW("infiniband.switchinfo.partitionenforcementcap", 16, func(s *mad.SwitchInfo) uint64 { return uint64(s.PartitionEnforcementCap) }).doc("SwitchInfo: PartitionEnforcementCap"),
		fSW("infiniband.switchinfo.inboundenforcementcap", 1, func(s *mad.SwitchInfo) uint64 { return b2u(s.InboundEnforcementCap) }).doc("SwitchInfo: InboundEnforcementCap, 0 or 1"),
		fSW("infiniband.switchinfo.outboundenforcementcap", 1, func(s *mad.SwitchInfo) uint64 { return b2u(s.OutboundEnforcementCap) }).doc("SwitchInfo: OutboundEnforcementCap, 0 or 1"),
		fSW("infiniband.switchinfo.filterrawinboundcap", 1, func(s *mad.SwitchInfo) uint64 { return b2u(s.FilterRawInboundCap) }).doc("SwitchInfo: FilterRawInboundCap, 0 or 1"),
		fSW("infiniband.switchinfo.filterrawoutboundcap", 1, func(s *mad.SwitchInfo) uint64 { return b2u(s.FilterRawOutboundCap) }).doc("SwitchInfo: FilterRawOutboundCap, 0 or 1"),
		fSW("infiniband.switchinfo.enhancedportzero", 1, func(s *mad.SwitchInfo) uint64 { return b2u(s.EnhancedPortZero) }).doc("SwitchInfo: EnhancedPortZero, 0 or 1"),
		fSW("infiniband.switchinfo.multicastfdbtop", 16, func(s *mad.SwitchInfo) uint64 { return uint64(s.MulticastFDBTop) }).doc("SwitchInfo: MulticastFDBTop (ours)"),
	}, portCounterFields())
})

var portInfoFields = sync.OnceValue(func() []Field {
	return []Field{
		fPI64("infiniband.portinfo.m_key", func(p *mad.PortInfo) uint64 { return p.MKey }).doc("SMP PortInfo, or an SA PortInfoRecord's: M_Key, \"0x\" and 16 hex digits"),
		fPI64("infiniband.portinfo.guid", func(p *mad.PortInfo) uint64 { return p.GIDPrefix }).doc("PortInfo: GID prefix (tshark's name), \"0x\" and 16 hex digits"),
		fPI("infiniband.portinfo.lid", 16, func(p *mad.PortInfo) uint64 { return uint64(p.LID) }).doc("PortInfo: base LID"),
		fPI("infiniband.portinfo.mastersmlid", 16, func(p *mad.PortInfo) uint64 { return uint64(p.MasterSMLID) }).doc("PortInfo: master SM's LID"),
		fPI("infiniband.portinfo.capabilitymask", 32, func(p *mad.PortInfo) uint64 { return uint64(p.CapabilityMask) }).doc("PortInfo: CapabilityMask"),
		fPI("infiniband.portinfo.diagcode", 16, func(p *mad.PortInfo) uint64 { return uint64(p.DiagCode) }).doc("PortInfo: DiagCode"),
		fPI("infiniband.portinfo.m_keyleaseperiod", 16, func(p *mad.PortInfo) uint64 { return uint64(p.MKeyLeasePeriod) }).doc("PortInfo: M_Key lease period"),
		fPI("infiniband.portinfo.localportnum", 8, func(p *mad.PortInfo) uint64 { return uint64(p.LocalPortNum) }).doc("PortInfo: local port number"),
		fPI("infiniband.portinfo.linkwidthenabled", 8, func(p *mad.PortInfo) uint64 { return uint64(p.LinkWidthEnabled) }).doc("PortInfo: LinkWidthEnabled"),
		fPI("infiniband.portinfo.linkwidthsupported", 8, func(p *mad.PortInfo) uint64 { return uint64(p.LinkWidthSupported) }).doc("PortInfo: LinkWidthSupported"),
		fPI("infiniband.portinfo.linkwidthactive", 8, func(p *mad.PortInfo) uint64 { return uint64(p.LinkWidthActive) }).doc("PortInfo: LinkWidthActive"),
		fPI("infiniband.portinfo.linkspeedsupported", 4, func(p *mad.PortInfo) uint64 { return uint64(p.LinkSpeedSupported) }).doc("PortInfo: LinkSpeedSupported"),
		fPI("infiniband.portinfo.portstate", 4, func(p *mad.PortInfo) uint64 { return uint64(p.PortState) }).doc("PortInfo: PortState (1 Down, 2 Init, 3 Armed, 4 Active)"),
		fPI("infiniband.portinfo.portphysicalstate", 4, func(p *mad.PortInfo) uint64 { return uint64(p.PortPhysicalState) }).doc("PortInfo: PortPhysicalState"),
		fPI("infiniband.portinfo.linkdowndefaultstate", 4, func(p *mad.PortInfo) uint64 { return uint64(p.LinkDownDefaultState) }).doc("PortInfo: LinkDownDefaultState"),
		fPI("infiniband.portinfo.m_keyprotectbits", 2, func(p *mad.PortInfo) uint64 { return uint64(p.MKeyProtectBits) }).doc("PortInfo: M_KeyProtectBits"),
		fPI("infiniband.portinfo.lmc", 3, func(p *mad.PortInfo) uint64 { return uint64(p.LMC) }).doc("PortInfo: LMC"),
		fPI("infiniband.portinfo.linkspeedactive", 4, func(p *mad.PortInfo) uint64 { return uint64(p.LinkSpeedActive) }).doc("PortInfo: LinkSpeedActive"),
		fPI("infiniband.portinfo.linkspeedenabled", 4, func(p *mad.PortInfo) uint64 { return uint64(p.LinkSpeedEnabled) }).doc("PortInfo: LinkSpeedEnabled"),
		fPI("infiniband.portinfo.neighbormtu", 4, func(p *mad.PortInfo) uint64 { return uint64(p.NeighborMTU) }).doc("PortInfo: NeighborMTU"),
		fPI("infiniband.portinfo.mastersmsl", 4, func(p *mad.PortInfo) uint64 { return uint64(p.MasterSMSL) }).doc("PortInfo: MasterSMSL"),
		fPI("infiniband.portinfo.vlcap", 4, func(p *mad.PortInfo) uint64 { return uint64(p.VLCap) }).doc("PortInfo: VLCap"),
		fPI("infiniband.portinfo.inittype", 4, func(p *mad.PortInfo) uint64 { return uint64(p.InitType) }).doc("PortInfo: InitType"),
		fPI("infiniband.portinfo.vlhighlimit", 8, func(p *mad.PortInfo) uint64 { return uint64(p.VLHighLimit) }).doc("PortInfo: VLHighLimit"),
		fPI("infiniband.portinfo.vlarbitrationhighcap", 8, func(p *mad.PortInfo) uint64 { return uint64(p.VLArbitrationHighCap) }).doc("PortInfo: VLArbitrationHighCap"),
		fPI("infiniband.portinfo.vlarbitrationlowcap", 8, func(p *mad.PortInfo) uint64 { return uint64(p.VLArbitrationLowCap) }).doc("PortInfo: VLArbitrationLowCap"),
		fPI("infiniband.portinfo.inittypereply", 4, func(p *mad.PortInfo) uint64 { return uint64(p.InitTypeReply) }).doc("PortInfo: InitTypeReply"),
		fPI("infiniband.portinfo.mtucap", 4, func(p *mad.PortInfo) uint64 { return uint64(p.MTUCap) }).doc("PortInfo: MTUCap"),
		fPI("infiniband.portinfo.vlstallcount", 3, func(p *mad.PortInfo) uint64 { return uint64(p.VLStallCount) }).doc("PortInfo: VLStallCount"),
		fPI("infiniband.portinfo.hoqlife", 5, func(p *mad.PortInfo) uint64 { return uint64(p.HOQLife) }).doc("PortInfo: HOQLife"),
		fPI("infiniband.portinfo.operationalvls", 4, func(p *mad.PortInfo) uint64 { return uint64(p.OperationalVLs) }).doc("PortInfo: OperationalVLs"),
		fPI("infiniband.portinfo.partitionenforcementinbound", 1, func(p *mad.PortInfo) uint64 { return b2u(p.PartitionEnforcementInbound) }).doc("PortInfo: PartitionEnforcementInbound, 0 or 1"),
		fPI("infiniband.portinfo.partitionenforcementoutbound", 1, func(p *mad.PortInfo) uint64 { return b2u(p.PartitionEnforcementOutbound) }).doc("PortInfo: PartitionEnforcementOutbound, 0 or 1"),
		fPI("infiniband.portinfo.filterrawinbound", 1, func(p *mad.PortInfo) uint64 { return b2u(p.FilterRawInbound) }).doc("PortInfo: FilterRawInbound, 0 or 1"),
		fPI("infiniband.portinfo.filterrawoutbound", 1, func(p *mad.PortInfo) uint64 { return b2u(p.FilterRawOutbound) }).doc("PortInfo: FilterRawOutbound, 0 or 1"),
		fPI("infiniband.portinfo.m_keyviolations", 16, func(p *mad.PortInfo) uint64 { return uint64(p.MKeyViolations) }).doc("PortInfo: M_KeyViolations"),
		fPI("infiniband.portinfo.p_keyviolations", 16, func(p *mad.PortInfo) uint64 { return uint64(p.PKeyViolations) }).doc("PortInfo: P_KeyViolations"),
		fPI("infiniband.portinfo.q_keyviolations", 16, func(p *mad.PortInfo) uint64 { return uint64(p.QKeyViolations) }).doc("PortInfo: Q_KeyViolations"),
		fPI("infiniband.portinfo.guidcap", 8, func(p *mad.PortInfo) uint64 { return uint64(p.GUIDCap) }).doc("PortInfo: GUIDCap"),
		fPI("infiniband.portinfo.clientreregister", 1, func(p *mad.PortInfo) uint64 { return b2u(p.ClientReregister) }).doc("PortInfo: ClientReregister, 0 or 1"),
		fPI("infiniband.portinfo.multicastpkeytrapsuppressionenabled", 2, func(p *mad.PortInfo) uint64 { return uint64(p.MulticastPKeyTrapSuppressionEnabled) }).doc("PortInfo: MulticastPKeyTrapSuppressionEnabled (ours)"),
		fPI("infiniband.portinfo.subnettimeout", 5, func(p *mad.PortInfo) uint64 { return uint64(p.SubnetTimeOut) }).doc("PortInfo: SubnetTimeOut"),
		fPI("infiniband.portinfo.resptimevalue", 5, func(p *mad.PortInfo) uint64 { return uint64(p.RespTimeValue) }).doc("PortInfo: RespTimeValue"),
		fPI("infiniband.portinfo.localphyerrors", 4, func(p *mad.PortInfo) uint64 { return uint64(p.LocalPhyErrors) }).doc("PortInfo: LocalPhyErrors threshold"),
		fPI("infiniband.portinfo.overrunerrors", 4, func(p *mad.PortInfo) uint64 { return uint64(p.OverrunErrors) }).doc("PortInfo: OverrunErrors threshold"),
		fPI("infiniband.portinfo.maxcredithint", 16, func(p *mad.PortInfo) uint64 { return uint64(p.MaxCreditHint) }).doc("PortInfo: MaxCreditHint"),
		fPI("infiniband.portinfo.linkroundtriplatency", 24, func(p *mad.PortInfo) uint64 { return uint64(p.LinkRoundTripLatency) }).doc("PortInfo: LinkRoundTripLatency"),
		fPI("infiniband.portinfo.capabilitymask2", 16, func(p *mad.PortInfo) uint64 { return uint64(p.CapabilityMask2) }).doc("PortInfo: CapabilityMask2, IBTA 1.3 (ours)"),
		fPI("infiniband.portinfo.linkspeedextactive", 4, func(p *mad.PortInfo) uint64 { return uint64(p.LinkSpeedExtActive) }).doc("PortInfo: LinkSpeedExtActive, IBTA 1.3 (ours)"),
		fPI("infiniband.portinfo.linkspeedextsupported", 4, func(p *mad.PortInfo) uint64 { return uint64(p.LinkSpeedExtSupported) }).doc("PortInfo: LinkSpeedExtSupported, IBTA 1.3 (ours)"),
		fPI("infiniband.portinfo.linkspeedextenabled", 5, func(p *mad.PortInfo) uint64 { return uint64(p.LinkSpeedExtEnabled) }).doc("PortInfo: LinkSpeedExtEnabled, IBTA 1.3 (ours)"),
	}
})

var portCounterFields = sync.OnceValue(func() []Field {
	return []Field{
		fPC("infiniband.portcounters.portselect", 8, true, func(c *mad.PortCounters) uint64 { return uint64(c.PortSelect) }).doc("PerfMgt PortCounters: PortSelect"),
		fPC("infiniband.portcounters.counterselect", 16, true, func(c *mad.PortCounters) uint64 { return uint64(c.CounterSelect) }).doc("PortCounters: CounterSelect"),
		fPC("infiniband.portcounters.symbolerrorcounter", 16, false, func(c *mad.PortCounters) uint64 { return uint64(c.SymbolErrorCounter) }).doc("PortCounters: SymbolErrorCounter"),
		fPC("infiniband.portcounters.linkerrorrecoverycounter", 8, false, func(c *mad.PortCounters) uint64 { return uint64(c.LinkErrorRecoveryCounter) }).doc("PortCounters: LinkErrorRecoveryCounter"),
		fPC("infiniband.portcounters.linkdownedcounter", 8, false, func(c *mad.PortCounters) uint64 { return uint64(c.LinkDownedCounter) }).doc("PortCounters: LinkDownedCounter"),
		fPC("infiniband.portcounters.portrcverrors", 16, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortRcvErrors) }).doc("PortCounters: PortRcvErrors"),
		fPC("infiniband.portcounters.portrcvremotephysicalerrors", 16, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortRcvRemotePhysicalErrors) }).doc("PortCounters: PortRcvRemotePhysicalErrors"),
		fPC("infiniband.portcounters.portrcvswitchrelayerrors", 16, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortRcvSwitchRelayErrors) }).doc("PortCounters: PortRcvSwitchRelayErrors"),
		fPC("infiniband.portcounters.portxmitdiscards", 16, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortXmitDiscards) }).doc("PortCounters: PortXmitDiscards"),
		fPC("infiniband.portcounters.portxmitconstrainterrors", 8, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortXmitConstraintErrors) }).doc("PortCounters: PortXmitConstraintErrors"),
		fPC("infiniband.portcounters.portrcvconstrainterrors", 8, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortRcvConstraintErrors) }).doc("PortCounters: PortRcvConstraintErrors"),
		fPC("infiniband.portcounters.counterselect2", 8, true, func(c *mad.PortCounters) uint64 { return uint64(c.CounterSelect2) }).doc("PortCounters: CounterSelect2, IBTA 1.3 (ours)"),
		fPC("infiniband.portcounters.locallinkintegrityerrors", 4, false, func(c *mad.PortCounters) uint64 { return uint64(c.LocalLinkIntegrityErrors) }).doc("PortCounters: LocalLinkIntegrityErrors"),
		fPC("infiniband.portcounters.excessivebufferoverrunerrors", 4, false, func(c *mad.PortCounters) uint64 { return uint64(c.ExcessiveBufferOverrunErrors) }).doc("PortCounters: ExcessiveBufferOverrunErrors"),
		fPC("infiniband.portcounters.qp1dropped", 16, false, func(c *mad.PortCounters) uint64 { return uint64(c.QP1Dropped) }).doc("PortCounters: QP1Dropped, IBTA 1.3 (ours)"),
		fPC("infiniband.portcounters.vl15dropped", 16, false, func(c *mad.PortCounters) uint64 { return uint64(c.VL15Dropped) }).doc("PortCounters: VL15Dropped"),
		fPC("infiniband.portcounters.portxmitdata", 32, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortXmitData) }).doc("PortCounters: PortXmitData (32-bit words)"),
		fPC("infiniband.portcounters.portrcvdata", 32, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortRcvData) }).doc("PortCounters: PortRcvData"),
		fPC("infiniband.portcounters.portxmitpkts", 32, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortXmitPkts) }).doc("PortCounters: PortXmitPkts"),
		fPC("infiniband.portcounters.portrcvpkts", 32, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortRcvPkts) }).doc("PortCounters: PortRcvPkts"),
		fPC("infiniband.portcounters.portxmitwait", 32, false, func(c *mad.PortCounters) uint64 { return uint64(c.PortXmitWait) }).doc("PortCounters: PortXmitWait (ours)"),
		fSA("infiniband.portcounters_ext.portselect", 8, func(m *madRec) (uint64, bool) { return uint64(m.attr.ext.PortSelect), m.attr.pce }).doc("PerfMgt PortCountersExtended: PortSelect"),
		fSA("infiniband.portcounters_ext.counterselect", 16, func(m *madRec) (uint64, bool) { return uint64(m.attr.ext.CounterSelect), m.attr.pce }).doc("PortCountersExtended: CounterSelect"),
		fSA("infiniband.portcounters_ext.counterselect2", 32, func(m *madRec) (uint64, bool) { return uint64(m.attr.ext.CounterSelect2), m.attr.pce }).doc("PortCountersExtended: CounterSelect2, IBTA 1.3 (ours)"),
		fPCE("infiniband.portcounters_ext.portxmitdata", func(c *mad.PortCountersExtended) uint64 { return c.PortXmitData }).doc("PortCountersExtended: PortXmitData, 64 bits, decimal digits"),
		fPCE("infiniband.portcounters_ext.portrcvdata", func(c *mad.PortCountersExtended) uint64 { return c.PortRcvData }).doc("PortCountersExtended: PortRcvData"),
		fPCE("infiniband.portcounters_ext.portxmitpkts", func(c *mad.PortCountersExtended) uint64 { return c.PortXmitPkts }).doc("PortCountersExtended: PortXmitPkts"),
		fPCE("infiniband.portcounters_ext.portrcvpkts", func(c *mad.PortCountersExtended) uint64 { return c.PortRcvPkts }).doc("PortCountersExtended: PortRcvPkts"),
		fPCE("infiniband.portcounters_ext.portunicastxmitpkts", func(c *mad.PortCountersExtended) uint64 { return c.PortUnicastXmitPkts }).doc("PortCountersExtended: PortUnicastXmitPkts"),
		fPCE("infiniband.portcounters_ext.portunicastrcvpkts", func(c *mad.PortCountersExtended) uint64 { return c.PortUnicastRcvPkts }).doc("PortCountersExtended: PortUnicastRcvPkts"),
		fPCE("infiniband.portcounters_ext.portmulticastxmitpkts", func(c *mad.PortCountersExtended) uint64 { return c.PortMulticastXmitPkts }).doc("PortCountersExtended: PortMulticastXmitPkts"),
		fPCE("infiniband.portcounters_ext.portmulticastrcvpkts", func(c *mad.PortCountersExtended) uint64 { return c.PortMulticastRcvPkts }).doc("PortCountersExtended: PortMulticastRcvPkts"),
		// The IBTA 1.3 error counters, named as PortCounters' in tshark 4.0.
		fPCE("infiniband.portcounters_ext.symbolerrorcounter", func(c *mad.PortCountersExtended) uint64 { return c.SymbolErrorCounter }).doc("PortCountersExtended: SymbolErrorCounter, IBTA 1.3 error counter, 64 bits, decimal digits (ours)"),
		fPCE("infiniband.portcounters_ext.linkerrorrecoverycounter", func(c *mad.PortCountersExtended) uint64 { return c.LinkErrorRecoveryCounter }).doc("PortCountersExtended: LinkErrorRecoveryCounter (ours)"),
		fPCE("infiniband.portcounters_ext.linkdownedcounter", func(c *mad.PortCountersExtended) uint64 { return c.LinkDownedCounter }).doc("PortCountersExtended: LinkDownedCounter (ours)"),
		fPCE("infiniband.portcounters_ext.portrcverrors", func(c *mad.PortCountersExtended) uint64 { return c.PortRcvErrors }).doc("PortCountersExtended: PortRcvErrors (ours)"),
		fPCE("infiniband.portcounters_ext.portrcvremotephysicalerrors", func(c *mad.PortCountersExtended) uint64 { return c.PortRcvRemotePhysicalErrors }).doc("PortCountersExtended: PortRcvRemotePhysicalErrors (ours)"),
		fPCE("infiniband.portcounters_ext.portrcvswitchrelayerrors", func(c *mad.PortCountersExtended) uint64 { return c.PortRcvSwitchRelayErrors }).doc("PortCountersExtended: PortRcvSwitchRelayErrors (ours)"),
		fPCE("infiniband.portcounters_ext.portxmitdiscards", func(c *mad.PortCountersExtended) uint64 { return c.PortXmitDiscards }).doc("PortCountersExtended: PortXmitDiscards (ours)"),
		fPCE("infiniband.portcounters_ext.portxmitconstrainterrors", func(c *mad.PortCountersExtended) uint64 { return c.PortXmitConstraintErrors }).doc("PortCountersExtended: PortXmitConstraintErrors (ours)"),
		fPCE("infiniband.portcounters_ext.portrcvconstrainterrors", func(c *mad.PortCountersExtended) uint64 { return c.PortRcvConstraintErrors }).doc("PortCountersExtended: PortRcvConstraintErrors (ours)"),
		fPCE("infiniband.portcounters_ext.locallinkintegrityerrors", func(c *mad.PortCountersExtended) uint64 { return c.LocalLinkIntegrityErrors }).doc("PortCountersExtended: LocalLinkIntegrityErrors (ours)"),
		fPCE("infiniband.portcounters_ext.excessivebufferoverrunerrors", func(c *mad.PortCountersExtended) uint64 { return c.ExcessiveBufferOverrunErrors }).doc("PortCountersExtended: ExcessiveBufferOverrunErrors (ours)"),
		fPCE("infiniband.portcounters_ext.vl15dropped", func(c *mad.PortCountersExtended) uint64 { return c.VL15Dropped }).doc("PortCountersExtended: VL15Dropped (ours)"),
		fPCE("infiniband.portcounters_ext.portxmitwait", func(c *mad.PortCountersExtended) uint64 { return c.PortXmitWait }).doc("PortCountersExtended: PortXmitWait (ours)"),
		fPCE("infiniband.portcounters_ext.qp1dropped", func(c *mad.PortCountersExtended) uint64 { return c.QP1Dropped }).doc("PortCountersExtended: QP1Dropped (ours)"),
	}
})

// portInfo returns the PortInfo of an SMP PortInfo or of an SA
// PortInfoRecord (whose PortInfo keys are the SMP's, as in tshark 4.0),
// or nil.
func (m *madRec) portInfo() *mad.PortInfo {
	switch {
	case m.attr.pi:
		return &m.attr.portInfo
	case m.pir:
		return &m.pirR.PortInfo
	}
	return nil
}

func fPI(name string, bits uint8, get func(p *mad.PortInfo) uint64) Field {
	return fPart(name, bits, (*madRec).portInfo, get)
}

func fPI64(name string, get func(p *mad.PortInfo) uint64) Field {
	return fPart64(name, (*madRec).portInfo, get)
}

func fSW(name string, bits uint8, get func(s *mad.SwitchInfo) uint64) Field {
	return fSA(name, bits, func(m *madRec) (uint64, bool) { return get(&m.attr.switchInfo), m.attr.si })
}

// fPC is a PortCounters field; hex says tshark shows it BASE_HEX.
func fPC(name string, bits uint8, hex bool, get func(c *mad.PortCounters) uint64) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if m := r.madRec(); m != nil && m.attr.pc {
			return get(&m.attr.counters), true
		}
		return 0, false
	})
}

// fPCE is a 64-bit PortCountersExtended counter, decimal digits in a
// string as tshark writes its BASE_DEC 64-bit fields.
func fPCE(name string, get func(c *mad.PortCountersExtended) uint64) Field {
	return Field{Name: name, Type: FieldDec64, Bits: 64, Get: func(r *Record) (Value, bool) {
		if m := r.madRec(); m != nil && m.attr.pce {
			return u(get(&m.attr.ext))
		}
		return none()
	}}
}

// data returns the attribute data of the SMP decodeSMP decoded, or nil
// when the MAD is no SMP.
func (s *smpRec) data() []byte {
	switch {
	case s.lid:
		return s.lidS.Data[:]
	case s.dr:
		return s.drS.Data[:]
	}
	return nil
}
