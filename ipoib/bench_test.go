package ipoib_test

import (
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
)

// The baseline: the transport packet of the same golden frame (frame 10,
// RC SEND Only) through ib.Packet.Decode.
func BenchmarkBaselineIBPacketDecode(b *testing.B) {
	pkt := goldenRCIPv4[8 : len(goldenRCIPv4)-2]
	var p ib.Packet
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Decode(pkt); err != nil {
			b.Fatal(err)
		}
	}
}

// Match and Header.Decode on that packet's payload: what
// dump adds per native packet that carries IPoIB.
func BenchmarkMatchAndDecode(b *testing.B) {
	body := ibBody(nil, goldenRCIPv4)
	var h ipoib.Header
	b.ReportAllocs()
	for b.Loop() {
		if !ipoib.Match(ib.OpRCSendOnly, 0xfc0407, body) {
			b.Fatal("no match")
		}
		if err := h.Decode(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkARPDecode(b *testing.B) {
	arp := ibBody(nil, goldenUDARP)[4:]
	var a ipoib.ARP
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Decode(arp); err != nil {
			b.Fatal(err)
		}
	}
}
