package dump

import (
	"strconv"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

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
//
// The MAD is the one Decode decoded for the JSON keys (r.madj,
// decodeMAD): a frame's MAD is decoded once.
func (r *Record) appendMAD(b []byte) []byte {
	p := &r.RoCE.Packet
	if p.BTH.OpCode != ib.OpUDSendOnly || p.BTH.DestQP > ib.QPGSI || len(p.Payload) < mad.Len && (!p.BTH.Truncated || len(p.Payload) == 0) {
		return b
	}
	m := &r.madj
	h := &m.hdr
	if len(p.Payload) < mad.Len {
		// decodeCutMAD decoded the MAD with the bytes not captured
		// zeros: its header is the frame's when the capture kept it.
		if len(p.Payload) >= mad.HeaderLen {
			b = append(b, ": "...)
			b = h.AppendText(b)
			b = append(b, " tid 0x"...)
			b = appendHex64(b, h.TransactionID)
		}
		return append(b, " [|mad]"...)
	}
	b = append(b, ": "...)
	if m.cm {
		if f := cmText[h.AttributeID]; f != nil {
			b = append(b, "CM "...)
			b = append(b, m.cmL.Name()...)
			return f(b, m)
		}
	}
	b = h.AppendText(b)
	b = append(b, " tid 0x"...)
	b = appendHex64(b, h.TransactionID)
	return m.appendClass(b)
}

// appendClass appends the fields of an SMP or PerfMgt MAD after its
// header. The attribute of a Get request is empty and not shown.
func (m *madRec) appendClass(b []byte) []byte {
	h := &m.hdr
	show := h.Response || h.Method != mad.MethodGet
	switch s := &m.smp; {
	case s.lid:
		if show {
			b = m.appendSMP(b)
		}
	case s.dr:
		b = append(b, " hop "...)
		b = strconv.AppendUint(b, uint64(s.drS.HopPointer()), 10)
		b = append(b, '/')
		b = strconv.AppendUint(b, uint64(s.drS.HopCount()), 10)
		if show {
			b = m.appendSMP(b)
		}
	case h.MgmtClass == mad.ClassPerfMgt && show:
		b = m.appendPerf(b)
	}
	return b
}

// appendSMP appends the key fields of the SMP attributes the line shows.
func (m *madRec) appendSMP(b []byte) []byte {
	switch s, a := &m.smp, &m.attr; {
	case s.ni:
		n := &s.nodeInfo
		b = append(b, " type "...)
		b = append(b, n.NodeType.String()...)
		b = appendUint(b, " ports ", uint64(n.NumPorts))
		b = append(b, " guid 0x"...)
		b = appendHex64(b, n.NodeGUID)
		b = append(b, " port guid 0x"...)
		b = appendHex64(b, n.PortGUID)
	case a.pi:
		pi := &a.portInfo
		b = append(b, " lid 0x"...)
		b = appendHex16(b, pi.LID)
		b = append(b, " sm lid 0x"...)
		b = appendHex16(b, pi.MasterSMLID)
		b = append(b, " state "...)
		b = append(b, pi.StateName()...)
		b = appendUint(b, " lmc ", uint64(pi.LMC))
	case s.smi:
		sm := &s.smInfo
		b = append(b, " guid 0x"...)
		b = appendHex64(b, sm.GUID)
		b = appendUint(b, " priority ", uint64(sm.Priority))
		b = append(b, " state "...)
		b = append(b, sm.SMState.String()...)
	}
	return b
}

// appendPerf appends the key counters of PortCounters and
// PortCountersExtended.
func (m *madRec) appendPerf(b []byte) []byte {
	switch a := &m.attr; {
	case a.pc:
		c := &a.counters
		b = appendUint(b, " port ", uint64(c.PortSelect))
		b = appendUint(b, " symbol_errors ", uint64(c.SymbolErrorCounter))
		b = appendUint(b, " rcv_errors ", uint64(c.PortRcvErrors))
		b = appendUint(b, " xmit_discards ", uint64(c.PortXmitDiscards))
		b = appendUint(b, " xmit_data ", uint64(c.PortXmitData))
		b = appendUint(b, " rcv_data ", uint64(c.PortRcvData))
		b = appendUint(b, " xmit_pkts ", uint64(c.PortXmitPkts))
		b = appendUint(b, " rcv_pkts ", uint64(c.PortRcvPkts))
	case a.pce:
		c := &a.ext
		b = appendUint(b, " port ", uint64(c.PortSelect))
		b = appendUint(b, " xmit_data ", c.PortXmitData)
		b = appendUint(b, " rcv_data ", c.PortRcvData)
		b = appendUint(b, " xmit_pkts ", c.PortXmitPkts)
		b = appendUint(b, " rcv_pkts ", c.PortRcvPkts)
	}
	return b
}

// appendUint appends label and v in decimal.
func appendUint(b []byte, label string, v uint64) []byte {
	return strconv.AppendUint(append(b, label...), v, 10)
}

// cmText appends the key fields of each CM message, by attribute ID.
var cmText = map[uint16]func(b []byte, m *madRec) []byte{
	mad.AttrClassPortInfo: func(b []byte, _ *madRec) []byte { return b },
	mad.AttrConnectRequest: func(b []byte, m *madRec) []byte {
		q := &m.cmL.REQ
		b = appendComm(b, q.LocalCommID)
		b = appendQPNPSN(b, q.LocalQPN, q.StartingPSN)
		ps, port, ok := q.ServiceID.RDMACM()
		ip, ipOK := &m.ipcmH, m.ipcm
		if ok && !ipOK {
			// An RDMA-CM service ID outside the range whose private
			// data the keys read as IP-CM's (the IPoIB port space).
			var x mad.IPCM
			ip, ipOK = &x, q.IPCM(&x)
		}
		switch {
		case ok && ipOK:
			b = append(b, ' ')
			b = ip.Src().AppendTo(b)
			b = append(b, " > "...)
			b = ip.Dst().AppendTo(b)
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
	mad.AttrMsgRcptAck: func(b []byte, m *madRec) []byte {
		return appendComms(b, m.cmL.MRA.LocalCommID, m.cmL.MRA.RemoteCommID)
	},
	mad.AttrConnectReject: func(b []byte, m *madRec) []byte {
		j := &m.cmL.REJ
		b = appendComms(b, j.LocalCommID, j.RemoteCommID)
		b = append(b, " reason "...)
		b = strconv.AppendUint(b, uint64(j.Reason), 10)
		b = append(b, " ("...)
		b = append(b, j.Reason.String()...)
		return append(b, ')')
	},
	mad.AttrConnectReply: func(b []byte, m *madRec) []byte {
		p := &m.cmL.REP
		b = appendComms(b, p.LocalCommID, p.RemoteCommID)
		return appendQPNPSN(b, p.LocalQPN, p.StartingPSN)
	},
	mad.AttrReadyToUse: func(b []byte, m *madRec) []byte {
		return appendComms(b, m.cmL.RTU.LocalCommID, m.cmL.RTU.RemoteCommID)
	},
	mad.AttrDisconnectRequest: func(b []byte, m *madRec) []byte {
		b = appendComms(b, m.cmL.DREQ.LocalCommID, m.cmL.DREQ.RemoteCommID)
		b = append(b, " qpn 0x"...)
		return appendHex24(b, m.cmL.DREQ.RemoteQPN)
	},
	mad.AttrDisconnectReply: func(b []byte, m *madRec) []byte {
		return appendComms(b, m.cmL.DREP.LocalCommID, m.cmL.DREP.RemoteCommID)
	},
	mad.AttrServiceIDResReq: func(b []byte, m *madRec) []byte {
		b = append(b, " request 0x"...)
		b = appendHex32(b, m.cmL.SIDRREQ.RequestID)
		b = append(b, " service 0x"...)
		return appendHex64(b, uint64(m.cmL.SIDRREQ.ServiceID))
	},
	mad.AttrServiceIDResReqResp: func(b []byte, m *madRec) []byte {
		s := &m.cmL.SIDRREP
		b = append(b, " request 0x"...)
		b = appendHex32(b, s.RequestID)
		b = append(b, " qpn 0x"...)
		b = appendHex24(b, s.QPN)
		b = append(b, " status "...)
		return append(b, s.Status.String()...)
	},
	mad.AttrLoadAlternatePath: func(b []byte, m *madRec) []byte {
		return appendComms(b, m.cmL.LAP.LocalCommID, m.cmL.LAP.RemoteCommID)
	},
	mad.AttrAlternatePathResponse: func(b []byte, m *madRec) []byte {
		b = appendComms(b, m.cmL.APR.LocalCommID, m.cmL.APR.RemoteCommID)
		b = append(b, " status "...)
		return append(b, m.cmL.APR.APStatus.String()...)
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
