// Code generated from ../googlelayers/mad.go by go generate; DO NOT EDIT.

package rocelayers

import (
	"errors"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/mad"
)

// The management datagram layers: each embeds the codec type of package
// mad, with its fields and methods, and a layers.BaseLayer. Inside a
// MADLayers set, or a packet gopacket.NewPacket decoded, the layers after
// the MAD header follow it, which tells them the class and attribute:
// the MAD layer's next layer is RMPP for a class that carries it, then
// the class body's layer (mad.Header.Body), or gopacket.Payload for a
// class or attribute package mad leaves opaque.

// MAD is mad.Header, the common MAD header, as a layer. Its payload is
// the MAD data, the 232 bytes after the header.
type MAD struct {
	layers.BaseLayer
	mad.Header
}

// LayerType returns LayerTypeMAD.
func (m *MAD) LayerType() gopacket.LayerType { return LayerTypeMAD }

// CanDecode returns LayerTypeMAD.
func (m *MAD) CanDecode() gopacket.LayerClass { return LayerTypeMAD }

// NextLayerType returns LayerTypeRMPP for a class that carries the RMPP
// header, else the class body's layer type or gopacket.LayerTypePayload.
func (m *MAD) NextLayerType() gopacket.LayerType {
	if m.MgmtClass.HasRMPP() {
		return LayerTypeRMPP
	}
	return bodyLayer(&m.Header)
}

// bodyLayer returns the layer type of the class body after h (and the
// RMPP header, if any).
func bodyLayer(h *mad.Header) gopacket.LayerType { return madBodies[h.Body()] }

// madBodies are the layer types of the class bodies, by mad.Body.
// (by number: the layer types' decoder refers to this table).
var madBodies = [...]gopacket.LayerType{
	mad.BodyOpaque:      gopacket.LayerTypePayload,
	mad.BodyCM:          numCM,
	mad.BodySA:          numSA,
	mad.BodySMP:         numSMP,
	mad.BodySMPDirected: numSMPDirected,
	mad.BodyPerfMgt:     numPerfMgt,
}

// errMADCut are the errors of a MAD shorter than mad.Len, by the bytes it
// has, made once: decoding allocates nothing.
var errMADCut = errs.TruncatedTable("MAD", 0, mad.Len)

// tellCut tells df, which may be nil, of a truncation, and returns err.
func tellCut(df gopacket.DecodeFeedback, err error) error {
	if df != nil && errors.Is(err, mad.ErrTruncated) {
		df.SetTruncated()
	}
	return err
}

// DecodeFromBytes decodes a whole MAD, 256 bytes, from the start of data,
// resetting m first; df may be nil. It reads the common header and leaves
// the MAD data (every byte after the header) in Payload. A MAD shorter
// than 256 bytes is an error matching mad.ErrTruncated.
func (m *MAD) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	m.BaseLayer = layers.BaseLayer{}
	if len(data) < mad.Len {
		m.Header = mad.Header{}
		return tellCut(df, errMADCut[len(data)])
	}
	if err := m.Decode(data); err != nil {
		return err
	}
	m.Contents, m.Payload = data[:mad.HeaderLen], data[mad.HeaderLen:]
	return nil
}

// SerializeTo prepends the common header to the MAD data already in b.
// It refuses what mad.Header.ValidateClass refuses and MAD data shorter
// than the 232 bytes a MAD carries, unless opts.FixLengths is set, which
// pads it with zeros.
func (m *MAD) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if err := m.ValidateClass(); err != nil {
		return err
	}
	if n := len(b.Bytes()); n < mad.DataLen {
		if !opts.FixLengths {
			return errs.Length("MAD.Data", n, "shorter than a MAD's 232 bytes", errs.ErrBadLength)
		}
		p, err := b.AppendBytes(mad.DataLen - n)
		if err != nil {
			return err
		}
		clear(p)
	}
	p, err := b.PrependBytes(mad.HeaderLen)
	if err != nil {
		return err
	}
	_, err = m.AppendTo(p[:0])
	return err
}

// afterMAD is the layer after a class body: a payload when bytes follow
// the MAD.
func afterMAD(payload []byte) gopacket.LayerType {
	if len(payload) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}

