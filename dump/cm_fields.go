package dump

import (
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
	"sync"
)

// cmFields are the keys of the CM messages: tshark 4.0's names for what
// it decodes (REQ, REP, RTU, REJ, DREQ, DREP), the same style for the
// messages it does not (MRA, SIDR_REQ, SIDR_REP, LAP, APR).
var cmFields = sync.OnceValue(func() []Field {
	return cat(reqFields(), []Field{
		fCM("infiniband.cm.rep", mad.AttrConnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.REP.LocalCommID) }).doc("CM REP: local communication ID"),
		fCM("infiniband.cm.rep.remotecommid", mad.AttrConnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.REP.RemoteCommID) }).doc("REP: remote communication ID"),
		fCM("infiniband.cm.rep.localqkey", mad.AttrConnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.REP.LocalQKey) }).doc("REP: local Q_Key"),
		fCM("infiniband.cm.rep.localqpn", mad.AttrConnectReply, 24, func(c *mad.CM) uint64 { return uint64(c.REP.LocalQPN) }).doc("REP: local QPN"),
		fCM("infiniband.cm.rep.localeecn", mad.AttrConnectReply, 24, func(c *mad.CM) uint64 { return uint64(c.REP.LocalEECN) }).doc("REP: local EECN"),
		fCM("infiniband.cm.rep.startpsn", mad.AttrConnectReply, 24, func(c *mad.CM) uint64 { return uint64(c.REP.StartingPSN) }).doc("REP: starting PSN"),
		fCM("infiniband.cm.rep.respres", mad.AttrConnectReply, 8, func(c *mad.CM) uint64 { return uint64(c.REP.ResponderResources) }).doc("REP: responder resources"),
		fCM("infiniband.cm.rep.initdepth", mad.AttrConnectReply, 8, func(c *mad.CM) uint64 { return uint64(c.REP.InitiatorDepth) }).doc("REP: initiator depth"),
		fCM("infiniband.cm.rep.tgtackdelay", mad.AttrConnectReply, 5, func(c *mad.CM) uint64 { return uint64(c.REP.TargetACKDelay) }).doc("REP: target ACK delay"),
		fCM("infiniband.cm.rep.failoveracc", mad.AttrConnectReply, 2, func(c *mad.CM) uint64 { return uint64(c.REP.FailoverAccepted) }).doc("REP: failover accepted"),
		fCM("infiniband.cm.rep.e2eflowctrl", mad.AttrConnectReply, 1, func(c *mad.CM) uint64 { return b2u(c.REP.EndToEndFlowControl) }).doc("REP: end-to-end flow control, 0 or 1"),
		fCM("infiniband.cm.rep.rnrretrcount", mad.AttrConnectReply, 3, func(c *mad.CM) uint64 { return uint64(c.REP.RNRRetryCount) }).doc("REP: RNR retry count"),
		fCM("infiniband.cm.rep.srq", mad.AttrConnectReply, 1, func(c *mad.CM) uint64 { return b2u(c.REP.SRQ) }).doc("REP: SRQ, 0 or 1"),
		fCM64("infiniband.cm.rep.localcaguid", mad.AttrConnectReply, func(c *mad.CM) uint64 { return c.REP.LocalCAGUID }).doc("REP: local CA GUID, \"0x\" and 16 hex digits"),
		fCM("infiniband.cm.rtu.localcommid", mad.AttrReadyToUse, 32, func(c *mad.CM) uint64 { return uint64(c.RTU.LocalCommID) }).doc("CM RTU: local communication ID"),
		fCM("infiniband.cm.rtu.remotecommid", mad.AttrReadyToUse, 32, func(c *mad.CM) uint64 { return uint64(c.RTU.RemoteCommID) }).doc("RTU: remote communication ID"),
		fCM("infiniband.cm.rej.localcommid", mad.AttrConnectReject, 32, func(c *mad.CM) uint64 { return uint64(c.REJ.LocalCommID) }).doc("CM REJ: local communication ID"),
		fCM("infiniband.cm.rej.remotecommid", mad.AttrConnectReject, 32, func(c *mad.CM) uint64 { return uint64(c.REJ.RemoteCommID) }).doc("REJ: remote communication ID"),
		fCM("infiniband.cm.rej.msgrej", mad.AttrConnectReject, 2, func(c *mad.CM) uint64 { return uint64(c.REJ.MessageRejected) }).doc("REJ: message rejected (0 REQ, 1 REP, 2 other)"),
		fCM("infiniband.cm.rej.rejinfolen", mad.AttrConnectReject, 7, func(c *mad.CM) uint64 { return uint64(c.REJ.RejectedInfoLength) }).doc("REJ: bytes of additional reject information"),
		meaning(fCM("infiniband.cm.rej.reason", mad.AttrConnectReject, 16, func(c *mad.CM) uint64 { return uint64(c.REJ.Reason) }),
			func(v uint64) string { return mad.RejectReason(v).String() }).doc("REJ: reason (IBTA Table 105; -v names it)"),
		fCM("infiniband.cm.dreq.localcommid", mad.AttrDisconnectRequest, 32, func(c *mad.CM) uint64 { return uint64(c.DREQ.LocalCommID) }).doc("CM DREQ: local communication ID"),
		fCM("infiniband.cm.dreq.remotecommid", mad.AttrDisconnectRequest, 32, func(c *mad.CM) uint64 { return uint64(c.DREQ.RemoteCommID) }).doc("DREQ: remote communication ID"),
		// tshark 4.0 names the DREQ's remote QPN under req.
		fCM("infiniband.cm.req.remoteqpneecn", mad.AttrDisconnectRequest, 24, func(c *mad.CM) uint64 { return uint64(c.DREQ.RemoteQPN) }).doc("DREQ: remote QPN or EECN (tshark 4.0's name, under req)"),
		fCM("infiniband.cm.drsp.localcommid", mad.AttrDisconnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.DREP.LocalCommID) }).doc("CM DREP: local communication ID"),
		fCM("infiniband.cm.drsp.remotecommid", mad.AttrDisconnectReply, 32, func(c *mad.CM) uint64 { return uint64(c.DREP.RemoteCommID) }).doc("DREP: remote communication ID"),
		fCM("infiniband.cm.mra.localcommid", mad.AttrMsgRcptAck, 32, func(c *mad.CM) uint64 { return uint64(c.MRA.LocalCommID) }).doc("CM MRA: local communication ID (MRA, SIDR, LAP, APR: not Wireshark fields)"),
		fCM("infiniband.cm.mra.remotecommid", mad.AttrMsgRcptAck, 32, func(c *mad.CM) uint64 { return uint64(c.MRA.RemoteCommID) }).doc("MRA: remote communication ID"),
		fCM("infiniband.cm.mra.msgmraed", mad.AttrMsgRcptAck, 2, func(c *mad.CM) uint64 { return uint64(c.MRA.MessageMRAed) }).doc("MRA: message MRAed (0 REQ, 1 REP, 2 LAP)"),
		fCM("infiniband.cm.mra.servicetimeout", mad.AttrMsgRcptAck, 5, func(c *mad.CM) uint64 { return uint64(c.MRA.ServiceTimeout) }).doc("MRA: service timeout"),
		fCM("infiniband.cm.sidr_req.requestid", mad.AttrServiceIDResReq, 32, func(c *mad.CM) uint64 { return uint64(c.SIDRREQ.RequestID) }).doc("CM SIDR_REQ: request ID"),
		fCM("infiniband.cm.sidr_req.pkey", mad.AttrServiceIDResReq, 16, func(c *mad.CM) uint64 { return uint64(c.SIDRREQ.PartitionKey) }).doc("SIDR_REQ: partition key"),
		fCM64("infiniband.cm.sidr_req.serviceid", mad.AttrServiceIDResReq, func(c *mad.CM) uint64 { return uint64(c.SIDRREQ.ServiceID) }).doc("SIDR_REQ: service ID, \"0x\" and 16 hex digits"),
		fCM("infiniband.cm.sidr_rep.requestid", mad.AttrServiceIDResReqResp, 32, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.RequestID) }).doc("CM SIDR_REP: request ID"),
		meaning(fCM("infiniband.cm.sidr_rep.status", mad.AttrServiceIDResReqResp, 8, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.Status) }),
			func(v uint64) string { return mad.SIDRStatus(v).String() }).doc("SIDR_REP: status (0 QPN valid, ...; -v names it)"),
		fCM("infiniband.cm.sidr_rep.qpn", mad.AttrServiceIDResReqResp, 24, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.QPN) }).doc("SIDR_REP: QPN"),
		fCM64("infiniband.cm.sidr_rep.serviceid", mad.AttrServiceIDResReqResp, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.ServiceID) }).doc("SIDR_REP: service ID, \"0x\" and 16 hex digits"),
		fCM("infiniband.cm.sidr_rep.qkey", mad.AttrServiceIDResReqResp, 32, func(c *mad.CM) uint64 { return uint64(c.SIDRREP.QKey) }).doc("SIDR_REP: Q_Key"),
		fCM("infiniband.cm.lap.localcommid", mad.AttrLoadAlternatePath, 32, func(c *mad.CM) uint64 { return uint64(c.LAP.LocalCommID) }).doc("CM LAP: local communication ID"),
		fCM("infiniband.cm.lap.remotecommid", mad.AttrLoadAlternatePath, 32, func(c *mad.CM) uint64 { return uint64(c.LAP.RemoteCommID) }).doc("LAP: remote communication ID"),
		fCM("infiniband.cm.lap.remoteqpneecn", mad.AttrLoadAlternatePath, 24, func(c *mad.CM) uint64 { return uint64(c.LAP.RemoteQPN) }).doc("LAP: remote QPN or EECN"),
		fCM("infiniband.cm.apr.localcommid", mad.AttrAlternatePathResponse, 32, func(c *mad.CM) uint64 { return uint64(c.APR.LocalCommID) }).doc("CM APR: local communication ID"),
		fCM("infiniband.cm.apr.remotecommid", mad.AttrAlternatePathResponse, 32, func(c *mad.CM) uint64 { return uint64(c.APR.RemoteCommID) }).doc("APR: remote communication ID"),
		meaning(fCM("infiniband.cm.apr.apstatus", mad.AttrAlternatePathResponse, 8, func(c *mad.CM) uint64 { return uint64(c.APR.APStatus) }),
			func(v uint64) string { return mad.APStatus(v).String() }).doc("APR: status (0 path loaded, ...; -v names it)"),
	})
})

