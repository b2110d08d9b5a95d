package ib

import (
	"encoding/binary"
	"slices"

	"github.com/roce-go/roce/internal/errs"
)

// LRHLen is the size of the Local Route Header.
const LRHLen = 8

// The LRH link next header values (IBTA Vol 1, 7.7.3).
const (
	LNHRaw       = 0 // raw packet
	LNHIPv6      = 1 // IP, non-IBA transport
	LNHIBALocal  = 2 // BTH follows
	LNHIBAGlobal = 3 // GRH follows
)

// LRH is the Local Route Header of native InfiniBand (IBTA Vol 1, 7.7).
// RoCE frames never carry it; the ICRC counts it as eight 0xFF bytes.
//
//	+-------+-------+-------+---+---+-------------------------------+
//	|  VL   | LVer  |  SL   |Rsv|LNH|             DLID              |
//	+-------+-------+-------+---+---+-------------------------------+
//	| Rsv5    |      PktLen         |             SLID              |
//	+---------+---------------------+-------------------------------+
//
// PktLen counts 4-byte words from the LRH through the ICRC; the 2-byte
// VCRC follows. Split hands on the bytes after it up to the VCRC, and
// keeps the VCRC.
type LRH struct {
	VL     uint8  // virtual lane
	LVer   uint8  // link version
	SL     uint8  // service level
	Resv2  uint8  // reserved, 2 bits
	LNH    uint8  // link next header
	DLID   uint16 // destination local identifier
	Resv5  uint8  // reserved, 5 bits
	PktLen uint16 // packet length in 4-byte words, 11 bits
	SLID   uint16 // source local identifier
	VCRC   uint16 // variant CRC, when present after PktLen words
}

// Offsets in the LRH.
const (
	lrhVL   = 0 // VL (4 bits), LVer (4)
	lrhSL   = 1 // SL (4 bits), Resv2 (2), LNH (2)
	lrhDLID = 2 // DLID
	lrhLen  = 4 // Resv5 (5 bits), PktLen (11)
	lrhSLID = 6 // SLID
)

func (h *LRH) parse(b []byte) {
	_ = b[LRHLen-1]
	h.VL, h.LVer = b[lrhVL]>>4, b[lrhVL]&0x0f
	h.SL, h.Resv2, h.LNH = b[lrhSL]>>4, b[lrhSL]>>2&3, b[lrhSL]&3
	h.DLID = binary.BigEndian.Uint16(b[lrhDLID:])
	w := binary.BigEndian.Uint16(b[lrhLen:])
	h.Resv5, h.PktLen = uint8(w>>11), w&0x7ff
	h.SLID = binary.BigEndian.Uint16(b[lrhSLID:])
}

func (h *LRH) put(b []byte) {
	_ = b[LRHLen-1]
	b[lrhVL] = h.VL<<4 | h.LVer&0x0f
	b[lrhSL] = h.SL<<4 | (h.Resv2&3)<<2 | h.LNH&3
	binary.BigEndian.PutUint16(b[lrhDLID:], h.DLID)
	binary.BigEndian.PutUint16(b[lrhLen:], uint16(h.Resv5)<<11|h.PktLen&0x7ff)
	binary.BigEndian.PutUint16(b[lrhSLID:], h.SLID)
}

// Validate reports a field that does not fit, as a *FieldError wrapping
// ErrBadValue: VL, LVer and SL have 4 bits, Resv2 and LNH 2, Resv5 5 and
// PktLen 11. It allocates only the error.
func (h *LRH) Validate() error {
	if (h.VL|h.LVer|h.SL)>>4 == 0 && (h.Resv2|h.LNH)>>2 == 0 && h.Resv5>>5 == 0 && h.PktLen>>11 == 0 {
		return nil
	}
	for _, f := range [...]struct {
		name string
		v    uint16
		bits uint
	}{
		{"LRH.VL", uint16(h.VL), 4},
		{"LRH.LVer", uint16(h.LVer), 4},
		{"LRH.SL", uint16(h.SL), 4},
		{"LRH.Resv2", uint16(h.Resv2), 2},
		{"LRH.LNH", uint16(h.LNH), 2},
		{"LRH.Resv5", uint16(h.Resv5), 5},
	} {
		if err := errs.Fit(f.name, uint64(f.v), f.bits); err != nil {
			return err
		}
	}
	return errs.Fit("LRH.PktLen", uint64(h.PktLen), 11)
}

