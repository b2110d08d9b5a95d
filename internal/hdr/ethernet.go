package hdr

import "encoding/binary"

// EthernetLen is the size of an Ethernet header without VLAN tags.
const EthernetLen = 14

// MACLen is the size of a MAC address.
const MACLen = 6

// Offsets in an Ethernet header.
const (
	ethDst  = 0
	ethSrc  = 6
	ethType = 12 // the Ethertype, or the TPID of the first VLAN tag
)

// Ethernet is a view of an Ethernet II header:
//
//	+----------------------+----------------------+-----------+
//	| destination MAC (6)  |    source MAC (6)    | Type (2)  |
//	+----------------------+----------------------+-----------+
type Ethernet []byte

// Dst returns the destination MAC.
func (e Ethernet) Dst() [MACLen]byte { return [MACLen]byte(e[ethDst : ethDst+MACLen]) }

// Src returns the source MAC.
func (e Ethernet) Src() [MACLen]byte { return [MACLen]byte(e[ethSrc : ethSrc+MACLen]) }

// Type returns the Ethertype field (a TPID when the frame is tagged).
func (e Ethernet) Type() uint16 { return binary.BigEndian.Uint16(e[ethType:]) }

// SetType writes the Ethertype field of an untagged header.
func (e Ethernet) SetType(t uint16) { binary.BigEndian.PutUint16(e[ethType:], t) }

// SetAddresses writes both MACs.
func (e Ethernet) SetAddresses(dst, src [MACLen]byte) {
	copy(e[ethDst:], dst[:])
	copy(e[ethSrc:], src[:])
}

// TypeOffset is where the first Ethertype or TPID sits.
const TypeOffset = ethType

// VLANTagLen is the size of one 802.1Q or 802.1ad tag.
const VLANTagLen = 4

// Limits of the fields of a VLAN tag.
const (
	MaxPCP = 7     // priority code point, 3 bits
	MaxVID = 0xfff // VLAN identifier, 12 bits
)

// TagOffset returns where tag i (counting from 0) starts in a frame.
func TagOffset(i int) int { return ethType + i*VLANTagLen }

// NetOffset returns where the network header starts in a frame with the
// given number of tags; the Ethertype is the two bytes before it.
func NetOffset(tags int) int { return EthernetLen + tags*VLANTagLen }

// Offsets in a VLAN tag, which starts at its TPID.
const (
	tagTPID = 0
	tagTCI  = 2
)

// VLANTag is a view of one tag: the TPID (0x8100, 0x88a8 or 0x9100) and the TCI,
//
//	+---------------+-----+-+-----------------------+
//	|   TPID (16)   | PCP |D|       VID (12)        |
//	+---------------+-----+-+-----------------------+
type VLANTag []byte

// IsTPID reports whether an Ethertype field holds a VLAN TPID: 0x8100
// (802.1Q), 0x88a8 (802.1ad) or 0x9100 (pre-802.1ad QinQ), the three
// tshark 4.0 decodes as tags.
func IsTPID(t uint16) bool { return t == EtherTypeDot1Q || t == EtherTypeQinQ || t == EtherType9100 }

// TPID returns the tag protocol identifier.
func (t VLANTag) TPID() uint16 { return binary.BigEndian.Uint16(t[tagTPID:]) }

// PCP returns the priority code point, 0-7.
func (t VLANTag) PCP() uint8 { return t[tagTCI] >> 5 }

// DEI returns the drop eligible indicator.
func (t VLANTag) DEI() bool { return t[tagTCI]&0x10 != 0 }

// VID returns the VLAN identifier, 12 bits.
func (t VLANTag) VID() uint16 { return binary.BigEndian.Uint16(t[tagTCI:]) & 0xfff }

// Set writes the whole tag. pcp and vid must fit 3 and 12 bits.
func (t VLANTag) Set(tpid uint16, pcp uint8, dei bool, vid uint16) {
	binary.BigEndian.PutUint16(t[tagTPID:], tpid)
	tci := uint16(pcp&7)<<13 | vid&0xfff
	if dei {
		tci |= 0x1000
	}
	binary.BigEndian.PutUint16(t[tagTCI:], tci)
}

// TCI returns the tag control information: PCP, DEI and VID.
func (t VLANTag) TCI() uint16 { return binary.BigEndian.Uint16(t[tagTCI:]) }

// SetPCP rewrites the priority and leaves DEI and VID alone.
func (t VLANTag) SetPCP(pcp uint8) { t[tagTCI] = t[tagTCI]&0x1f | pcp<<5 }

// PutEtherType writes the Ethertype that follows tags VLAN tags in
// frame, at NetOffset(tags)-2.
func PutEtherType(frame []byte, tags int, t uint16) {
	binary.BigEndian.PutUint16(frame[NetOffset(tags)-2:], t)
}
