package gen

import (
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/iser"
)

// ISERPort is the port of the RDMA-CM service ID of an iSER phase when
// Config.CMPort is 0: 3260, the port IANA assigned to iSCSI, which
// iSER targets listen on.
const ISERPort = 3260

// The iSER settings of the generator's initiator and target, as Linux's
// iser initiator and isert target use them.
const (
	iserBlock   = 512 // the logical unit's block size
	iserDepth   = 128 // the commands the target takes at once (MaxCmdSN - ExpCmdSN + 1)
	iserCMFlags = iser.CMZBVANotSupported | iser.CMSendWInvNotSupported
	iserISID    = 0x00023d000000 // the initiator's ISID: OUI format, the qualifier its session's
	iserLUN     = 0              // the logical unit every command goes to
	iserPageMax = 8192           // the text a Login's data segment may hold
)

// iserLoginKeys are the keys of the initiator's Login Request, which
// moves from the operational stage to full feature phase at once, and
// iserLoginReply the target's.
const (
	iserLoginKeys = "InitiatorName=iqn.2026-01.org.example:initiator\x00TargetName=iqn.2026-01.org.example:roce-go\x00" +
		"SessionType=Normal\x00HeaderDigest=None\x00DataDigest=None\x00RDMAExtensions=Yes\x00InitialR2T=Yes\x00" +
		"ImmediateData=No\x00MaxBurstLength=16776192\x00FirstBurstLength=262144\x00MaxOutstandingR2T=1\x00" +
		"InitiatorRecvDataSegmentLength=262144\x00"
	iserLoginReply = "TargetPortalGroupTag=1\x00HeaderDigest=None\x00DataDigest=None\x00RDMAExtensions=Yes\x00" +
		"InitialR2T=Yes\x00ImmediateData=No\x00MaxBurstLength=16776192\x00FirstBurstLength=262144\x00" +
		"MaxOutstandingR2T=1\x00TargetRecvDataSegmentLength=8192\x00"
)

// iserQueue is the iSCSI state of one queue pair's connection: its
// session's sequence numbers.
type iserQueue struct {
	itt    uint32 // the next Initiator Task Tag
	cmdSN  uint32 // the initiator's next CmdSN
	statSN uint32 // the target's next StatSN
}

// iserState is what a Generator keeps for an iSER phase besides the
// exchange under way (ulpState): the two PDUs of the command under way.
type iserState struct {
	ios  int // I/O commands sent
	req  [iser.HeaderLen + iser.BHSLen + iserPageMax]byte
	resp [iser.HeaderLen + iser.BHSLen + iserPageMax]byte
	priv [iser.CMDataLen]byte
}

// checkISER checks the settings of an iSER phase.
func (c *Config) checkISER() error {
	switch {
	case c.Transport != ib.RC:
		return configErr("ulp iser: iSER runs on RC queue pairs, not %v", c.Transport)
	case c.Op != OpRead && c.Op != OpWrite:
		return configErr("ulp iser: op %v: want read (SCSI READs, the target RDMA WRITEs) or write (SCSI WRITEs, the target RDMA READs)", c.Op)
	case c.Size < iserBlock || c.Size%iserBlock != 0 || c.Size >= 1<<24:
		return configErr("ulp iser: size %d: want a multiple of %d bytes (the logical block) below 16 MiB", c.Size, iserBlock)
	case c.LocalQP+uint32(c.QPs) > 1<<24 || c.RemoteQP+uint32(c.QPs) > 1<<24:
		return configErr("queue pair numbers run past 24 bits")
	}
	return nil
}

// iserBegin readies an iSER phase: after the CM stage, each connection's
// Login, then Messages SCSI commands per connection, round-robin. It
// returns the number of commands.
func (g *Generator) iserBegin() int {
	c := &g.ph.cfg
	if c.CMReject != 0 {
		return 0
	}
	g.is.ios = 0
	return c.QPs + c.Messages*c.QPs
}

// iserConnect readies q's session for a new connection: the target's
// first StatSN is drawn from the seed.
func (g *Generator) iserConnect(q *qpState) {
	q.is = iserQueue{itt: 0, cmdSN: 1, statSN: g.ph.rnd.Uint32()}
}

// iserCMData returns the iSER private data of a CM REQ or REP: the
// initiator's, and the target's in the REP, say that neither uses
// zero-based addresses nor SEND with Invalidate.
func (g *Generator) iserCMData(*qpState) []byte {
	d := iser.CMData{Flags: iserCMFlags}
	b, _ := d.AppendTo(g.is.priv[:0])
	return b
}

