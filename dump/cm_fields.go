package dump

import (
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// cmFields are the keys of the CM messages: tshark 4.0's names for what
// it decodes (REQ, REP, RTU, REJ, DREQ, DREP), the same style for the
// messages it does not (MRA, SIDR_REQ, SIDR_REP, LAP, APR).
var cmFields = cat(reqFields(), []Field{
	fCM("infiniband.cm.rep", mad.AttrConnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.REP.LocalCommID) }),
	fCM("infiniband.cm.rep.remotecommid", mad.AttrConnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.REP.RemoteCommID) }),
	fCM("infiniband.cm.rep.localqkey", mad.AttrConnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.REP.LocalQKey) }),
	fCM("infiniband.cm.rep.localqpn", mad.AttrConnectReply, 24, func(c *mad.CM) uint64 { return uint64(c.REP.LocalQPN) }),
	fCM("infiniband.cm.rep.localeecn", mad.AttrConnectReply, 24, func(c *mad.CM) uint64 { return uint64(c.REP.LocalEECN) }),
	fCM("infiniband.cm.rep.startpsn", mad.AttrConnectReply, 24, func(c *mad.CM) uint64 { return uint64(c.REP.StartingPSN) }),
	fCM("infiniband.cm.rep.respres", mad.AttrConnectReply, 8, func(c *mad.CM) uint64 { return uint64(c.REP.ResponderResources) }),
	fCM("infiniband.cm.rep.initdepth", mad.AttrConnectReply, 8, func(c *mad.CM) uint64 { return uint64(c.REP.InitiatorDepth) }),
	fCM("infiniband.cm.rep.tgtackdelay", mad.AttrConnectReply, 5, func(c *mad.CM) uint64 { return uint64(c.REP.TargetACKDelay) }),
	fCM("infiniband.cm.rep.failoveracc", mad.AttrConnectReply, 2, func(c *mad.CM) uint64 { return uint64(c.REP.FailoverAccepted) }),
	fCM("infiniband.cm.rep.e2eflowctrl", mad.AttrConnectReply, 1, func(c *mad.CM) uint64 { return b2u(c.REP.EndToEndFlowControl) }),
	fCM("infiniband.cm.rep.rnrretrcount", mad.AttrConnectReply, 3, func(c *mad.CM) uint64 { return uint64(c.REP.RNRRetryCount) }),
	fCM("infiniband.cm.rep.srq", mad.AttrConnectReply, 1, func(c *mad.CM) uint64 { return b2u(c.REP.SRQ) }),
	fCM64("infiniband.cm.rep.localcaguid", mad.AttrConnectReply, func(c *mad.CM) uint64 { return c.REP.LocalCAGUID }),
	fCM("infiniband.cm.rtu.localcommid", mad.AttrReadyToUse, 32, func(c *mad.CM) uint64 { return uint64(c.RTU.LocalCommID) }),
	fCM("infiniband.cm.rtu.remotecommid", mad.AttrReadyToUse, 32, func(c *mad.CM) uint64 { return uint64(c.RTU.RemoteCommID) }),
	fCM("infiniband.cm.rej.localcommid", mad.AttrConnectReject, 32, func(c *mad.CM) uint64 { return uint64(c.REJ.LocalCommID) }),
	fCM("infiniband.cm.rej.remotecommid", mad.AttrConnectReject, 32, func(c *mad.CM) uint64 { return uint64(c.REJ.RemoteCommID) }),
	fCM("infiniband.cm.rej.msgrej", mad.AttrConnectReject, 2, func(c *mad.CM) uint64 { return uint64(c.REJ.MessageRejected) }),
	fCM("infiniband.cm.rej.rejinfolen", mad.AttrConnectReject, 7, func(c *mad.CM) uint64 { return uint64(c.REJ.RejectedInfoLength) }),
	meaning(fCM("infiniband.cm.rej.reason", mad.AttrConnectReject, 16, func(c *mad.CM) uint64 { return uint64(c.REJ.Reason) }),
		func(v uint64) string { return mad.RejectReason(v).String() }),
	fCM("infiniband.cm.dreq.localcommid", mad.AttrDisconnectRequest, 32, func(c *mad.CM) uint64 { return uint64(c.DREQ.LocalCommID) }),
	fCM("infiniband.cm.dreq.remotecommid", mad.AttrDisconnectRequest, 32, func(c *mad.CM) uint64 { return uint64(c.DREQ.RemoteCommID) }),
	// tshark 4.0 names the DREQ's remote QPN under req.
	fCM("infiniband.cm.req.remoteqpneecn", mad.AttrDisconnectRequest, 24, func(c *mad.CM) uint64 { return uint64(c.DREQ.RemoteQPN) }),
	fCM("infiniband.cm.drsp.localcommid", mad.AttrDisconnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.DREP.LocalCommID) }),
	fCM("infiniband.cm.drsp.remotecommid", mad.AttrDisconnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.DREP.RemoteCommID) }),
	fCM("infiniband.cm.mra.localcommid", mad.AttrMsgRcptAck, 32, func(c *mad.CM) uint64 { return uint64(c.MRA.LocalCommID) }),
	fCM("infiniband.cm.mra.remotecommid", mad.AttrMsgRcptAck, 32, func(c *mad.CM) uint64 { return uint64(c.MRA.RemoteCommID) }),
	fCM("infiniband.cm.mra.msgmraed", mad.AttrMsgRcptAck, 2, func(c *mad.CM) uint64 { return uint64(c.MRA.MessageMRAed) }),
	fCM("infiniband.cm.mra.servicetimeout", mad.AttrMsgRcptAck, 5, func(c *mad.CM) uint64 { return uint64(c.MRA.ServiceTimeout) }),
	fCM("infiniband.cm.sidr_req.requestid", mad.AttrServiceIDResReq, 32, func(c *mad.CM) uint64 { return uint64(c.SIDRREQ.RequestID) }),
	fCM("infiniband.cm.sidr_req.pkey", mad.AttrServiceIDResReq, 16, func(c *mad.CM) uint64 { return uint64(c.SIDRREQ.PartitionKey) }),
	fCM64("infiniband.cm.sidr_req.serviceid", mad.AttrServiceIDResReq, func(c *mad.CM) uint64 { return uint64(c.SIDRREQ.ServiceID) }),
	fCM("infiniband.cm.sidr_rep.requestid", mad.AttrServiceIDResReqResp, 32, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.RequestID) }),
	meaning(fCM("infiniband.cm.sidr_rep.status", mad.AttrServiceIDResReqResp, 8, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.Status) }),
		func(v uint64) string { return mad.SIDRStatus(v).String() }),
	fCM("infiniband.cm.sidr_rep.qpn", mad.AttrServiceIDResReqResp, 24, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.QPN) }),
	fCM64("infiniband.cm.sidr_rep.serviceid", mad.AttrServiceIDResReqResp, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.ServiceID) }),
	fCM("infiniband.cm.sidr_rep.qkey", mad.AttrServiceIDResReqResp, 32, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.QKey) }),
	fCM("infiniband.cm.lap.localcommid", mad.AttrLoadAlternatePath, 32, func(c *mad.CM) uint64 { return uint64(c.LAP.LocalCommID) }),
	fCM("infiniband.cm.lap.remotecommid", mad.AttrLoadAlternatePath, 32, func(c *mad.CM) uint64 { return uint64(c.LAP.RemoteCommID) }),
	fCM("infiniband.cm.lap.remoteqpneecn", mad.AttrLoadAlternatePath, 24, func(c *mad.CM) uint64 { return uint64(c.LAP.RemoteQPN) }),
	fCM("infiniband.cm.apr.localcommid", mad.AttrAlternatePathResponse, 32, func(c *mad.CM) uint64 { return uint64(c.APR.LocalCommID) }),
	fCM("infiniband.cm.apr.remotecommid", mad.AttrAlternatePathResponse, 32, func(c *mad.CM) uint64 { return uint64(c.APR.RemoteCommID) }),
	meaning(fCM("infiniband.cm.apr.apstatus", mad.AttrAlternatePathResponse, 8, func(c *mad.CM) uint64 { return uint64(c.APR.APStatus) }),
		func(v uint64) string { return mad.APStatus(v).String() }),
})

