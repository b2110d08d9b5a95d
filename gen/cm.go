package gen

import (
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/rocev2"
)

// DefaultCMPort is the port of the RDMA-CM service ID a phase with CM
// connects to when Config.CMPort is 0: 7471, the default port of
// rdma-core's librdmacm examples (rdma_server, rdma_client, ucmatose) and
// the port of the RDMA-CM captures in testdata.
const DefaultCMPort = 7471

// cmStep is one CM message of a stage: its attribute and its direction.
type cmStep struct {
	attr uint16
	dir  int
}

// The CM stages of a phase: the handshake that opens each connection,
// the one a rejected connection gets instead, and the one that closes it.
var (
	cmOpen   = []cmStep{{mad.AttrConnectRequest, fwd}, {mad.AttrConnectReply, rev}, {mad.AttrReadyToUse, fwd}}
	cmReject = []cmStep{{mad.AttrConnectRequest, fwd}, {mad.AttrConnectReject, rev}}
	cmClose  = []cmStep{{mad.AttrDisconnectRequest, fwd}, {mad.AttrDisconnectReply, rev}}
)

// cmConn is the CM state of one queue pair's connection.
type cmConn struct {
	comm    [2]uint32 // the requester's and the responder's communication IDs
	tid     uint64    // the transaction ID of every MAD of the connection
	rpsn    uint32    // the first PSN of the responder's requests (REQ StartingPSN)
	srcPort uint16    // the IP-CM source port of the requester
}

// cmState is what a Generator keeps for the CM stages of a phase.
type cmState struct {
	steps   []cmStep // the stage being sent, nil when none
	i, n    int      // next message and messages of the stage (steps per QP times QPs)
	due     int64    // when the next message may go
	closed  bool     // the phase's close stage has been played
	psn     [2]uint32
	qp1     qpState // QP 1 on both sides: its flow label and UDP source port
	msg     mad.CM
	private [mad.REQPrivateDataLen]byte
	buf     [mad.Len]byte
}

// cmBegin readies the open stage of a phase with CM: before its first
// data, every queue pair connects (or is rejected).
func (g *Generator) cmBegin() {
	c := &g.ph.cfg
	s := &g.cm
	s.steps, s.closed = nil, false
	if !c.withCM() {
		return
	}
	s.qp1.local, s.qp1.remote = ib.QPGSI, ib.QPGSI
	s.qp1.flow = rocev2.CalcFlowLabel(ib.QPGSI, ib.QPGSI)
	s.qp1.srcPort = rocev2.FlowLabelToUDPSrcPort(s.qp1.flow)
	s.steps = cmOpen
	if c.CMReject != 0 {
		s.steps = cmReject
		g.msgs = 0 // a rejected connection carries no data
	}
	s.i, s.n, s.due = 0, len(s.steps)*len(g.ph.qps), g.now
}

// cmEnd starts the close stage once the phase's traffic is over, and
// reports whether it did.
func (g *Generator) cmEnd() bool {
	c := &g.ph.cfg
	s := &g.cm
	if !c.withCM() || c.CMReject != 0 || s.closed {
		return false
	}
	s.closed, s.steps = true, cmClose
	s.i, s.n, s.due = 0, len(cmClose)*len(g.ph.qps), g.now
	return true
}

// cmOpening reports whether the open stage still has messages to send:
// the data waits for it.
func (g *Generator) cmOpening() bool { return g.cm.i < g.cm.n && !g.cm.closed }

// emitCM builds the next message of the CM stage under way, sent at ts.
func (g *Generator) emitCM(ts int64) {
	s := &g.cm
	per := len(s.steps)
	q := g.ph.qps[s.i/per]
	st := s.steps[s.i%per]
	s.i++
	if st.attr == mad.AttrConnectRequest {
		g.cmConnect(q)
	}
	b, err := g.cmMAD(q, st.attr)
	if err != nil {
		g.err = errs.Context("building a CM "+s.msg.Name(), err)
		return
	}
	p := g.prepare(st.dir, &s.qp1)
	p.BTH.OpCode, p.BTH.DestQP, p.BTH.AckReq, p.BTH.MigReq = ib.OpUDSendOnly, ib.QPGSI, true, false
	p.BTH.PSN = s.psn[st.dir]
	s.psn[st.dir] = (s.psn[st.dir] + 1) & psnMask
	p.DETH = ib.DETH{QKey: ib.GSIQKey, SrcQP: ib.QPGSI}
	p.Payload = b
	if g.build(ts, KindCM) {
		g.maybeCorrupt(g.out)
	}
	s.due = g.now
	if s.i%per != 0 {
		s.due = after(g.now, g.ph.delayPS) // the next message answers this one
	}
}

// cmConnect draws the communication IDs, transaction ID, responder PSN
// and IP-CM source port of a new connection of q.
func (g *Generator) cmConnect(q *qpState) {
	r := g.ph.rnd
	q.cm = cmConn{comm: [2]uint32{r.Uint32() | 1, r.Uint32() | 1}, tid: r.Uint64() >> 24,
		rpsn: r.Uint32() & psnMask, srcPort: uint16(32768 + r.IntN(28232))}
	g.ulpConnect(q)
}

