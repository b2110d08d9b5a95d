package ib

import (
	"encoding/binary"
	"strconv"

	"github.com/roce-go/roce/internal/errs"
)

// BTHLen is the size of the Base Transport Header.
const BTHLen = 12

// ICRCLen is the size of the invariant CRC that ends every RoCE packet.
const ICRCLen = 4

// BTH is the Base Transport Header (IBTA Vol 1, 9.2), 12 bytes:
//
//	 0               1               2               3
//	+---------------+-+-+---+-------+-------------------------------+
//	|    OpCode     |S|M|Pad| TVer  |             P_Key             |
//	+-+-+-----------+-+-+---+-------+-------------------------------+
//	|F|B|  Resv6a   |                    DestQP                     |
//	+-+-------------+-----------------------------------------------+
//	|A|   Resv7     |                      PSN                      |
//	+-+-------------+-----------------------------------------------+
//
// Decode and Split read everything from its first byte to the end of the
// ICRC: they split off the PadCnt pad bytes and the 4-byte ICRC (both
// kept, as received, in Pad and ICRC); Split returns the extended headers
// and the payload for the headers that follow.
type BTH struct {
	OpCode Opcode
	SE     bool   // solicited event
	MigReq bool   // migration state (M)
	PadCnt uint8  // pad bytes after the payload, 0-3
	TVer   uint8  // transport header version, 0
	PKey   uint16 // partition key (P_Key)
	FECN   bool   // forward explicit congestion notification
	BECN   bool   // backward explicit congestion notification
	Resv6a uint8  // reserved, 6 bits, kept for byte-exact re-encoding
	DestQP uint32 // destination queue pair, 24 bits
	AckReq bool   // acknowledge request (A)
	Resv7  uint8  // reserved, 7 bits
	PSN    uint32 // packet sequence number, 24 bits

	Pad  []byte  // the pad bytes, aliasing the input
	ICRC [4]byte // the ICRC bytes as received (least significant first)

	// Truncated says that the capture cut the packet short: the BTH was
	// decoded, but the packet runs past the captured bytes, so Pad is
	// empty, ICRC is zero (not captured, or not told apart from the
	// payload) and the payload holds only the bytes captured. The cut may
	// fall anywhere after the BTH, inside the extended headers too:
	// Packet.Captured says how much of each was captured. A decoder sets
	// it when told the packet's declared length (Packet.DecodeTruncated,
	// Split).
	Truncated bool

	hdrs Headers // OpCode.Headers(), kept by the last decode
	// hdrsCut is, when the capture cut the packet inside its extended
	// headers, 1 plus the bytes of them it kept; 0 otherwise (Packet.Captured).
	hdrsCut uint8
}

// Offsets in the BTH.
const (
	bthOpCode = 0 // OpCode
	bthFlags  = 1 // SE, M, PadCnt, TVer
	bthPKey   = 2 // P_Key
	bthFECN   = 4 // FECN, BECN, Resv6a: the byte the ICRC masks
	bthDestQP = 5 // DestQP, 24 bits
	bthAckReq = 8 // AckReq, Resv7
	bthPSN    = 9 // PSN, 24 bits
)

// put writes the header into b[:BTHLen].
func (h *BTH) put(b []byte) {
	_ = b[BTHLen-1]
	b[bthOpCode] = byte(h.OpCode)
	b[bthFlags] = flag(h.SE, 0x80) | flag(h.MigReq, 0x40) | (h.PadCnt&3)<<4 | h.TVer&0x0f
	binary.BigEndian.PutUint16(b[bthPKey:], h.PKey)
	b[bthFECN] = flag(h.FECN, 0x80) | flag(h.BECN, 0x40) | h.Resv6a&0x3f
	put24(b[bthDestQP:], h.DestQP)
	b[bthAckReq] = flag(h.AckReq, 0x80) | h.Resv7&0x7f
	put24(b[bthPSN:], h.PSN)
}

