// Package wire finds the parts of an Ethernet frame that carries RoCE:
// the VLAN tags, the network header, the UDP header and the transport
// packet. The frame codecs of this module share it; the header layouts
// and constants it reads by are those of package hdr.
package wire

import (
	"strconv"

	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// MaxTags is how many VLAN tags a frame may carry: Skip decodes up to
// eight, and refuses a frame with more (errTooManyTags) rather than take
// a tag for the network header. tshark 4.0 nests tags up to twenty
// (802.1Q and 0x9100 ones; 802.1ad tags without limit); networks stack
// two, rarely three.
const MaxTags = 8

// errTooManyTags is the error of a frame whose Ethertype after MaxTags
// tags is a TPID again: made once, it costs no allocation.
var errTooManyTags = errs.New("VLAN tags (more than "+strconv.Itoa(MaxTags)+")", hdr.TagOffset(MaxTags), 0, 0, errs.ErrUnsupported)

// The errors of a frame cut in its Ethernet header or in tag i, by the
// bytes it has: made once, they cost no allocation.
var (
	errEthernet = errs.TruncatedTable("Ethernet", 0, hdr.EthernetLen)
	errTag      = func() (t [MaxTags][]error) {
		for i := range t {
			t[i] = errs.TruncatedTable("Dot1Q", hdr.TagOffset(i)+hdr.VLANTagLen/2, hdr.NetOffset(i+1))
		}
		return t
	}()
)

// Skip returns the offset of the first byte after the Ethernet header and
// its VLAN tags (TPID 0x8100, 0x88a8 or 0x9100, in any order), the
// Ethertype found there and the number of tags. A frame with more than
// MaxTags tags gives an error wrapping ErrUnsupported. Its errors are
// made once: Skip never allocates.
func Skip(b []byte) (off int, etherType uint16, tags int, err error) {
	if len(b) < hdr.EthernetLen {
		return 0, 0, 0, errEthernet[len(b)]
	}
	etherType = hdr.Ethernet(b).Type()
	for hdr.IsTPID(etherType) {
		if tags == MaxTags {
			return 0, 0, 0, errTooManyTags
		}
		// Tag tags starts where its TPID was read; the next Ethertype
		// or TPID follows it.
		next := hdr.NetOffset(tags + 1)
		if len(b) < next {
			return 0, 0, 0, errTag[tags][len(b)]
		}
		etherType = hdr.VLANTag(b[hdr.TagOffset(tags+1):]).TPID()
		tags++
	}
	return hdr.NetOffset(tags), etherType, tags, nil
}
