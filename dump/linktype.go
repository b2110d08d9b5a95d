package dump

import (
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/internal/hdr"
)

// decodeRawIP decodes a frame of LINKTYPE_RAW (101), LINKTYPE_IPV4 (228)
// or LINKTYPE_IPV6 (229): an IP packet with no link-layer header. Like a
// cooked capture it decodes as the Ethernet frame it stands for, with
// both MAC addresses unknown (zero) and the Ethertype of the IP version:
// the version nibble for raw IP, the link type for the other two, as
// Wireshark does. A raw IP packet of another version decodes as not RoCE.
func (r *Record) decodeRawIP(data []byte) {
	var et uint16
	switch r.LinkType {
	case capfile.LinkTypeIPv4:
		et = hdr.EtherTypeIPv4
	case capfile.LinkTypeIPv6:
		et = hdr.EtherTypeIPv6
	default:
		if len(data) > 0 {
			switch data[0] >> 4 {
			case 4:
				et = hdr.EtherTypeIPv4
			case 6:
				et = hdr.EtherTypeIPv6
			}
		}
	}
	b := append(r.scratch[:0], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(et>>8), byte(et))
	b = append(b, data...)
	r.scratch = b
	r.decodeEthernet(b)
}

// decodeInfiniBand decodes a frame of LINKTYPE_INFINIBAND (247): a native
// InfiniBand packet starting at its Local Route Header, decoded as the
// packet of an ERF type 21 record is.
func (r *Record) decodeInfiniBand(data []byte) { r.decodeIB(data) }