// check reports a field that does not fit, as a *FieldError. PadCnt is
// checked only when the caller writes it as it is (padCnt true).
func (h *BTH) check(padCnt bool) error {
	if (h.DestQP|h.PSN)>>24 == 0 && h.TVer>>4 == 0 && h.Resv6a>>6 == 0 && h.Resv7>>7 == 0 &&
		(!padCnt || h.PadCnt>>2 == 0) {
		return nil
	}
	for _, f := range [...]struct {
		name string
		v    uint32
		bits uint
	}{
		{"BTH.TVer", uint32(h.TVer), 4},
		{"BTH.Resv6a", uint32(h.Resv6a), 6},
		{"BTH.DestQP", h.DestQP, 24},
		{"BTH.Resv7", uint32(h.Resv7), 7},
		{"BTH.PSN", h.PSN, 24},
	} {
		if err := errs.Fit(f.name, uint64(f.v), f.bits); err != nil {
			return err
		}
	}
	return errs.Fit("BTH.PadCnt", uint64(h.PadCnt), 2)
}

// split decodes the BTH fields and checks a transport packet against the
// opcode's rules; it returns where the headers end and where the pad
// starts. b holds the bytes captured from the first byte of the BTH, at
// most n of them; n is the packet's length through the ICRC as the
// headers in front of it declare it, or LengthUnknown. A whole packet
// has n == len(b). When n is larger than len(b) (or unknown) the packet
// was cut by the capture: h.Truncated is set, the BTH must be in b (the
// extended headers may be cut), the payload rules are checked against n,
// and padStart is capped at len(b); hdrEnd may then lie beyond len(b).
// It leaves the opcode's headers in h.hdrs, and h.hdrsCut 0.
//
// Its errors are held in s (errs.Slot), or allocated when s is nil.
func (h *BTH) split(b []byte, n int, s *errs.Slot) (hdrEnd, padStart int, err error) {
	if n != len(b) {
		return h.splitCut(b, n, s)
	}
	if len(b) < BTHLen+ICRCLen {
		return 0, 0, s.Truncated("BTH", 0, BTHLen+ICRCLen, len(b))
	}
	// fields and checkRule written out: the calls cost the fast path of
	// roce.Frame.Decode a tenth of its time.
	w0 := binary.BigEndian.Uint32(b[bthOpCode:])
	w1 := binary.BigEndian.Uint32(b[bthFECN:])
	w2 := binary.BigEndian.Uint32(b[bthAckReq:])
	f := byte(w0 >> 16)
	h.OpCode, h.PKey = Opcode(w0>>24), uint16(w0)
	h.SE, h.MigReq, h.PadCnt, h.TVer = f&0x80 != 0, f&0x40 != 0, f>>4&3, f&0x0f
	h.FECN, h.BECN, h.Resv6a, h.DestQP = w1&0x80000000 != 0, w1&0x40000000 != 0, uint8(w1>>24)&0x3f, w1&0xffffff
	h.AckReq, h.Resv7, h.PSN = w2&0x80000000 != 0, uint8(w2>>24)&0x7f, w2&0xffffff
	h.Truncated, h.hdrsCut = false, 0
	end := len(b) - ICRCLen
	hs, rule, known := h.OpCode.lookup()
	h.hdrs = hs
	if !known {
		return BTHLen, end, nil // opaque bytes, pad not split
	}
	hdrEnd = BTHLen + hs.Size()
	if hdrEnd > end {
		return 0, 0, s.Truncated(headersName[h.OpCode], BTHLen, hdrEnd+ICRCLen, len(b))
	}
	padStart = end - int(h.PadCnt)
	if padStart < hdrEnd {
		return 0, 0, s.New("BTH", 1, int(h.PadCnt), end-hdrEnd, ErrBadPad)
	}
	switch rule {
	case PayloadNone:
		if end != hdrEnd {
			return 0, 0, s.New(h.OpCode.String(), hdrEnd, 0, end-hdrEnd, ErrBadLength)
		}
	case PayloadExact8:
		if padStart-hdrEnd != 8 {
			return 0, 0, s.New(h.OpCode.String(), hdrEnd, 8, padStart-hdrEnd, ErrBadLength)
		}
	}
	return hdrEnd, padStart, nil
}

// headersName is, by opcode, Headers.String of its extended headers,
// made once: an error names them without allocating.
var headersName = func() (t [256]string) {
	for op := range t {
		t[op] = Opcode(op).Headers().String()
	}
	return t
}()

