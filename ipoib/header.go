package ipoib

import (
	"encoding/binary"

	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// HeaderLen is the size of the IPoIB encapsulation header.
const HeaderLen = 4

// The Ethertypes IPoIB carries (RFC 4391 section 6).
const (
	TypeIPv4 uint16 = hdr.EtherTypeIPv4 // 0x0800
	TypeARP  uint16 = hdr.EtherTypeARP  // 0x0806
	TypeIPv6 uint16 = hdr.EtherTypeIPv6 // 0x86DD
)

// Header is the IPoIB encapsulation header (RFC 4391 section 6), the
// first four bytes of every IPoIB packet:
//
//	+-------------------------------+-------------------------------+
//	|         Type (Ethertype)      |            Reserved           |
//	+-------------------------------+-------------------------------+
//
// The packet it carries is what follows those four bytes.
type Header struct {
	Type     uint16 // the Ethertype of what follows: TypeIPv4, TypeARP or TypeIPv6
	Reserved uint16 // zero on the wire
}

// Decode decodes the header from the first HeaderLen bytes of data,
// resetting h first; the packet it carries is data[HeaderLen:]. A
// shorter input gives an *Error wrapping ErrTruncated.
func (h *Header) Decode(data []byte) error {
	*h = Header{}
	if len(data) < HeaderLen {
		return errHeaderCut[len(data)]
	}
	h.Type = binary.BigEndian.Uint16(data)
	h.Reserved = binary.BigEndian.Uint16(data[2:])
	return nil
}

// errHeaderCut are the errors of a header cut short, by the bytes it has,
// made once: decoding allocates nothing.
var errHeaderCut = errs.TruncatedTable("IPoIB", 0, HeaderLen)

// Len returns HeaderLen, the bytes AppendTo writes.
func (h *Header) Len() int { return HeaderLen }

// AppendTo appends the header's four bytes to b. Every field value
// encodes: the error is always nil.
func (h *Header) AppendTo(b []byte) ([]byte, error) {
	return append(b, byte(h.Type>>8), byte(h.Type), byte(h.Reserved>>8), byte(h.Reserved)), nil
}