// reqFields are the keys of a REQ: the message, its primary and
// alternate paths, the RDMA-CM service ID and IP-CM private data.
func reqFields() []Field {
	q := func(name string, bits uint8, get func(q *mad.REQ) uint64) Field {
		return fCM("infiniband.cm.req"+name, mad.AttrConnectRequest, bits, func(c *mad.CM) uint64 { return get(&c.REQ) })
	}
	fs := []Field{
		q("", 32, func(q *mad.REQ) uint64 { return uint64(q.LocalCommID) }),
		fCM64("infiniband.cm.req.serviceid", mad.AttrConnectRequest, func(c *mad.CM) uint64 { return uint64(c.REQ.ServiceID) }),
		// Bytes of the service ID: there when the service ID is RDMA-CM's,
		// as in tshark 4.0, whatever the private data holds (or whether the
		// capture kept it).
		fSA("infiniband.cm.req.serviceid.protocol", 8, func(m *madRec) (uint64, bool) { return uint64(m.cmL.REQ.ServiceID>>16) & 0xff, m.rdmaCMSID() }),
		fSA("infiniband.cm.req.serviceid.dport", 16, func(m *madRec) (uint64, bool) { return uint64(m.cmL.REQ.ServiceID) & 0xffff, m.rdmaCMSID() }),
		fCM64("infiniband.cm.req.localcaguid", mad.AttrConnectRequest, func(c *mad.CM) uint64 { return c.REQ.LocalCAGUID }),
		q(".localqkey", 32, func(q *mad.REQ) uint64 { return uint64(q.LocalQKey) }),
		q(".localqpn", 24, func(q *mad.REQ) uint64 { return uint64(q.LocalQPN) }),
		q(".responderres", 8, func(q *mad.REQ) uint64 { return uint64(q.ResponderResources) }),
		q(".localeecn", 24, func(q *mad.REQ) uint64 { return uint64(q.LocalEECN) }),
		q(".initdepth", 8, func(q *mad.REQ) uint64 { return uint64(q.InitiatorDepth) }),
		q(".remoteeecn", 24, func(q *mad.REQ) uint64 { return uint64(q.RemoteEECN) }),
		q(".remoteresptout", 5, func(q *mad.REQ) uint64 { return uint64(q.RemoteCMResponseTimeout) }),
		q(".transpsvctype", 2, func(q *mad.REQ) uint64 { return uint64(q.TransportServiceType) }),
		q(".e2eflowctrl", 1, func(q *mad.REQ) uint64 { return b2u(q.EndToEndFlowControl) }),
		q(".startpsn", 24, func(q *mad.REQ) uint64 { return uint64(q.StartingPSN) }),
		q(".localresptout", 5, func(q *mad.REQ) uint64 { return uint64(q.LocalCMResponseTimeout) }),
		q(".retrcount", 3, func(q *mad.REQ) uint64 { return uint64(q.RetryCount) }),
		q(".pkey", 16, func(q *mad.REQ) uint64 { return uint64(q.PartitionKey) }),
		q(".pppmtu", 4, func(q *mad.REQ) uint64 { return uint64(q.PathPacketPayloadMTU) }),
		q(".rdcexist", 1, func(q *mad.REQ) uint64 { return b2u(q.RDCExists) }),
		q(".rnrretrcount", 3, func(q *mad.REQ) uint64 { return uint64(q.RNRRetryCount) }),
		q(".maxcmretr", 4, func(q *mad.REQ) uint64 { return uint64(q.MaxCMRetries) }),
		q(".srq", 1, func(q *mad.REQ) uint64 { return b2u(q.SRQ) }),
		q(".ext_transport", 3, func(q *mad.REQ) uint64 { return uint64(q.ExtendedTransportType) }),
	}
	for _, alt := range []bool{false, true} {
		pre, path := ".prim_", func(q *mad.REQ) *mad.CMPath { return &q.Primary }
		if alt {
			pre, path = ".alt_", func(q *mad.REQ) *mad.CMPath { return &q.Alternate }
		}
		p := func(name string, bits uint8, get func(p *mad.CMPath) uint64) Field {
			f := q(pre+name, bits, func(q *mad.REQ) uint64 { return get(path(q)) })
			if name == "locallid" || name == "remotelid" {
				f.Hex = false // tshark's BASE_DEC
			}
			return f
		}
		fs = append(fs,
			p("locallid", 16, func(p *mad.CMPath) uint64 { return uint64(p.LocalPortLID) }),
			p("remotelid", 16, func(p *mad.CMPath) uint64 { return uint64(p.RemotePortLID) }))
		if alt {
			fs = append(fs, cmAltGIDs()...)
		} else {
			fs = append(fs, cmGIDs(path)...)
		}
		fs = append(fs,
			p("flowlabel", 20, func(p *mad.CMPath) uint64 { return uint64(p.FlowLabel) }),
			p("pktrate", 6, func(p *mad.CMPath) uint64 { return uint64(p.PacketRate) }),
			p("tfcclass", 8, func(p *mad.CMPath) uint64 { return uint64(p.TrafficClass) }),
			p("hoplim", 8, func(p *mad.CMPath) uint64 { return uint64(p.HopLimit) }),
			p("sl", 4, func(p *mad.CMPath) uint64 { return uint64(p.SL) }),
			p("subnetlocal", 1, func(p *mad.CMPath) uint64 { return b2u(p.SubnetLocal) }),
			p("localacktout", 5, func(p *mad.CMPath) uint64 { return uint64(p.LocalACKTimeout) }))
	}
	return append(fs,
		fIPCM("infiniband.cm.req.ip_cm.majv", 4, func(m *madRec) uint64 { return uint64(m.ipcmH.MajV) }),
		fIPCM("infiniband.cm.req.ip_cm.minv", 4, func(m *madRec) uint64 { return uint64(m.ipcmH.MinV) }),
		fIPCM("infiniband.cm.req.ip_cm.ipv", 4, func(m *madRec) uint64 { return uint64(m.ipcmH.IPV) }),
		fIPCM("infiniband.cm.req.ip_cm.sport", 16, func(m *madRec) uint64 { return uint64(m.ipcmH.SrcPort) }),
		fIPCMAddr("infiniband.cm.req.ip_cm.sip4", 4, func(p *mad.IPCM) *[16]byte { return &p.SrcIP }),
		fIPCMAddr("infiniband.cm.req.ip_cm.dip4", 4, func(p *mad.IPCM) *[16]byte { return &p.DstIP }),
		fIPCMAddr("infiniband.cm.req.ip_cm.sip6", 6, func(p *mad.IPCM) *[16]byte { return &p.SrcIP }),
		fIPCMAddr("infiniband.cm.req.ip_cm.dip6", 6, func(p *mad.IPCM) *[16]byte { return &p.DstIP }))
}

