package dump

import (
	"sync"

	"github.com/roce-go/roce/iser"
)

// iserFields are the keys of an iSER message (Record.ULP ULPISER,
// iser.go), tshark 4.0's names, in the order tshark shows them: the
// iSER header's, then the iSCSI BHS's (iscsi.*) and the SCSI CDB's or
// status (scsi.*, scsi_sbc.*) of a control-type message. Each key is
// present on the PDUs tshark shows it on. What tshark learns from the
// conversation (the command a SCSI Response answers, the login's key
// and value pairs) has no key here: a frame alone does not say it.
var iserFields = sync.OnceValue(func() []Field {
	control := func(h *iser.Header) bool { return h.Opcode == iser.OpControl }
	op := func(ops ...iser.ISCSIOpcode) func(b *iser.BHS) bool {
		return func(b *iser.BHS) bool {
			for _, o := range ops {
				if b.Opcode == o {
					return true
				}
			}
			return false
		}
	}
	all := func(*iser.BHS) bool { return true }
	cmd, rsp := op(iser.OpSCSICommand), op(iser.OpSCSIResponse)
	login := op(iser.OpLoginRequest, iser.OpLoginResponse)
	loginReq, loginRsp := op(iser.OpLoginRequest), op(iser.OpLoginResponse)
	initiator := func(b *iser.BHS) bool { return !b.Opcode.Target() }
	target := func(b *iser.BHS) bool { return b.Opcode.Target() }
	// rw reports a SCSI Command whose CDB is a READ or WRITE of 10, 12
	// or 16 bytes, whose fields tshark's SBC dissector shows.
	rw := func(n int) func(b *iser.BHS) bool {
		return func(b *iser.BHS) bool {
			if b.Opcode != iser.OpSCSICommand {
				return false
			}
			c := b.CDB()
			isRW, _ := c.ReadWrite()
			return isRW && c.Len() == n
		}
	}
	rw1016 := func(b *iser.BHS) bool { return rw(10)(b) || rw(12)(b) || rw(16)(b) }
	fs := []Field{
		fISER("iser.flags", 8, nil, func(h *iser.Header) uint64 { return uint64(h.Opcode)<<4 | uint64(h.Flags) }).doc("iSER header: byte 0, the opcode and its flags"),
		fISER("iser.flags.opcode", 4, nil, func(h *iser.Header) uint64 { return uint64(h.Opcode) }).typeWidth(8).doc("iSER header: opcode (1 iSCSI control-type, 2 Hello, 3 HelloReply)"),
		fISERBool("iser.flags.wsv", control, iser.FlagWSV).doc("iSER control-type: Write STag valid (the target RDMA READs the command's data)"),
		fISERBool("iser.flags.rsv", control, iser.FlagRSV).doc("iSER control-type: Read STag valid (the target RDMA WRITEs the command's data)"),
		fISERBool("iser.flags.rej", func(h *iser.Header) bool { return h.Opcode == iser.OpHelloReply }, iser.FlagRej).doc("iSER HelloReply: the target rejects the connection"),
		fISER("iser.write_stag", 32, control, func(h *iser.Header) uint64 { return uint64(h.WriteSTag) }).doc("iSER control-type: Write STag, the initiator's memory the target reads"),
		fISER64("iser.write_base_offset", control, func(h *iser.Header) uint64 { return h.WriteBaseOffset }).doc("iSER control-type: Write Base Offset, \"0x\" and 16 hex digits"),
		fISER("iser.read_stag", 32, control, func(h *iser.Header) uint64 { return uint64(h.ReadSTag) }).doc("iSER control-type: Read STag, the initiator's memory the target writes"),
		fISER64("iser.read_base_offset", control, func(h *iser.Header) uint64 { return h.ReadBaseOffset }).doc("iSER control-type: Read Base Offset, \"0x\" and 16 hex digits"),
		numeric("iser.ird", FieldUint, 16, true, func(r *Record) (uint64, bool) { return r.iserHelloWord(false) }).doc("iSER Hello: iSER-IRD, the initiator's inbound RDMA READ depth (RFC 7145, 9.3)"),
		numeric("iser.ord", FieldUint, 16, true, func(r *Record) (uint64, bool) { return r.iserHelloWord(true) }).doc("iSER HelloReply: iSER-ORD, the target's outbound RDMA READ depth (RFC 7145, 9.4)"),

		fBHS("iscsi.opcode", 6, true, all, func(b *iser.BHS) uint64 { return uint64(b.Opcode) }).typeWidth(8).doc("iSCSI BHS: opcode (0x01 SCSI Command, 0x21 SCSI Response, 0x03 and 0x23 Login)"),
		fBHSBool("iscsi.I", func(b *iser.BHS) bool { return initiator(b) && b.Opcode != iser.OpLoginRequest }, func(b *iser.BHS) bool { return b.Immediate }).doc("iSCSI request but a Login: immediate delivery"),
		fBHS("iscsi.flags", 8, true, func(b *iser.BHS) bool { return cmd(b) || rsp(b) }, func(b *iser.BHS) uint64 { return uint64(b.Flags) }).doc("SCSI Command or Response: byte 1, the flags"),
		fBHSBool("iscsi.scsicommand.F", cmd, func(b *iser.BHS) bool { return b.Flags&iser.FlagFinal != 0 }).doc("SCSI Command: final PDU of the sequence"),
		fBHSBool("iscsi.scsicommand.R", cmd, func(b *iser.BHS) bool { return b.Flags&iser.FlagRead != 0 }).doc("SCSI Command: data will be read from the target"),
		fBHSBool("iscsi.scsicommand.W", cmd, func(b *iser.BHS) bool { return b.Flags&iser.FlagWrite != 0 }).doc("SCSI Command: data will be written to the target"),
		fBHS("iscsi.scsicommand.attr", 3, true, cmd, func(b *iser.BHS) uint64 { return uint64(b.Flags & 7) }).typeWidth(8).doc("SCSI Command: task attribute (1 Simple)"),
		fBHSBool("iscsi.scsiresponse.o", rsp, func(b *iser.BHS) bool { return b.Flags&iser.FlagBidiOver != 0 }).doc("SCSI Response: bidirectional read residual overflow"),
		fBHSBool("iscsi.scsiresponse.u", rsp, func(b *iser.BHS) bool { return b.Flags&iser.FlagBidiUnd != 0 }).doc("SCSI Response: bidirectional read residual underflow"),
		fBHSBool("iscsi.scsiresponse.O", rsp, func(b *iser.BHS) bool { return b.Flags&iser.FlagOver != 0 }).doc("SCSI Response: residual overflow"),
		fBHSBool("iscsi.scsiresponse.U", rsp, func(b *iser.BHS) bool { return b.Flags&iser.FlagUnder != 0 }).doc("SCSI Response: residual underflow"),
		fBHSBool("iscsi.login.T", login, func(b *iser.BHS) bool { return b.Flags&0x80 != 0 }).doc("Login: transit to the next stage"),
		fBHSBool("iscsi.login.C", login, func(b *iser.BHS) bool { return b.Flags&0x40 != 0 }).doc("Login: continue, the text goes on in the next PDU"),
		fBHS("iscsi.login.csg", 2, true, login, func(b *iser.BHS) uint64 { return uint64(b.Flags >> 2 & 3) }).typeWidth(8).doc("Login: current stage (0 security, 1 operational negotiation)"),
		fBHS("iscsi.login.nsg", 2, true, login, func(b *iser.BHS) uint64 { return uint64(b.Flags & 3) }).typeWidth(8).doc("Login: next stage (3 full feature phase)"),
		fBHS("iscsi.versionmax", 8, true, login, func(b *iser.BHS) uint64 { return uint64(b.Specific[0]) }).doc("Login: Version-max"),
		fBHS("iscsi.versionmin", 8, true, loginReq, func(b *iser.BHS) uint64 { return uint64(b.Specific[1]) }).doc("Login Request: Version-min"),
		fBHS("iscsi.versionactive", 8, true, loginRsp, func(b *iser.BHS) uint64 { return uint64(b.Specific[1]) }).doc("Login Response: Version-active"),
		fBHS("iscsi.scsiresponse.response", 8, true, rsp, func(b *iser.BHS) uint64 { return uint64(b.Response()) }).doc("SCSI Response: iSCSI service response (0 command completed at target)"),
		fBHS("iscsi.scsiresponse.status", 8, true, rsp, func(b *iser.BHS) uint64 { return uint64(b.Status()) }).doc("SCSI Response: SCSI status (0 GOOD, 2 CHECK CONDITION)"),
		fBHS("iscsi.totalahslength", 8, false, all, func(b *iser.BHS) uint64 { return uint64(b.TotalAHSLength) }).doc("iSCSI BHS: length of the additional header segments, 4-byte words"),
		fBHS("iscsi.datasegmentlength", 24, false, all, func(b *iser.BHS) uint64 { return uint64(b.DataSegmentLength) }).typeWidth(32).doc("iSCSI BHS: length of the data segment, bytes"),
		fBHS("scsi.lun.address_mode", 2, true, cmd, func(b *iser.BHS) uint64 { return b.LUN >> 62 }).typeWidth(8).doc("SCSI Command: the LUN's address method (0 simple, peripheral device addressing)"),
		fBHS("scsi.lun", 14, true, cmd, func(b *iser.BHS) uint64 { return b.LUN >> 48 & 0x3fff }).typeWidth(16).doc("SCSI Command: the logical unit, as simple addressing gives it"),
		{Name: "iscsi.isid", Type: FieldBytes, Get: func(r *Record) (Value, bool) {
			if b := r.iscsiBHS(); b != nil && login(b) {
				var v Value
				for i := range 6 {
					v.Addr[i] = byte(b.LUN >> (56 - 8*i))
				}
				v.Len = 6
				return v, true
			}
			return none()
		}, Doc: "Login: the initiator's session ID, 6 bytes"},
		fBHS("iscsi.tsih", 16, true, login, func(b *iser.BHS) uint64 { return b.LUN & 0xffff }).doc("Login: target session identifying handle (0 for a new session)"),
		fBHS("iscsi.initiatortasktag", 32, true, all, func(b *iser.BHS) uint64 { return uint64(b.ITT) }).doc("iSCSI BHS: initiator task tag"),
		fBHS("iscsi.cid", 16, true, loginReq, func(b *iser.BHS) uint64 { return uint64(b.Rest[0])<<8 | uint64(b.Rest[1]) }).doc("Login Request: connection ID"),
		fBHS("iscsi.scsicommand.expecteddatatransferlength", 32, false, cmd, func(b *iser.BHS) uint64 { return uint64(b.ExpectedDataTransferLength()) }).doc("SCSI Command: expected data transfer length, bytes"),
		fBHS("iscsi.cmdsn", 32, false, initiator, func(b *iser.BHS) uint64 { return uint64(b.CmdSN()) }).doc("iSCSI request: command sequence number"),
		fBHS("iscsi.expstatsn", 32, false, initiator, func(b *iser.BHS) uint64 { return uint64(b.ExpStatSN()) }).doc("iSCSI request: expected status sequence number"),
		fBHS("iscsi.statsn", 32, false, target, func(b *iser.BHS) uint64 { return uint64(b.StatSN()) }).doc("iSCSI response: status sequence number"),
		fBHS("iscsi.expcmdsn", 32, false, target, func(b *iser.BHS) uint64 { return uint64(b.ExpCmdSN()) }).doc("iSCSI response: expected command sequence number"),
		fBHS("iscsi.maxcmdsn", 32, false, target, func(b *iser.BHS) uint64 { return uint64(b.MaxCmdSN()) }).doc("iSCSI response: largest command sequence number the target takes"),
		fBHS("iscsi.expdatasn", 32, true, rsp, func(b *iser.BHS) uint64 { return uint64(b.DataSN()) }).doc("SCSI Response: expected data sequence number"),
		fBHS("iscsi.scsiresponse.bidireadresidualcount", 32, false, rsp, func(b *iser.BHS) uint64 { return uint64(b.BufferOffset()) }).doc("SCSI Response: bidirectional read residual count"),
		fBHS("iscsi.scsiresponse.residualcount", 32, false, rsp, func(b *iser.BHS) uint64 { return uint64(b.ResidualCount()) }).doc("SCSI Response: residual count"),
		fBHS("iscsi.login.status", 16, true, loginRsp, func(b *iser.BHS) uint64 { return uint64(b.Rest[16])<<8 | uint64(b.Rest[17]) }).doc("Login Response: status class and detail (0 success)"),
		fBHS("scsi_sbc.opcode", 8, true, rw1016, func(b *iser.BHS) uint64 { return uint64(b.Rest[12]) }).doc("SCSI Command, a READ or WRITE: the CDB's operation code (0x28 READ(10), 0x8a WRITE(16))"),
		fBHS("scsi_sbc.rdwr10.lba", 32, false, func(b *iser.BHS) bool { return rw(10)(b) || rw(12)(b) }, func(b *iser.BHS) uint64 { c := b.CDB(); v, _ := c.LBA(); return v }).doc("READ or WRITE (10) or (12): logical block address"),
		fBHS("scsi_sbc.rdwr10.xferlen", 16, false, rw(10), func(b *iser.BHS) uint64 { c := b.CDB(); v, _ := c.TransferLength(); return uint64(v) }).doc("READ or WRITE (10): transfer length, blocks"),
		{Name: "scsi_sbc.rdwr16.lba", Type: FieldBytes, Get: func(r *Record) (Value, bool) {
			if b := r.iscsiBHS(); b != nil && rw(16)(b) {
				v := Value{Len: 8}
				copy(v.Addr[:8], b.Rest[14:22])
				return v, true
			}
			return none()
		}, Doc: "READ or WRITE (16): logical block address, 8 bytes as tshark 4.0 shows it"},
		fBHS("scsi_sbc.rdwr12.xferlen", 32, false, func(b *iser.BHS) bool { return rw(12)(b) || rw(16)(b) }, func(b *iser.BHS) uint64 { c := b.CDB(); v, _ := c.TransferLength(); return uint64(v) }).doc("READ or WRITE (12) or (16): transfer length, blocks"),
		fBHS("scsi.cdb.control", 8, true, rw1016, func(b *iser.BHS) uint64 { c := b.CDB(); return uint64(c[c.Len()-1]) }).doc("SCSI Command, a READ or WRITE: the CDB's control byte, its last"),
		fBHS("scsi.status", 8, true, rsp, func(b *iser.BHS) uint64 { return uint64(b.Status()) }).doc("SCSI Response: the SCSI status, as the SCSI layer shows it"),
	}
	for i := range fs {
		fs[i].ULP = ULPISER
	}
	return fs
})