// reqFields are the keys of a REQ: the message, its primary and
// alternate paths, the RDMA-CM service ID and IP-CM private data.
func reqFields() []Field {
	q := func(name string, bits uint8, get func(q *mad.REQ) uint64) Field {
		return fCM(name, mad.AttrConnectRequest, bits, func(c *mad.CM) uint64 { return get(&c.REQ) })
	}
	fs := []Field{
		q("infiniband.cm.req", 32, func(q *mad.REQ) uint64 { return uint64(q.LocalCommID) }).doc("CM REQ: local communication ID"),
		fCM64("infiniband.cm.req.serviceid", mad.AttrConnectRequest, func(c *mad.CM) uint64 { return uint64(c.REQ.ServiceID) }).doc("REQ: service ID, \"0x\" and 16 hex digits"),
		// Bytes of the service ID: there when the service ID is RDMA-CM's,
		// as in tshark 4.0, whatever the private data holds (or whether the
		// capture kept it).
		fSA("infiniband.cm.req.serviceid.protocol", 8, func(m *madRec) (uint64, bool) { return uint64(m.cmL.REQ.ServiceID>>16) & 0xff, m.rdmaCMSID() }).doc("REQ: RDMA-CM port space's protocol byte (6 TCP, 0x11 UDP, 0x3f IPoIB; RDMA-CM service IDs only)"),
		fSA("infiniband.cm.req.serviceid.dport", 16, func(m *madRec) (uint64, bool) { return uint64(m.cmL.REQ.ServiceID) & 0xffff, m.rdmaCMSID() }).doc("REQ: RDMA-CM destination port"),
		fCM64("infiniband.cm.req.localcaguid", mad.AttrConnectRequest, func(c *mad.CM) uint64 { return c.REQ.LocalCAGUID }).doc("REQ: local CA GUID, \"0x\" and 16 hex digits"),
		q("infiniband.cm.req.localqkey", 32, func(q *mad.REQ) uint64 { return uint64(q.LocalQKey) }).doc("REQ: local Q_Key"),
		q("infiniband.cm.req.localqpn", 24, func(q *mad.REQ) uint64 { return uint64(q.LocalQPN) }).doc("REQ: local QPN"),
		q("infiniband.cm.req.responderres", 8, func(q *mad.REQ) uint64 { return uint64(q.ResponderResources) }).doc("REQ: responder resources"),
		q("infiniband.cm.req.localeecn", 24, func(q *mad.REQ) uint64 { return uint64(q.LocalEECN) }).doc("REQ: local EECN"),
		q("infiniband.cm.req.initdepth", 8, func(q *mad.REQ) uint64 { return uint64(q.InitiatorDepth) }).doc("REQ: initiator depth"),
		q("infiniband.cm.req.remoteeecn", 24, func(q *mad.REQ) uint64 { return uint64(q.RemoteEECN) }).doc("REQ: remote EECN"),
		q("infiniband.cm.req.remoteresptout", 5, func(q *mad.REQ) uint64 { return uint64(q.RemoteCMResponseTimeout) }).doc("REQ: remote CM response timeout"),
		q("infiniband.cm.req.transpsvctype", 2, func(q *mad.REQ) uint64 { return uint64(q.TransportServiceType) }).doc("REQ: transport service type (0 RC, 1 UC, 2 RD)"),
		q("infiniband.cm.req.e2eflowctrl", 1, func(q *mad.REQ) uint64 { return b2u(q.EndToEndFlowControl) }).doc("REQ: end-to-end flow control, 0 or 1"),
		q("infiniband.cm.req.startpsn", 24, func(q *mad.REQ) uint64 { return uint64(q.StartingPSN) }).doc("REQ: starting PSN"),
		q("infiniband.cm.req.localresptout", 5, func(q *mad.REQ) uint64 { return uint64(q.LocalCMResponseTimeout) }).doc("REQ: local CM response timeout"),
		q("infiniband.cm.req.retrcount", 3, func(q *mad.REQ) uint64 { return uint64(q.RetryCount) }).doc("REQ: retry count"),
		q("infiniband.cm.req.pkey", 16, func(q *mad.REQ) uint64 { return uint64(q.PartitionKey) }).doc("REQ: partition key"),
		q("infiniband.cm.req.pppmtu", 4, func(q *mad.REQ) uint64 { return uint64(q.PathPacketPayloadMTU) }).doc("REQ: path packet payload MTU code"),
		q("infiniband.cm.req.rdcexist", 1, func(q *mad.REQ) uint64 { return b2u(q.RDCExists) }).doc("REQ: RDC exists, 0 or 1"),
		q("infiniband.cm.req.rnrretrcount", 3, func(q *mad.REQ) uint64 { return uint64(q.RNRRetryCount) }).doc("REQ: RNR retry count"),
		q("infiniband.cm.req.maxcmretr", 4, func(q *mad.REQ) uint64 { return uint64(q.MaxCMRetries) }).doc("REQ: max CM retries"),
		q("infiniband.cm.req.srq", 1, func(q *mad.REQ) uint64 { return b2u(q.SRQ) }).doc("REQ: SRQ, 0 or 1"),
		q("infiniband.cm.req.ext_transport", 3, func(q *mad.REQ) uint64 { return uint64(q.ExtendedTransportType) }).doc("REQ: extended transport type (1 XRC)"),
	}
	prim := func(q *mad.REQ) *mad.CMPath { return &q.Primary }
	alt := func(q *mad.REQ) *mad.CMPath { return &q.Alternate }
	p := func(name string, path func(q *mad.REQ) *mad.CMPath, bits uint8, get func(p *mad.CMPath) uint64) Field {
		return q(name, bits, func(q *mad.REQ) uint64 { return get(path(q)) })
	}
	lid := func(f Field) Field { f.Hex = false; return f } // tshark's BASE_DEC
	fs = append(fs,
		lid(p("infiniband.cm.req.prim_locallid", prim, 16, func(p *mad.CMPath) uint64 { return uint64(p.LocalPortLID) })).doc("REQ primary path: local port LID"),
		lid(p("infiniband.cm.req.prim_remotelid", prim, 16, func(p *mad.CMPath) uint64 { return uint64(p.RemotePortLID) })).doc("REQ primary path: remote port LID"))
	fs = append(fs, cmGIDs(prim)...)
	fs = append(fs,
		p("infiniband.cm.req.prim_flowlabel", prim, 20, func(p *mad.CMPath) uint64 { return uint64(p.FlowLabel) }).typeWidth(32).doc("primary path: flow label, 20 bits (tshark 4.0 shows its top 12)"),
		p("infiniband.cm.req.prim_pktrate", prim, 6, func(p *mad.CMPath) uint64 { return uint64(p.PacketRate) }).typeWidth(32).doc("primary path: packet rate (tshark 4.0 reads the wrong byte)"),
		p("infiniband.cm.req.prim_tfcclass", prim, 8, func(p *mad.CMPath) uint64 { return uint64(p.TrafficClass) }).doc("primary path: traffic class"),
		p("infiniband.cm.req.prim_hoplim", prim, 8, func(p *mad.CMPath) uint64 { return uint64(p.HopLimit) }).doc("primary path: hop limit"),
		p("infiniband.cm.req.prim_sl", prim, 4, func(p *mad.CMPath) uint64 { return uint64(p.SL) }).doc("primary path: service level"),
		p("infiniband.cm.req.prim_subnetlocal", prim, 1, func(p *mad.CMPath) uint64 { return b2u(p.SubnetLocal) }).doc("primary path: subnet local, 0 or 1"),
		p("infiniband.cm.req.prim_localacktout", prim, 5, func(p *mad.CMPath) uint64 { return uint64(p.LocalACKTimeout) }).doc("primary path: local ACK timeout"))
	fs = append(fs,
		lid(p("infiniband.cm.req.alt_locallid", alt, 16, func(p *mad.CMPath) uint64 { return uint64(p.LocalPortLID) })).doc("REQ alternate path: local port LID"),
		lid(p("infiniband.cm.req.alt_remotelid", alt, 16, func(p *mad.CMPath) uint64 { return uint64(p.RemotePortLID) })).doc("REQ alternate path: remote port LID"))
	fs = append(fs, cmAltGIDs()...)
	fs = append(fs,
		p("infiniband.cm.req.alt_flowlabel", alt, 20, func(p *mad.CMPath) uint64 { return uint64(p.FlowLabel) }).typeWidth(32).doc("alternate path: flow label (as for the primary path)"),
		p("infiniband.cm.req.alt_pktrate", alt, 6, func(p *mad.CMPath) uint64 { return uint64(p.PacketRate) }).typeWidth(32).doc("alternate path: packet rate"),
		p("infiniband.cm.req.alt_tfcclass", alt, 8, func(p *mad.CMPath) uint64 { return uint64(p.TrafficClass) }).doc("alternate path: traffic class"),
		p("infiniband.cm.req.alt_hoplim", alt, 8, func(p *mad.CMPath) uint64 { return uint64(p.HopLimit) }).doc("alternate path: hop limit"),
		p("infiniband.cm.req.alt_sl", alt, 4, func(p *mad.CMPath) uint64 { return uint64(p.SL) }).doc("alternate path: service level"),
		p("infiniband.cm.req.alt_subnetlocal", alt, 1, func(p *mad.CMPath) uint64 { return b2u(p.SubnetLocal) }).doc("alternate path: subnet local, 0 or 1"),
		p("infiniband.cm.req.alt_localacktout", alt, 5, func(p *mad.CMPath) uint64 { return uint64(p.LocalACKTimeout) }).doc("alternate path: local ACK timeout"))
	return append(fs,
		fIPCM("infiniband.cm.req.ip_cm.majv", 4, func(m *madRec) uint64 { return uint64(m.ipcmH.MajV) }).doc("REQ IP-CM private data (RDMA-CM service IDs): major version"),
		fIPCM("infiniband.cm.req.ip_cm.minv", 4, func(m *madRec) uint64 { return uint64(m.ipcmH.MinV) }).doc("IP-CM: minor version"),
		fIPCM("infiniband.cm.req.ip_cm.ipv", 4, func(m *madRec) uint64 { return uint64(m.ipcmH.IPV) }).doc("IP-CM: IP version, 4 or 6"),
		fIPCM("infiniband.cm.req.ip_cm.sport", 16, func(m *madRec) uint64 { return uint64(m.ipcmH.SrcPort) }).doc("IP-CM: source port"),
		fIPCMAddr("infiniband.cm.req.ip_cm.sip4", 4, func(p *mad.IPCM) *[16]byte { return &p.SrcIP }).doc("IP-CM: source IPv4 address (IP version 4)"),
		fIPCMAddr("infiniband.cm.req.ip_cm.dip4", 4, func(p *mad.IPCM) *[16]byte { return &p.DstIP }).doc("IP-CM: destination IPv4 address"),
		fIPCMAddr("infiniband.cm.req.ip_cm.sip6", 6, func(p *mad.IPCM) *[16]byte { return &p.SrcIP }).doc("IP-CM: source IPv6 address (IP version 6)"),
		fIPCMAddr("infiniband.cm.req.ip_cm.dip6", 6, func(p *mad.IPCM) *[16]byte { return &p.DstIP }).doc("IP-CM: destination IPv6 address"))
}

