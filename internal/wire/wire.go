// Package wire finds the parts of an Ethernet frame that carries RoCE:
// the VLAN tags, the network header, the UDP header and the transport
// packet. The frame codecs of this module share it.
package wire

import "github.com/roce-go/roce/internal/errs"

// Ethertypes used by this module.
const (
	TypeIPv4  = 0x0800
	TypeIPv6  = 0x86dd
	TypeRoCE  = 0x8915 // RoCEv1
	TypeDot1Q = 0x8100 // 802.1Q C-tag
	TypeQinQ  = 0x88a8 // 802.1ad S-tag
	TypeMACC  = 0x8808 // MAC Control (PAUSE, PFC)
)

// MaxTags is how many VLAN tags Skip walks through.
const MaxTags = 2

// HeaderLen is the length of an untagged Ethernet header.
const HeaderLen = 14

// Skip returns the offset of the first byte after the Ethernet header and
// its VLAN tags, the Ethertype found there and the number of tags.
func Skip(b []byte) (off int, etherType uint16, tags int, err error) {
	if len(b) < HeaderLen {
		return 0, 0, 0, errs.New("Ethernet", 0, HeaderLen, len(b), errs.ErrTruncated)
	}
	off = 12
	if t := uint16(b[12])<<8 | uint16(b[13]); t != TypeDot1Q && t != TypeQinQ {
		return HeaderLen, t, 0, nil // untagged: the common case
	}
	for {
		etherType = uint16(b[off])<<8 | uint16(b[off+1])
		off += 2
		if etherType != TypeDot1Q && etherType != TypeQinQ || tags == MaxTags {
			return off, etherType, tags, nil
		}
		if len(b) < off+4 {
			return 0, 0, 0, errs.New("Dot1Q", off, off+4, len(b), errs.ErrTruncated)
		}
		off += 2
		tags++
	}
}
