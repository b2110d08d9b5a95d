package ipoib

import (
	"github.com/google/gopacket"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/gpbuf"
)

// The gopacket-free entry points of the layers, for the layers of the
// other gopacket module (the nested module rocelayers): DecodeFromBytes
// takes either module's DecodeFeedback (it only calls SetTruncated, and
// nil is fine), Serialize is SerializeTo through an ib.Buffer, and
// CheckNext is the check the gopacket decoder of Header makes before it
// hands the packet on.

// Serialize is SerializeTo writing through b.
func (h *Header) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return h.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// Serialize is SerializeTo writing through b.
func (h *LinkHeader) Serialize(b ib.Buffer, opts ib.SerializeOptions) error {
	return h.SerializeTo(gpbuf.Google(b), gopacket.SerializeOptions(opts))
}

// CheckNext returns the error of the packet the header carries that a
// gopacket decoder must stop at: an ARP packet whose lengths ARP.Decode
// refuses (gopacket's layers.ARP, v1.1.19, sums the address sizes in a
// byte and panics when the sum wraps). The error wraps ib.ErrTruncated;
// the decoder tells its DecodeFeedback the packet was cut.
func (h *Header) CheckNext() error {
	if h.Type != TypeARP || len(h.Payload) == 0 {
		return nil
	}
	var a ARP
	return a.Decode(h.Payload)
}
