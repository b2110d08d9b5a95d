package pfc

import (
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// TestNoAllocs enforces the allocation contract of the package doc.
func TestNoAllocs(t *testing.T) {
	pfcFrame := unhex(t, vecPFC)
	pauseFrame := unhex(t, vecPause)
	short := pfcFrame[EthernetHeaderLen : EthernetHeaderLen+7]
	var (
		m       MACControl
		eth     layers.Ethernet
		mc      MACControl
		decoded = make([]gopacket.LayerType, 0, 4)
		sink    error
		buf     = make([]byte, 0, 128)
		times   = [8]uint16{3: 0xffff, 7: 0x1234}
		sb      = gopacket.NewSerializeBuffer()
	)
	parser := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &mc)
	if err := m.DecodeFromBytes(pfcFrame[EthernetHeaderLen:], nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		f    func()
	}{
		{"DecodeFromBytes PFC", func() { sink = m.DecodeFromBytes(pfcFrame[EthernetHeaderLen:], gopacket.NilDecodeFeedback) }},
		{"DecodeFromBytes PAUSE", func() { sink = m.DecodeFromBytes(pauseFrame[EthernetHeaderLen:], nil) }},
		{"DecodeFromBytes truncated", func() { sink = m.DecodeFromBytes(short, gopacket.NilDecodeFeedback) }},
		{"DecodingLayerParser PFC", func() { sink = parser.DecodeLayers(pfcFrame, &decoded) }},
		{"DecodingLayerParser PAUSE", func() { sink = parser.DecodeLayers(pauseFrame, &decoded) }},
		{"AppendPFC", func() { buf = AppendPFC(buf[:0], testSrc, 0x88, times) }},
		{"AppendPause", func() { buf = AppendPause(buf[:0], testSrc, 0xffff) }},
		{"AppendTo", func() { buf = m.AppendTo(buf[:0]) }},
		{"SerializeTo", func() { _ = sb.Clear(); sink = m.SerializeTo(sb, gopacket.SerializeOptions{}) }},
		{"XOFF XON Quanta", func() { _, _ = m.Quanta(3); _ = m.XOFF() | m.XON() }},
		{"Speed", func() { _ = Speed100G.Quanta(Speed100G.Duration(1234)) + uint16(Speed100G.Picoseconds(7)) }},
	}
	for _, tt := range tests {
		tt.f() // warm up buffers
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", tt.name, n)
		}
	}
	_ = sink
}