// cmGIDs are the primary path's GIDs as tshark 4.0 shows them: in a
// RoCEv2 frame over IPv4 as the IPv4 address of the GID's last four
// bytes (an IPv4-mapped GID) under the _ipv4 name, in any other frame as
// an IPv6 address.
func cmGIDs(path func(q *mad.REQ) *mad.CMPath) []Field {
	var fs []Field
	for _, remote := range []bool{false, true} {
		name := "infiniband.cm.req.prim_localgid"
		if remote {
			name = "infiniband.cm.req.prim_remotegid"
		}
		gid := func(r *Record) (*[16]byte, bool) {
			c := r.cm(mad.AttrConnectRequest)
			if c == nil {
				return nil, false
			}
			if remote {
				return &path(&c.REQ).RemotePortGID, true
			}
			return &path(&c.REQ).LocalPortGID, true
		}
		fs = append(fs, Field{Name: name, Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
			if g, ok := gid(r); ok && !overIPv4(r) {
				return addr(*g)
			}
			return none()
		}}, Field{Name: name + "_ipv4", Type: FieldIPv4, Get: func(r *Record) (Value, bool) {
			if g, ok := gid(r); ok && overIPv4(r) {
				return v4Value(g)
			}
			return none()
		}})
	}
	return fs
}

// cmAltGIDs are the alternate path's GIDs as tshark 4.0 shows them: as
// 16 bytes (FT_BYTES), in every REQ, an alternate path of zeros (none)
// included.
func cmAltGIDs() []Field {
	var fs []Field
	for _, remote := range []bool{false, true} {
		name := "infiniband.cm.req.alt_localgid"
		if remote {
			name = "infiniband.cm.req.alt_remotegid"
		}
		fs = append(fs, Field{Name: name, Type: FieldBytes, Get: func(r *Record) (Value, bool) {
			c := r.cm(mad.AttrConnectRequest)
			if c == nil {
				return none()
			}
			v := Value{Addr: c.REQ.Alternate.LocalPortGID, Len: 16}
			if remote {
				v.Addr = c.REQ.Alternate.RemotePortGID
			}
			return v, true
		}})
	}
	return fs
}

