package pfc

import "testing"

// BenchmarkCopy64 is the same-run baseline: copying 64 bytes.
func BenchmarkCopy64(b *testing.B) {
	src := make([]byte, 64)
	dst := make([]byte, 64)
	b.ReportAllocs()
	b.SetBytes(64)
	for b.Loop() {
		copy(dst, src)
	}
}

func BenchmarkDecodePFC(b *testing.B) {
	frame := unhex(b, vecPFC)
	b.Run("Decode", func(b *testing.B) {
		var m MACControl
		b.ReportAllocs()
		b.SetBytes(int64(len(frame)))
		for b.Loop() {
			if err := m.Decode(frame[EthernetHeaderLen:]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkBuildPFC(b *testing.B) {
	buf := make([]byte, 0, MinFrameLen)
	times := [8]uint16{3: 0xffff, 7: 0x1234}
	b.ReportAllocs()
	b.SetBytes(MinFrameLen)
	for b.Loop() {
		buf = AppendPFC(buf[:0], testSrc, 0x88, times)
	}
}