// RMPP is mad.RMPP, the RMPP header, as a layer.
type RMPP struct {
	layers.BaseLayer
	mad.RMPP
	hdr *MAD // the MAD it follows, in a MADLayers set or a packet
}

// LayerType returns LayerTypeRMPP.
func (r *RMPP) LayerType() gopacket.LayerType { return LayerTypeRMPP }

// CanDecode returns LayerTypeRMPP.
func (r *RMPP) CanDecode() gopacket.LayerClass { return LayerTypeRMPP }

// NextLayerType returns the layer type of the class body when the RMPP
// header follows a MAD header, else gopacket.LayerTypePayload.
func (r *RMPP) NextLayerType() gopacket.LayerType {
	if r.hdr == nil {
		return gopacket.LayerTypePayload
	}
	return bodyLayer(&r.hdr.Header)
}

// DecodeFromBytes is mad.RMPP.Decode, from the start of data (the bytes
// after the common MAD header); df may be nil.
func (r *RMPP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	r.BaseLayer = layers.BaseLayer{}
	if err := r.Decode(data); err != nil {
		return tellCut(df, err)
	}
	r.Contents, r.Payload = data[:mad.RMPPLen], data[mad.RMPPLen:]
	return nil
}

// SerializeTo prepends the header, refusing what mad.RMPP.Validate
// refuses.
func (r *RMPP) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependCodec(b, &r.RMPP)
}

// codecType is what the codecs of package mad share.
type codecType interface {
	AppendTo([]byte) ([]byte, error)
	Len() int
	Validate() error
}

// prependCodec prepends c's bytes to b, or refuses what c.Validate
// refuses, writing nothing.
func prependCodec(b gopacket.SerializeBuffer, c codecType) error {
	if err := c.Validate(); err != nil {
		return err
	}
	p, err := b.PrependBytes(c.Len())
	if err != nil {
		return err
	}
	_, err = c.AppendTo(p[:0])
	return err
}

// CM is mad.CM, a communication management message, as a layer. In a
// MADLayers set or a packet its AttributeID is the MAD's it follows;
// decoded on its own, the one the caller set.
type CM struct {
	layers.BaseLayer
	mad.CM
	hdr *MAD
}

// LayerType returns LayerTypeCM.
func (c *CM) LayerType() gopacket.LayerType { return LayerTypeCM }

// CanDecode returns LayerTypeCM.
func (c *CM) CanDecode() gopacket.LayerClass { return LayerTypeCM }

// NextLayerType returns gopacket.LayerTypeZero after a CM message, which
// fills the MAD, and gopacket.LayerTypePayload after the data of an
// attribute CM does not define (decoded on its own; after a MAD layer
// that data goes to the payload layer) or bytes after the MAD.
func (c *CM) NextLayerType() gopacket.LayerType { return afterMAD(c.Payload) }

// DecodeFromBytes is mad.CM.Decode of the MAD data (232 bytes) under the
// attribute ID of the MAD the layer follows; df may be nil. An attribute
// CM does not define leaves every message zero and the data in Payload.
func (c *CM) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	c.BaseLayer = layers.BaseLayer{}
	if c.hdr != nil {
		c.AttributeID = c.hdr.AttributeID
	}
	if err := c.Decode(data); err != nil {
		return tellCut(df, err)
	}
	if c.Name() == "" {
		c.Payload = data
		return nil
	}
	c.Contents, c.Payload = data[:mad.DataLen], data[mad.DataLen:]
	return nil
}

// SerializeTo prepends the 232 bytes mad.CM.AppendTo writes, refusing
// what it refuses.
func (c *CM) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependCodec(b, &c.CM)
}

// SA is mad.SA, the subnet administration header and data, as a layer.
type SA struct {
	layers.BaseLayer
	mad.SA
	hdr *MAD
}

// LayerType returns LayerTypeSA.
func (s *SA) LayerType() gopacket.LayerType { return LayerTypeSA }

// CanDecode returns LayerTypeSA.
func (s *SA) CanDecode() gopacket.LayerClass { return LayerTypeSA }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise: the SA data is the layer's own
// (Data, Record).
func (s *SA) NextLayerType() gopacket.LayerType { return afterMAD(s.Payload) }

