package ib

import (
	"encoding/binary"
	"net/netip"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// GRHLen is the size of the Global Route Header.
const GRHLen = 40

// NxtHdrBTH is the GRH NxtHdr value that announces a BTH (IBTA Vol 1, 8.3.1).
const NxtHdrBTH = 0x1b

// GRH is the Global Route Header (IBTA Vol 1, 8.3), shaped like an IPv6
// header. RoCEv1 frames start with it; in RoCEv2 the IP header plays its
// part (see rocev2.GRHFromIPv4 and friends).
//
//	+-------+---------------+---------------------------------------+
//	|IPVer  |    TClass     |              FlowLabel                |
//	+-------+---------------+-------+---------------+---------------+
//	|            PayLen             |    NxtHdr     |    HopLmt     |
//	+-------------------------------+---------------+---------------+
//	|                          SGID (128 bits)                      |
//	|                          DGID (128 bits)                      |
//	+---------------------------------------------------------------+
//
// PayLen counts the bytes after the GRH up to and including the ICRC, so
// as a gopacket layer GRH hands on exactly those bytes: anything after
// them (Ethernet padding, an FCS) is not part of the packet.
type GRH struct {
	layers.BaseLayer
	IPVer     uint8  // 6
	TClass    uint8  // traffic class
	FlowLabel uint32 // 20 bits
	PayLen    uint16 // bytes from the BTH through the ICRC
	NxtHdr    uint8  // 0x1B for a BTH
	HopLmt    uint8  // hop limit
	SGID      [16]byte
	DGID      [16]byte
}

// SrcGID returns SGID as an address; IPv4-mapped GIDs come back mapped.
func (h *GRH) SrcGID() netip.Addr { return netip.AddrFrom16(h.SGID) }

// DstGID returns DGID as an address.
func (h *GRH) DstGID() netip.Addr { return netip.AddrFrom16(h.DGID) }

func (h *GRH) parse(b []byte) {
	_ = b[39]
	w := binary.BigEndian.Uint32(b)
	h.IPVer = uint8(w >> 28)
	h.TClass = uint8(w >> 20)
	h.FlowLabel = w & 0xfffff
	h.PayLen = binary.BigEndian.Uint16(b[4:])
	h.NxtHdr = b[6]
	h.HopLmt = b[7]
	copy(h.SGID[:], b[8:24])
	copy(h.DGID[:], b[24:40])
}

func (h *GRH) put(b []byte) {
	_ = b[39]
	binary.BigEndian.PutUint32(b, uint32(h.IPVer)<<28|uint32(h.TClass)<<20|h.FlowLabel&0xfffff)
	binary.BigEndian.PutUint16(b[4:], h.PayLen)
	b[6] = h.NxtHdr
	b[7] = h.HopLmt
	copy(b[8:24], h.SGID[:])
	copy(b[24:40], h.DGID[:])
}

// LayerType returns LayerTypeGRH.
func (h *GRH) LayerType() gopacket.LayerType { return LayerTypeGRH }

// CanDecode returns LayerTypeGRH.
func (h *GRH) CanDecode() gopacket.LayerClass { return LayerTypeGRH }

// DecodeFromBytes decodes the header and trims the payload to PayLen.
func (h *GRH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < GRHLen {
		df.SetTruncated()
		return truncated("GRH", 0, GRHLen, len(data))
	}
	h.parse(data)
	if h.IPVer != 6 {
		return &Error{Layer: "GRH", Offset: 0, Err: ErrBadVersion}
	}
	end := GRHLen + int(h.PayLen)
	if end > len(data) {
		df.SetTruncated()
		return &Error{Layer: "GRH", Offset: 4, Want: end, Have: len(data), Err: ErrTruncated}
	}
	h.Contents, h.Payload = data[:GRHLen], data[GRHLen:end]
	return nil
}

// NextLayerType returns LayerTypeBTH when NxtHdr is 0x1B.
func (h *GRH) NextLayerType() gopacket.LayerType {
	if h.NxtHdr == NxtHdrBTH {
		return LayerTypeBTH
	}
	return payloadOrZero(h.Payload)
}

// SerializeTo prepends the GRH. With FixLengths it sets PayLen to the
// length of what follows.
func (h *GRH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if opts.FixLengths {
		h.PayLen = uint16(len(b.Bytes()))
	}
	return prepend(b, GRHLen, h)
}

func decodeGRH(data []byte, p gopacket.PacketBuilder) error {
	h := &GRH{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	p.SetNetworkLayer(h)
	return p.NextDecoder(h.NextLayerType())
}

// NetworkFlow returns the flow between the GIDs, so that GRH can be a
// gopacket.NetworkLayer (RoCEv1 frames have no other network layer).
func (h *GRH) NetworkFlow() gopacket.Flow {
	return gopacket.NewFlow(layers.EndpointIPv6, h.SGID[:], h.DGID[:])
}

// Decode reads the 40 header bytes at the start of b into h, without
// gopacket and without looking at PayLen.
func (h *GRH) Decode(b []byte) error {
	if len(b) < GRHLen {
		return truncated("GRH", 0, GRHLen, len(b))
	}
	h.parse(b)
	if h.IPVer != 6 {
		return &Error{Layer: "GRH", Offset: 0, Err: ErrBadVersion}
	}
	return nil
}

// Encode writes the header into b[:GRHLen]; b must be that long.
func (h *GRH) Encode(b []byte) { h.put(b) }
