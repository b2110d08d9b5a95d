package ib

import (
	"slices"

	"github.com/roce-go/roce/internal/errs"
)

// Headers returns the extended headers present, in wire order: those the
// opcode lists, whether or not the capture kept them (see Captured).
func (p *Packet) Headers() Headers { return p.BTH.OpCode.Headers() }

// Captured returns how many bytes of extended header h the packet holds:
// h.Len() for each header of a packet not cut (BTH.Truncated false) and
// for each header a cut packet holds whole; for the header the snap
// length cut, the bytes captured (0 to h.Len()-1), of which its fields
// captured whole hold their values and the others zero; 0 for the headers
// after it, which are zero, and for a header the opcode does not list.
// A field of h is there when Captured(h) reaches the byte it ends at
// (IBTA Vol 1, 9.3: RETH.DMALen at 16, AETH.Syndrome at 1, ...).
func (p *Packet) Captured(h Header) int {
	hs := p.Headers()
	off := BTHLen
	for i := range hs.Len() {
		x := hs.At(i)
		if x == h {
			if p.BTH.hdrsCut == 0 {
				return h.Len()
			}
			return min(max(int(p.BTH.hdrsCut)-1-(off-BTHLen), 0), h.Len())
		}
		off += x.Len()
	}
	return 0
}

// Decode decodes b, which runs from the first byte of the BTH to the last
// byte of the ICRC. On an error it leaves p's fields zero, so nothing of
// the previous packet remains beside the new one. It allocates nothing
// but, once, the *Error p reports its malformed packets in: the error is
// valid until p decodes a malformed packet again (copy it to keep it).
func (p *Packet) Decode(b []byte) error { return p.decode(b, len(b)) }

// DecodeTruncated decodes a packet that may have been cut short by the
// capture: b holds the bytes captured from the first byte of the BTH, and
// length is the packet's length through the ICRC as the headers in front
// of it declare it (the UDP Length less 8, the GRH PayLen, the LRH's
// PktLen less the LRH and GRH). When b holds the whole packet it is
// Decode(b[:length]). When b is shorter, the packet decodes as long as
// the BTH is in b and the length agrees with the opcode's rules; then
// BTH.Truncated is set, Payload holds the payload bytes captured (none
// when the cut falls inside the extended headers), BTH.Pad is empty and
// BTH.ICRC is zero. The cut may fall anywhere after the BTH: every
// extended header captured whole is decoded, the one the cut falls in
// keeps the fields captured whole and has the others zero, the headers
// after it are zero, and Captured says which is which. Fewer than the
// BTH's 12 bytes, or a length too short for the headers the opcode
// lists, is an error wrapping ErrTruncated, as for Decode.
func (p *Packet) DecodeTruncated(b []byte, length int) error {
	if length < 0 {
		length = 0
	}
	if len(b) > length {
		b = b[:length]
	}
	return p.decode(b, length)
}

// maxHeadersLen is the most bytes of extended headers an opcode lists
// (RD CmpSwap: RDETH, DETH and AtomicETH, 40); TestHeadersFit checks it.
const maxHeadersLen = 40

// decodeCut decodes the extended headers of a packet the capture cut
// inside them: b holds the BTH and the header bytes captured. The bytes
// of the whole fields are copied into a zeroed buffer as long as the
// headers, which eths then decodes, so every field the capture did not
// keep whole reads as zero.
func (p *Packet) decodeCut(b []byte) {
	var buf [maxHeadersLen]byte
	hs := p.BTH.hdrs
	n := copy(buf[:hs.Size()], b[BTHLen:])
	p.BTH.hdrsCut = uint8(n + 1)
	off := 0
	for i := range hs.Len() {
		h := hs.At(i)
		if off+h.Len() > n { // the header the cut falls in
			clear(buf[off+h.whole(n-off) : n])
			break
		}
		off += h.Len()
	}
	p.eths(hs, ethGet, buf[:hs.Size()])
}

// Len returns the encoded length of the packet, ICRC included.
func (p *Packet) Len() int {
	n := BTHLen + p.Headers().Size() + len(p.Payload) + ICRCLen
	if p.BTH.OpCode.Known() {
		n += -len(p.Payload) & 3
	}
	return n
}

