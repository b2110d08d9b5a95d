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
}

// appendMAD appends ": " and the management datagram a UD SEND Only to
// QP 0 or QP 1 carries: for CM the message and its key fields ("CM REQ
// comm 0x34cfb552 qpn 0x000011 psn 0xe1a47d 192.168.65.5 >
// 192.168.65.4:7471 (RDMA-CM TCP port space)"), for the other classes
// the class, method and attribute and the transaction ID. Other packets,
// and a MAD the capture cut, append nothing.
func (r *Record) appendMAD(b []byte) []byte {
	p := &r.RoCE.Packet
	if p.BTH.OpCode != ib.OpUDSendOnly || p.BTH.DestQP > ib.QPGSI || p.BTH.Truncated || len(p.Payload) < mad.Len {
		return b
	}
	m := &r.mads
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
	return appendHex64(b, m.hdr.TransactionID)
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
