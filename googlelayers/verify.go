package googlelayers

import (
	"github.com/google/gopacket"

	"github.com/roce-go/roce"
)

// VerifyPacket checks the ICRC of a gopacket.Packet decoded from an
// Ethernet frame (roce.VerifyFrame of its bytes): nil, an *ib.ICRCError
// wrapping ib.ErrBadICRC, or ib.ErrUnchecked for a packet the capture cut
// short.
func VerifyPacket(p gopacket.Packet) error { return roce.VerifyFrame(p.Data()) }

// FixICRC computes the ICRC of the RoCE frame b (Ethernet first) and
// writes it in place, then recomputes a non-zero UDP checksum, which
// covers it: the one call to add after gopacket.SerializeLayers. It is
// roce.FixICRC:
//
//	gopacket.SerializeLayers(buf, opts, &eth, &ip, &udp, &bth, &reth, payload)
//	googlelayers.FixICRC(buf.Bytes())
func FixICRC(b []byte) error { return roce.FixICRC(b) }