// AppendTo appends the encoded packet to b and returns the extended
// slice; it allocates only if b lacks the capacity. For an opcode IBTA
// defines, PadCnt is set from the payload length and the pad is zeros
// (or BTH.Pad, when it has the right length); otherwise PadCnt is written
// as it is and Payload is copied verbatim. The ICRC is written as
// BTH.ICRC holds it: the encapsulation computes it (ComputeICRC needs the
// network header in front).
//
// It first calls Validate and refuses, returning b as it was, what the
// decoder would refuse or what does not fit its field: a 24-bit QP or
// PSN above 0xFFFFFF, a payload on an opcode that carries none, an
// ATOMIC WRITE payload other than 8 bytes. The error is a *FieldError
// naming the field and the value.
func (p *Packet) AppendTo(b []byte) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return b, err
	}
	known := p.BTH.OpCode.Known()
	n := p.Len()
	b = slices.Grow(b, n)
	out := b[len(b) : len(b)+n]
	if known {
		p.BTH.PadCnt = uint8(-len(p.Payload) & 3)
	}
	p.BTH.put(out)
	hs := p.Headers()
	off := BTHLen + hs.Size()
	p.eths(hs, ethPut, out[BTHLen:off])
	off += copy(out[off:], p.Payload)
	if pad := out[off : n-ICRCLen]; known && len(p.BTH.Pad) == len(pad) {
		copy(pad, p.BTH.Pad)
	} else {
		clear(pad) // empty for an unknown opcode
	}
	copy(out[n-ICRCLen:], p.BTH.ICRC[:])
	return b[:len(b)+n], nil
}

// Validate reports the first field of p that AppendTo cannot encode so
// that the decoder reads it back, as a *FieldError, and nil when there is
// none: the BTH fields (DestQP and PSN 24 bits, TVer 4, Resv6a 6, Resv7
// 7, and PadCnt 2 for an opcode IBTA does not define, whose PadCnt is
// written as it is), the fields of each extended header the opcode lists
// (DETH.SrcQP, XRCETH.XRCSRQ, RDETH.EECnxt and AETH.MSN 24 bits, the FETH
// fields), and the opcode's payload rule (Packet.Payload, wrapping
// ErrBadLength). Headers the opcode does not list are not looked at. It
// allocates only the error.
func (p *Packet) Validate() error {
	op := p.BTH.OpCode
	hs, rule, known := op.lookup()
	if err := p.BTH.check(!known); err != nil {
		return err
	}
	if err := p.eths(hs, ethCheck, nil); err != nil {
		return err
	}
	return checkPayload(op, rule, len(p.Payload), 0)
}

// checkPayload checks n payload bytes and pad bytes against an opcode's
// payload rule, as the decoder does.
func checkPayload(op Opcode, rule PayloadRule, n, pad int) error {
	switch {
	case rule == PayloadNone && n+pad != 0:
		return errs.Length("Packet.Payload", n+pad, op.String()+" carries no payload", ErrBadLength)
	case rule == PayloadExact8 && n != 8:
		return errs.Length("Packet.Payload", n, op.String()+" carries exactly 8 bytes", ErrBadLength)
	}
	return nil
}

// ethOp is what Packet.eths does with each extended header.
type ethOp uint8

const (
	ethPut   ethOp = iota // encode the headers into b
	ethCheck              // report a field that does not fit
	ethGet                // decode the headers from b
)

// eths and Packet.decode are the two places that map a Header to the
// field of Packet that holds it; both are generated, with Packet's
// struct, from the Header constants and headerInfo (internal/hdrgen, go
// generate ./ib, into packet_gen.go). They are switches rather than a
// column of functions in headerInfo because a call through a function
// value makes escape analysis assume that p escapes: every Packet, and
// every roce.Frame, declared in a function would move to the heap, an
// allocation per decode. decode has its switch inline: going through
// eths, with the operation as an argument, made it a third slower on an
// RD packet of four extended headers, and a function of its own a fifth
// slower on a packet of one.