// Decode reads the 8 header bytes at the start of b into h, without
// looking at PktLen (see Split). It leaves VCRC, which follows the
// packet, alone. Fewer bytes reset h and give an error wrapping
// ErrTruncated, made once.
func (h *LRH) Decode(b []byte) error {
	if len(b) < LRHLen {
		*h = LRH{}
		return errLRHCut[len(b)]
	}
	h.parse(b)
	return nil
}

// The errors of decoding an LRH, made once: a header cut short, by the
// bytes it has; a PktLen of 0 or 1 word, shorter than the LRH.
var (
	errLRHCut   = errs.TruncatedTable("LRH", 0, LRHLen)
	errLRHShort = [...]error{errs.New("LRH", lrhLen, LRHLen, 0, ErrBadLength), errs.New("LRH", lrhLen, LRHLen, 4, ErrBadLength)}
)

// Encode writes the header into b[:LRHLen] (not the VCRC). It refuses,
// writing nothing, what Validate refuses, and a b shorter than LRHLen
// (an error wrapping ErrBadLength).
func (h *LRH) Encode(b []byte) error {
	if len(b) < LRHLen {
		return &Error{Layer: "LRH", Want: LRHLen, Have: len(b), Err: ErrBadLength}
	}
	if err := h.Validate(); err != nil {
		return err
	}
	h.put(b)
	return nil
}

// Split decodes the header at the start of data, resetting h, and
// returns the bytes after it that PktLen counts, up to the VCRC, which it
// reads into VCRC when data holds it. A PktLen beyond data (a packet cut
// short by the capture) is no error: rest is what was captured and cut
// is true, which a gopacket layer tells its DecodeFeedback. A PktLen
// shorter than the LRH wraps ErrBadLength. On an error h is left zeroed.
func (h *LRH) Split(data []byte) (rest []byte, cut bool, err error) {
	if rest, cut, err = h.split(data); err != nil {
		*h = LRH{}
	}
	return rest, cut, err
}

// Len returns LRHLen, the header without the VCRC.
func (h *LRH) Len() int { return LRHLen }

// AppendTo appends the encoded header (not the VCRC) to b and returns the
// extended slice. It refuses, returning b as it was, what Validate
// refuses.
func (h *LRH) AppendTo(b []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return b, err
	}
	b = slices.Grow(b, LRHLen)
	h.put(b[len(b) : len(b)+LRHLen])
	return b[:len(b)+LRHLen], nil
}

func (h *LRH) split(data []byte) (rest []byte, cut bool, err error) {
	if err := h.Decode(data); err != nil {
		return nil, false, err
	}
	end := int(h.PktLen) * 4
	if end < LRHLen {
		return nil, false, errLRHShort[end/4]
	}
	if end > len(data) {
		// Cut by the capture: keep what was captured and say so, as
		// gopacket's IP layers do; the BTH decodes what it can of it.
		cut = true
		end = len(data)
	}
	h.VCRC = 0
	if len(data) >= end+2 {
		h.VCRC = binary.BigEndian.Uint16(data[end:])
	}
	return data[LRHLen:end], cut, nil
}

// Serialize prepends the LRH to b, the SerializeBuffer of either
// gopacket module, and appends the VCRC as h holds it. With
// FixLengths it sets PktLen from the bytes that follow, which must be a
// whole number of 4-byte words (the error wraps ErrBadLength) and fit 11
// bits. It refuses, writing nothing, what Validate refuses; the error is
// a *FieldError.
func (h *LRH) Serialize(b Buffer, opts SerializeOptions) error {
	if opts.FixLengths {
		n := len(b.Bytes()) + LRHLen
		if n%4 != 0 {
			return errs.Field("LRH.PktLen", uint64(n), "bytes is not a whole number of 4-byte words", ErrBadLength)
		}
		if err := errs.Fit("LRH.PktLen", uint64(n/4), 11); err != nil {
			return err
		}
		h.PktLen = uint16(n / 4)
	}
	if err := h.Validate(); err != nil {
		return err
	}
	v, err := b.AppendBytes(2)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint16(v, h.VCRC)
	return prepend(b, LRHLen, h)
}