// iserCommand lays out the exchange of command k, setting g.q to its
// queue pair.
func (g *Generator) iserCommand(k int) error {
	c := &g.ph.cfg
	s := &g.is
	add := g.ulp.add
	if k < c.QPs { // the connection's Login
		q := g.ph.qps[k]
		g.q = q
		req, resp, err := g.iserLogin(q)
		if err != nil {
			return err
		}
		j := add(ulpMsg{kind: umSend, dir: fwd, body: req})
		add(ulpMsg{kind: umAck, dir: rev, wait: true, ref: j})
		j = add(ulpMsg{kind: umSend, dir: rev, wait: true, body: resp})
		add(ulpMsg{kind: umAck, dir: fwd, wait: true, ref: j})
		return nil
	}
	io := s.ios
	s.ios++
	qi := io % c.QPs
	q := g.ph.qps[qi]
	g.q = q
	write := c.Op == OpWrite
	blocks := uint32(c.Size / iserBlock)
	// Each connection's I/O goes to its own region of the logical unit:
	// the first's below 2 TiB (READ(10), WRITE(10)), the others' past it
	// (READ(16), WRITE(16)).
	lba := uint64(qi)<<32 + uint64(io/c.QPs)*uint64(blocks)
	slot := q.is.itt & 0xff
	va, key := q.va+uint64(slot)<<24, q.rkey&^0xff|(q.rkey+slot)&0xff
	h := iser.Header{Opcode: iser.OpControl}
	flags := uint8(iser.FlagFinal | iser.FlagRead | 1) // SIMPLE task attribute
	if write {
		h.Flags, h.WriteSTag, h.WriteBaseOffset = iser.FlagWSV, key, va
		flags = iser.FlagFinal | iser.FlagWrite | 1
	} else {
		h.Flags, h.ReadSTag, h.ReadBaseOffset = iser.FlagRSV, key, va
	}
	itt := q.is.itt
	q.is.itt++
	cmd := iser.BHS{Opcode: iser.OpSCSICommand, Flags: flags, LUN: iserLUN, ITT: itt}
	cmd.SetCDB(iser.ReadWriteCDB(write, lba, blocks))
	_ = cmd.SetWord(20, uint32(c.Size)) // ExpectedDataTransferLength
	_ = cmd.SetWord(24, q.is.cmdSN)
	_ = cmd.SetWord(28, q.is.statSN) // ExpStatSN
	q.is.cmdSN++
	req, err := iserPDU(s.req[:0], &h, &cmd, "")
	if err != nil {
		return err
	}
	rsp := iser.BHS{Opcode: iser.OpSCSIResponse, Flags: iser.FlagFinal, ITT: itt} // response 0, status GOOD
	g.iserStatus(q, &rsp)
	resp, err := iserPDU(s.resp[:0], &iser.Header{Opcode: iser.OpControl}, &rsp, "")
	if err != nil {
		return err
	}
	j := add(ulpMsg{kind: umSend, dir: fwd, body: req})
	add(ulpMsg{kind: umAck, dir: rev, wait: true, ref: j})
	completion := func() {
		j := add(ulpMsg{kind: umSend, dir: rev, wait: true, body: resp})
		add(ulpMsg{kind: umAck, dir: fwd, wait: true, ref: j})
	}
	if write {
		j := add(ulpMsg{kind: umReadReq, dir: rev, size: c.Size, va: va, rkey: key})
		add(ulpMsg{kind: umReadResp, dir: fwd, wait: true, ref: j, size: c.Size})
		completion()
		return nil
	}
	w := add(ulpMsg{kind: umWrite, dir: rev, wait: true, size: c.Size, va: va, rkey: key})
	// The initiator acknowledges the WRITE and the response after both.
	j = add(ulpMsg{kind: umSend, dir: rev, body: resp})
	add(ulpMsg{kind: umAck, dir: fwd, wait: true, ref: w})
	add(ulpMsg{kind: umAck, dir: fwd, ref: j})
	return nil
}

// iserLogin returns q's Login Request and Login Response, in iSER
// control-type messages: the initiator's ISID, the target's TSIH,
// straight from the operational stage to full feature phase.
func (g *Generator) iserLogin(q *qpState) (req, resp []byte, err error) {
	s := &g.is
	tsih := uint64(q.local&0xffff) | 1 // never 0, the initiator's of a new session
	isid := uint64(iserISID + uint64(q.local&0xffff))
	const stages = iser.FlagFinal | 1<<2 | 3 // T, CSG operational, NSG full feature phase
	lr := iser.BHS{Immediate: true, Opcode: iser.OpLoginRequest, Flags: stages, LUN: isid << 16, ITT: q.is.itt}
	_ = lr.SetWord(24, q.is.cmdSN) // CmdSN; CID 0
	_ = lr.SetWord(28, 0)          // ExpStatSN: none yet
	h := iser.Header{Opcode: iser.OpControl}
	if req, err = iserPDU(s.req[:0], &h, &lr, iserLoginKeys); err != nil {
		return nil, nil, err
	}
	rs := iser.BHS{Opcode: iser.OpLoginResponse, Flags: stages, LUN: isid<<16 | tsih, ITT: q.is.itt}
	q.is.itt++
	g.iserStatus(q, &rs) // status class and detail 0: success
	resp, err = iserPDU(s.resp[:0], &h, &rs, iserLoginReply)
	return req, resp, err
}

// iserStatus fills in the target's StatSN, ExpCmdSN and MaxCmdSN of a
// response of q, and moves StatSN on.
func (g *Generator) iserStatus(q *qpState, b *iser.BHS) {
	_ = b.SetWord(24, q.is.statSN)
	_ = b.SetWord(28, q.is.cmdSN)
	_ = b.SetWord(32, q.is.cmdSN+iserDepth-1)
	q.is.statSN++
}

// iserPDU appends the iSER header h, the BHS and the data segment text
// (padded to 4 bytes) to b.
func iserPDU(b []byte, h *iser.Header, bhs *iser.BHS, text string) ([]byte, error) {
	bhs.DataSegmentLength = uint32(len(text))
	b, err := h.AppendTo(b)
	if err != nil {
		return nil, err
	}
	if b, err = bhs.AppendTo(b); err != nil {
		return nil, err
	}
	b = append(b, text...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b, nil
}
