package mad

// The layouts of the SMP and PerfMgt attributes, each described once, as
// every other layout of the package is: the walk method (byte offset, bit
// offset from the most significant bit, width) decodes, encodes and
// validates. Reserved bits are not described: they decode to nothing and
// encode as zero.

func (n *NodeInfo) walk(c codec) error {
	c.u8(&n.BaseVersion, "BaseVersion", 0, 0, 8)
	c.u8(&n.ClassVersion, "ClassVersion", 1, 0, 8)
	t := uint8(n.NodeType)
	c.u8(&t, "NodeType", 2, 0, 8)
	n.NodeType = NodeType(t)
	c.u8(&n.NumPorts, "NumPorts", 3, 0, 8)
	c.u64(&n.SystemImageGUID, "SystemImageGUID", 4)
	c.u64(&n.NodeGUID, "NodeGUID", 12)
	c.u64(&n.PortGUID, "PortGUID", 20)
	c.u16(&n.PartitionCap, "PartitionCap", 28, 0, 16)
	c.u16(&n.DeviceID, "DeviceID", 30, 0, 16)
	c.u32(&n.Revision, "Revision", 32, 0, 32)
	c.u8(&n.LocalPortNum, "LocalPortNum", 36, 0, 8)
	c.u32(&n.VendorID, "VendorID", 36, 8, 24)
	return c.err
}

func (n *NodeDescription) walk(c codec) error {
	c.raw(n.NodeString[:], 0)
	return c.err
}

func (s *SMInfo) walk(c codec) error {
	c.u64(&s.GUID, "GUID", 0)
	c.u64(&s.SMKey, "SMKey", 8)
	c.u32(&s.ActCount, "ActCount", 16, 0, 32)
	c.u8(&s.Priority, "Priority", 20, 0, 4)
	st := uint8(s.SMState)
	c.u8(&st, "SMState", 20, 4, 4)
	s.SMState = SMState(st)
	return c.err
}

func (g *GUIDInfo) walk(c codec) error {
	for i := range g.GUIDs {
		c.u64(&g.GUIDs[i], "GUIDs", 8*i)
	}
	return c.err
}

func (t *PKeyTable) walk(c codec) error {
	for i := range t.PKeys {
		c.u16(&t.PKeys[i], "PKeys", 2*i, 0, 16)
	}
	return c.err
}

func (s *SwitchInfo) walk(c codec) error {
	c.u16(&s.LinearFDBCap, "LinearFDBCap", 0, 0, 16)
	c.u16(&s.RandomFDBCap, "RandomFDBCap", 2, 0, 16)
	c.u16(&s.MulticastFDBCap, "MulticastFDBCap", 4, 0, 16)
	c.u16(&s.LinearFDBTop, "LinearFDBTop", 6, 0, 16)
	c.u8(&s.DefaultPort, "DefaultPort", 8, 0, 8)
	c.u8(&s.DefaultMulticastPrimaryPort, "DefaultMulticastPrimaryPort", 9, 0, 8)
	c.u8(&s.DefaultMulticastNotPrimaryPort, "DefaultMulticastNotPrimaryPort", 10, 0, 8)
	c.u8(&s.LifeTimeValue, "LifeTimeValue", 11, 0, 5)
	c.flag(&s.PortStateChange, "PortStateChange", 11, 5)
	c.u8(&s.OptimizedSLtoVLMappingProgramming, "OptimizedSLtoVLMappingProgramming", 11, 6, 2)
	c.u16(&s.LIDsPerPort, "LIDsPerPort", 12, 0, 16)
	c.u16(&s.PartitionEnforcementCap, "PartitionEnforcementCap", 14, 0, 16)
	c.flag(&s.InboundEnforcementCap, "InboundEnforcementCap", 16, 0)
	c.flag(&s.OutboundEnforcementCap, "OutboundEnforcementCap", 16, 1)
	c.flag(&s.FilterRawInboundCap, "FilterRawInboundCap", 16, 2)
	c.flag(&s.FilterRawOutboundCap, "FilterRawOutboundCap", 16, 3)
	c.flag(&s.EnhancedPortZero, "EnhancedPortZero", 16, 4)
	c.u16(&s.MulticastFDBTop, "MulticastFDBTop", 18, 0, 16)
	return c.err
}

