package ib

// The queue pairs of the management interfaces (IBTA Vol 1, 3.9.5): a UD
// SEND to one of them carries a management datagram (MAD).
const (
	QPSMI = 0 // subnet management interface: subnet management packets
	QPGSI = 1 // general services interface: every other management class
)

// GSIQKey is the Q_Key of the general services interface, QP 1 (IBTA Vol
// 1, 3.9.5; the DETH of every MAD sent to QP 1 carries it).
const GSIQKey = 0x80010000

// ToManagement reports whether the packet h heads is a UD SEND Only to
// QP 0 (SMI) or QP 1 (GSI) that the capture kept whole: its payload is a
// management datagram, when it is long enough for one (package mad's
// Len, 256 bytes). The gopacket adapters hand such a payload to their MAD
// layer; a payload cut by the capture (Truncated) stays opaque.
func (h *BTH) ToManagement() bool {
	return h.OpCode == OpUDSendOnly && h.DestQP <= QPGSI && !h.Truncated
}
