package ipoib

import (
	"encoding/binary"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/internal/errs"
)

// HeaderLen is the size of the IPoIB encapsulation header.
const HeaderLen = 4

// The Ethertypes IPoIB carries (RFC 4391 section 6).
const (
	TypeIPv4 = layers.EthernetTypeIPv4 // 0x0800
	TypeARP  = layers.EthernetTypeARP  // 0x0806
	TypeIPv6 = layers.EthernetTypeIPv6 // 0x86DD
)

// Header is the IPoIB encapsulation header (RFC 4391 section 6), the
// first four bytes of every IPoIB packet:
//
//	+-------------------------------+-------------------------------+
//	|         Type (Ethertype)      |            Reserved           |
//	+-------------------------------+-------------------------------+
type Header struct {
	layers.BaseLayer
	Type     layers.EthernetType // what follows: IPv4, ARP or IPv6
	Reserved uint16              // zero on the wire
}

// LayerType returns LayerTypeIPoIB.
func (h *Header) LayerType() gopacket.LayerType { return LayerTypeIPoIB }

// CanDecode returns LayerTypeIPoIB.
func (h *Header) CanDecode() gopacket.LayerClass { return LayerTypeIPoIB }

// NextLayerType returns gopacket's layer type for Type (layers.LayerTypeIPv4,
// ...), gopacket.LayerTypePayload for an Ethertype gopacket does not know,
// gopacket.LayerTypeZero when nothing follows.
func (h *Header) NextLayerType() gopacket.LayerType {
	if len(h.Payload) == 0 {
		return gopacket.LayerTypeZero
	}
	return nextLayer(h.Type)
}

// nextLayer is gopacket's layer type for an Ethertype.
func nextLayer(t layers.EthernetType) gopacket.LayerType {
	if lt := t.LayerType(); lt != gopacket.LayerTypeZero {
		return lt
	}
	return gopacket.LayerTypePayload
}

// DecodeFromBytes decodes the header from the start of data, resetting h
// first; df may be nil.
func (h *Header) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	*h = Header{}
	if len(data) < HeaderLen {
		setTruncated(df)
		return errHeaderCut[len(data)]
	}
	h.Type = layers.EthernetType(binary.BigEndian.Uint16(data))
	h.Reserved = binary.BigEndian.Uint16(data[2:])
	h.Contents, h.Payload = data[:HeaderLen], data[HeaderLen:]
	return nil
}

// errHeaderCut are the errors of a header cut short, by the bytes it has,
// made once: decoding allocates nothing.
var errHeaderCut = errs.TruncatedTable("IPoIB", 0, HeaderLen)

// AppendTo appends the header's four bytes to b.
func (h *Header) AppendTo(b []byte) []byte {
	return append(b, byte(h.Type>>8), byte(h.Type), byte(h.Reserved>>8), byte(h.Reserved))
}

// SerializeTo prepends the header. It has no length to fix.
func (h *Header) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	p, err := b.PrependBytes(HeaderLen)
	if err != nil {
		return err
	}
	h.AppendTo(p[:0])
	return nil
}

// setTruncated tells df, when there is one, that the input was cut short.
func setTruncated(df gopacket.DecodeFeedback) {
	if df != nil {
		df.SetTruncated()
	}
}

// decodeHeader is the gopacket decoder of Header.
func decodeHeader(data []byte, p gopacket.PacketBuilder) error {
	h := &Header{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	if len(h.Payload) == 0 {
		return nil
	}
	if err := h.CheckNext(); err != nil { // an ARP packet layers.ARP would panic on
		setTruncated(p)
		return err
	}
	return p.NextDecoder(h.NextLayerType())
}
