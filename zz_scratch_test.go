package roce_test

import (
	"testing"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/wire"
)

func BenchmarkZZLocate(b *testing.B) {
	frame := benchFrame(b)
	var l wire.Layout
	for b.Loop() {
		if err := wire.Locate(frame, &l); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZZPacket(b *testing.B) {
	frame := benchFrame(b)
	var l wire.Layout
	wire.Locate(frame, &l)
	var p ib.Packet
	for b.Loop() {
		if err := p.Decode(frame[l.BTH:l.End]); err != nil {
			b.Fatal(err)
		}
	}
}