// splitCut is split for a packet cut by the capture: n is larger than
// len(b), or LengthUnknown.
func (h *BTH) splitCut(b []byte, n int, s *errs.Slot) (hdrEnd, padStart int, err error) {
	if n >= 0 && n < BTHLen+ICRCLen {
		return 0, 0, s.Truncated("BTH", 0, BTHLen+ICRCLen, n)
	}
	if len(b) < BTHLen {
		return 0, 0, s.Truncated("BTH", 0, BTHLen, len(b))
	}
	h.fields(b)
	h.Truncated, h.hdrsCut = true, 0
	hs, rule, known := h.OpCode.lookup()
	h.hdrs = hs
	end := n - ICRCLen
	if n < 0 {
		end = len(b)
	}
	if !known {
		return BTHLen, len(b), nil // opaque bytes
	}
	hdrEnd = BTHLen + hs.Size()
	switch {
	case hdrEnd > end && n >= 0:
		return 0, 0, s.Truncated(headersName[h.OpCode], BTHLen, hdrEnd+ICRCLen, n) // the declared length has no room
	case n < 0:
		return hdrEnd, len(b), nil // the payload rules need the length
	}
	padStart, err = h.checkRule(rule, hdrEnd, end, s)
	return hdrEnd, min(padStart, len(b)), err
}

// fields decodes the twelve BTH fields from b, at least BTHLen bytes.
func (h *BTH) fields(b []byte) {
	// Three big-endian words.
	w0 := binary.BigEndian.Uint32(b[bthOpCode:])
	w1 := binary.BigEndian.Uint32(b[bthFECN:])
	w2 := binary.BigEndian.Uint32(b[bthAckReq:])
	f := byte(w0 >> 16)
	h.OpCode, h.PKey = Opcode(w0>>24), uint16(w0)
	h.SE, h.MigReq, h.PadCnt, h.TVer = f&0x80 != 0, f&0x40 != 0, f>>4&3, f&0x0f
	h.FECN, h.BECN, h.Resv6a, h.DestQP = w1&0x80000000 != 0, w1&0x40000000 != 0, uint8(w1>>24)&0x3f, w1&0xffffff
	h.AckReq, h.Resv7, h.PSN = w2&0x80000000 != 0, uint8(w2>>24)&0x7f, w2&0xffffff
}

// checkRule checks the pad and the opcode's payload rule for a packet
// whose headers end at hdrEnd and whose ICRC starts at end, and returns
// where the pad starts.
func (h *BTH) checkRule(rule PayloadRule, hdrEnd, end int, s *errs.Slot) (padStart int, err error) {
	padStart = end - int(h.PadCnt)
	if padStart < hdrEnd {
		return 0, s.New("BTH", 1, int(h.PadCnt), end-hdrEnd, ErrBadPad)
	}
	switch rule {
	case PayloadNone:
		if end != hdrEnd {
			return 0, s.New(h.OpCode.String(), hdrEnd, 0, end-hdrEnd, ErrBadLength)
		}
	case PayloadExact8:
		if padStart-hdrEnd != 8 {
			return 0, s.New(h.OpCode.String(), hdrEnd, 8, padStart-hdrEnd, ErrBadLength)
		}
	}
	return padStart, nil
}

// Decode decodes the BTH at the start of b, which runs from the first
// byte of the BTH to the last byte of the ICRC, resetting h; it checks the
// packet against the opcode's rules as Split does. Packet.Decode decodes
// the extended headers and the payload too.
func (h *BTH) Decode(b []byte) error {
	_, err := h.Split(b, len(b))
	return err
}

// Split decodes the BTH at the start of data, resetting h, and returns
// what follows it up to the pad: the extended headers and the payload.
// data runs from the first byte of the BTH to the last byte of the ICRC,
// or to the end of what the capture kept. length is the packet's length
// through the ICRC as the headers in front of it declare it (the UDP
// Length less 8, the GRH PayLen; DeclaredLength): len(data) for a whole
// packet, more for a packet the capture cut, LengthUnknown for a cut
// packet whose length is not known (its payload rules then go
// unchecked). A length up to len(data) means the whole packet is there.
// A cut packet sets Truncated: Pad is empty, ICRC zero and the bytes
// returned are those captured. On an error h is left zeroed; a
// truncation wraps ErrTruncated (and io.ErrUnexpectedEOF).
func (h *BTH) Split(data []byte, length int) (rest []byte, err error) {
	if length >= 0 && length <= len(data) {
		length = len(data)
	}
	_, padStart, err := h.split(data, length, nil)
	if err != nil {
		*h = BTH{}
		return nil, err
	}
	rest = data[BTHLen:padStart]
	if h.Truncated {
		h.Pad, h.ICRC = nil, [ICRCLen]byte{}
		return rest, nil
	}
	end := len(data) - ICRCLen
	h.Pad = data[padStart:end]
	copy(h.ICRC[:], data[end:])
	return rest, nil
}

