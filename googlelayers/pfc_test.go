package googlelayers_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/pfc"
)

// The PFC and PAUSE vectors of docs/icrc-vectors.md, checked there
// against tshark 4.0.17 (the tests of package pfc hold them too).
const (
	// PFC, priorities 3 and 7 enabled, time[3] = 0xFFFF, time[7] = 0x1234,
	// 26 bytes of padding.
	vecPFC = "0180c2000001" + "020000000001" + "8808" +
		"0101" + "0088" + "0000" + "0000" + "0000" + "ffff" + "0000" + "0000" + "0000" + "1234" +
		"0000000000000000000000000000000000000000000000000000"
	// PAUSE, pause_time 0xFFFF, 42 bytes of padding.
	vecPause = "0180c2000001" + "020000000001" + "8808" + "0001" + "ffff" +
		"000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ignoreMACSlices compares the decoded fields, not the aliasing slices.
var ignoreMACSlices = cmp.FilterPath(func(p cmp.Path) bool {
	switch p.Last().String() {
	case ".BaseLayer", ".Pad", ".Body":
		return true
	}
	return false
}, cmp.Ignore())

type truncFeedback bool

func (f *truncFeedback) SetTruncated() { *f = true }

// TestMACControlLayouts takes frames with and without padding and FCS,
// PAUSE, PFC and opaque opcodes through the layer: Contents is the
// opcode and its fields, Payload empty, the fields pfc.MACControl.Decode's,
// and SerializeTo and gopacket.SerializeLayers re-encode byte for byte
// (Ethernet pads short frames to 60).
func TestMACControlLayouts(t *testing.T) {
	pfcBody := unhex(t, vecPFC)[pfc.EthernetHeaderLen:]
	pause := unhex(t, vecPause)[pfc.EthernetHeaderLen:]
	fcs := []byte{0xde, 0xad, 0xbe, 0xef}
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	mpcp := unhex(t, "0002"+"12345678"+"aabbccdd") // GATE: timestamp and more
	pfcWant := pfc.MACControl{Opcode: pfc.OpcodePFC, PriorityEnableVector: 0x88, Time: [8]uint16{3: 0xffff, 7: 0x1234}}
	pauseWant := pfc.MACControl{Opcode: pfc.OpcodePause, PauseTime: 0xffff}
	tests := []struct {
		name     string
		body     []byte
		want     pfc.MACControl
		contents int // len(Contents)
	}{
		{"PFC padded", pfcBody, pfcWant, pfc.PFCLen},
		{"PFC unpadded", pfcBody[:pfc.PFCLen], pfcWant, pfc.PFCLen},
		{"PFC padded with FCS", cat(pfcBody, fcs), pfcWant, pfc.PFCLen},
		{"PFC reserved bits and non-zero pad", unhex(t, "0101ff01000100020003000400050006000700087777"),
			pfc.MACControl{Opcode: pfc.OpcodePFC, PriorityEnableVector: 0xff01, Time: [8]uint16{1, 2, 3, 4, 5, 6, 7, 8}}, pfc.PFCLen},
		{"PAUSE padded", pause, pauseWant, pfc.PauseLen},
		{"PAUSE unpadded with FCS", cat(pause[:pfc.PauseLen], fcs), pauseWant, pfc.PauseLen},
		{"GATE opaque", mpcp, pfc.MACControl{Opcode: pfc.OpcodeGate}, pfc.OpcodeLen},
		{"opcode only", unhex(t, "0007"), pfc.MACControl{Opcode: 7}, pfc.OpcodeLen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m googlelayers.MACControl
			m.Contents, m.Payload = []byte{1}, []byte{2} // must not survive
			if err := m.DecodeFromBytes(tt.body, nil); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, m.MACControl, ignoreMACSlices); d != "" {
				t.Errorf("decode (-want +got):\n%s", d)
			}
			if !bytes.Equal(m.Contents, tt.body[:tt.contents]) || len(m.Contents) != tt.contents {
				t.Errorf("Contents = %x, want %x", m.Contents, tt.body[:tt.contents])
			}
			if len(m.Payload) != 0 || m.LayerPayload() != nil {
				t.Errorf("Payload = %x, want none", m.Payload)
			}
			if m.NextLayerType() != gopacket.LayerTypeZero || m.LayerType() != googlelayers.LayerTypeMACControl {
				t.Errorf("NextLayerType = %v, LayerType = %v", m.NextLayerType(), m.LayerType())
			}
			buf := gopacket.NewSerializeBuffer()
			if err := m.SerializeTo(buf, gopacket.SerializeOptions{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), tt.body) {
				t.Errorf("SerializeTo:\n got %x\nwant %x", buf.Bytes(), tt.body)
			}
			frame := append(unhex(t, "0180c2000001020000000001"+"8808"), tt.body...)
			pkt := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.NoCopy)
			if el := pkt.ErrorLayer(); el != nil {
				t.Fatalf("gopacket: %v", el.Error())
			}
			mc, ok := pkt.Layer(googlelayers.LayerTypeMACControl).(*googlelayers.MACControl)
			if !ok {
				t.Fatalf("no MACControl layer in %v", pkt)
			}
			if d := cmp.Diff(tt.want, mc.MACControl, ignoreMACSlices); d != "" {
				t.Errorf("gopacket decode (-want +got):\n%s", d)
			}
			if n := len(pkt.Layers()); n != 2 {
				t.Errorf("gopacket found %d layers, want 2: %v", n, pkt)
			}
			buf = gopacket.NewSerializeBuffer()
			eth := pkt.Layer(layers.LayerTypeEthernet).(*layers.Ethernet)
			if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true}, eth, mc); err != nil {
				t.Fatal(err)
			}
			want := frame
			if len(want) < pfc.MinFrameLen {
				want = append(want, make([]byte, pfc.MinFrameLen-len(want))...)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("SerializeLayers:\n got %x\nwant %x", buf.Bytes(), want)
			}
		})
	}
	// SerializeTo refuses what AppendTo refuses.
	bad := googlelayers.MACControl{MACControl: pfc.MACControl{Opcode: pfc.OpcodePFC, Body: []byte{1}}}
	if err := bad.SerializeTo(gopacket.NewSerializeBuffer(), gopacket.SerializeOptions{}); !errors.Is(err, pfc.ErrBadValue) {
		t.Errorf("SerializeTo of a PFC frame with a Body: %v, want pfc.ErrBadValue", err)
	}
}

