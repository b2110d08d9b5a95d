// Package wire finds the parts of an Ethernet frame that carries RoCE:
// the VLAN tags, the network header, the UDP header and the transport
// packet. The frame codecs of this module share it; the header layouts
// and constants it reads by are those of package hdr.
package wire

import (
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// MaxTags is how many VLAN tags Skip walks through.
const MaxTags = 2

// Skip returns the offset of the first byte after the Ethernet header and
// its VLAN tags, the Ethertype found there and the number of tags. It
// walks at most MaxTags tags; the Ethertype after them is returned as it
// is, even if it is a third TPID.
func Skip(b []byte) (off int, etherType uint16, tags int, err error) {
	if len(b) < hdr.EthernetLen {
		return 0, 0, 0, errs.Truncated("Ethernet", 0, hdr.EthernetLen, len(b))
	}
	etherType = hdr.Ethernet(b).Type()
	for hdr.IsTPID(etherType) && tags < MaxTags {
		// Tag tags starts where its TPID was read; the next Ethertype
		// or TPID follows it.
		next := hdr.NetOffset(tags + 1)
		if len(b) < next {
			return 0, 0, 0, errs.Truncated("Dot1Q", hdr.TagOffset(tags)+hdr.VLANTagLen/2, next, len(b))
		}
		etherType = hdr.VLANTag(b[hdr.TagOffset(tags+1):]).TPID()
		tags++
	}
	return hdr.NetOffset(tags), etherType, tags, nil
}
