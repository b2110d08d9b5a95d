package ib

import (
	"encoding/binary"
	"net/netip"
	"slices"

	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// GRHLen is the size of the Global Route Header.
const GRHLen = hdr.GRHLen

// NxtHdrBTH is the GRH NxtHdr value that announces a BTH (IBTA Vol 1, 8.3.1).
const NxtHdrBTH = hdr.NxtHdrBTH

// GRH is the Global Route Header (IBTA Vol 1, 8.3), shaped like an IPv6
// header. RoCEv1 frames start with it; in RoCEv2 the IP header plays its
// part (see rocev2.GRHFromIPv4 and friends).
//
//	+-------+---------------+---------------------------------------+
//	|IPVer  |    TClass     |              FlowLabel                |
//	+-------+---------------+-------+---------------+---------------+
//	|            PayLen             |    NxtHdr     |    HopLmt     |
//	+-------------------------------+---------------+---------------+
//	|                          SGID (128 bits)                      |
//	|                          DGID (128 bits)                      |
//	+---------------------------------------------------------------+
//
// PayLen counts the bytes after the GRH up to and including the ICRC, so
// Split hands on exactly those bytes: anything after them (Ethernet
// padding, an FCS) is not part of the packet.
type GRH struct {
	IPVer     uint8  // 6
	TClass    uint8  // traffic class
	FlowLabel uint32 // 20 bits
	PayLen    uint16 // bytes from the BTH through the ICRC
	NxtHdr    uint8  // 0x1B for a BTH
	HopLmt    uint8  // hop limit
	SGID      [16]byte
	DGID      [16]byte
}

// SrcGID returns SGID as an address; IPv4-mapped GIDs come back mapped.
func (h *GRH) SrcGID() netip.Addr { return netip.AddrFrom16(h.SGID) }

// DstGID returns DGID as an address.
func (h *GRH) DstGID() netip.Addr { return netip.AddrFrom16(h.DGID) }

// Offsets in the GRH.
const (
	grhVersion = 0  // IPVer (4 bits), TClass (8), FlowLabel (20)
	grhPayLen  = 4  // PayLen
	grhNxtHdr  = 6  // NxtHdr
	grhHopLmt  = 7  // HopLmt
	grhSGID    = 8  // SGID, 16 bytes
	grhDGID    = 24 // DGID, 16 bytes
)

func (h *GRH) parse(b []byte) {
	_ = b[GRHLen-1]
	w := binary.BigEndian.Uint32(b[grhVersion:])
	h.IPVer = uint8(w >> 28)
	h.TClass = uint8(w >> 20)
	h.FlowLabel = w & 0xfffff
	h.PayLen = binary.BigEndian.Uint16(b[grhPayLen:])
	h.NxtHdr = b[grhNxtHdr]
	h.HopLmt = b[grhHopLmt]
	copy(h.SGID[:], b[grhSGID:grhSGID+16])
	copy(h.DGID[:], b[grhDGID:grhDGID+16])
}

func (h *GRH) put(b []byte) {
	_ = b[GRHLen-1]
	binary.BigEndian.PutUint32(b[grhVersion:], uint32(h.IPVer)<<28|uint32(h.TClass)<<20|h.FlowLabel&0xfffff)
	binary.BigEndian.PutUint16(b[grhPayLen:], h.PayLen)
	b[grhNxtHdr] = h.NxtHdr
	b[grhHopLmt] = h.HopLmt
	copy(b[grhSGID:grhSGID+16], h.SGID[:])
	copy(b[grhDGID:grhDGID+16], h.DGID[:])
}

// Validate reports a field the decoder would refuse or that does not fit
// it, as a *FieldError: IPVer other than 6 (wrapping ErrBadVersion), a
// FlowLabel wider than 20 bits (wrapping ErrBadValue). It allocates only
// the error.
func (h *GRH) Validate() error {
	if h.IPVer != 6 {
		return errs.Field("GRH.IPVer", uint64(h.IPVer), "is not 6", ErrBadVersion)
	}
	return errs.Fit("GRH.FlowLabel", uint64(h.FlowLabel), 20)
}

// Split decodes the header at the start of data, resetting h, and
// returns the bytes after it that PayLen counts. A PayLen beyond data (a
// packet cut short by the capture) is no error: rest is what was
// captured and cut is true, which a gopacket layer tells its
// DecodeFeedback. On an error h is left zeroed.
func (h *GRH) Split(data []byte) (rest []byte, cut bool, err error) {
	if err := h.Decode(data); err != nil {
		*h = GRH{}
		return nil, false, err
	}
	end := GRHLen + int(h.PayLen)
	if end > len(data) {
		// Cut by the capture: keep what was captured and say so; the
		// BTH decodes what it can of it.
		cut, end = true, len(data)
	}
	return data[GRHLen:end], cut, nil
}

// NextHeader reports whether a BTH follows: NxtHdr is 0x1B.
func (h *GRH) NextHeader() bool { return h.NxtHdr == NxtHdrBTH }

// Len returns GRHLen.
func (h *GRH) Len() int { return GRHLen }

// AppendTo appends the encoded header to b and returns the extended
// slice. It refuses, returning b as it was, what Validate refuses.
func (h *GRH) AppendTo(b []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return b, err
	}
	b = slices.Grow(b, GRHLen)
	h.put(b[len(b) : len(b)+GRHLen])
	return b[:len(b)+GRHLen], nil
}

// Serialize prepends the GRH to b, the SerializeBuffer of either
// gopacket module. With FixLengths it sets PayLen to the length of what
// follows, and IPVer to 6 and NxtHdr to 0x1B (a BTH) when
// they are zero. It refuses, writing nothing, what Validate refuses and,
// with FixLengths, more than 65535 bytes after the GRH; the error is a
// *FieldError.
func (h *GRH) Serialize(b Buffer, opts SerializeOptions) error {
	if opts.FixLengths {
		n := len(b.Bytes())
		if err := errs.Fit("GRH.PayLen", uint64(n), 16); err != nil {
			return err
		}
		h.PayLen = uint16(n)
		if h.IPVer == 0 {
			h.IPVer = 6
		}
		if h.NxtHdr == 0 {
			h.NxtHdr = NxtHdrBTH
		}
	}
	if err := h.Validate(); err != nil {
		return err
	}
	return prepend(b, GRHLen, h)
}

// Decode reads the 40 header bytes at the start of b into h, without
// looking at PayLen (see Split). Fewer bytes reset h and give an error
// wrapping ErrTruncated, an IPVer other than 6 one wrapping
// ErrBadVersion. It allocates nothing: its errors are made once.
func (h *GRH) Decode(b []byte) error {
	if len(b) < GRHLen {
		*h = GRH{}
		return errGRHCut[len(b)]
	}
	h.parse(b)
	if h.IPVer != 6 {
		return errGRHVersion
	}
	return nil
}

// The errors of GRH.Decode, made once.
var (
	errGRHCut     = errs.TruncatedTable("GRH", 0, GRHLen)
	errGRHVersion = errs.New("GRH", grhVersion, 0, 0, ErrBadVersion)
)

// Encode writes the header into b[:GRHLen]. It refuses, writing nothing,
// what Validate refuses, and a b shorter than GRHLen (an error wrapping
// ErrBadLength).
func (h *GRH) Encode(b []byte) error {
	if len(b) < GRHLen {
		return &Error{Layer: "GRH", Want: GRHLen, Have: len(b), Err: ErrBadLength}
	}
	if err := h.Validate(); err != nil {
		return err
	}
	h.put(b)
	return nil
}
