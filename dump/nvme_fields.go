package dump

import (
	"sync"

	"github.com/roce-go/roce/nvmeof"
)

// nvmeFields are the keys of an NVMe/RDMA capsule (Record.ULP ULPNVMe,
// nvme.go), tshark 4.0's names, in the order tshark shows them:
// AppendJSON writes them from these rows (appendRowsJSON). A Fabrics
// command has tshark's nvme.fabrics.cmd keys, any other the nvme.cmd
// keys; a command's SGL is in both but a Property Get's or Set's, where
// it is reserved. The keys of a Read or Write and of an Identify are
// those of the queue nvmeIO takes the command to be on. tshark shows a
// completion's keys as it does on an I/O queue; those of a Fabrics
// command's completion (nvme.cqe.status.rsvd for the phase bit, the
// Connect's result) need the command, which a frame alone does not have.
var nvmeFields = sync.OnceValue(func() []Field {
	fab := func(c *nvmeof.Command) bool { return c.IsFabrics() }
	std := func(c *nvmeof.Command) bool { return !c.IsFabrics() }
	fabType := func(t nvmeof.FabricsType) func(c *nvmeof.Command) bool {
		return func(c *nvmeof.Command) bool { return c.IsFabrics() && c.FabricsType() == t }
	}
	prop := func(c *nvmeof.Command) bool {
		return c.IsFabrics() && (c.FabricsType() == nvmeof.PropertyGet || c.FabricsType() == nvmeof.PropertySet)
	}
	sgl := func(c *nvmeof.Command) bool { return !prop(c) }
	keyed := func(c *nvmeof.Command) bool { return !prop(c) && c.SGL1.Keyed() }
	identify := func(c *nvmeof.Command) bool { return std(c) && !nvmeIO(c) && c.Opcode == nvmeof.OpIdentify }
	fs := []Field{
		{Name: "nvme.fabrics.cmd.opc", Type: FieldBytes, Get: func(r *Record) (Value, bool) {
			if c := r.nvmeCmd(); c != nil && c.IsFabrics() {
				return Value{Addr: [16]byte{c.Opcode}, Len: 1}, true
			}
			return none()
		}, Doc: "Fabrics command: the opcode, 2 lowercase hex digits (7f), as tshark 4.0 shows it"},
		fCmd("nvme.fabrics.cmd.rsvd", 8, true, fab, func(c *nvmeof.Command) uint64 { return uint64(c.Fuse | c.Rsvd1<<2 | c.PSDT<<6) }).doc("Fabrics command: byte 1, reserved in NVMe-oF 1.1 (Linux sets PSDT in it)"),
		fCmd("nvme.fabrics.cmd.cid", 16, true, fab, func(c *nvmeof.Command) uint64 { return uint64(c.CID) }).doc("Fabrics command: command identifier"),
		fCmd("nvme.fabrics.cmd.fctype", 8, true, fab, func(c *nvmeof.Command) uint64 { return uint64(c.FabricsType()) }).doc("Fabrics command type (0 Property Set, 1 Connect, 4 Property Get, ...)"),
		fCmd("nvme.fabrics.cmd.connect.recfmt", 16, false, fabType(nvmeof.Connect), func(c *nvmeof.Command) uint64 { return uint64(c.RecFmt()) }).doc("Connect: record format"),
		fCmd("nvme.fabrics.cmd.connect.qid", 16, false, fabType(nvmeof.Connect), func(c *nvmeof.Command) uint64 { return uint64(c.QID()) }).doc("Connect: the queue it creates, 0 the admin queue"),
		fCmd("nvme.fabrics.cmd.connect.sqsize", 16, false, fabType(nvmeof.Connect), func(c *nvmeof.Command) uint64 { return uint64(c.SQSize()) }).doc("Connect: submission queue size, 0-based"),
		fCmd("nvme.fabrics.cmd.connect.cattr", 8, true, fabType(nvmeof.Connect), func(c *nvmeof.Command) uint64 { return uint64(c.CAttr()) }).doc("Connect: connect attributes"),
		fCmd("nvme.fabrics.cmd.connect.kato", 32, false, fabType(nvmeof.Connect), func(c *nvmeof.Command) uint64 { return uint64(c.KATO()) }).doc("Connect: keep alive timeout, ms"),
		fCmd("nvme.fabrics.cmd.prop_get_set.attrib", 8, true, prop, func(c *nvmeof.Command) uint64 { return uint64(uint8(c.CDW[0])) }).doc("Property Get or Set: attributes (bits 2:0: 0 a 4-byte, 1 an 8-byte property)"),
		fCmd("nvme.fabrics.cmd.prop_get_set.offset", 32, true, prop, func(c *nvmeof.Command) uint64 { return uint64(c.PropertyOffset()) }).doc("Property Get or Set: the property's offset (0x14 CC, 0x1c CSTS)"),
		fCmd("nvme.cmd.opc", 8, true, std, func(c *nvmeof.Command) uint64 { return uint64(c.Opcode) }).doc("command capsule (not Fabrics): opcode"),
		fCmd("nvme.cmd.fuse_op", 2, true, std, func(c *nvmeof.Command) uint64 { return uint64(c.Fuse) }).typeWidth(8).doc("command: fused operation"),
		fCmd("nvme.cmd.rsvd", 4, true, std, func(c *nvmeof.Command) uint64 { return uint64(c.Rsvd1) }).typeWidth(8).doc("command: byte 1 bits 5:2, reserved"),
		fCmd("nvme.cmd.psdt", 2, true, std, func(c *nvmeof.Command) uint64 { return uint64(c.PSDT) }).typeWidth(8).doc("command: PRP or SGL for data transfer (1, 2: SGLs)"),
		fCmd("nvme.cmd.cid", 16, true, std, func(c *nvmeof.Command) uint64 { return uint64(c.CID) }).doc("command: command identifier"),
		fCmd("nvme.cmd.nsid", 32, true, std, func(c *nvmeof.Command) uint64 { return uint64(c.NSID) }).doc("command: namespace identifier"),
		fCmd64("nvme.cmd.mptr", std, func(c *nvmeof.Command) uint64 { return c.MPTR }).doc("command: metadata pointer, \"0x\" and 16 hex digits"),
		fCmd("nvme.cmd.sgl.subtype", 4, true, sgl, func(c *nvmeof.Command) uint64 { return uint64(c.SGL1.SubType) }).typeWidth(8).doc("SGL1 (every command but a Property Get or Set): descriptor sub type"),
		fCmd("nvme.cmd.sgl.type", 4, true, sgl, func(c *nvmeof.Command) uint64 { return uint64(c.SGL1.Type) }).typeWidth(8).doc("SGL1: descriptor type (0 Data Block, 4 Keyed Data Block)"),
		fCmd64("nvme.cmd.sgl1.addr", sgl, func(c *nvmeof.Command) uint64 { return c.SGL1.Address }).doc("SGL1: address, \"0x\" and 16 hex digits"),
		fCmd("nvme.cmd.sgl1.len", 32, false, sgl, func(c *nvmeof.Command) uint64 { return uint64(c.SGL1.Length) }).doc("SGL1: length in bytes"),
		fCmd("nvme.cmd.sgl1.key", 32, true, keyed, func(c *nvmeof.Command) uint64 { return uint64(c.SGL1.Key) }).doc("SGL1, a Keyed Data Block: the remote key of the host's memory"),
		fCmd64("nvme.cmd.slba", nvmeRW, func(c *nvmeof.Command) uint64 { return c.SLBA() }).doc("Read or Write (nvme.go, nvmeIO): starting LBA, \"0x\" and 16 hex digits"),
		fCmd("nvme.cmd.nlb", 16, false, nvmeRW, func(c *nvmeof.Command) uint64 { return uint64(c.NLB()) + 1 }).doc("Read or Write: the number of logical blocks, as tshark 4.0 shows it (the command holds it 0-based)"),
		fCmd("nvme.cmd.prinfo", 4, true, nvmeRW, func(c *nvmeof.Command) uint64 { return uint64(c.CDW[2] >> 26 & 0xf) }).typeWidth(16).doc("Read or Write: protection information field"),
		fCmd("nvme.cmd.fua", 1, true, nvmeRW, func(c *nvmeof.Command) uint64 { return uint64(c.CDW[2] >> 30 & 1) }).typeWidth(16).doc("Read or Write: force unit access"),
		fCmd("nvme.cmd.lr", 1, true, nvmeRW, func(c *nvmeof.Command) uint64 { return uint64(c.CDW[2] >> 31) }).typeWidth(16).doc("Read or Write: limited retry"),
		fCmd("nvme.cmd.identify.dword10.cns", 8, true, identify, func(c *nvmeof.Command) uint64 { return uint64(c.CNS()) }).typeWidth(32).doc("Identify: controller or namespace structure (0 namespace, 1 controller)"),
		fCmd("nvme.cmd.identify.dword10.cntid", 16, true, identify, func(c *nvmeof.Command) uint64 { return uint64(c.CDW[0] >> 16) }).typeWidth(32).doc("Identify: controller identifier"),
		{Name: "nvme.cmd.name", Type: FieldString, Get: func(r *Record) (Value, bool) {
			if c := r.nvmeCmd(); c != nil {
				if name := c.Name(!nvmeIO(c)); name != "" {
					return str(name)
				}
			}
			return none()
		}, Doc: "command capsule: the command's name, of the queue nvmeIO takes it to be on (not a Wireshark field)"},
		fCQE("nvme.cqe.dword0", 32, func(c *nvmeof.Completion) uint64 { return uint64(c.DW0) }).doc("response capsule (16 bytes): dword 0, command specific"),
		fCQE("nvme.cqe.dword1", 32, func(c *nvmeof.Completion) uint64 { return uint64(c.DW1) }).doc("completion: dword 1"),
		fCQE("nvme.cqe.sqhd", 16, func(c *nvmeof.Completion) uint64 { return uint64(c.SQHD) }).doc("completion: submission queue head pointer"),
		fCQE("nvme.cqe.sqid", 16, func(c *nvmeof.Completion) uint64 { return uint64(c.SQID) }).doc("completion: submission queue identifier"),
		fCQE("nvme.cqe.cid", 16, func(c *nvmeof.Completion) uint64 { return uint64(c.CID) }).doc("completion: the command's identifier"),
		fCQE("nvme.cqe.status", 16, func(c *nvmeof.Completion) uint64 { return uint64(c.Status)<<1 | b2u(c.Phase) }).doc("completion: the status word, bits 15:1 the status field, bit 0 the phase tag"),
		fCQE("nvme.cqe.status.p", 1, func(c *nvmeof.Completion) uint64 { return b2u(c.Phase) }).typeWidth(16).doc("completion: phase tag (tshark 4.0 calls it nvme.cqe.status.rsvd after a Fabrics command)"),
		fCQE("nvme.cqe.status.sc", 8, func(c *nvmeof.Completion) uint64 { return uint64(c.Status.SC()) }).typeWidth(16).doc("completion: status code"),
		fCQE("nvme.cqe.status.sct", 3, func(c *nvmeof.Completion) uint64 { return uint64(c.Status.SCT()) }).typeWidth(16).doc("completion: status code type (0 generic, 1 command specific, ...)"),
		fCQE("nvme.cqe.status.crd", 2, func(c *nvmeof.Completion) uint64 { return uint64(c.Status.CRD()) }).typeWidth(16).doc("completion: command retry delay"),
		numeric("nvme.cqe.status.m", FieldBool, 0, false, func(r *Record) (uint64, bool) {
			if c := r.nvmeCQE(); c != nil {
				return b2u(c.Status.More()), true
			}
			return 0, false
		}).doc("completion: more"),
		numeric("nvme.cqe.status.dnr", FieldBool, 0, false, func(r *Record) (uint64, bool) {
			if c := r.nvmeCQE(); c != nil {
				return b2u(c.Status.DNR()), true
			}
			return 0, false
		}).doc("completion: do not retry"),
	}
	for i := range fs {
		fs[i].ULP = ULPNVMe
	}
	return fs
})

// fCmd is a field of a command capsule's command, present when has says.
func fCmd(name string, bits uint8, hex bool, has func(c *nvmeof.Command) bool, get func(c *nvmeof.Command) uint64) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if c := r.nvmeCmd(); c != nil && has(c) {
			return get(c), true
		}
		return 0, false
	})
}

// fCmd64 is a 64-bit field of a command, "0x" and 16 hex digits.
func fCmd64(name string, has func(c *nvmeof.Command) bool, get func(c *nvmeof.Command) uint64) Field {
	return Field{Name: name, Type: FieldHex64, Hex: true, Get: func(r *Record) (Value, bool) {
		if c := r.nvmeCmd(); c != nil && has(c) {
			return u(get(c))
		}
		return none()
	}}
}

// fCQE is a field of a response capsule's completion, in hex as tshark
// shows them.
func fCQE(name string, bits uint8, get func(c *nvmeof.Completion) uint64) Field {
	return numeric(name, FieldUint, bits, true, func(r *Record) (uint64, bool) {
		if c := r.nvmeCQE(); c != nil {
			return get(c), true
		}
		return 0, false
	})
}
