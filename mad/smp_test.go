package mad_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// layout is what the three MAD layouts have.
type layout interface {
	gopacket.DecodingLayer
	gopacket.SerializableLayer
	Decode(b []byte) error
	AppendTo(b []byte) ([]byte, error)
}

// layoutFor returns a fresh layout for a MAD's class.
func layoutFor(t testing.TB, m []byte) layout {
	switch mad.Class(m[1]) {
	case mad.ClassSubnLID:
		return &googlelayers.SMP{}
	case mad.ClassSubnDR:
		return &googlelayers.SMPDirected{}
	case mad.ClassPerfMgt:
		return &googlelayers.PerfMgt{}
	}
	t.Fatalf("class 0x%02x", m[1])
	return nil
}

// attrFor returns a fresh attribute for a golden MAD, and the size of the
// data field it decodes from.
func attrFor(t testing.TB, m []byte) (attrDecoder, int) {
	d, err := decodeGolden(m)
	require.NoError(t, err)
	a := d.attr()
	require.NotNil(t, a)
	if mad.Class(m[1]) == mad.ClassPerfMgt {
		return reflect.New(reflect.TypeOf(a).Elem()).Interface().(attrDecoder), mad.PerfDataLen
	}
	return reflect.New(reflect.TypeOf(a).Elem()).Interface().(attrDecoder), mad.SMPDataLen
}

// feedback records SetTruncated.
type feedback struct{ truncated bool }

func (f *feedback) SetTruncated() { f.truncated = true }

// checkErr asserts that err wraps want and reads "roce: ...".
func checkErr(t *testing.T, err, want error, what string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error %v, want one wrapping %v", what, err, want)
	}
	if !strings.HasPrefix(err.Error(), "roce: ") {
		t.Fatalf("%s: message %q", what, err.Error())
	}
}

// TestTruncationSweep cuts every golden MAD, and the data field of its
// attribute, at every length short of the whole: every decoder errors
// with ErrTruncated, resets its receiver and never panics.
func TestTruncationSweep(t *testing.T) {
	for _, g := range readSMPGolden(t) {
		data := g.bytes[64:]
		a, n := attrFor(t, g.bytes)
		for cut := range len(g.bytes) {
			b := g.bytes[:cut:cut]
			l := layoutFor(t, g.bytes)
			checkErr(t, l.Decode(b), ib.ErrTruncated, g.name+" Decode")
			if body := g.bytes[mad.HeaderLen:]; cut < len(body) { // the layer decodes the MAD data
				var fb feedback
				checkErr(t, l.DecodeFromBytes(body[:cut:cut], &fb), ib.ErrTruncated, g.name+" DecodeFromBytes")
				assert.True(t, fb.truncated, "%s cut at %d: SetTruncated not called", g.name, cut)
				checkErr(t, l.DecodeFromBytes(body[:cut:cut], nil), ib.ErrTruncated, g.name+" DecodeFromBytes(nil)")
				assert.Empty(t, l.(gopacket.Layer).LayerContents())
			}
			pk := gopacket.NewPacket(b, l.(gopacket.Layer).LayerType(), gopacket.Default)
			require.NotNil(t, pk.ErrorLayer(), "%s cut at %d", g.name, cut)
			checkErr(t, pk.ErrorLayer().Error(), ib.ErrTruncated, g.name+" NewPacket")
			if cut < n {
				checkErr(t, a.Decode(data[:cut:cut]), ib.ErrTruncated, g.name+" attribute")
			}
		}
		require.NoError(t, a.Decode(data[:n:n]), g.name)
	}
}

// TestWrongClass hands each layout a MAD of another class.
func TestWrongClass(t *testing.T) {
	g := readSMPGolden(t)
	lid, dr, perf := g[2].bytes, g[0].bytes, g[8].bytes
	for _, c := range []struct {
		l layout
		b []byte
	}{{&googlelayers.SMP{}, dr}, {&googlelayers.SMPDirected{}, lid}, {&googlelayers.PerfMgt{}, lid}, {&googlelayers.SMP{}, perf}} {
		checkErr(t, c.l.Decode(c.b), ib.ErrUnsupported, reflect.TypeOf(c.l).String())
	}
}

