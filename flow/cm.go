package flow

import (
	"fmt"
	"strings"
	"time"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// DefaultMaxCMConnections is the number of CM connections an Analyzer
// tracks when Config.MaxCMConnections is 0.
const DefaultMaxCMConnections = 1024

// DefaultMaxCMPending is the number of CM exchanges (a REQ waiting for
// its REP or REJ) an Analyzer keeps open when Config.MaxCMPending is 0.
const DefaultMaxCMPending = 256

// CMState is the state of a connection as its CM messages tell it.
type CMState uint8

// The states of a CM connection.
const (
	CMRequested    CMState = 1 // a REQ, no RTU and no data yet (a REP may have come)
	CMEstablished  CMState = 2 // after the RTU, or the first data packet after the REP
	CMDisconnected CMState = 3 // after a DREQ or a DREP
	CMRejected     CMState = 4 // after a REJ
)

var cmStateNames = [...]string{"?", "requested", "established", "disconnected", "rejected"}

// String returns "requested", "established", "disconnected" or "rejected".
func (s CMState) String() string {
	if int(s) < len(cmStateNames) {
		return cmStateNames[s]
	}
	return "?"
}

// The CM messages counted per host pair and per connection, indexed by
// cmMsgOf.
const (
	cmREQ = iota
	cmREP
	cmRTU
	cmREJ
	cmMRA
	cmDREQ
	cmDREP
	cmOther
	numCMMsgs
)

// cmMsgOf maps a CM attribute ID to its counter.
func cmMsgOf(id uint16) int {
	switch id {
	case mad.AttrConnectRequest:
		return cmREQ
	case mad.AttrConnectReply:
		return cmREP
	case mad.AttrReadyToUse:
		return cmRTU
	case mad.AttrConnectReject:
		return cmREJ
	case mad.AttrMsgRcptAck:
		return cmMRA
	case mad.AttrDisconnectRequest:
		return cmDREQ
	case mad.AttrDisconnectReply:
		return cmDREP
	}
	return cmOther
}

// CMCounts counts the CM messages of a host pair or a connection.
type CMCounts struct {
	REQ   uint64 `json:"req"`
	REP   uint64 `json:"rep"`
	RTU   uint64 `json:"rtu"`
	REJ   uint64 `json:"rej"`
	MRA   uint64 `json:"mra"`
	DREQ  uint64 `json:"dreq"`
	DREP  uint64 `json:"drep"`
	Other uint64 `json:"other"` // LAP, APR, SIDR_REQ, SIDR_REP, ClassPortInfo and undefined attributes
}

func countsOf(n *[numCMMsgs]uint64) CMCounts {
	return CMCounts{n[cmREQ], n[cmREP], n[cmRTU], n[cmREJ], n[cmMRA], n[cmDREQ], n[cmDREP], n[cmOther]}
}

// conn is one connection the CM messages describe. A (active) sent the
// REQ, B (passive) the REP.
type conn struct {
	a, b         Addr
	commA, commB uint32
	hasREP       bool
	qpA, qpB     uint32 // REQ.LocalQPN, REP.LocalQPN
	psnA, psnB   uint32 // the first PSN of A's requests (REP.StartingPSN) and of B's (REQ.StartingPSN)
	service      mad.ServiceID
	ipcm         mad.IPCM // the REQ's IP-CM private data, when hasIPCM
	hasIPCM      bool
	state        CMState
	reason       mad.RejectReason
	rejected     uint8 // REJ MessageRejected
	n            [numCMMsgs]uint64
	first, last  time.Time
	flows        [2]*state // A>B to qpB, B>A to qpA
	label        uint32    // the REQ's primary path flow label
}

// commKey names a connection as one host knows it: by its own
// communication ID, toward the other host.
type commKey struct {
	local, remote Addr
	comm          uint32
}

// cmHosts counts the CM messages between two hosts, either way.
type cmHosts struct {
	a, b Addr // a sent the first CM message seen
	n    [numCMMsgs]uint64
}

// cmTable is the CM state of an Analyzer, created on the first CM MAD.
type cmTable struct {
	byComm    map[commKey]*conn
	byFlow    map[Key]*conn
	hosts     map[pairKey]*cmHosts
	hostList  []*cmHosts
	list      []*conn
	pending   int    // connections waiting for a REP or REJ
	evicted   uint64 // pending exchanges dropped to make room
	untracked uint64 // REQs beyond MaxCMConnections
	hdr       mad.Header
	msg       mad.CM
}

// cmPacket accounts for a UD SEND Only to QP 1 carrying a CM MAD.
func (a *Analyzer) cmPacket(p *Packet) {
	pl := p.IB.Payload
	if p.IB.BTH.Truncated || len(pl) < mad.Len {
		return
	}
	if a.cm == nil {
		a.cm = &cmTable{byComm: map[commKey]*conn{}, byFlow: map[Key]*conn{}, hosts: map[pairKey]*cmHosts{}}
	}
	t := a.cm
	if t.hdr.Decode(pl) != nil || t.hdr.MgmtClass != mad.ClassCM {
		return
	}
	t.msg.AttributeID = t.hdr.AttributeID
	if t.msg.Decode(pl[mad.HeaderLen:mad.Len]) != nil {
		return
	}
	k := cmMsgOf(t.hdr.AttributeID)
	a.cmHostCount(p.Src, p.Dst, k)
	m := &t.msg
	var c *conn
	switch k {
	case cmREQ:
		c = a.cmREQ(p, &m.REQ)
	case cmREP:
		if c = t.byComm[commKey{p.Dst, p.Src, m.REP.RemoteCommID}]; c != nil {
			a.cmREP(c, &m.REP)
		}
	case cmRTU:
		c = t.find(p.Src, p.Dst, m.RTU.LocalCommID, m.RTU.RemoteCommID)
		if c != nil && c.hasREP && c.state == CMRequested {
			c.state = CMEstablished
		}
	case cmREJ:
		c = t.find(p.Src, p.Dst, m.REJ.LocalCommID, m.REJ.RemoteCommID)
		if c != nil {
			if c.state == CMRequested && !c.hasREP {
				t.pending--
			}
			c.state, c.reason, c.rejected = CMRejected, m.REJ.Reason, m.REJ.MessageRejected
		}
	case cmMRA:
		c = t.find(p.Src, p.Dst, m.MRA.LocalCommID, m.MRA.RemoteCommID)
	case cmDREQ, cmDREP:
		local, remote := m.DREQ.LocalCommID, m.DREQ.RemoteCommID
		if k == cmDREP {
			local, remote = m.DREP.LocalCommID, m.DREP.RemoteCommID
		}
		c = t.find(p.Src, p.Dst, local, remote)
		if c != nil && c.state != CMRejected {
			c.state = CMDisconnected
		}
	}
	if c != nil {
		c.n[k]++
		c.last = p.Time
	}
}

// find returns the connection that host src knows by comm ID local, or
// that dst knows by remote, or nil.
func (t *cmTable) find(src, dst Addr, local, remote uint32) *conn {
	if c := t.byComm[commKey{src, dst, local}]; c != nil {
		return c
	}
	return t.byComm[commKey{dst, src, remote}]
}

// cmHostCount counts message k between src and dst.
func (a *Analyzer) cmHostCount(src, dst Addr, k int) {
	t := a.cm
	h := t.hosts[pairKey{src, dst}]
	if h == nil {
		h = t.hosts[pairKey{dst, src}]
	}
	if h == nil {
		if len(t.hostList) >= a.cfg.MaxFlows {
			return
		}
		h = &cmHosts{a: src, b: dst}
		t.hosts[pairKey{src, dst}] = h
		t.hostList = append(t.hostList, h)
	}
	h.n[k]++
}

// cmREQ opens the connection of a REQ, or returns the one a resent REQ
// opened.
func (a *Analyzer) cmREQ(p *Packet, r *mad.REQ) *conn {
	t := a.cm
	ck := commKey{p.Src, p.Dst, r.LocalCommID}
	if c := t.byComm[ck]; c != nil {
		return c
	}
	if t.pending >= a.cfg.MaxCMPending {
		t.evictPending()
	}
	if len(t.list) >= a.cfg.MaxCMConnections {
		t.untracked++
		return nil
	}
	c := &conn{a: p.Src, b: p.Dst, commA: r.LocalCommID, qpA: r.LocalQPN, psnB: r.StartingPSN,
		service: r.ServiceID, state: CMRequested, first: p.Time, label: r.Primary.FlowLabel}
	c.hasIPCM = r.IPCM(&c.ipcm)
	c.ipcm.ConsumerPrivateData = nil // it aliases the packet
	t.byComm[ck] = c
	t.list = append(t.list, c)
	t.pending++
	return c
}

// evictPending forgets the oldest connection still waiting for its REP
// or REJ, to make room for a new one.
func (t *cmTable) evictPending() {
	for i, c := range t.list {
		if c.state == CMRequested && !c.hasREP {
			delete(t.byComm, commKey{c.a, c.b, c.commA})
			t.list = append(t.list[:i], t.list[i+1:]...)
			t.pending--
			t.evicted++
			return
		}
	}
}

// cmREP completes a connection with its REP: B's QP and the PSNs, and
// binds the connection's two flows, pairing them.
func (a *Analyzer) cmREP(c *conn, r *mad.REP) {
	t := a.cm
	if c.hasREP {
		return // a resent REP
	}
	if c.state == CMRequested {
		t.pending--
	}
	c.hasREP = true
	c.commB, c.qpB, c.psnA = r.LocalCommID, r.LocalQPN, r.StartingPSN
	t.byComm[commKey{c.b, c.a, c.commB}] = c
	for side, k := range c.keys() {
		t.byFlow[k] = c
		if f := a.flows[k]; f != nil {
			a.bindFlow(c, f, side)
		}
	}
}

// keys returns the keys of the connection's flows: A's packets to B's
// QP, B's to A's.
func (c *conn) keys() [2]Key {
	return [2]Key{{Src: c.a, Dst: c.b, QP: c.qpB}, {Src: c.b, Dst: c.a, QP: c.qpA}}
}

// bindFlow makes f, on the given side, a flow of connection c: its PSN
// analysis starts at the negotiated PSN, and once both flows exist they
// are peers.
func (a *Analyzer) bindFlow(c *conn, f *state, side int) {
	f.conn = c
	a.reindex(f) // no longer a candidate for pairing by PSN
	c.flows[side] = f
	start := c.psnA
	if side == 1 {
		start = c.psnB
	}
	f.rq().anchor(start)
	f.cmStart = true
	x, y := c.flows[0], c.flows[1]
	if x == nil || y == nil || x.peer != nil || y.peer != nil {
		return
	}
	x.peer, y.peer = y, x
	x.reqQP, x.hasReqQP = y.key.QP, true
	y.reqQP, y.hasReqQP = x.key.QP, true
	settle(x, y)
	settle(y, x)
	for _, g := range [2]*state{x, y} {
		if pd := g.pend; pd != nil {
			for ; pd.qn > 0; pd.qn-- {
				g.s.Answers = true
				g.peer.answer(&pd.q[pd.qh])
				pd.qh = (pd.qh + 1) % maxQueued
			}
			g.pend = nil
		}
	}
}

// cmFlow binds a new flow to the connection whose REP named it.
func (a *Analyzer) cmFlow(f *state) {
	if c := a.cm.byFlow[f.key]; c != nil && c.flows[0] != f && c.flows[1] != f {
		for side, k := range c.keys() {
			if k == f.key {
				a.bindFlow(c, f, side)
				return
			}
		}
	}
}

// anchor starts the PSN analysis at psn, the first PSN the CM
// negotiated: the first request is expected there.
func (r *requester) anchor(psn uint32) {
	r.psnInit = true
	r.high, r.nextLo, r.nextHi = psn, psn, psn
	r.sent = [RecentPSNs / 64]uint64{}
	r.inEpisode = false
}

// CMConnection is the summary of one connection the CM messages set up.
// The active side (Src) sent the REQ, the passive side (Dst) the REP.
type CMConnection struct {
	Src string `json:"src"` // the REQ's sender (packet address)
	Dst string `json:"dst"`
	// State is "requested", "established", "disconnected" or
	// "rejected".
	State string `json:"state"`
	// RejectReason names the reason of the REJ (IBTA Vol 1, Table 105),
	// RejectCode is its number and Rejected the message rejected ("REQ",
	// "REP" or "other").
	RejectReason string `json:"reject_reason,omitempty"`
	RejectCode   int    `json:"reject_code,omitempty"`
	Rejected     string `json:"rejected_message,omitempty"`
	ServiceID    string `json:"service_id"`
	// PortSpace and Port are the RDMA-CM port space ("TCP", "UDP",
	// "IB", "IPoIB") and port of the service ID, when it is RDMA-CM's.
	PortSpace string `json:"port_space,omitempty"`
	Port      int    `json:"port,omitempty"`
	// RDMACMSrc and RDMACMDst are the IP-CM addresses of the REQ's
	// private data, RDMACMSrcPort its source port.
	RDMACMSrc     string `json:"rdma_cm_src,omitempty"`
	RDMACMDst     string `json:"rdma_cm_dst,omitempty"`
	RDMACMSrcPort int    `json:"rdma_cm_src_port,omitempty"`
	// SrcCommID and SrcQP are the active side's communication ID and QP
	// (REQ LocalCommID and LocalQPN); SrcPSN the first PSN of its
	// requests, which the REP sets (REP StartingPSN).
	SrcCommID uint32 `json:"src_comm_id"`
	SrcQP     uint32 `json:"src_qp"`
	SrcPSN    uint32 `json:"src_start_psn"`
	// Replied says a REP came; DstCommID, DstQP and DstPSN are then the
	// passive side's (REP LocalCommID and LocalQPN, and the REQ's
	// StartingPSN: the first PSN of the passive side's requests).
	Replied   bool      `json:"replied"`
	DstCommID uint32    `json:"dst_comm_id"`
	DstQP     uint32    `json:"dst_qp"`
	DstPSN    uint32    `json:"dst_start_psn"`
	Messages  CMCounts  `json:"messages"`
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
}

// CMHosts is the count of CM messages between two hosts, both ways.
type CMHosts struct {
	A        string   `json:"a"`
	B        string   `json:"b"`
	Messages CMCounts `json:"messages"`
}

// CMReport is what the CM messages of a capture tell.
type CMReport struct {
	Connections []CMConnection `json:"connections"`
	Hosts       []CMHosts      `json:"hosts"`
	// Evicted counts the REQs forgotten, unanswered, to make room for
	// newer ones (Config.MaxCMPending); Untracked the REQs beyond
	// Config.MaxCMConnections.
	Evicted   uint64 `json:"evicted,omitempty"`
	Untracked uint64 `json:"untracked,omitempty"`
}

var rejectedNames = [...]string{mad.CMMsgREQ: "REQ", mad.CMMsgREP: "REP", mad.CMMsgOther: "other", 3: "other"}

func (t *cmTable) report() *CMReport {
	r := &CMReport{Connections: []CMConnection{}, Hosts: []CMHosts{}, Evicted: t.evicted, Untracked: t.untracked}
	for _, c := range t.list {
		r.Connections = append(r.Connections, c.report())
	}
	for _, h := range t.hostList {
		r.Hosts = append(r.Hosts, CMHosts{A: h.a.String(), B: h.b.String(), Messages: countsOf(&h.n)})
	}
	return r
}

func (c *conn) report() CMConnection {
	cr := CMConnection{Src: c.a.String(), Dst: c.b.String(), State: c.state.String(),
		ServiceID: c.service.String(), SrcCommID: c.commA, SrcQP: c.qpA, SrcPSN: c.psnA,
		Replied: c.hasREP, DstCommID: c.commB, DstQP: c.qpB, DstPSN: c.psnB,
		Messages: countsOf(&c.n), First: c.first, Last: c.last}
	if ps, port, ok := c.service.RDMACM(); ok {
		cr.PortSpace, cr.Port = ps.String(), int(port)
	}
	if c.hasIPCM {
		cr.RDMACMSrc, cr.RDMACMDst, cr.RDMACMSrcPort = c.ipcm.Src().String(), c.ipcm.Dst().String(), int(c.ipcm.SrcPort)
	}
	if c.state == CMRejected {
		cr.RejectReason, cr.RejectCode, cr.Rejected = c.reason.String(), int(c.reason), rejectedNames[c.rejected&3]
	}
	return cr
}

// isCM reports whether p may carry a CM MAD: a UD SEND Only to QP 1.
func isCM(p *Packet) bool {
	return p.IB.BTH.OpCode == ib.OpUDSendOnly && p.IB.BTH.DestQP == ib.QPGSI
}

// writeText writes the connections, then the message counts per host
// pair (see the package documentation).
func (r *CMReport) writeText(b *strings.Builder) {
	for i := range r.Connections {
		c := &r.Connections[i]
		fmt.Fprintf(b, "cm %s > %s service %s", c.Src, c.Dst, c.ServiceID)
		if c.PortSpace != "" {
			fmt.Fprintf(b, " port %d (%s port space)", c.Port, c.PortSpace)
		}
		fmt.Fprintf(b, ": %s", c.State)
		if c.RejectReason != "" {
			fmt.Fprintf(b, " (%s, reason %d, %s rejected)", c.RejectReason, c.RejectCode, c.Rejected)
		}
		b.WriteString("\n")
		if c.RDMACMSrc != "" {
			fmt.Fprintf(b, "  rdma-cm %s port %d > %s port %d\n", c.RDMACMSrc, c.RDMACMSrcPort, c.RDMACMDst, c.Port)
		}
		fmt.Fprintf(b, "  %s comm 0x%08x qp 0x%s", c.Src, c.SrcCommID, hex24(c.SrcQP))
		if c.Replied {
			fmt.Fprintf(b, " start-psn 0x%s", hex24(c.SrcPSN))
			fmt.Fprintf(b, "; %s comm 0x%08x qp 0x%s", c.Dst, c.DstCommID, hex24(c.DstQP))
		}
		fmt.Fprintf(b, " start-psn 0x%s\n  messages ", hex24(c.DstPSN))
		c.Messages.writeText(b)
	}
	for _, h := range r.Hosts {
		fmt.Fprintf(b, "cm hosts %s <> %s: ", h.A, h.B)
		h.Messages.writeText(b)
	}
	if r.Evicted+r.Untracked > 0 {
		fmt.Fprintf(b, "cm evicted %d untracked %d\n", r.Evicted, r.Untracked)
	}
}

func (n *CMCounts) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "req %d rep %d rtu %d rej %d dreq %d drep %d", n.REQ, n.REP, n.RTU, n.REJ, n.DREQ, n.DREP)
	if n.MRA > 0 {
		fmt.Fprintf(b, " mra %d", n.MRA)
	}
	if n.Other > 0 {
		fmt.Fprintf(b, " other %d", n.Other)
	}
	b.WriteString("\n")
}
