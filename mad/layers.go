package mad

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/internal/errs"
)

// The numbers of the layer types this package registers with gopacket:
// 1820-1834 for the framework, CM and SA; 1835-1849 for SMP and PerfMgt.
const (
	layerTypeMAD gopacket.LayerType = 1820 + iota
	layerTypeRMPP
	layerTypeCM
	layerTypeSA
)

// The layer types this package registers with gopacket. The decoder of
// each of them starts at the common MAD header: a class body cannot be
// read without the attribute ID the header carries.
var (
	LayerTypeMAD  = register(layerTypeMAD, "MAD")
	LayerTypeRMPP = gopacket.RegisterLayerType(int(layerTypeRMPP), gopacket.LayerTypeMetadata{Name: "RMPP", Decoder: gopacket.DecodeFunc(decodeRMPP)})
	LayerTypeCM   = register(layerTypeCM, "CM")
	LayerTypeSA   = register(layerTypeSA, "SA")
)

func register(t gopacket.LayerType, name string) gopacket.LayerType {
	return gopacket.RegisterLayerType(int(t), gopacket.LayerTypeMetadata{Name: name, Decoder: gopacket.DecodeFunc(decodeMAD)})
}

// The BTH and DETH layers of package googlelayers hand the payload of a
// UD SEND Only to QP 0 or QP 1, when it holds a whole MAD, to the MAD
// layer (ib.BTH.ToManagement).

// MAD is the gopacket layer of the common MAD header (see Header). Its
// payload is the MAD data, the 232 bytes after the header; the next layer
// is chosen by the class table: the RMPP header for a class that carries
// one, then the class body (CM, SA, ...), or gopacket.Payload for a class
// or attribute this package does not decode.
type MAD struct {
	layers.BaseLayer
	Header
}

// LayerType returns LayerTypeMAD.
func (m *MAD) LayerType() gopacket.LayerType { return LayerTypeMAD }

// CanDecode returns LayerTypeMAD.
func (m *MAD) CanDecode() gopacket.LayerClass { return LayerTypeMAD }

// NextLayerType returns LayerTypeRMPP, the class body's layer type or
// gopacket.LayerTypePayload, from the class table.
func (m *MAD) NextLayerType() gopacket.LayerType {
	if classes[m.MgmtClass].rmpp {
		return LayerTypeRMPP
	}
	return m.bodyType()
}

// bodyType returns the layer type of what follows the RMPP header, or
// the common header in a class without RMPP.
func (m *MAD) bodyType() gopacket.LayerType {
	return classes[m.MgmtClass].bodyType(m.AttributeID)
}

// DecodeFromBytes decodes a whole MAD, 256 bytes, from the start of data,
// resetting m first; df may be nil. It reads the common header and leaves
// the MAD data (every byte after the header) in Payload. A MAD shorter
// than 256 bytes is an error matching ib.ErrTruncated.
func (m *MAD) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	*m = MAD{}
	if len(data) < Len {
		setTruncated(df)
		return truncated("MAD", Len, len(data))
	}
	if err := m.Header.Decode(data); err != nil {
		return err
	}
	m.Contents, m.Payload = data[:HeaderLen], data[HeaderLen:]
	return nil
}

// SerializeTo prepends the common header to the MAD data already in b.
// It refuses a method wider than 7 bits and MAD data shorter than the 232
// bytes a MAD carries, unless opts.FixLengths is set, which pads it with
// zeros.
func (m *MAD) SerializeTo(b gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if check := classes[m.MgmtClass].check; check != nil {
		if err := check(&m.Header); err != nil {
			return err
		}
	}
	if n := len(b.Bytes()); n < DataLen {
		if !opts.FixLengths {
			return errs.Length("MAD.Data", n, "shorter than a MAD's 232 bytes", errs.ErrBadLength)
		}
		p, err := b.AppendBytes(DataLen - n)
		if err != nil {
			return err
		}
		clear(p)
	}
	p, err := b.PrependBytes(HeaderLen)
	if err != nil {
		return err
	}
	_, err = m.Header.AppendTo(p[:0])
	return err
}

// DataLen is the size of the MAD data, what follows the common header.
const DataLen = Len - HeaderLen

// Layers holds one reusable decoding layer for the MAD header, the RMPP
// header and every class body this package decodes. Its layers read the
// attribute ID from its MAD, so use them together, beside a
// gopacket.Payload for the classes and attributes left opaque (ib.Layers
// has one):
//
//	var ibl ib.Layers
//	var ml mad.Layers
//	parser := gopacket.NewDecodingLayerParser(ib.LayerTypeLRH, append(ibl.DecodingLayers(), ml.DecodingLayers()...)...)
//
// roce.Layers includes one.
type Layers struct {
	MAD         MAD
	RMPP        RMPP
	CM          CM
	SA          SA
	SMP         SMP
	SMPDirected SMPDirected
	PerfMgt     PerfMgt
}

// DecodingLayers links the layers to the set's MAD and returns them,
// ready for gopacket.DecodingLayerParser.AddDecodingLayer: MAD, RMPP and
// the body layer of every class of the class table.
func (l *Layers) DecodingLayers() []gopacket.DecodingLayer {
	l.RMPP.mad = &l.MAD
	out := []gopacket.DecodingLayer{&l.MAD, &l.RMPP}
	for i := range classes {
		if r := &classes[i]; r.body != nil {
			b := r.body(l)
			b.link(&l.MAD)
			if !hasLayer(out, b.LayerType()) {
				out = append(out, b)
			}
		}
	}
	return out
}

// decodeMAD is the gopacket decoder of a MAD: the MAD layer, the RMPP
// layer if the class carries one, then the class body or the payload.
func decodeMAD(data []byte, p gopacket.PacketBuilder) error {
	m := &MAD{}
	if err := m.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(m)
	row := &classes[m.MgmtClass]
	rest := m.Payload
	if row.rmpp {
		r := &RMPP{mad: m}
		if err := r.DecodeFromBytes(rest, p); err != nil {
			return err
		}
		p.AddLayer(r)
		rest = r.Payload
	}
	if m.bodyType() == gopacket.LayerTypePayload {
		return p.NextDecoder(gopacket.LayerTypePayload)
	}
	b := row.fresh()
	b.link(m)
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

// hasLayer reports whether ls holds a layer of type t (two classes may
// share a body layer).
func hasLayer(ls []gopacket.DecodingLayer, t gopacket.LayerType) bool {
	for _, l := range ls {
		if l.CanDecode().Contains(t) {
			return true
		}
	}
	return false
}
