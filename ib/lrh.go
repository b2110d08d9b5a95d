package ib

import (
	"encoding/binary"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// LRHLen is the size of the Local Route Header.
const LRHLen = 8

// The LRH link next header values (IBTA Vol 1, 7.7.3).
const (
	LNHRaw       = 0 // raw packet
	LNHIPv6      = 1 // IP, non-IBA transport
	LNHIBALocal  = 2 // BTH follows
	LNHIBAGlobal = 3 // GRH follows
)

// LRH is the Local Route Header of native InfiniBand (IBTA Vol 1, 7.7).
// RoCE frames never carry it; the ICRC counts it as eight 0xFF bytes.
//
//	+-------+-------+-------+---+---+-------------------------------+
//	|  VL   | LVer  |  SL   |Rsv|LNH|             DLID              |
//	+-------+-------+-------+---+---+-------------------------------+
//	| Rsv5    |      PktLen         |             SLID              |
//	+---------+---------------------+-------------------------------+
//
// PktLen counts 4-byte words from the LRH through the ICRC; the 2-byte
// VCRC follows. As a gopacket layer, LRH hands on the bytes after it up to
// the VCRC, and keeps the VCRC.
type LRH struct {
	layers.BaseLayer
	VL     uint8  // virtual lane
	LVer   uint8  // link version
	SL     uint8  // service level
	Resv2  uint8  // reserved, 2 bits
	LNH    uint8  // link next header
	DLID   uint16 // destination local identifier
	Resv5  uint8  // reserved, 5 bits
	PktLen uint16 // packet length in 4-byte words, 11 bits
	SLID   uint16 // source local identifier
	VCRC   uint16 // variant CRC, when present after PktLen words
}

func (h *LRH) parse(b []byte) {
	_ = b[7]
	h.VL, h.LVer = b[0]>>4, b[0]&0x0f
	h.SL, h.Resv2, h.LNH = b[1]>>4, b[1]>>2&3, b[1]&3
	h.DLID = binary.BigEndian.Uint16(b[2:])
	w := binary.BigEndian.Uint16(b[4:])
	h.Resv5, h.PktLen = uint8(w>>11), w&0x7ff
	h.SLID = binary.BigEndian.Uint16(b[6:])
}

func (h *LRH) put(b []byte) {
	_ = b[7]
	b[0] = h.VL<<4 | h.LVer&0x0f
	b[1] = h.SL<<4 | (h.Resv2&3)<<2 | h.LNH&3
	binary.BigEndian.PutUint16(b[2:], h.DLID)
	binary.BigEndian.PutUint16(b[4:], uint16(h.Resv5)<<11|h.PktLen&0x7ff)
	binary.BigEndian.PutUint16(b[6:], h.SLID)
}

// LayerType returns LayerTypeLRH.
func (h *LRH) LayerType() gopacket.LayerType { return LayerTypeLRH }

// CanDecode returns LayerTypeLRH.
func (h *LRH) CanDecode() gopacket.LayerClass { return LayerTypeLRH }

// DecodeFromBytes decodes the header and trims the payload to PktLen.
func (h *LRH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < LRHLen {
		df.SetTruncated()
		return truncated("LRH", 0, LRHLen, len(data))
	}
	h.parse(data)
	end := int(h.PktLen) * 4
	if end < LRHLen {
		return &Error{Layer: "LRH", Offset: 4, Want: LRHLen, Have: end, Err: ErrBadLength}
	}
	if end > len(data) {
		df.SetTruncated()
		return &Error{Layer: "LRH", Offset: 4, Want: end, Have: len(data), Err: ErrTruncated}
	}
	h.VCRC = 0
	if len(data) >= end+2 {
		h.VCRC = binary.BigEndian.Uint16(data[end:])
	}
	h.Contents, h.Payload = data[:LRHLen], data[LRHLen:end]
	return nil
}

// NextLayerType returns LayerTypeBTH or LayerTypeGRH according to LNH.
func (h *LRH) NextLayerType() gopacket.LayerType {
	switch h.LNH {
	case LNHIBALocal:
		return LayerTypeBTH
	case LNHIBAGlobal:
		return LayerTypeGRH
	}
	return payloadOrZero(h.Payload)
}

// SerializeTo prepends the LRH and appends the VCRC as h holds it. With
// FixLengths it sets PktLen from the bytes that follow.
func (h *LRH) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if opts.FixLengths {
		h.PktLen = uint16((len(b.Bytes()) + LRHLen) / 4)
	}
	v, err := b.AppendBytes(2)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint16(v, h.VCRC)
	return prepend(b, LRHLen, h)
}

func decodeLRH(data []byte, p gopacket.PacketBuilder) error {
	h := &LRH{}
	if err := h.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(h)
	p.SetLinkLayer(h)
	return p.NextDecoder(h.NextLayerType())
}

// LinkFlow returns the flow between the LIDs, so that LRH can be a
// gopacket.LinkLayer.
func (h *LRH) LinkFlow() gopacket.Flow {
	var s, d [2]byte
	binary.BigEndian.PutUint16(s[:], h.SLID)
	binary.BigEndian.PutUint16(d[:], h.DLID)
	return gopacket.NewFlow(layers.EndpointMAC, s[:], d[:])
}
