package ipoib

import (
	"encoding/binary"
	"net/netip"

	"github.com/roce-go/roce/internal/errs"
)

// LinkType is LINKTYPE_IPOIB, the pcap link type of IPoIB captures.
const LinkType = 242

// LinkHeaderLen is the size of LinkHeader, the bytes of a link type 242
// record before the encapsulation header.
const LinkHeaderLen = 40

// LinkHeader is what a link type 242 record carries before the IPoIB
// encapsulation header, as tshark 4.0 reads it: 40 bytes in one of two
// forms, told apart by the first 32-bit word. When it is not zero, the
// 40 bytes are the InfiniBand GRH a UD receive buffer starts with, the
// sender's queue pair where the GRH has its payload length and next
// header (a received packet):
//
//	+-------+---------------+---------------------------------------+
//	| IPVer |    TClass     |               FlowLabel               |
//	+-------+-------+-------+-------+-------------------------------+
//	|     Resv8     |                    SrcQP                      |
//	+---------------+-----------------------------------------------+
//	|                  SGID (16 bytes, bytes 8-23)                  |
//	+---------------------------------------------------------------+
//	|                  DGID (16 bytes, bytes 24-39)                 |
//	+---------------------------------------------------------------+
//
// When the first word is zero, bytes 20-39 hold the destination's IPoIB
// hardware address (a sent packet; DstAddr), and tshark shows nothing of
// bytes 4-19. The fields below hold the 40 bytes in the first form
// either way, so that every record re-encodes byte for byte; Sent tells
// the forms apart. The record goes on, after LinkHeaderLen bytes, with
// the 4-byte Header and the packet it carries.
type LinkHeader struct {
	IPVer     uint8    // 4 bits; 6 for a received packet's GRH
	TClass    uint8    // traffic class
	FlowLabel uint32   // 20 bits
	Resv8     uint8    // the byte before SrcQP; tshark shows none
	SrcQP     uint32   // the sender's queue pair, 24 bits
	SGID      [16]byte // bytes 8-23
	DGID      [16]byte // bytes 24-39: the destination GID in both forms
}

// Sent reports whether the header is in its second form, that of a sent
// packet: the first 32-bit word (IPVer, TClass, FlowLabel) is zero and
// bytes 20-39 hold the destination's hardware address.
func (h *LinkHeader) Sent() bool { return h.IPVer == 0 && h.TClass == 0 && h.FlowLabel == 0 }

// DstAddr returns bytes 20-39, the destination's hardware address of a
// sent packet (see Sent).
func (h *LinkHeader) DstAddr() HWAddr {
	var a HWAddr
	copy(a[:4], h.SGID[12:])
	copy(a[4:], h.DGID[:])
	return a
}

// SetDstAddr puts the header in its second form, that of a sent packet
// to a: the first word zero, a in bytes 20-39.
func (h *LinkHeader) SetDstAddr(a HWAddr) {
	h.IPVer, h.TClass, h.FlowLabel = 0, 0, 0
	copy(h.SGID[12:], a[:4])
	copy(h.DGID[:], a[4:])
}

// SrcGID returns SGID as an address.
func (h *LinkHeader) SrcGID() netip.Addr { return netip.AddrFrom16(h.SGID) }

// DstGID returns DGID as an address.
func (h *LinkHeader) DstGID() netip.Addr { return netip.AddrFrom16(h.DGID) }

// Decode decodes the LinkHeaderLen bytes at the start of data,
// resetting h first; the Header follows at data[LinkHeaderLen:]. A
// shorter input gives an *Error wrapping ErrTruncated.
func (h *LinkHeader) Decode(data []byte) error {
	*h = LinkHeader{}
	if len(data) < LinkHeaderLen {
		return errLinkCut[len(data)]
	}
	w := binary.BigEndian.Uint32(data)
	h.IPVer, h.TClass, h.FlowLabel = uint8(w>>28), uint8(w>>20), w&0xfffff
	w = binary.BigEndian.Uint32(data[4:])
	h.Resv8, h.SrcQP = uint8(w>>24), w&0xffffff
	h.SGID = [16]byte(data[8:24])
	h.DGID = [16]byte(data[24:40])
	return nil
}

// errLinkCut are the errors of a link header cut short, by the bytes it
// has, made once: decoding allocates nothing.
var errLinkCut = errs.TruncatedTable("IPoIB link header", 0, LinkHeaderLen)

// Len returns LinkHeaderLen, the bytes AppendTo writes.
func (h *LinkHeader) Len() int { return LinkHeaderLen }

// Validate reports a field value that does not fit its field, as a
// *FieldError wrapping ErrBadValue.
func (h *LinkHeader) Validate() error {
	if err := errs.Fit("LinkHeader.IPVer", uint64(h.IPVer), 4); err != nil {
		return err
	}
	if err := errs.Fit("LinkHeader.FlowLabel", uint64(h.FlowLabel), 20); err != nil {
		return err
	}
	return errs.Fit("LinkHeader.SrcQP", uint64(h.SrcQP), 24)
}

// AppendTo appends the 40 bytes to b. It refuses, appending nothing,
// what Validate refuses.
func (h *LinkHeader) AppendTo(b []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint32(b, uint32(h.IPVer)<<28|uint32(h.TClass)<<20|h.FlowLabel)
	b = binary.BigEndian.AppendUint32(b, uint32(h.Resv8)<<24|h.SrcQP)
	b = append(b, h.SGID[:]...)
	return append(b, h.DGID[:]...), nil
}