// overIPv4 reports whether r is a RoCEv2 frame over IPv4.
func overIPv4(r *Record) bool { return r.Kind == KindRoCE && r.RoCE.Encap == ib.RoCEv2IPv4 }

// cm returns the frame's CM message when its attribute is attr.
func (r *Record) cm(attr uint16) *mad.CM {
	if m := r.madRec(); m != nil && m.cm && m.hdr.AttributeID == attr {
		return &m.cmL
	}
	return nil
}

func fCM(name string, attr uint16, bits uint8, get func(c *mad.CM) uint64) Field {
	return numeric(name, FieldUint, bits, true, func(r *Record) (uint64, bool) {
		if c := r.cm(attr); c != nil {
			return get(c), true
		}
		return 0, false
	})
}

func fCM64(name string, attr uint16, get func(c *mad.CM) uint64) Field {
	return Field{Name: name, Type: FieldHex64, Hex: true, Get: func(r *Record) (Value, bool) {
		if c := r.cm(attr); c != nil {
			return u(get(c))
		}
		return none()
	}}
}

// fIPCM is a field of a REQ's RDMA-CM service ID and IP-CM private
// data, present when both are.
func fIPCM(name string, bits uint8, get func(m *madRec) uint64) Field {
	return fSA(name, bits, func(m *madRec) (uint64, bool) { return get(m), m.ipcm })
}

// fIPCMAddr is an IP-CM address of IP version ver.
func fIPCMAddr(name string, ver uint8, get func(p *mad.IPCM) *[16]byte) Field {
	typ := FieldIPv6
	if ver == 4 {
		typ = FieldIPv4
	}
	return Field{Name: name, Type: typ, Get: func(r *Record) (Value, bool) {
		m := r.madRec()
		if m == nil || !m.ipcm || m.ipcmH.IPV != ver {
			return none()
		}
		a := get(&m.ipcmH)
		if ver == 4 {
			return v4Value(a)
		}
		return addr(*a)
	}}
}

// v4Value is the IPv4 address in the last four bytes of a.
func v4Value(a *[16]byte) (Value, bool) {
	var v Value
	copy(v.Addr[:4], a[12:])
	return v, true
}

// rdmaCMSID reports whether the MAD is a CM REQ whose service ID is in
// RDMA-CM's IP range.
func (m *madRec) rdmaCMSID() bool {
	return m.cm && m.hdr.AttributeID == mad.AttrConnectRequest && m.cmL.REQ.ServiceID.IsIPCM()
}