// DecodeFromBytes is mad.SA.Decode of the 220 bytes after the RMPP
// header; df may be nil.
func (s *SA) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	s.BaseLayer = layers.BaseLayer{}
	if err := s.Decode(data); err != nil {
		return tellCut(df, err)
	}
	n := s.SA.Len()
	s.Contents, s.Payload = data[:n], data[n:]
	return nil
}

// SerializeTo prepends the SA header and Data (at most 200 bytes, padded
// with zeros), refusing longer Data.
func (s *SA) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependCodec(b, &s.SA)
}

// headerFor returns the header a class body's layer decodes under: the
// MAD layer's it follows, or own when it follows none.
func headerFor(hdr *MAD, own *mad.Header) mad.Header {
	if hdr != nil {
		return hdr.Header
	}
	return *own
}

// The class bodies that are the MAD data under the common header (SMP,
// SMPDirected, PerfMgt) share the two halves of their layer: splitData
// after DecodeData, prependData for SerializeTo.

// splitData sets base to the mad.DataLen bytes of MAD data at the start
// of data, which the body decoded from with err, and Payload to what
// follows the MAD; on an error it empties base and tells df of a cut.
func splitData(base *layers.BaseLayer, data []byte, df gopacket.DecodeFeedback, err error) error {
	if err != nil {
		*base = layers.BaseLayer{}
		return tellCut(df, err)
	}
	base.Contents, base.Payload = data[:mad.DataLen:mad.DataLen], data[mad.DataLen:]
	return nil
}

// prependData prepends the mad.DataLen bytes of MAD data to b, which a
// MAD layer serialized before it completes, and has appendData (a body's
// AppendData) write them.
func prependData(b gopacket.SerializeBuffer, appendData func([]byte) []byte) error {
	p, err := b.PrependBytes(mad.DataLen)
	if err == nil {
		appendData(p[:0])
	}
	return err
}

// SMP is mad.SMP, a LID-routed subnet management packet, as a layer: its
// contents are the 232 bytes after the common header, its payload
// whatever follows the MAD, and Header a copy of the MAD layer's.
type SMP struct {
	layers.BaseLayer
	mad.SMP
	hdr *MAD
}

// LayerType returns LayerTypeSMP.
func (s *SMP) LayerType() gopacket.LayerType { return LayerTypeSMP }

// CanDecode returns LayerTypeSMP.
func (s *SMP) CanDecode() gopacket.LayerClass { return LayerTypeSMP }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (s *SMP) NextLayerType() gopacket.LayerType { return afterMAD(s.Payload) }

// DecodeFromBytes is mad.SMP.DecodeData of the MAD data under the header
// of the MAD layer the set or packet decoded before it (decoded on its
// own, the Header the caller set); df may be nil.
func (s *SMP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	h := headerFor(s.hdr, &s.Header)
	return splitData(&s.BaseLayer, data, df, s.DecodeData(&h, data))
}

// SerializeTo prepends the 232 bytes of MAD data; serialize a MAD layer
// before it for the header (mad.SMP.AppendTo writes the whole MAD).
func (s *SMP) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependData(b, s.AppendData)
}

// SMPDirected is mad.SMPDirected, a directed-route subnet management
// packet, as a layer, as SMP is.
type SMPDirected struct {
	layers.BaseLayer
	mad.SMPDirected
	hdr *MAD
}

// LayerType returns LayerTypeSMPDirected.
func (s *SMPDirected) LayerType() gopacket.LayerType { return LayerTypeSMPDirected }

// CanDecode returns LayerTypeSMPDirected.
func (s *SMPDirected) CanDecode() gopacket.LayerClass { return LayerTypeSMPDirected }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (s *SMPDirected) NextLayerType() gopacket.LayerType { return afterMAD(s.Payload) }

// DecodeFromBytes is mad.SMPDirected.DecodeData, as SMP's; a hop count
// above mad.MaxHopCount is an error matching mad.ErrBadLength.
func (s *SMPDirected) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	h := headerFor(s.hdr, &s.Header)
	return splitData(&s.BaseLayer, data, df, s.DecodeData(&h, data))
}

// SerializeTo prepends the 232 bytes of MAD data, as SMP's.
func (s *SMPDirected) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependData(b, s.AppendData)
}