// TestMACControlTruncated cuts the frames at every length short of what
// their opcode needs: DecodeFromBytes tells its feedback and clears the
// layer, and gopacket.NewPacket ends in an error layer, not a panic.
func TestMACControlTruncated(t *testing.T) {
	for _, tc := range []struct {
		name string
		body []byte
		need int
	}{
		{"PFC", unhex(t, vecPFC)[pfc.EthernetHeaderLen:], pfc.PFCLen},
		{"PAUSE", unhex(t, vecPause)[pfc.EthernetHeaderLen:], pfc.PauseLen},
	} {
		for n := 0; n < tc.need; n++ {
			m := googlelayers.MACControl{BaseLayer: layers.BaseLayer{Contents: []byte{1}}}
			var df truncFeedback
			body := bytes.Clone(tc.body[:n])
			err := m.DecodeFromBytes(body, &df)
			if !errors.Is(err, pfc.ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s cut to %d bytes: err = %v, want pfc.ErrTruncated", tc.name, n, err)
				continue
			}
			if !df {
				t.Errorf("%s cut to %d bytes: SetTruncated not called", tc.name, n)
			}
			if m.Contents != nil {
				t.Errorf("%s cut to %d bytes: Contents %x left", tc.name, n, m.Contents)
			}
			if n == 0 { // gopacket stops quietly at an empty payload
				continue
			}
			frame := append(unhex(t, "0180c2000001020000000001"+"8808"), body...)
			pkt := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
			if pkt.ErrorLayer() == nil || !errors.Is(pkt.ErrorLayer().Error(), pfc.ErrTruncated) {
				t.Errorf("%s cut to %d bytes: gopacket error layer %v", tc.name, n, pkt.ErrorLayer())
			}
		}
	}
}