// TestHopCount: a hop count above 63 has no room in the 64-byte paths.
func TestHopCount(t *testing.T) {
	m := append([]byte(nil), readSMPGolden(t)[0].bytes...)
	var s mad.SMPDirected
	m[7] = 63
	require.NoError(t, s.Decode(m))
	m[7] = 64
	checkErr(t, s.Decode(m), ib.ErrBadLength, "hop count 64")

	require.NoError(t, s.Decode(readSMPGolden(t)[0].bytes))
	err := s.SetHops(1, 64)
	var fe *ib.FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "SMP.HopCount", fe.Field)
	checkErr(t, err, ib.ErrBadLength, "SetHops")
	assert.Equal(t, uint8(2), s.HopCount(), "a refused SetHops changed the hops")

	s.ClassSpecific = 0x0140
	out, err := s.AppendTo([]byte{1, 2})
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "SMP.HopCount", fe.Field)
	assert.Equal(t, []byte{1, 2}, out, "a refused AppendTo appended")
	// Serialized as layers, the header is the MAD layer's: it refuses the
	// hop count of its class.
	ml := googlelayers.MAD{Header: s.Header}
	err = gopacket.SerializeLayers(gopacket.NewSerializeBuffer(), gopacket.SerializeOptions{}, &ml, &googlelayers.SMPDirected{SMPDirected: s})
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "SMP.HopCount", fe.Field)
}

// TestDirectedFields sets the fields packed into the header and reads
// them back, and from the bytes (IBTA Vol 1, 14.2.1.2: D is bit 15 of
// Status, the hop pointer the high byte of ClassSpecific).
func TestDirectedFields(t *testing.T) {
	s := mad.SMPDirected{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnDR, ClassVersion: 1, Method: mad.MethodSet}}
	s.SetDirection(true)
	require.NoError(t, s.SetSMPStatus(0x001c))
	require.NoError(t, s.SetHops(3, 5))
	assert.True(t, s.Direction())
	assert.Equal(t, uint16(0x001c), s.SMPStatus())
	assert.Equal(t, uint8(3), s.HopPointer())
	assert.Equal(t, uint8(5), s.HopCount())
	b, err := s.AppendTo(nil)
	require.NoError(t, err)
	assert.Equal(t, []byte{0x80, 0x1c, 0x03, 0x05}, b[4:8])
	s.SetDirection(false)
	assert.False(t, s.Direction())
	assert.Equal(t, uint16(0x001c), s.SMPStatus())

	var fe *ib.FieldError
	require.ErrorAs(t, s.SetSMPStatus(0x8000), &fe)
	assert.Equal(t, "SMP.Status", fe.Field)
	assert.Equal(t, uint16(0x001c), s.SMPStatus())
}

// TestLayoutRefusals: the builders refuse another class and a method of
// more than 7 bits, appending nothing.
func TestLayoutRefusals(t *testing.T) {
	for _, g := range readSMPGolden(t) {
		for _, spoil := range []func(h *mad.Header) string{
			func(h *mad.Header) string { h.MgmtClass = mad.ClassCM; return "MgmtClass" },
			func(h *mad.Header) string { h.Method = 0x80; return "MAD.Method" },
		} {
			l := layoutFor(t, g.bytes)
			require.NoError(t, l.Decode(g.bytes))
			field := spoil(headerOf(l))
			out, err := l.AppendTo([]byte{7})
			var fe *ib.FieldError
			require.ErrorAs(t, err, &fe, g.name)
			assert.Contains(t, fe.Field, field)
			checkErr(t, err, ib.ErrBadValue, g.name)
			assert.Equal(t, []byte{7}, out)
		}
	}
}

func headerOf(l layout) *mad.Header {
	return reflect.ValueOf(l).Elem().FieldByName("Header").Addr().Interface().(*mad.Header)
}

