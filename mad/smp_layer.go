package mad

import (
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// The numbers of the gopacket layer types of the subnet management and
// performance management MADs, 1835-1849 of the package's range (1835-1837
// are taken). gopacket panics on a number registered twice.
const (
	layerTypeSMP         gopacket.LayerType = 1835
	layerTypeSMPDirected gopacket.LayerType = 1836
	layerTypePerfMgt     gopacket.LayerType = 1837
)

// The gopacket layer types of the LID-routed and the directed-route SMP
// and of the performance management MAD. Like every layer type of the
// package, their decoders start at the common MAD header: gopacket.NewPacket
// gives the MAD layer, then the class layer.
var (
	LayerTypeSMP         = register(layerTypeSMP, "SMP")
	LayerTypeSMPDirected = register(layerTypeSMPDirected, "SMPDirected")
	LayerTypePerfMgt     = register(layerTypePerfMgt, "PerfMgt")
)

// madLayout is a 256-byte MAD layout whose class body follows the common
// header: Decode and AppendTo take the whole MAD, the layer methods the
// MAD data after the header, the header being the MAD layer's.
type madLayout interface {
	Validate() error
	header() *Header
	decodeData(d []byte) error // d: the 232 bytes after the header
	putData(p []byte)          // p: the 232 bytes after the header
}

// decodeMADLayout decodes the whole MAD b into m, already reset: the
// common header (Header.Decode, the one definition), then the data.
func decodeMADLayout(m madLayout, layer string, b []byte, class Class) error {
	if err := checkMAD(layer, b, class); err != nil {
		return err
	}
	_ = m.header().Decode(b)
	return m.decodeData(b[HeaderLen:Len])
}

// decodeLayerData decodes the MAD data of a layer whose header is already
// set (copied from the MAD layer, or as the caller set it), and sets the
// layer's contents (the 232 bytes) and payload (the rest).
func decodeLayerData(m madLayout, layer string, bl *layers.BaseLayer, data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < DataLen {
		setTruncated(df)
		return truncated(layer, DataLen, len(data))
	}
	if err := m.decodeData(data[:DataLen]); err != nil {
		return err
	}
	bl.Contents, bl.Payload = data[:DataLen:DataLen], data[DataLen:]
	return nil
}

// headerOf returns the header a class layer decodes under: its MAD's
// when it is linked to one, else the one the caller set.
func headerOf(m *MAD, h Header) Header {
	if m != nil {
		return m.Header
	}
	return h
}

// appendMAD appends the MAD m to b, or nothing when m does not validate.
func appendMAD(m madLayout, b []byte) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return b, err
	}
	b = grow(b, Len)
	p := b[len(b)-Len:]
	_, _ = m.header().AppendTo(p[:0:HeaderLen])
	m.putData(p[HeaderLen:])
	return b, nil
}

// prependData prepends the 232 bytes of MAD data of m to a gopacket
// buffer, for the MAD layer to prepend the header.
func prependData(m madLayout, b gopacket.SerializeBuffer) error {
	p, err := b.PrependBytes(DataLen)
	if err != nil {
		return err
	}
	clear(p)
	m.putData(p)
	return nil
}

// nextAfterMAD is the layer after a MAD: a payload when bytes follow it.
func nextAfterMAD(payload []byte) gopacket.LayerType {
	if len(payload) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}

func (s *SMP) header() *Header         { return &s.Header }
func (s *SMPDirected) header() *Header { return &s.Header }
func (m *PerfMgt) header() *Header     { return &m.Header }

// classBody is what the SMP, SMPDirected and PerfMgt layers share: the
// gopacket base layer and the MAD layer whose header they copy.
type classBody struct {
	layers.BaseLayer
	mad *MAD // the MAD layer of a Layers set or packet; nil decoded on its own
}

func (c *classBody) link(m *MAD) { c.mad = m }

// NextLayerType returns gopacket.LayerTypePayload when bytes follow the
// MAD, gopacket.LayerTypeZero otherwise.
func (c *classBody) NextLayerType() gopacket.LayerType { return nextAfterMAD(c.Payload) }

// LayerType returns LayerTypeSMP.
func (s *SMP) LayerType() gopacket.LayerType { return LayerTypeSMP }

// CanDecode returns LayerTypeSMP.
func (s *SMP) CanDecode() gopacket.LayerClass { return LayerTypeSMP }

// DecodeFromBytes decodes the MAD data, the 232 bytes after the common
// header, resetting s first; df may be nil. Header is copied from the MAD
// layer the set or packet decoded before it (decoded on its own, the
// layer keeps the Header the caller set). Its contents are the 232 bytes,
// its payload the rest.
func (s *SMP) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	*s = SMP{classBody: classBody{mad: s.mad}, Header: headerOf(s.mad, s.Header)}
	return decodeLayerData(s, "SMP", &s.BaseLayer, data, df)
}

// SerializeTo prepends the 232 bytes of MAD data; serialize a MAD layer
// before it for the header (AppendTo writes the whole MAD).
func (s *SMP) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependData(s, b)
}

// LayerType returns LayerTypeSMPDirected.
func (s *SMPDirected) LayerType() gopacket.LayerType { return LayerTypeSMPDirected }

// CanDecode returns LayerTypeSMPDirected.
func (s *SMPDirected) CanDecode() gopacket.LayerClass { return LayerTypeSMPDirected }

// DecodeFromBytes decodes the MAD data, the 232 bytes after the common
// header, resetting s first; df may be nil. Header (hop pointer and hop
// count included) is copied from the MAD layer the set or packet decoded
// before it (decoded on its own, the layer keeps the Header the caller
// set). A hop count above MaxHopCount is an error matching
// ib.ErrBadLength.
func (s *SMPDirected) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	*s = SMPDirected{classBody: classBody{mad: s.mad}, Header: headerOf(s.mad, s.Header)}
	return decodeLayerData(s, "SMPDirected", &s.BaseLayer, data, df)
}

// SerializeTo prepends the 232 bytes of MAD data; serialize a MAD layer
// before it for the header (AppendTo writes the whole MAD).
func (s *SMPDirected) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependData(s, b)
}

// LayerType returns LayerTypePerfMgt.
func (m *PerfMgt) LayerType() gopacket.LayerType { return LayerTypePerfMgt }

// CanDecode returns LayerTypePerfMgt.
func (m *PerfMgt) CanDecode() gopacket.LayerClass { return LayerTypePerfMgt }

// DecodeFromBytes decodes the MAD data, the 232 bytes after the common
// header, resetting m first; df may be nil. Header is copied from the MAD
// layer the set or packet decoded before it (decoded on its own, the
// layer keeps the Header the caller set).
func (m *PerfMgt) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	*m = PerfMgt{classBody: classBody{mad: m.mad}, Header: headerOf(m.mad, m.Header)}
	return decodeLayerData(m, "PerfMgt", &m.BaseLayer, data, df)
}

// SerializeTo prepends the 232 bytes of MAD data; serialize a MAD layer
// before it for the header (AppendTo writes the whole MAD).
func (m *PerfMgt) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	return prependData(m, b)
}