// TestMACControlParser decodes through a DecodingLayerParser, and
// checks a sweep of PFC frames decodes as pfc.MACControl.Decode does.
func TestMACControlParser(t *testing.T) {
	var (
		eth     layers.Ethernet
		mc      googlelayers.MACControl
		decoded = make([]gopacket.LayerType, 0, 4)
	)
	p := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &mc)
	for _, v := range []string{vecPFC, vecPause} {
		frame := unhex(t, v)
		if err := p.DecodeLayers(frame, &decoded); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]gopacket.LayerType{layers.LayerTypeEthernet, googlelayers.LayerTypeMACControl}, decoded); d != "" {
			t.Errorf("decoded (-want +got):\n%s", d)
		}
		if got, err := mc.AppendTo(bytes.Clone(eth.Contents)); err != nil || !bytes.Equal(got, frame) {
			t.Errorf("re-encode:\n got %x, %v\nwant %x", got, err, frame)
		}
	}
	if mc.Opcode != pfc.OpcodePause || mc.PauseTime != 0xffff {
		t.Errorf("last decode %+v", mc)
	}
	err := p.DecodeLayers(unhex(t, vecPFC)[:30], &decoded)
	if !errors.Is(err, pfc.ErrTruncated) || !p.Truncated {
		t.Errorf("cut PFC: err %v, Truncated %v", err, p.Truncated)
	}
	for v := range 256 {
		frame := pfc.AppendPFC(nil, [6]byte{2}, pfc.Priorities(v), [8]uint16{uint16(v), 1, 2, 3, 4, 5, 6, uint16(v) << 8})
		var want pfc.MACControl
		require.NoError(t, want.Decode(frame[pfc.EthernetHeaderLen:]))
		require.NoError(t, p.DecodeLayers(frame, &decoded))
		require.Equal(t, want, mc.MACControl)
	}
}

// TestMACControlNoAllocs: the layer's decoding and serializing allocate
// nothing, as the codec's do.
func TestMACControlNoAllocs(t *testing.T) {
	pfcFrame := unhex(t, vecPFC)
	pauseFrame := unhex(t, vecPause)
	short := pfcFrame[pfc.EthernetHeaderLen : pfc.EthernetHeaderLen+7]
	var (
		m       googlelayers.MACControl
		eth     layers.Ethernet
		mc      googlelayers.MACControl
		decoded = make([]gopacket.LayerType, 0, 4)
		sb      = gopacket.NewSerializeBuffer()
	)
	parser := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &mc)
	var d googlelayers.MACControl
	require.NoError(t, d.DecodeFromBytes(pfcFrame[pfc.EthernetHeaderLen:], nil))
	for _, tt := range []struct {
		name string
		f    func() error
	}{
		{"DecodeFromBytes PFC", func() error {
			return m.DecodeFromBytes(pfcFrame[pfc.EthernetHeaderLen:], gopacket.NilDecodeFeedback)
		}},
		{"DecodeFromBytes PAUSE nil feedback", func() error { return m.DecodeFromBytes(pauseFrame[pfc.EthernetHeaderLen:], nil) }},
		{"DecodeFromBytes truncated", func() error {
			if err := m.DecodeFromBytes(short, nil); !errors.Is(err, pfc.ErrTruncated) {
				return fmt.Errorf("short body: %v, want ErrTruncated", err)
			}
			return nil
		}},
		{"DecodingLayerParser PFC", func() error { return parser.DecodeLayers(pfcFrame, &decoded) }},
		{"DecodingLayerParser PAUSE", func() error { return parser.DecodeLayers(pauseFrame, &decoded) }},
		{"SerializeTo", func() error {
			if err := sb.Clear(); err != nil {
				return err
			}
			if err := d.SerializeTo(sb, gopacket.SerializeOptions{}); err != nil {
				return err
			}
			if len(sb.Bytes()) != d.Len() {
				return fmt.Errorf("wrote %d bytes, want %d", len(sb.Bytes()), d.Len())
			}
			return nil
		}},
	} {
		require.NoError(t, tt.f(), tt.name)
		var err error
		n := testing.AllocsPerRun(100, func() {
			if e := tt.f(); e != nil {
				err = e
			}
		})
		assert.NoError(t, err, tt.name)
		assert.Zero(t, n, "%s: allocations per run", tt.name)
	}
}

func BenchmarkMACControlParser(b *testing.B) {
	frame := unhex(b, vecPFC)
	var (
		eth     layers.Ethernet
		mc      googlelayers.MACControl
		decoded = make([]gopacket.LayerType, 0, 4)
	)
	p := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &mc)
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if err := p.DecodeLayers(frame, &decoded); err != nil {
			b.Fatal(err)
		}
	}
}
