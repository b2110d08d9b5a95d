package gen

import (
	"encoding/binary"
	"fmt"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/nvmeof"
)

// NVMePort is the port of the RDMA-CM service ID of an NVMe/RDMA phase
// when Config.CMPort is 0: 4420, the port IANA assigned to NVMe over
// Fabrics.
const NVMePort = 4420

// The NVMe/RDMA settings of the generator's host and controller, as
// Linux's nvme-rdma host and nvmet-rdma target use them.
const (
	nvmeAdminDepth  = 32   // NVME_AQ_DEPTH: entries of the admin queue
	nvmeIODepth     = 128  // the default I/O queue size
	nvmeKATO        = 5000 // the admin Connect's keep alive timeout, ms
	nvmeCntlID      = 1    // the controller ID the target assigns
	nvmeBlock       = 512  // the namespace's logical block size
	nvmeIdentifyLen = 4096 // an Identify's data
	nvmeInlineMax   = 4096 // the target's in-capsule data size (a page)
	nvmeRejectSTS   = 6    // the RDMA_CM_REJECT status of a rejected queue: No resources

	nvmeSubNQN    = "nqn.2026-01.org.example:nvme:roce-go"
	nvmeHostNQNPf = "nqn.2014-08.org.nvmexpress:uuid:"
)

// nvmeQueue is the NVMe state of one queue pair.
type nvmeQueue struct {
	qid  uint16
	cid  uint16 // the next command identifier
	sqhd uint16 // the target's submission queue head
}

// nvmeState is what a Generator keeps for an NVMe/RDMA phase besides
// the exchange under way (ulpState).
type nvmeState struct {
	ios     int // I/O commands sent
	hostID  [16]byte
	hostNQN []byte
	capsule [nvmeof.CommandLen + max(nvmeInlineMax, nvmeof.ConnectDataLen)]byte
	cqe     [nvmeof.CompletionLen]byte
	ident   [nvmeIdentifyLen]byte
	priv    [nvmeof.CMAcceptLen]byte
}

// nvmeDepth returns the size of queue qid: the admin queue's or an I/O
// queue's.
func nvmeDepth(qid uint16) uint16 {
	if qid == 0 {
		return nvmeAdminDepth
	}
	return nvmeIODepth
}

// checkNVMe checks the settings of an NVMe/RDMA phase.
func (c *Config) checkNVMe() error {
	switch {
	case c.Transport != ib.RC:
		return configErr("ulp nvme: NVMe/RDMA runs on RC queue pairs, not %v", c.Transport)
	case c.Op != OpRead && c.Op != OpWrite && c.Op != OpSend && c.Op != OpSendInv:
		return configErr("ulp nvme: op %v: want read, write, send (a Write with in-capsule data) or send-inv (a Read answered by SEND with Invalidate)", c.Op)
	case c.Size < nvmeBlock || c.Size%nvmeBlock != 0 || c.Size > 0xffffff/nvmeBlock*nvmeBlock:
		return configErr("ulp nvme: size %d: want a multiple of %d bytes (the logical block) below 16 MiB", c.Size, nvmeBlock)
	case c.Op == OpSend && c.Size > nvmeInlineMax:
		return configErr("ulp nvme: op send: size %d is more in-capsule data than the target's %d bytes", c.Size, nvmeInlineMax)
	case c.QPs >= 1<<16:
		return configErr("ulp nvme: %d I/O queues: want at most 65535", c.QPs)
	case c.LocalQP+uint32(c.QPs)+1 > 1<<24 || c.RemoteQP+uint32(c.QPs)+1 > 1<<24:
		return configErr("queue pair numbers run past 24 bits")
	}
	return nil
}

