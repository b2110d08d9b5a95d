package dump

import "github.com/roce-go/roce/iser"

// The kinds of iSER message a frame holds.
const (
	iserNone = iota
	iserControl
	iserHello
)

// iserRec is the iSER message of a frame (ULPISER): the iSER header
// and, for an iSCSI control-type message, the BHS of its iSCSI PDU;
// data is how many bytes follow the BHS on the wire.
type iserRec struct {
	kind uint8
	hdr  iser.Header
	bhs  iser.BHS
	data int
	raw  [4]byte // a Hello's or HelloReply's first four bytes
}

// decodeISER reads the payload of an RC SEND Only (with Invalidate) as
// an iSER message when it is long enough: an iSER header of opcode 1
// (iSCSI control-type) and the 48-byte BHS after it, or a Hello or
// HelloReply (opcode 2 or 3, 28 bytes or more). A PDU of several packets
// needs the message put together (package reassembly).
func (r *Record) decodeISER() {
	if !r.ulpSend() {
		return
	}
	p := r.RoCE.Packet.Payload
	l := r.payloadLen()
	s := &r.isr
	if l < iser.HeaderLen || len(p) < iser.HeaderLen || s.hdr.Decode(p) != nil {
		return
	}
	switch s.hdr.Opcode {
	case iser.OpControl:
		if l < iser.HeaderLen+iser.BHSLen || len(p) < iser.HeaderLen+iser.BHSLen || s.bhs.Decode(p[iser.HeaderLen:]) != nil {
			return
		}
		s.kind, s.data = iserControl, l-iser.HeaderLen-iser.BHSLen
	case iser.OpHello, iser.OpHelloReply:
		s.kind = iserHello
		copy(s.raw[:], p)
	}
}

// resetISER forgets the message of the frame before.
func (r *Record) resetISER() { r.isr.kind = iserNone }

// hasISER reports whether the frame holds an iSER message.
func (r *Record) hasISER() bool { return r.isr.kind != iserNone && r.isIB() }

// iserHdr returns the frame's iSER header, or nil.
func (r *Record) iserHdr() *iser.Header {
	if r.hasISER() {
		return &r.isr.hdr
	}
	return nil
}

// iscsiBHS returns the BHS of the frame's iSCSI control-type message, or
// nil.
func (r *Record) iscsiBHS() *iser.BHS {
	if r.isr.kind == iserControl && r.isIB() {
		return &r.isr.bhs
	}
	return nil
}

// iserHelloWord returns a Hello's iSER-IRD (reply false) or a
// HelloReply's iSER-ORD (reply true), bytes 2 and 3 (RFC 7145, 9.3 and
// 9.4).
func (r *Record) iserHelloWord(reply bool) (uint64, bool) {
	if !r.hasISER() || r.isr.kind != iserHello || (r.isr.hdr.Opcode == iser.OpHelloReply) != reply {
		return 0, false
	}
	return uint64(r.isr.raw[2])<<8 | uint64(r.isr.raw[3]), true
}

// appendISER appends ": iSER " and the message: a SCSI Command's
// operation (its LBA and blocks for a READ or WRITE), ITT and the STag
// the target reads or writes; a SCSI Response's status; another PDU's
// opcode and ITT; a Hello's IRD or a HelloReply's ORD.
func (r *Record) appendISER(b []byte) []byte {
	if !r.hasISER() {
		return b
	}
	s := &r.isr
	b = append(b, ": iSER "...)
	if s.kind == iserHello {
		b = append(b, s.hdr.Opcode.String()...)
		v, _ := r.iserHelloWord(s.hdr.Opcode == iser.OpHelloReply)
		if s.hdr.Opcode == iser.OpHelloReply {
			if s.hdr.Flags&iser.FlagRej != 0 {
				b = append(b, " reject"...)
			}
			b = append(b, " ord "...)
		} else {
			b = append(b, " ird "...)
		}
		return appendDec(b, v)
	}
	h := &s.bhs
	if name := h.Opcode.Name(); name != "" {
		b = append(b, name...)
	} else {
		b = append(b, "opcode 0x"...)
		b = append(b, hexDigits[h.Opcode>>4], hexDigits[h.Opcode&0xf])
	}
	if h.Opcode == iser.OpSCSICommand {
		cdb := h.CDB()
		b = append(b, ' ')
		if name := iser.OpName(cdb.Opcode()); name != "" {
			b = append(b, name...)
		} else {
			b = append(b, "0x"...)
			b = append(b, hexDigits[cdb[0]>>4], hexDigits[cdb[0]&0xf])
		}
		if lba, ok := cdb.LBA(); ok {
			n, _ := cdb.TransferLength()
			b = append(b, " LBA "...)
			b = appendDec(b, lba)
			b = append(b, " len "...)
			b = appendDec(b, uint64(n))
		}
	}
	b = append(b, " ITT 0x"...)
	b = appendHex32(b, h.ITT)
	switch h.Opcode {
	case iser.OpSCSICommand:
		b = append(b, " edtl "...)
		b = appendDec(b, uint64(h.ExpectedDataTransferLength()))
		if s.hdr.RSV() {
			b = append(b, " read stag 0x"...)
			b = appendHex32(b, s.hdr.ReadSTag)
			b = append(b, " va 0x"...)
			b = appendHex64(b, s.hdr.ReadBaseOffset)
		}
		if s.hdr.WSV() {
			b = append(b, " write stag 0x"...)
			b = appendHex32(b, s.hdr.WriteSTag)
			b = append(b, " va 0x"...)
			b = appendHex64(b, s.hdr.WriteBaseOffset)
		}
	case iser.OpSCSIResponse:
		b = append(b, " status "...)
		if name := iser.StatusName(h.Status()); name != "" {
			b = append(b, name...)
		} else {
			b = append(b, "0x"...)
			b = append(b, hexDigits[h.Status()>>4], hexDigits[h.Status()&0xf])
		}
	case iser.OpLoginResponse:
		b = append(b, " status 0x"...)
		b = append(b, hexDigits[h.Rest[16]>>4], hexDigits[h.Rest[16]&0xf], hexDigits[h.Rest[17]>>4], hexDigits[h.Rest[17]&0xf])
	}
	if s.data > 0 {
		b = append(b, " data "...)
		b = appendDec(b, uint64(s.data))
	}
	return b
}