// attrWidths are the attribute fields narrower than their Go type, with
// their widths in bits from the IBTA layouts (14.2.5, 16.1.3.5).
var attrWidths = []struct {
	attr  attrDecoder
	field string
	bits  uint
}{
	{&mad.NodeInfo{}, "VendorID", 24},
	{&mad.SMInfo{}, "Priority", 4}, {&mad.SMInfo{}, "SMState", 4},
	{&mad.SwitchInfo{}, "LifeTimeValue", 5}, {&mad.SwitchInfo{}, "OptimizedSLtoVLMappingProgramming", 2},
	{&mad.PortCounters{}, "LocalLinkIntegrityErrors", 4}, {&mad.PortCounters{}, "ExcessiveBufferOverrunErrors", 4},
	{&mad.PortInfo{}, "LinkSpeedSupported", 4}, {&mad.PortInfo{}, "PortState", 4},
	{&mad.PortInfo{}, "PortPhysicalState", 4}, {&mad.PortInfo{}, "LinkDownDefaultState", 4},
	{&mad.PortInfo{}, "MKeyProtectBits", 2}, {&mad.PortInfo{}, "LMC", 3},
	{&mad.PortInfo{}, "LinkSpeedActive", 4}, {&mad.PortInfo{}, "LinkSpeedEnabled", 4},
	{&mad.PortInfo{}, "NeighborMTU", 4}, {&mad.PortInfo{}, "MasterSMSL", 4},
	{&mad.PortInfo{}, "VLCap", 4}, {&mad.PortInfo{}, "InitType", 4},
	{&mad.PortInfo{}, "InitTypeReply", 4}, {&mad.PortInfo{}, "MTUCap", 4},
	{&mad.PortInfo{}, "VLStallCount", 3}, {&mad.PortInfo{}, "HOQLife", 5},
	{&mad.PortInfo{}, "OperationalVLs", 4}, {&mad.PortInfo{}, "MulticastPKeyTrapSuppressionEnabled", 2},
	{&mad.PortInfo{}, "SubnetTimeOut", 5}, {&mad.PortInfo{}, "RespTimeValue", 5},
	{&mad.PortInfo{}, "LocalPhyErrors", 4}, {&mad.PortInfo{}, "OverrunErrors", 4},
	{&mad.PortInfo{}, "LinkRoundTripLatency", 24},
	{&mad.PortInfo{}, "LinkSpeedExtActive", 4}, {&mad.PortInfo{}, "LinkSpeedExtSupported", 4},
	{&mad.PortInfo{}, "LinkSpeedExtEnabled", 5},
}

// TestAttributeWidths sets each narrow field to its largest value, which
// must round-trip, then to one more, which AppendTo must refuse with a
// *ib.FieldError naming the field, appending nothing.
func TestAttributeWidths(t *testing.T) {
	for _, w := range attrWidths {
		typ := reflect.TypeOf(w.attr).Elem()
		name := typ.Name() + "." + w.field
		a := reflect.New(typ)
		f := a.Elem().FieldByName(w.field)
		require.True(t, f.IsValid(), name)
		f.SetUint(1<<w.bits - 1)
		b, err := a.Interface().(attrDecoder).AppendTo(nil)
		require.NoError(t, err, name)
		back := reflect.New(typ)
		require.NoError(t, back.Interface().(attrDecoder).Decode(b), name)
		assert.Equal(t, a.Elem().Interface(), back.Elem().Interface(), name)

		f.SetUint(1 << w.bits)
		out, err := a.Interface().(attrDecoder).AppendTo([]byte{9})
		var fe *ib.FieldError
		require.ErrorAs(t, err, &fe, name)
		assert.Equal(t, name, fe.Field)
		checkErr(t, err, ib.ErrBadValue, name)
		assert.Equal(t, []byte{9}, out, name)
	}
}

// TestAttributeAppendSize: every attribute appends its whole data field.
func TestAttributeAppendSize(t *testing.T) {
	for _, g := range readSMPGolden(t) {
		a, n := attrFor(t, g.bytes)
		b, err := a.AppendTo([]byte{1})
		require.NoError(t, err)
		assert.Len(t, b, 1+n, g.name)
	}
}

