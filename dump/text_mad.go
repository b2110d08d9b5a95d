package dump

import (
	"strconv"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// madText is the scratch space of a MAD's text: the MAD header, the CM
// message and the IP-CM private data of the frame being formatted.
type madText struct {
	hdr mad.Header
	cm  mad.CM
	ip  mad.IPCM

	smp   mad.SMP
	dr    mad.SMPDirected
	perf  mad.PerfMgt
	attrs smpAttrs
}

// smpAttrs holds the SMP and PerfMgt attributes a text line shows.
type smpAttrs struct {
	node     mad.NodeInfo
	port     mad.PortInfo
	sm       mad.SMInfo
	counters mad.PortCounters
	ext      mad.PortCountersExtended
}

// appendMAD appends ": " and the management datagram a UD SEND Only to
// QP 0 or QP 1 carries: for CM the message and its key fields ("CM REQ
// comm 0x34cfb552 qpn 0x000011 psn 0xe1a47d 192.168.65.5 >
// 192.168.65.4:7471 (RDMA-CM TCP port space)"), for the other classes
// the class, method and attribute and the transaction ID, then for an SMP
// its hop pointer and count (directed route) and for an SMP or PerfMgt
// MAD other than a Get request the key fields of its attribute ("SMP-DR
// GetResp SMInfo tid 0x0001509c000125c8 hop 1/2 guid 0x0002c9020020b4dd
// priority 0 state Master"). Of a MAD the capture cut, the class,
// method, attribute and transaction ID when its header was captured, and
// tcpdump's mark of a cut, "[|mad]". Other packets append nothing.
func (r *Record) appendMAD(b []byte) []byte {
	p := &r.RoCE.Packet
	if p.BTH.OpCode != ib.OpUDSendOnly || p.BTH.DestQP > ib.QPGSI || len(p.Payload) < mad.Len && (!p.BTH.Truncated || len(p.Payload) == 0) {
		return b
	}
	m := &r.mads
	if len(p.Payload) < mad.Len {
		if m.hdr.Decode(p.Payload) == nil {
			b = append(b, ": "...)
			b = m.hdr.AppendText(b)
			b = append(b, " tid 0x"...)
			b = appendHex64(b, m.hdr.TransactionID)
		}
		return append(b, " [|mad]"...)
	}
	if m.hdr.Decode(p.Payload) != nil {
		return b
	}
	b = append(b, ": "...)
	if m.hdr.MgmtClass == mad.ClassCM {
		m.cm.AttributeID = m.hdr.AttributeID
		if f := cmText[m.hdr.AttributeID]; f != nil && m.cm.DecodeFromBytes(p.Payload[mad.HeaderLen:], nil) == nil {
			b = append(b, "CM "...)
			b = append(b, m.cm.Name()...)
			return f(b, m)
		}
	}
	b = m.hdr.AppendText(b)
	b = append(b, " tid 0x"...)
	b = appendHex64(b, m.hdr.TransactionID)
	return m.appendClass(b, p.Payload[mad.HeaderLen:])
}

// appendClass appends the fields of an SMP or PerfMgt MAD after its
// header; data is the MAD data. The attribute of a Get request is empty
// and not shown.
func (m *madText) appendClass(b, data []byte) []byte {
	show := m.hdr.Response || m.hdr.Method != mad.MethodGet
	switch m.hdr.MgmtClass {
	case mad.ClassSubnLID:
		m.smp.Header = m.hdr
		if m.smp.DecodeFromBytes(data, nil) == nil && show {
			b = m.attrs.appendSMP(b, m.hdr.AttributeID, m.smp.Data[:])
		}
	case mad.ClassSubnDR:
		m.dr.Header = m.hdr
		if m.dr.DecodeFromBytes(data, nil) != nil {
			return b
		}
		b = append(b, " hop "...)
		b = strconv.AppendUint(b, uint64(m.dr.HopPointer()), 10)
		b = append(b, '/')
		b = strconv.AppendUint(b, uint64(m.dr.HopCount()), 10)
		if show {
			b = m.attrs.appendSMP(b, m.hdr.AttributeID, m.dr.Data[:])
		}
	case mad.ClassPerfMgt:
		m.perf.Header = m.hdr
		if m.perf.DecodeFromBytes(data, nil) == nil && show {
			b = m.attrs.appendPerf(b, m.hdr.AttributeID, m.perf.Data[:])
		}
	}
	return b
}

// appendSMP appends the key fields of the SMP attributes the line shows.
func (a *smpAttrs) appendSMP(b []byte, id uint16, d []byte) []byte {
	switch mad.SMPAttribute(id) {
	case mad.SMPAttrNodeInfo:
		if a.node.Decode(d) == nil {
			b = append(b, " type "...)
			b = append(b, a.node.NodeType.String()...)
			b = appendUint(b, " ports ", uint64(a.node.NumPorts))
			b = append(b, " guid 0x"...)
			b = appendHex64(b, a.node.NodeGUID)
			b = append(b, " port guid 0x"...)
			b = appendHex64(b, a.node.PortGUID)
		}
	case mad.SMPAttrPortInfo:
		if a.port.Decode(d) == nil {
			b = append(b, " lid 0x"...)
			b = appendHex16(b, a.port.LID)
			b = append(b, " sm lid 0x"...)
			b = appendHex16(b, a.port.MasterSMLID)
			b = append(b, " state "...)
			b = append(b, a.port.StateName()...)
			b = appendUint(b, " lmc ", uint64(a.port.LMC))
		}
	case mad.SMPAttrSMInfo:
		if a.sm.Decode(d) == nil {
			b = append(b, " guid 0x"...)
			b = appendHex64(b, a.sm.GUID)
			b = appendUint(b, " priority ", uint64(a.sm.Priority))
			b = append(b, " state "...)
			b = append(b, a.sm.SMState.String()...)
		}
	}
	return b
}

// appendPerf appends the key counters of PortCounters and
// PortCountersExtended.
func (a *smpAttrs) appendPerf(b []byte, id uint16, d []byte) []byte {
	switch mad.PerfAttribute(id) {
	case mad.PerfAttrPortCounters:
		if c := &a.counters; c.Decode(d) == nil {
			b = appendUint(b, " port ", uint64(c.PortSelect))
			b = appendUint(b, " symbol_errors ", uint64(c.SymbolErrorCounter))
			b = appendUint(b, " rcv_errors ", uint64(c.PortRcvErrors))
			b = appendUint(b, " xmit_discards ", uint64(c.PortXmitDiscards))
			b = appendUint(b, " xmit_data ", uint64(c.PortXmitData))
			b = appendUint(b, " rcv_data ", uint64(c.PortRcvData))
			b = appendUint(b, " xmit_pkts ", uint64(c.PortXmitPkts))
			b = appendUint(b, " rcv_pkts ", uint64(c.PortRcvPkts))
		}
	case mad.PerfAttrPortCountersExtended:
		if c := &a.ext; c.Decode(d) == nil {
			b = appendUint(b, " port ", uint64(c.PortSelect))
			b = appendUint(b, " xmit_data ", c.PortXmitData)
			b = appendUint(b, " rcv_data ", c.PortRcvData)
			b = appendUint(b, " xmit_pkts ", c.PortXmitPkts)
			b = appendUint(b, " rcv_pkts ", c.PortRcvPkts)
		}
	}
	return b
}

// appendUint appends label and v in decimal.
func appendUint(b []byte, label string, v uint64) []byte {
	return strconv.AppendUint(append(b, label...), v, 10)
}

// cmText appends the key fields of each CM message, by attribute ID.
var cmText = map[uint16]func(b []byte, m *madText) []byte{
	mad.AttrClassPortInfo: func(b []byte, _ *madText) []byte { return b },
	mad.AttrConnectRequest: func(b []byte, m *madText) []byte {
		q := &m.cm.REQ
		b = appendComm(b, q.LocalCommID)
		b = appendQPNPSN(b, q.LocalQPN, q.StartingPSN)
		ps, port, ok := q.ServiceID.RDMACM()
		switch {
		case ok && q.IPCM(&m.ip):
			b = append(b, ' ')
			b = m.ip.Src().AppendTo(b)
			b = append(b, " > "...)
			b = m.ip.Dst().AppendTo(b)
			b = append(b, ':')
			b = strconv.AppendUint(b, uint64(port), 10)
		case ok:
			b = append(b, " port "...)
			b = strconv.AppendUint(b, uint64(port), 10)
		default:
			b = append(b, " service 0x"...)
			return appendHex64(b, uint64(q.ServiceID))
		}
		b = append(b, " (RDMA-CM "...)
		b = append(b, ps.String()...)
		return append(b, " port space)"...)
	},
	mad.AttrMsgRcptAck: func(b []byte, m *madText) []byte {
		return appendComms(b, m.cm.MRA.LocalCommID, m.cm.MRA.RemoteCommID)
	},
	mad.AttrConnectReject: func(b []byte, m *madText) []byte {
		j := &m.cm.REJ
		b = appendComms(b, j.LocalCommID, j.RemoteCommID)
		b = append(b, " reason "...)
		b = strconv.AppendUint(b, uint64(j.Reason), 10)
		b = append(b, " ("...)
		b = append(b, j.Reason.String()...)
		return append(b, ')')
	},
	mad.AttrConnectReply: func(b []byte, m *madText) []byte {
		p := &m.cm.REP
		b = appendComms(b, p.LocalCommID, p.RemoteCommID)
		return appendQPNPSN(b, p.LocalQPN, p.StartingPSN)
	},
	mad.AttrReadyToUse: func(b []byte, m *madText) []byte {
		return appendComms(b, m.cm.RTU.LocalCommID, m.cm.RTU.RemoteCommID)
	},
	mad.AttrDisconnectRequest: func(b []byte, m *madText) []byte {
		b = appendComms(b, m.cm.DREQ.LocalCommID, m.cm.DREQ.RemoteCommID)
		b = append(b, " qpn 0x"...)
		return appendHex24(b, m.cm.DREQ.RemoteQPN)
	},
	mad.AttrDisconnectReply: func(b []byte, m *madText) []byte {
		return appendComms(b, m.cm.DREP.LocalCommID, m.cm.DREP.RemoteCommID)
	},
	mad.AttrServiceIDResReq: func(b []byte, m *madText) []byte {
		b = append(b, " request 0x"...)
		b = appendHex32(b, m.cm.SIDRREQ.RequestID)
		b = append(b, " service 0x"...)
		return appendHex64(b, uint64(m.cm.SIDRREQ.ServiceID))
	},
	mad.AttrServiceIDResReqResp: func(b []byte, m *madText) []byte {
		s := &m.cm.SIDRREP
		b = append(b, " request 0x"...)
		b = appendHex32(b, s.RequestID)
		b = append(b, " qpn 0x"...)
		b = appendHex24(b, s.QPN)
		b = append(b, " status "...)
		return append(b, s.Status.String()...)
	},
	mad.AttrLoadAlternatePath: func(b []byte, m *madText) []byte {
		return appendComms(b, m.cm.LAP.LocalCommID, m.cm.LAP.RemoteCommID)
	},
	mad.AttrAlternatePathResponse: func(b []byte, m *madText) []byte {
		b = appendComms(b, m.cm.APR.LocalCommID, m.cm.APR.RemoteCommID)
		b = append(b, " status "...)
		return append(b, m.cm.APR.APStatus.String()...)
	},
}

func appendComm(b []byte, local uint32) []byte {
	b = append(b, " comm 0x"...)
	return appendHex32(b, local)
}

func appendComms(b []byte, local, remote uint32) []byte {
	b = appendComm(b, local)
	b = append(b, " remote 0x"...)
	return appendHex32(b, remote)
}

func appendQPNPSN(b []byte, qpn, psn uint32) []byte {
	b = append(b, " qpn 0x"...)
	b = appendHex24(b, qpn)
	b = append(b, " psn 0x"...)
	return appendHex24(b, psn)
}