func (p *PortInfo) walk(c codec) error {
	c.u64(&p.MKey, "MKey", 0)
	c.u64(&p.GIDPrefix, "GIDPrefix", 8)
	c.u16(&p.LID, "LID", 16, 0, 16)
	c.u16(&p.MasterSMLID, "MasterSMLID", 18, 0, 16)
	c.u32(&p.CapabilityMask, "CapabilityMask", 20, 0, 32)
	c.u16(&p.DiagCode, "DiagCode", 24, 0, 16)
	c.u16(&p.MKeyLeasePeriod, "MKeyLeasePeriod", 26, 0, 16)
	c.u8(&p.LocalPortNum, "LocalPortNum", 28, 0, 8)
	c.u8(&p.LinkWidthEnabled, "LinkWidthEnabled", 29, 0, 8)
	c.u8(&p.LinkWidthSupported, "LinkWidthSupported", 30, 0, 8)
	c.u8(&p.LinkWidthActive, "LinkWidthActive", 31, 0, 8)
	c.u8(&p.LinkSpeedSupported, "LinkSpeedSupported", 32, 0, 4)
	c.u8(&p.PortState, "PortState", 32, 4, 4)
	c.u8(&p.PortPhysicalState, "PortPhysicalState", 33, 0, 4)
	c.u8(&p.LinkDownDefaultState, "LinkDownDefaultState", 33, 4, 4)
	c.u8(&p.MKeyProtectBits, "MKeyProtectBits", 34, 0, 2)
	c.u8(&p.LMC, "LMC", 34, 5, 3)
	c.u8(&p.LinkSpeedActive, "LinkSpeedActive", 35, 0, 4)
	c.u8(&p.LinkSpeedEnabled, "LinkSpeedEnabled", 35, 4, 4)
	c.u8(&p.NeighborMTU, "NeighborMTU", 36, 0, 4)
	c.u8(&p.MasterSMSL, "MasterSMSL", 36, 4, 4)
	c.u8(&p.VLCap, "VLCap", 37, 0, 4)
	c.u8(&p.InitType, "InitType", 37, 4, 4)
	c.u8(&p.VLHighLimit, "VLHighLimit", 38, 0, 8)
	c.u8(&p.VLArbitrationHighCap, "VLArbitrationHighCap", 39, 0, 8)
	c.u8(&p.VLArbitrationLowCap, "VLArbitrationLowCap", 40, 0, 8)
	c.u8(&p.InitTypeReply, "InitTypeReply", 41, 0, 4)
	c.u8(&p.MTUCap, "MTUCap", 41, 4, 4)
	c.u8(&p.VLStallCount, "VLStallCount", 42, 0, 3)
	c.u8(&p.HOQLife, "HOQLife", 42, 3, 5)
	c.u8(&p.OperationalVLs, "OperationalVLs", 43, 0, 4)
	c.flag(&p.PartitionEnforcementInbound, "PartitionEnforcementInbound", 43, 4)
	c.flag(&p.PartitionEnforcementOutbound, "PartitionEnforcementOutbound", 43, 5)
	c.flag(&p.FilterRawInbound, "FilterRawInbound", 43, 6)
	c.flag(&p.FilterRawOutbound, "FilterRawOutbound", 43, 7)
	c.u16(&p.MKeyViolations, "MKeyViolations", 44, 0, 16)
	c.u16(&p.PKeyViolations, "PKeyViolations", 46, 0, 16)
	c.u16(&p.QKeyViolations, "QKeyViolations", 48, 0, 16)
	c.u8(&p.GUIDCap, "GUIDCap", 50, 0, 8)
	c.flag(&p.ClientReregister, "ClientReregister", 51, 0)
	c.u8(&p.MulticastPKeyTrapSuppressionEnabled, "MulticastPKeyTrapSuppressionEnabled", 51, 1, 2)
	c.u8(&p.SubnetTimeOut, "SubnetTimeOut", 51, 3, 5)
	c.u8(&p.RespTimeValue, "RespTimeValue", 52, 3, 5)
	c.u8(&p.LocalPhyErrors, "LocalPhyErrors", 53, 0, 4)
	c.u8(&p.OverrunErrors, "OverrunErrors", 53, 4, 4)
	c.u16(&p.MaxCreditHint, "MaxCreditHint", 54, 0, 16)
	c.u32(&p.LinkRoundTripLatency, "LinkRoundTripLatency", 56, 8, 24)
	c.u16(&p.CapabilityMask2, "CapabilityMask2", 60, 0, 16)
	c.u8(&p.LinkSpeedExtActive, "LinkSpeedExtActive", 62, 0, 4)
	c.u8(&p.LinkSpeedExtSupported, "LinkSpeedExtSupported", 62, 4, 4)
	c.u8(&p.LinkSpeedExtEnabled, "LinkSpeedExtEnabled", 63, 3, 5)
	return c.err
}