// PerfMgt is mad.PerfMgt, a performance management MAD, as a layer, as
// SMP is.
type PerfMgt struct {
	layers.BaseLayer
	mad.PerfMgt
	hdr *MAD
}

// LayerType returns LayerTypePerfMgt.
func (m *PerfMgt) LayerType() gopacket.LayerType { return LayerTypePerfMgt }

// CanDecode returns LayerTypePerfMgt.
func (m *PerfMgt) CanDecode() gopacket.LayerClass { return LayerTypePerfMgt }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (m *PerfMgt) NextLayerType() gopacket.LayerType { return afterMAD(m.Payload) }

// DecodeFromBytes is mad.PerfMgt.DecodeData, as SMP's.
func (m *PerfMgt) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	h := headerFor(m.hdr, &m.Header)
	return splitData(&m.BaseLayer, data, df, m.DecodeData(&h, data))
}

// SerializeTo prepends the 232 bytes of MAD data, as SMP's.
func (m *PerfMgt) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependData(b, m.AppendData)
}

// MADLayers holds one reusable decoding layer for the MAD header, the
// RMPP header and every class body package mad decodes. Its layers read
// the attribute ID from its MAD, so use them together, beside a
// gopacket.Payload for the classes and attributes left opaque.
type MADLayers struct {
	MAD         MAD
	RMPP        RMPP
	CM          CM
	SA          SA
	SMP         SMP
	SMPDirected SMPDirected
	PerfMgt     PerfMgt
}

// DecodingLayers links the layers to the set's MAD and returns them,
// ready for gopacket.DecodingLayerParser.AddDecodingLayer.
func (l *MADLayers) DecodingLayers() []gopacket.DecodingLayer {
	m := &l.MAD
	l.RMPP.hdr, l.CM.hdr, l.SA.hdr, l.SMP.hdr, l.SMPDirected.hdr, l.PerfMgt.hdr = m, m, m, m, m, m
	return []gopacket.DecodingLayer{&l.MAD, &l.RMPP, &l.CM, &l.SA, &l.SMP, &l.SMPDirected, &l.PerfMgt}
}

// madLayer is a class body's layer, linked to the MAD it follows.
type madLayer interface {
	gopacket.DecodingLayer
	gopacket.Layer
}

// freshBody returns a new layer of the class body of type t (by number:
// the layer types' decoder refers to it), linked to m.
func freshBody(t gopacket.LayerType, m *MAD) madLayer {
	switch t {
	case numCM:
		return &CM{hdr: m}
	case numSA:
		return &SA{hdr: m}
	case numSMP:
		return &SMP{hdr: m}
	case numSMPDirected:
		return &SMPDirected{hdr: m}
	case numPerfMgt:
		return &PerfMgt{hdr: m}
	}
	return nil
}

// decodeMAD is the gopacket decoder of a MAD: the MAD layer, the RMPP
// layer if the class carries one, then the class body or the payload.
// The layer types of the class bodies decode from the MAD header too: a
// class body cannot be read without the attribute ID the header carries.
func decodeMAD(data []byte, p gopacket.PacketBuilder) error {
	m := &MAD{}
	if err := m.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(m)
	rest := m.Payload
	if m.MgmtClass.HasRMPP() {
		r := &RMPP{hdr: m}
		if err := r.DecodeFromBytes(rest, p); err != nil {
			return err
		}
		p.AddLayer(r)
		rest = r.Payload
	}
	next := bodyLayer(&m.Header)
	b := freshBody(next, m)
	if b == nil {
		return p.NextDecoder(gopacket.LayerTypePayload)
	}
	if err := b.DecodeFromBytes(rest, p); err != nil {
		return err
	}
	p.AddLayer(b)
	if b.NextLayerType() == gopacket.LayerTypePayload { // bytes after the MAD
		return p.NextDecoder(gopacket.LayerTypePayload)
	}
	return nil
}

// decodeRMPP is the gopacket decoder of an RMPP header met on its own.
func decodeRMPP(data []byte, p gopacket.PacketBuilder) error {
	r := &RMPP{}
	if err := r.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(r)
	return p.NextDecoder(gopacket.LayerTypePayload)
}
