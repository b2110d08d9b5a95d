package mad_test

import (
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// The benchmarks decode the golden MADs; BenchmarkBTHBaseline decodes the
// BTH of the same native packet, the baseline to quote ratios against.

func benchGolden(b *testing.B, i int) []byte {
	b.Helper()
	return readSMPGolden(b)[i].bytes
}

func BenchmarkBTHBaseline(b *testing.B) {
	pkt := nativeMADPacket(b, benchGolden(b, 1), 1)[ib.LRHLen:]
	var h googlelayers.BTH
	b.ReportAllocs()
	for b.Loop() {
		if err := h.DecodeFromBytes(pkt, gopacket.NilDecodeFeedback); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSMPDirectedDecode(b *testing.B) {
	m := benchGolden(b, 1)
	var s mad.SMPDirected
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Decode(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSMPDirectedSMInfoDecode(b *testing.B) {
	m := benchGolden(b, 1)
	var s mad.SMPDirected
	var info mad.SMInfo
	b.ReportAllocs()
	for b.Loop() {
		if s.Decode(m) != nil || info.Decode(s.Data[:]) != nil {
			b.Fatal("decode")
		}
	}
}

func BenchmarkPortInfoDecode(b *testing.B) {
	m := benchGolden(b, 4)
	var s mad.SMP
	var p mad.PortInfo
	b.ReportAllocs()
	for b.Loop() {
		if s.Decode(m) != nil || p.Decode(s.Data[:]) != nil {
			b.Fatal("decode")
		}
	}
}

func BenchmarkPortInfoAppend(b *testing.B) {
	var p mad.PortInfo
	if err := p.Decode(benchGolden(b, 4)[64:]); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, mad.SMPDataLen)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.AppendTo(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPortCountersDecode(b *testing.B) {
	m := benchGolden(b, 8)
	var pm mad.PerfMgt
	var c mad.PortCounters
	b.ReportAllocs()
	for b.Loop() {
		if pm.Decode(m) != nil || c.Decode(pm.Data[:]) != nil {
			b.Fatal("decode")
		}
	}
}

func BenchmarkSMPDirectedAppend(b *testing.B) {
	var s mad.SMPDirected
	if err := s.Decode(benchGolden(b, 1)); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, mad.Len)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.AppendTo(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