// cmGIDs are the primary path's GIDs as tshark 4.0 shows them: in a
// RoCEv2 frame over IPv4 as the IPv4 address of the GID's last four
// bytes (an IPv4-mapped GID) under the _ipv4 name, in any other frame as
// an IPv6 address.
func cmGIDs(path func(q *mad.REQ) *mad.CMPath) []Field {
	var fs []Field
	for _, remote := range []bool{false, true} {
		name, name4 := "infiniband.cm.req.prim_localgid", "infiniband.cm.req.prim_localgid_ipv4"
		doc, doc4 := "REQ primary path: local port GID (not in RoCEv2 over IPv4)", "REQ primary path: local port GID's IPv4 address (RoCEv2 over IPv4)"
		if remote {
			name, name4 = "infiniband.cm.req.prim_remotegid", "infiniband.cm.req.prim_remotegid_ipv4"
			doc, doc4 = "REQ primary path: remote port GID (not in RoCEv2 over IPv4)", "REQ primary path: remote port GID's IPv4 address (RoCEv2 over IPv4)"
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
		}}.doc(doc), Field{Name: name4, Type: FieldIPv4, Get: func(r *Record) (Value, bool) {
			if g, ok := gid(r); ok && overIPv4(r) {
				return v4Value(g)
			}
			return none()
		}}.doc(doc4))
	}
	return fs
}

// cmAltGIDs are the alternate path's GIDs as tshark 4.0 shows them: as
// 16 bytes (FT_BYTES), in every REQ, an alternate path of zeros (none)
// included.
func cmAltGIDs() []Field {
	var fs []Field
	for _, remote := range []bool{false, true} {
		name, doc := "infiniband.cm.req.alt_localgid", "REQ alternate path: local port GID, 32 lowercase hex digits (bytes, as tshark 4.0 shows it), zeros when there is no alternate path"
		if remote {
			name, doc = "infiniband.cm.req.alt_remotegid", "REQ alternate path: remote port GID, 32 lowercase hex digits"
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
		}}.doc(doc))
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