// NextHeader returns the first extended header of the opcode, or
// NoHeader when only data follows (or the opcode is not one IBTA
// defines).
func (h *BTH) NextHeader() Header {
	if hs := h.OpCode.Headers(); hs.Len() > 0 {
		return hs.At(0)
	}
	return NoHeader
}

// Validate reports a field of the BTH that does not fit, as a
// *FieldError wrapping ErrBadValue: DestQP and PSN have 24 bits, TVer 4,
// Resv6a 6, Resv7 7, PadCnt 2. Packet.Validate checks a packet as a
// whole (Packet.AppendTo sets PadCnt for the opcodes IBTA defines). It
// allocates only the error.
func (h *BTH) Validate() error { return h.check(true) }

// Len returns BTHLen, the size of the header alone.
func (h *BTH) Len() int { return BTHLen }

// DeclaredLength returns the length to give Split for a packet the
// capture cut short, as the header in front of the BTH declares it: the
// UDP Length less 8 when udpLength (0 without a UDP header) is at least 8,
// else the PayLen of grh (nil without a GRH), else LengthUnknown.
func DeclaredLength(udpLength uint16, grh *GRH) int {
	switch {
	case udpLength >= 8:
		return int(udpLength) - 8
	case grh != nil:
		return int(grh.PayLen)
	}
	return LengthUnknown
}

// Serialize prepends the BTH and appends the pad and the ICRC to the
// bytes already serialized (the extended headers and the payload) of b, the
// SerializeBuffer of either gopacket module. With FixLengths, PadCnt is set so that the payload ends on a 4-byte boundary.
// For an opcode IBTA does not define, whose pad the decoder leaves in the
// opaque payload, PadCnt is written as it is and no pad is added. The
// ICRC is written as h.ICRC holds it: compute it once the outer headers
// exist (see the rocev1 and rocev2 packages).
//
// It refuses, writing nothing, what the decoder would refuse or what does
// not fit its field: a field wider than its bits, fewer bytes than the
// opcode's extended headers need, a payload (or pad) against the
// opcode's rule. The error is a *FieldError.
func (h *BTH) Serialize(b Buffer, opts SerializeOptions) error {
	hs, rule, known := h.OpCode.lookup()
	if err := h.check(!known || !opts.FixLengths); err != nil {
		return err
	}
	padCnt := 0
	if known {
		n := len(b.Bytes()) - hs.Size() // the payload
		if n < 0 {
			return errs.Field("BTH.OpCode", uint64(h.OpCode), "needs "+strconv.Itoa(hs.Size())+" bytes of extended headers ("+hs.String()+"), has "+strconv.Itoa(n+hs.Size()), ErrBadLength)
		}
		if opts.FixLengths {
			h.PadCnt = uint8(-n & 3)
		}
		padCnt = int(h.PadCnt)
		if err := checkPayload(h.OpCode, rule, n, padCnt); err != nil {
			return err
		}
	}
	tail, err := b.AppendBytes(padCnt + ICRCLen)
	if err != nil {
		return err
	}
	pad := tail[:padCnt]
	if len(h.Pad) == len(pad) {
		copy(pad, h.Pad)
	} else {
		clear(pad)
	}
	copy(tail[padCnt:], h.ICRC[:])
	return prepend(b, BTHLen, h)
}

func flag(v bool, bit byte) byte {
	if v {
		return bit
	}
	return 0
}

func put24(b []byte, v uint32) {
	_ = b[2]
	b[0] = byte(v >> 16)
	b[1] = byte(v >> 8)
	b[2] = byte(v)
}

func get24(b []byte) uint32 {
	_ = b[2]
	return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])
}

// putter is a header that can write itself.
type putter interface{ put(b []byte) }

// prepend makes room for n bytes at the front of b and lets h fill them.
func prepend(b Buffer, n int, h putter) error {
	p, err := b.PrependBytes(n)
	if err != nil {
		return err
	}
	h.put(p)
	return nil
}