// cmMAD builds the 256-byte MAD of attribute attr for the connection of
// q, with mad's builders.
func (g *Generator) cmMAD(q *qpState, attr uint16) ([]byte, error) {
	c := &g.ph.cfg
	s := &g.cm
	k := &q.cm
	h := mad.Header{BaseVersion: 1, MgmtClass: mad.ClassCM, ClassVersion: 2, Method: mad.MethodSend,
		TransactionID: k.tid, AttributeID: attr}
	b, err := h.AppendTo(s.buf[:0])
	if err != nil {
		return nil, err
	}
	m := &s.msg
	*m = mad.CM{AttributeID: attr}
	t := &g.ph.tmpl[fwd]
	switch attr {
	case mad.AttrConnectRequest:
		ip := mad.IPCM{SrcPort: k.srcPort}
		ip.SetAddrs(c.SrcIP, c.DstIP)
		if f := c.ulp().cmREQ; f != nil {
			ip.ConsumerPrivateData = f(g, q)
		}
		priv, err := ip.AppendTo(s.private[:0])
		if err != nil {
			return nil, err
		}
		tst := uint8(0) // RC
		if c.Transport == ib.UC {
			tst = 1
		}
		m.REQ = mad.REQ{LocalCommID: k.comm[fwd], ServiceID: mad.RDMACMServiceID(mad.PortSpaceTCP, c.cmPort()),
			LocalCAGUID: caGUID(c.SrcMAC), LocalQPN: q.local, ResponderResources: 1, InitiatorDepth: 1,
			RemoteCMResponseTimeout: 20, TransportServiceType: tst, StartingPSN: k.rpsn,
			LocalCMResponseTimeout: 20, RetryCount: 7, PartitionKey: c.PKey, PathPacketPayloadMTU: mtuCode(c.MTU),
			RNRRetryCount: 7, MaxCMRetries: 15, PrivateData: priv,
			Primary: mad.CMPath{LocalPortLID: 0xFFFF, RemotePortLID: 0xFFFF, LocalPortGID: t.GRH.SGID,
				RemotePortGID: t.GRH.DGID, FlowLabel: q.flow, PacketRate: 0x20, TrafficClass: g.ph.tclass,
				HopLimit: c.HopLimit, SL: c.PCP, LocalACKTimeout: 18}}
	case mad.AttrConnectReply:
		m.REP = mad.REP{LocalCommID: k.comm[rev], RemoteCommID: k.comm[fwd], LocalQPN: q.remote,
			StartingPSN: q.psn, ResponderResources: 1, InitiatorDepth: 1, TargetACKDelay: 15,
			RNRRetryCount: 7, LocalCAGUID: caGUID(c.DstMAC)}
		if f := c.ulp().cmREP; f != nil {
			m.REP.PrivateData = f(g, q)
		}
	case mad.AttrReadyToUse:
		m.RTU = mad.RTU{LocalCommID: k.comm[fwd], RemoteCommID: k.comm[rev]}
	case mad.AttrConnectReject:
		m.REJ = mad.REJ{LocalCommID: k.comm[rev], RemoteCommID: k.comm[fwd], MessageRejected: mad.CMMsgREQ,
			Reason: mad.RejectReason(c.CMReject)}
		if f := c.ulp().cmREJ; f != nil {
			m.REJ.PrivateData = f(g, q)
		}
	case mad.AttrDisconnectRequest:
		m.DREQ = mad.DREQ{LocalCommID: k.comm[fwd], RemoteCommID: k.comm[rev], RemoteQPN: q.remote}
	case mad.AttrDisconnectReply:
		m.DREP = mad.DREP{LocalCommID: k.comm[rev], RemoteCommID: k.comm[fwd]}
	}
	return cmAppend(b, m)
}

// cmAppend appends the message of m that its AttributeID names.
func cmAppend(b []byte, m *mad.CM) ([]byte, error) {
	switch m.AttributeID {
	case mad.AttrConnectRequest:
		return m.REQ.AppendTo(b)
	case mad.AttrConnectReply:
		return m.REP.AppendTo(b)
	case mad.AttrReadyToUse:
		return m.RTU.AppendTo(b)
	case mad.AttrConnectReject:
		return m.REJ.AppendTo(b)
	case mad.AttrDisconnectRequest:
		return m.DREQ.AppendTo(b)
	}
	return m.DREP.AppendTo(b)
}

// cmPort returns the port of the RDMA-CM service ID.
func (c *Config) cmPort() uint16 {
	if c.CMPort == 0 {
		if p := c.ulp().port; p != 0 {
			return p
		}
		return DefaultCMPort
	}
	return c.CMPort
}

// caGUID returns the CA GUID of a port: the modified EUI-64 of its MAC
// address, as Linux rxe and most RoCE NICs derive it.
func caGUID(mac [6]byte) uint64 {
	return uint64(mac[0]^2)<<56 | uint64(mac[1])<<48 | uint64(mac[2])<<40 | 0xfffe<<24 |
		uint64(mac[3])<<16 | uint64(mac[4])<<8 | uint64(mac[5])
}

// mtuCode returns the IBTA encoding of a path MTU (1 for 256 ... 5 for 4096).
func mtuCode(mtu int) uint8 {
	n := uint8(1)
	for m := 256; m < mtu; m <<= 1 {
		n++
	}
	return n
}