func (p *PortCounters) walk(c codec) error {
	c.u8(&p.PortSelect, "PortSelect", 1, 0, 8)
	c.u16(&p.CounterSelect, "CounterSelect", 2, 0, 16)
	c.u16(&p.SymbolErrorCounter, "SymbolErrorCounter", 4, 0, 16)
	c.u8(&p.LinkErrorRecoveryCounter, "LinkErrorRecoveryCounter", 6, 0, 8)
	c.u8(&p.LinkDownedCounter, "LinkDownedCounter", 7, 0, 8)
	c.u16(&p.PortRcvErrors, "PortRcvErrors", 8, 0, 16)
	c.u16(&p.PortRcvRemotePhysicalErrors, "PortRcvRemotePhysicalErrors", 10, 0, 16)
	c.u16(&p.PortRcvSwitchRelayErrors, "PortRcvSwitchRelayErrors", 12, 0, 16)
	c.u16(&p.PortXmitDiscards, "PortXmitDiscards", 14, 0, 16)
	c.u8(&p.PortXmitConstraintErrors, "PortXmitConstraintErrors", 16, 0, 8)
	c.u8(&p.PortRcvConstraintErrors, "PortRcvConstraintErrors", 17, 0, 8)
	c.u8(&p.CounterSelect2, "CounterSelect2", 18, 0, 8)
	c.u8(&p.LocalLinkIntegrityErrors, "LocalLinkIntegrityErrors", 19, 0, 4)
	c.u8(&p.ExcessiveBufferOverrunErrors, "ExcessiveBufferOverrunErrors", 19, 4, 4)
	c.u16(&p.QP1Dropped, "QP1Dropped", 20, 0, 16)
	c.u16(&p.VL15Dropped, "VL15Dropped", 22, 0, 16)
	c.u32(&p.PortXmitData, "PortXmitData", 24, 0, 32)
	c.u32(&p.PortRcvData, "PortRcvData", 28, 0, 32)
	c.u32(&p.PortXmitPkts, "PortXmitPkts", 32, 0, 32)
	c.u32(&p.PortRcvPkts, "PortRcvPkts", 36, 0, 32)
	c.u32(&p.PortXmitWait, "PortXmitWait", 40, 0, 32)
	return c.err
}

func (p *PortCountersExtended) walk(c codec) error {
	c.u8(&p.PortSelect, "PortSelect", 1, 0, 8)
	c.u16(&p.CounterSelect, "CounterSelect", 2, 0, 16)
	c.u32(&p.CounterSelect2, "CounterSelect2", 4, 0, 32)
	for i, v := range p.counters() {
		c.u64(v, "counter", 8+8*i)
	}
	return c.err
}

// raw decodes or encodes a byte array field at off, as it is.
func (c *codec) raw(p []byte, off int) {
	if c.enc {
		if c.err == nil {
			copy(c.b[off:], p)
		}
		return
	}
	copy(p, c.b[off:])
}

// validateWalker reports the first field of w, size bytes, wider than its
// bits, as AppendTo would refuse it.
func validateWalker(layer string, size int, w walker) error {
	var tmp [Len]byte
	return w.walk(codec{b: tmp[:size], enc: true, name: layer})
}

// Validate reports a VendorID wider than 24 bits, as a *FieldError
// wrapping ErrBadValue; AppendTo refuses it.
func (n *NodeInfo) Validate() error { return validateWalker("NodeInfo", SMPDataLen, n) }

// Validate reports a Priority or SMState wider than 4 bits, as a
// *FieldError wrapping ErrBadValue; AppendTo refuses it.
func (s *SMInfo) Validate() error { return validateWalker("SMInfo", SMPDataLen, s) }

// Validate reports a LifeTimeValue wider than 5 bits or an
// OptimizedSLtoVLMappingProgramming wider than 2, as a *FieldError
// wrapping ErrBadValue; AppendTo refuses it.
func (s *SwitchInfo) Validate() error { return validateWalker("SwitchInfo", SMPDataLen, s) }

// Validate reports a LocalLinkIntegrityErrors or
// ExcessiveBufferOverrunErrors wider than 4 bits, as a *FieldError
// wrapping ErrBadValue; AppendTo refuses it.
func (p *PortCounters) Validate() error { return validateWalker("PortCounters", PerfDataLen, p) }