// nvmeBegin readies an NVMe/RDMA phase: after the CM stage, the admin
// queue's Connect and Identify, each I/O queue's Connect, then Messages
// I/O commands per I/O queue, round-robin.
// It returns the number of commands.
func (g *Generator) nvmeBegin() int {
	c := &g.ph.cfg
	s := &g.nv
	for i, q := range g.ph.qps {
		q.nv.qid = uint16(i)
	}
	if c.CMReject != 0 {
		return 0
	}
	s.ios = 0
	r := g.ph.rnd
	binary.LittleEndian.PutUint64(s.hostID[:], r.Uint64())
	binary.LittleEndian.PutUint64(s.hostID[8:], r.Uint64())
	s.hostID[6] = s.hostID[6]&0x0f | 0x40 // a version 4 UUID
	s.hostID[8] = s.hostID[8]&0x3f | 0x80
	h := s.hostID
	s.hostNQN = fmt.Appendf(s.hostNQN[:0], "%s%x-%x-%x-%x-%x", nvmeHostNQNPf, h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
	return len(nvmeAdmin) + c.QPs + c.Messages*c.QPs
}

// nvmeConnect readies q's queue for a new connection.
func nvmeConnect(q *qpState) { q.nv = nvmeQueue{qid: q.nv.qid} }

// nvmeCMRequest returns the NVMe/RDMA private data of q's CM REQ.
func (g *Generator) nvmeCMRequest(q *qpState) []byte {
	d := nvmeDepth(q.nv.qid)
	r := nvmeof.CMRequest{QID: q.nv.qid, HRQSize: d, HSQSize: d - 1, CntlID: 0xffff}
	if q.nv.qid != 0 {
		r.CntlID = nvmeCntlID
	}
	b, _ := r.AppendTo(g.nv.priv[:0]) // every value encodes
	return b
}

// nvmeCMAccept returns the NVMe/RDMA private data of q's CM REP: the
// controller's receive queue is the host's send queue.
func (g *Generator) nvmeCMAccept(q *qpState) []byte {
	a := nvmeof.CMAccept{CRQSize: nvmeDepth(q.nv.qid)}
	b, _ := a.AppendTo(g.nv.priv[:0])
	return b
}

// nvmeCMReject returns the NVMe/RDMA private data of q's CM REJ.
func (g *Generator) nvmeCMReject(*qpState) []byte {
	j := nvmeof.CMReject{Status: nvmeRejectSTS}
	b, _ := j.AppendTo(g.nv.priv[:0])
	return b
}

// nvmeCommand lays out the exchange of command k, setting g.q to its
// queue pair.
func (g *Generator) nvmeCommand(k int) error {
	c := &g.ph.cfg
	s := &g.nv
	var q *qpState
	cmd := nvmeof.Command{PSDT: 1} // SGLs, the metadata pointer a buffer
	var data, xfer []byte          // in-capsule data; data the target reads
	var result uint64              // the completion's DW0 and DW1
	io := -1
	switch {
	case k == 0 || k >= len(nvmeAdmin) && k < len(nvmeAdmin)+c.QPs: // Connect, admin queue first
		q = g.ph.qps[0]
		if k > 0 {
			q = g.ph.qps[1+k-len(nvmeAdmin)]
		}
		d := nvmeDepth(q.nv.qid)
		cmd.Opcode, cmd.NSID = nvmeof.OpcodeFabrics, uint32(nvmeof.Connect)
		cmd.CDW[0] = uint32(q.nv.qid) << 16 // RECFMT 0
		cmd.CDW[1] = uint32(d - 1)          // SQSIZE
		cd := nvmeof.ConnectData{HostID: s.hostID, CntlID: 0xffff, SubNQN: []byte(nvmeSubNQN), HostNQN: s.hostNQN}
		if q.nv.qid != 0 {
			cd.CntlID = nvmeCntlID
		}
		b, err := cd.AppendTo(s.capsule[nvmeof.CommandLen:nvmeof.CommandLen])
		if err != nil {
			return err
		}
		if q.nv.qid == 0 {
			// Linux's host sends no in-capsule data on the admin queue:
			// the target reads the Connect data with an RDMA READ.
			cmd.CDW[2] = nvmeKATO
			cmd.SGL1 = g.nvmeKeyed(q, nvmeof.ConnectDataLen)
			xfer = b
		} else {
			cmd.SGL1 = nvmeof.SGL{Length: nvmeof.ConnectDataLen, Type: nvmeof.SGLDataBlock, SubType: nvmeof.SGLOffset}
			data = b
		}
	case k == len(nvmeAdmin)-1: // Identify Controller on the admin queue
		q = g.ph.qps[0]
		cmd.Opcode, cmd.CDW[0] = nvmeof.OpIdentify, 1 // CNS 1: the controller
		cmd.SGL1 = g.nvmeKeyed(q, nvmeIdentifyLen)
		xfer = g.nvmeIdentify()
	case k < len(nvmeAdmin): // a property of the controller
		q = g.ph.qps[0]
		pr := &nvmeAdmin[k]
		cmd.Opcode, cmd.NSID = nvmeof.OpcodeFabrics, uint32(pr.fctype)
		cmd.CDW[0], cmd.CDW[1] = pr.attrib, pr.off
		if pr.fctype == nvmeof.PropertySet {
			cmd.CDW[2], cmd.CDW[3] = uint32(pr.value), uint32(pr.value>>32)
		} else {
			result = pr.value
		}
		// No data: Linux's host sends a Keyed SGL Data Block of length 0.
		cmd.SGL1 = nvmeof.SGL{Type: nvmeof.SGLKeyedDataBlock}
	default: // I/O
		io = s.ios
		s.ios++
		q = g.ph.qps[1+io%c.QPs]
		blocks := uint64(c.Size / nvmeBlock)
		slba := uint64(io/c.QPs) * blocks
		cmd.NSID = 1
		cmd.CDW[0], cmd.CDW[1], cmd.CDW[2] = uint32(slba), uint32(slba>>32), uint32(blocks-1)
		switch c.Op {
		case OpRead, OpSendInv:
			cmd.Opcode = nvmeof.OpRead
			cmd.SGL1 = g.nvmeKeyed(q, c.Size)
		case OpWrite:
			cmd.Opcode = nvmeof.OpWrite
			cmd.SGL1 = g.nvmeKeyed(q, c.Size)
		case OpSend:
			cmd.Opcode = nvmeof.OpWrite
			cmd.SGL1 = nvmeof.SGL{Length: uint32(c.Size), Type: nvmeof.SGLDataBlock, SubType: nvmeof.SGLOffset}
			start := (int(q.sent)*61 + io*29) & 4095
			data = append(s.capsule[nvmeof.CommandLen:nvmeof.CommandLen], g.payload[start:start+c.Size]...)
		}
	}
	g.q = q
	cmd.CID = q.nv.cid
	q.nv.cid++
	if _, err := cmd.AppendTo(s.capsule[:0]); err != nil {
		return err
	}
	capsule := s.capsule[:nvmeof.CommandLen+len(data)]
	depth := nvmeDepth(q.nv.qid)
	q.nv.sqhd = (q.nv.sqhd + 1) % depth
	cqe := nvmeof.Completion{DW0: uint32(result), DW1: uint32(result >> 32), SQHD: q.nv.sqhd, SQID: q.nv.qid, CID: cmd.CID}
	if cmd.IsFabrics() && cmd.FabricsType() == nvmeof.Connect {
		cqe.DW0 = nvmeCntlID
	}
	if _, err := cqe.AppendTo(s.cqe[:0]); err != nil {
		return err
	}
	inv := cmd.SGL1.SubType == nvmeof.SGLInvalidateKey
	add := g.ulp.add
	completion := func() { // Delay after the step before
		j := add(ulpMsg{kind: umSend, dir: rev, wait: true, body: s.cqe[:], inv: inv, rkey: cmd.SGL1.Key})
		add(ulpMsg{kind: umAck, dir: fwd, wait: true, ref: j})
	}
	j := add(ulpMsg{kind: umSend, dir: fwd, body: capsule})
	add(ulpMsg{kind: umAck, dir: rev, wait: true, ref: j})
	sgl := &cmd.SGL1
	switch {
	case sgl.Keyed() && sgl.Length == 0: // no data
		completion()
	case sgl.Keyed() && (cmd.Opcode == nvmeof.OpWrite || cmd.IsFabrics()):
		j := add(ulpMsg{kind: umReadReq, dir: rev, size: int(sgl.Length), va: sgl.Address, rkey: sgl.Key})
		add(ulpMsg{kind: umReadResp, dir: fwd, wait: true, ref: j, size: int(sgl.Length), data: xfer})
		completion()
	case sgl.Keyed():
		w := add(ulpMsg{kind: umWrite, dir: rev, wait: true, size: int(sgl.Length), va: sgl.Address, rkey: sgl.Key, data: xfer})
		// The host acknowledges the WRITE and the completion after both.
		j := add(ulpMsg{kind: umSend, dir: rev, body: s.cqe[:], inv: inv, rkey: sgl.Key})
		add(ulpMsg{kind: umAck, dir: fwd, wait: true, ref: w})
		add(ulpMsg{kind: umAck, dir: fwd, ref: j})
	default:
		completion()
	}
	return nil
}

// nvmeKeyed returns the Keyed SGL Data Block of q's next command moving
// n bytes of the host's memory: one of 256 buffers of q's, 16 MiB apart,
// by the command's CID, with a key whose low byte changes with every
// command as a fast-registered memory region's does. A phase of op
// send-inv asks the target to invalidate the key.
func (g *Generator) nvmeKeyed(q *qpState, n int) nvmeof.SGL {
	slot := uint32(q.nv.cid) & 0xff
	s := nvmeof.SGL{Address: q.va + uint64(slot)<<24, Length: uint32(n), Key: q.rkey&^0xff | (q.rkey+slot)&0xff,
		Type: nvmeof.SGLKeyedDataBlock, SubType: nvmeof.SGLAddress}
	if g.ph.cfg.Op == OpSendInv {
		s.SubType = nvmeof.SGLInvalidateKey
	}
	return s
}

// nvmeAdmin are the commands of the admin queue after its Connect, as
// Linux's host sends them to enable the controller: Property Gets of
// CAP and VS, the Property Set of CC that enables it, the Property Get
// of CSTS that finds it ready (NVMe Base 2.0, 3.1.3), then the Identify
// Controller, the last. value is what a Property Get returns (the
// controller's, as Linux's nvmet reports them) or a Property Set writes.
var nvmeAdmin = [...]struct {
	fctype nvmeof.FabricsType
	attrib uint32 // ATTRIB: 0 a 4-byte property, 1 an 8-byte one
	off    uint32
	value  uint64
}{
	{nvmeof.Connect, 0, 0, 0},
	{nvmeof.PropertyGet, 1, 0x00, 0x20_0f01_03ff}, // CAP: MQES 1023, CQR, TO 7.5 s, the NVM command set
	{nvmeof.PropertyGet, 0, 0x08, 0x0001_0300},    // VS: 1.3
	{nvmeof.PropertySet, 0, 0x14, 0x0046_0001},    // CC: IOCQES 4, IOSQES 6, EN
	{nvmeof.PropertyGet, 0, 0x1c, 0x1},            // CSTS: RDY
	{},                                            // the Identify
}

// nvmeIdentifyFields are the fields of the Identify Controller data
// (NVMe Base 2.0, Figure 275) the generator's target fills in, as Linux's
// nvmet does; the others are 0.
var nvmeIdentifyFields = [...]struct {
	off int
	v   string
}{
	{4, "0123456789abcdef    "},                      // SN, 20 bytes, space padded
	{24, "Linux                                   "}, // MN, 40 bytes
	{64, "6.1.0   "},                                 // FR, 8 bytes
	{72, "\x06"},                                     // RAB
	{78, "\x01\x00"},                                 // CNTLID
	{80, "\x00\x03\x01\x00"},                         // VER 1.3
	{512, "\x66"},                                    // SQES: 64-byte entries
	{513, "\x44"},                                    // CQES: 16-byte entries
	{516, "\x01\x00\x00\x00"},                        // NN: one namespace
	{536, "\x05\x00\x10\x00"},                        // SGLS: keyed SGL, SGLs supported, offsets
	{768, nvmeSubNQN},                                // SUBNQN
	{1792, "\x04\x01\x00\x00"},                       // IOCCSZ: 260 16-byte units, a command and 4 KiB
	{1796, "\x01\x00\x00\x00"},                       // IORCSZ: one completion
}

// nvmeIdentify returns the Identify Controller data of the target.
func (g *Generator) nvmeIdentify() []byte {
	b := g.nv.ident[:]
	clear(b)
	for _, f := range nvmeIdentifyFields {
		copy(b[f.off:], f.v)
	}
	binary.LittleEndian.PutUint16(b[78:], nvmeCntlID)
	return b
}
