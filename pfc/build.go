package pfc

import "encoding/binary"

// AppendPause appends a whole 802.3x PAUSE frame to b and returns the
// extended slice: destination MulticastAddr, source src, Ethertype
// 0x8808, opcode 0x0001, pause_time quanta (0 resumes), zero padding to
// MinFrameLen bytes, no FCS. It allocates only when b lacks the room.
func AppendPause(b []byte, src [6]byte, quanta uint16) []byte {
	b, f := appendHeader(b, src, OpcodePause)
	binary.BigEndian.PutUint16(f[16:], quanta)
	return b
}

// AppendPFC appends a whole 802.1Qbb PFC frame to b and returns the
// extended slice: destination MulticastAddr, source src, Ethertype
// 0x8808, opcode 0x0101, priority_enable_vector enable (bit n enables
// times[n]; the reserved upper byte is zero), the eight times in quanta,
// priority 0 first, and zero padding to MinFrameLen bytes, no FCS. It
// allocates only when b lacks the room.
//
// The times of priorities not enabled are written as given; receivers
// ignore them, and zero is the usual choice.
func AppendPFC(b []byte, src [6]byte, enable Priorities, times [NumPriorities]uint16) []byte {
	b, f := appendHeader(b, src, OpcodePFC)
	binary.BigEndian.PutUint16(f[16:], uint16(enable))
	for i, t := range times {
		binary.BigEndian.PutUint16(f[18+2*i:], t)
	}
	return b
}

// appendHeader extends b by a zeroed MinFrameLen-byte frame, writes its
// addresses, Ethertype and opcode, and returns b and the new frame.
func appendHeader(b []byte, src [6]byte, op Opcode) (whole, frame []byte) {
	b, f := grow(b, MinFrameLen)
	copy(f, MulticastAddr[:])
	copy(f[6:], src[:])
	binary.BigEndian.PutUint16(f[12:], uint16(EthernetTypeMACControl))
	binary.BigEndian.PutUint16(f[14:], uint16(op))
	return b, f
}