// TestLayers decodes every golden MAD through gopacket.NewPacket and a
// DecodingLayerParser of a googlelayers.MADLayers set, into the MAD layer and the
// class layer the class table names, and serializes both back, byte for
// byte; a byte after the 256 of the MAD becomes a payload layer.
func TestLayers(t *testing.T) {
	var ml googlelayers.MADLayers
	var payload gopacket.Payload
	p := gopacket.NewDecodingLayerParser(googlelayers.LayerTypeMAD, append(ml.DecodingLayers(), &payload)...)
	for _, g := range readSMPGolden(t) {
		l := layoutFor(t, g.bytes)
		lt := l.(gopacket.Layer).LayerType()
		in := append(append([]byte(nil), g.bytes...), 0xab)
		pk := gopacket.NewPacket(in, lt, gopacket.Default)
		require.Nil(t, pk.ErrorLayer(), g.name)
		ls := pk.Layers()
		require.Len(t, ls, 3, g.name)
		assert.Equal(t, []gopacket.LayerType{googlelayers.LayerTypeMAD, lt, gopacket.LayerTypePayload},
			[]gopacket.LayerType{ls[0].LayerType(), ls[1].LayerType(), ls[2].LayerType()})
		assert.Equal(t, g.bytes[:mad.HeaderLen], ls[0].LayerContents())
		assert.Equal(t, g.bytes[mad.HeaderLen:], ls[1].LayerContents())
		assert.Equal(t, []byte{0xab}, ls[1].LayerPayload())
		whole, err := ls[1].(layout).AppendTo(nil) // its Header is the MAD layer's
		require.NoError(t, err, g.name)
		assert.Equal(t, g.bytes, whole, g.name)

		var decoded []gopacket.LayerType
		require.NoError(t, p.DecodeLayers(g.bytes, &decoded), g.name)
		assert.Equal(t, []gopacket.LayerType{googlelayers.LayerTypeMAD, lt}, decoded)

		buf := gopacket.NewSerializeBuffer()
		require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, ls[0].(gopacket.SerializableLayer), ls[1].(gopacket.SerializableLayer)))
		assert.Equal(t, g.bytes, buf.Bytes(), g.name)
	}
	assert.Equal(t, "SMP", googlelayers.LayerTypeSMP.String())
	assert.Equal(t, "SMPDirected", googlelayers.LayerTypeSMPDirected.String())
	assert.Equal(t, "PerfMgt", googlelayers.LayerTypePerfMgt.String())
}

// TestAttributeStrings: unknown IDs print as hex.
func TestAttributeStrings(t *testing.T) {
	assert.Equal(t, "P_KeyTable", mad.SMPAttrPKeyTable.String())
	assert.Equal(t, "0xff00", mad.SMPAttribute(0xff00).String())
	assert.Equal(t, "0x0003", mad.SMPAttribute(3).String())
	assert.Equal(t, "PortCountersExtended", mad.PerfAttrPortCountersExtended.String())
	assert.Equal(t, "0x0099", mad.PerfAttribute(0x99).String())
}

// TestEnumStrings: node types and SM states by name (IBTA Vol 1,
// 14.2.5.3 and 14.4.1).
func TestEnumStrings(t *testing.T) {
	assert.Equal(t, "Switch", mad.NodeTypeSwitch.String())
	assert.Equal(t, "0", mad.NodeType(0).String())
	assert.Equal(t, "9", mad.NodeType(9).String())
	assert.Equal(t, "Master", mad.SMStateMaster.String())
	assert.Equal(t, "NotActive", mad.SMState(0).String())
	assert.Equal(t, "15", mad.SMState(15).String())
}

// TestNodeDescriptionText stops at the first NUL and keeps a full string.
func TestNodeDescriptionText(t *testing.T) {
	var n mad.NodeDescription
	copy(n.NodeString[:], "hca\x00junk")
	assert.Equal(t, "hca", n.Text())
	copy(n.NodeString[:], strings.Repeat("x", 64))
	assert.Equal(t, strings.Repeat("x", 64), n.Text())
}