// fISER is a field of the iSER header, present when has says (nil: on
// every iSER message).
func fISER(name string, bits uint8, has func(h *iser.Header) bool, get func(h *iser.Header) uint64) Field {
	return numeric(name, FieldUint, bits, true, func(r *Record) (uint64, bool) {
		if h := r.iserHdr(); h != nil && (has == nil || has(h)) {
			return get(h), true
		}
		return 0, false
	})
}

// fISERBool is a flag of the iSER header's first byte.
func fISERBool(name string, has func(h *iser.Header) bool, bit uint8) Field {
	return numeric(name, FieldBool, 0, false, func(r *Record) (uint64, bool) {
		if h := r.iserHdr(); h != nil && has(h) {
			return b2u(h.Flags&bit != 0), true
		}
		return 0, false
	})
}

// fISER64 is a 64-bit field of the iSER header, "0x" and 16 hex digits.
func fISER64(name string, has func(h *iser.Header) bool, get func(h *iser.Header) uint64) Field {
	return Field{Name: name, Type: FieldHex64, Hex: true, Get: func(r *Record) (Value, bool) {
		if h := r.iserHdr(); h != nil && has(h) {
			return u(get(h))
		}
		return none()
	}}
}

// fBHS is a field of an iSCSI BHS, present when has says.
func fBHS(name string, bits uint8, hex bool, has func(b *iser.BHS) bool, get func(b *iser.BHS) uint64) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if b := r.iscsiBHS(); b != nil && has(b) {
			return get(b), true
		}
		return 0, false
	})
}

// fBHSBool is a flag of an iSCSI BHS, present when has says.
func fBHSBool(name string, has, get func(b *iser.BHS) bool) Field {
	return numeric(name, FieldBool, 0, false, func(r *Record) (uint64, bool) {
		if b := r.iscsiBHS(); b != nil && has(b) {
			return b2u(get(b)), true
		}
		return 0, false
	})
}
