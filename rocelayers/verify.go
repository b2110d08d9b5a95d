package rocelayers

import (
	"encoding/binary"
	"errors"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
)

// VerifyPacket checks the ICRC of a gopacket.Packet decoded from an
// Ethernet frame, as googlelayers.VerifyPacket does for Google's gopacket: nil,
// an *ib.ICRCError wrapping ib.ErrBadICRC, or ib.ErrUnchecked for a
// packet the capture cut short.
func VerifyPacket(p gopacket.Packet) error { return roce.VerifyFrame(p.Data()) }

// FixICRC computes the ICRC of the RoCE frame b (Ethernet first) and
// writes it in place, then recomputes a non-zero UDP checksum, which
// covers it: the one call to add after gopacket.SerializeLayers. It is
// roce.FixICRC.
func FixICRC(b []byte) error { return roce.FixICRC(b) }

// VerifyChecksum checks the ICRC of the packet gopacket.NewPacket decoded
// the BTH in, so that Packet.VerifyChecksums covers the ICRC beside the
// IP and UDP checksums: BTH is a gopacket.LayerWithChecksum. The packet
// starts with Ethernet (RoCEv1 or RoCEv2), an LRH (native InfiniBand) or
// a GRH (RoCEv1 without Ethernet). Correct is the ICRC computed over the
// packet, Actual the one it carries. It returns an error, not a result,
// for a BTH a DecodingLayerParser decoded (no packet), for a packet the
// capture cut short (ib.ErrUnchecked) and for one it cannot locate.
func (h *BTH) VerifyChecksum() (error, gopacket.ChecksumVerificationResult) {
	if h.pk == nil {
		return errNoPacket, gopacket.ChecksumVerificationResult{}
	}
	frame := h.pk.Data()
	// The packet from its first layer through the ICRC: the BTH's bytes
	// alias frame.
	end := cap(frame) - cap(h.Contents) + len(h.Contents) + len(h.Payload) + len(h.Pad) + ib.ICRCLen
	var err error
	switch first := h.pk.Layers()[0].LayerType(); {
	case h.Truncated:
		err = ib.ErrUnchecked
	case first == layers.LayerTypeEthernet:
		err = roce.VerifyFrame(frame)
	case end > len(frame):
		err = errNoFrame
	case first == LayerTypeLRH:
		err = ib.VerifyNativeICRC(frame[:end])
	case first == LayerTypeGRH:
		err = ib.VerifyICRC(ib.RoCEv1, frame[:end])
	default:
		err = errNoFrame
	}
	var bad *ib.ICRCError
	switch {
	case errors.As(err, &bad):
		return nil, gopacket.ChecksumVerificationResult{Correct: bad.Computed, Actual: bad.Received}
	case err != nil:
		return err, gopacket.ChecksumVerificationResult{}
	}
	icrc := binary.LittleEndian.Uint32(h.ICRC[:]) // sent least significant byte first
	return nil, gopacket.ChecksumVerificationResult{Valid: true, Correct: icrc, Actual: icrc}
}

// The errors of VerifyChecksum for a packet whose ICRC it cannot check.
var (
	errNoPacket = &ib.Error{Layer: "BTH", Err: ib.ErrUnsupported} // decoded by a DecodingLayerParser
	errNoFrame  = &ib.Error{Layer: "BTH", Err: ib.ErrNotRoCE}     // not from Ethernet, an LRH or a GRH
)
