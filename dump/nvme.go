package dump

import "github.com/roce-go/roce/nvmeof"

// The kinds of capsule a frame holds.
const (
	nvmeNone = iota
	nvmeCommand
	nvmeCompletion
)

// nvmeRec is the NVMe/RDMA capsule of a frame: kind says which of cmd
// and cqe holds it; inCapsule is how many bytes of in-capsule data
// follow a command on the wire.
type nvmeRec struct {
	kind      uint8
	cmd       nvmeof.Command
	cqe       nvmeof.Completion
	inCapsule int
}

// decodeNVMe reads the payload of an RC SEND Only (with Invalidate) as a
// capsule (ULPNVMe) when the payload's length fits. A SEND Last is not a
// capsule but its tail: a capsule of several packets needs the message
// put together (package reassembly), which a frame alone cannot do.
func (r *Record) decodeNVMe() {
	if !r.ulpSend() {
		return
	}
	p := &r.RoCE.Packet
	n := &r.nvme
	switch l := r.payloadLen(); {
	case l == nvmeof.CompletionLen && len(p.Payload) == l:
		if n.cqe.Decode(p.Payload) == nil {
			n.kind = nvmeCompletion
		}
	case l >= nvmeof.CommandLen && len(p.Payload) >= nvmeof.CommandLen:
		if n.cmd.Decode(p.Payload) != nil || !n.cmd.IsFabrics() && n.cmd.PSDT != 1 && n.cmd.PSDT != 2 {
			return
		}
		n.kind, n.inCapsule = nvmeCommand, l-nvmeof.CommandLen
	}
}

// nvmeCmd returns the frame's command capsule's command, or nil.
func (r *Record) nvmeCmd() *nvmeof.Command {
	if r.nvme.kind == nvmeCommand && r.isIB() {
		return &r.nvme.cmd
	}
	return nil
}

// nvmeCQE returns the frame's response capsule's completion, or nil.
func (r *Record) nvmeCQE() *nvmeof.Completion {
	if r.nvme.kind == nvmeCompletion && r.isIB() {
		return &r.nvme.cqe
	}
	return nil
}

// hasNVMe reports whether the frame holds a capsule.
func (r *Record) hasNVMe() bool { return r.nvme.kind != nvmeNone && r.isIB() }

// nvmeIO reports whether a command is taken to be an I/O queue's: the
// queue is not in the capsule (tshark knows it from the connection's CM
// REQ), and a frame alone says only this much. A command other than a
// Fabrics one that names a namespace (NSID neither 0 nor the broadcast
// 0xffffffff) by an opcode the NVM command set defines is an I/O
// command; every other is an admin command. Identify of a namespace
// stays an admin command (0x06 is no I/O opcode); a Get Log Page or Get
// or Set Features of one namespace would be taken for the I/O command of
// its opcode.
func nvmeIO(c *nvmeof.Command) bool {
	return !c.IsFabrics() && c.NSID != 0 && c.NSID != 0xffffffff && c.Name(false) != ""
}

// nvmeRW reports whether a command is taken to be a Read or a Write
// (nvmeIO), whose SLBA and NLB tshark shows.
func nvmeRW(c *nvmeof.Command) bool {
	return nvmeIO(c) && (c.Opcode == nvmeof.OpRead || c.Opcode == nvmeof.OpWrite)
}

// resetNVMe forgets the capsule of the frame before.
func (r *Record) resetNVMe() { r.nvme.kind = nvmeNone }

// appendNVMe appends ": NVMe " and the capsule: the command's name, CID,
// NSID, what the command's dwords say (a Read's or Write's SLBA and
// number of blocks, a Connect's queue, a property's name) and its SGL;
// or the completion's CID and status.
func (r *Record) appendNVMe(b []byte) []byte {
	if !r.hasNVMe() {
		return b
	}
	n := &r.nvme
	b = append(b, ": NVMe "...)
	if n.kind == nvmeCompletion {
		c := &n.cqe
		b = append(b, "completion cid "...)
		b = appendDec(b, uint64(c.CID))
		b = append(b, " sqhd "...)
		b = appendDec(b, uint64(c.SQHD))
		b = append(b, " status "...)
		if name := c.Status.Name(false); name != "" {
			b = append(b, name...)
		} else {
			b = append(b, "sct "...)
			b = appendDec(b, uint64(c.Status.SCT()))
			b = append(b, " sc 0x"...)
			b = append(b, hexDigits[c.Status.SC()>>4], hexDigits[c.Status.SC()&0xf])
		}
		if c.DW0 != 0 {
			b = append(b, " dw0 0x"...)
			b = appendHex32(b, c.DW0)
		}
		return b
	}
	c := &n.cmd
	if c.IsFabrics() {
		b = append(b, "Fabrics "...)
	}
	if name := c.Name(!nvmeIO(c)); name != "" {
		b = append(b, name...)
	} else {
		b = append(b, "opcode 0x"...)
		b = append(b, hexDigits[c.Opcode>>4], hexDigits[c.Opcode&0xf])
		if c.IsFabrics() {
			b = append(b, " fctype "...)
			b = appendDec(b, uint64(c.FabricsType()))
		}
	}
	b = append(b, " cid "...)
	b = appendDec(b, uint64(c.CID))
	if c.IsFabrics() {
		switch c.FabricsType() {
		case nvmeof.Connect:
			b = append(b, " qid "...)
			b = appendDec(b, uint64(c.QID()))
			b = append(b, " sqsize "...)
			b = appendDec(b, uint64(c.SQSize())+1)
		case nvmeof.PropertyGet, nvmeof.PropertySet:
			b = append(b, " property "...)
			if name := nvmeof.PropertyName(c.PropertyOffset()); name != "" {
				b = append(b, name...)
			} else {
				b = append(b, "0x"...)
				b = appendHex32(b, c.PropertyOffset())
			}
			if c.FabricsType() == nvmeof.PropertySet {
				b = append(b, " value 0x"...)
				b = appendHex64(b, c.PropertyValue())
			}
			return b // SGL1 is reserved in a Property Get or Set
		}
	} else {
		b = append(b, " nsid "...)
		b = appendDec(b, uint64(c.NSID))
	}
	if nvmeRW(c) {
		b = append(b, " slba "...)
		b = appendDec(b, c.SLBA())
		b = append(b, " nlb "...)
		b = appendDec(b, uint64(c.NLB())+1)
	}
	s := &c.SGL1
	switch {
	case s.Keyed():
		b = append(b, " sgl keyed addr 0x"...)
		b = appendHex64(b, s.Address)
		b = append(b, " len "...)
		b = appendDec(b, uint64(s.Length))
		b = append(b, " key 0x"...)
		b = appendHex32(b, s.Key)
	case s.InCapsule():
		b = append(b, " sgl in-capsule offset "...)
		b = appendDec(b, s.Address)
		b = append(b, " len "...)
		b = appendDec(b, uint64(s.Length))
	default:
		b = append(b, " sgl type "...)
		b = appendDec(b, uint64(s.Type))
		b = append(b, " len "...)
		b = appendDec(b, uint64(s.Length))
	}
	if n.inCapsule > 0 {
		b = append(b, " data "...)
		b = appendDec(b, uint64(n.inCapsule))
	}
	return b
}
