package pfc

import "github.com/roce-go/roce/internal/hdr"

// AppendPause appends a whole 802.3x PAUSE frame to b and returns the
// extended slice: destination MulticastAddr, source src, Ethertype
// 0x8808, opcode 0x0001, pause_time quanta (0 resumes), zero padding to
// MinFrameLen bytes, no FCS. It allocates only when b lacks the room.
func AppendPause(b []byte, src [6]byte, quanta uint16) []byte {
	m := MACControl{Opcode: OpcodePause, PauseTime: quanta}
	return appendFrame(b, src, &m)
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
	m := MACControl{Opcode: OpcodePFC, PriorityEnableVector: uint16(enable), Time: times}
	return appendFrame(b, src, &m)
}

// appendFrame extends b by a zeroed MinFrameLen-byte frame, writes its
// addresses and Ethertype and the body m (whose Pad is empty; the zeros
// after it are the padding), and returns b.
func appendFrame(b []byte, src [6]byte, m *MACControl) []byte {
	b, f := grow(b, MinFrameLen)
	eth := hdr.Ethernet(f)
	eth.SetAddresses(MulticastAddr, src)
	eth.SetType(hdr.EtherTypeMACControl)
	m.put(f[EthernetHeaderLen : EthernetHeaderLen+m.Len()])
	return b
}
