package roce_test

import (
	"testing"

	"github.com/google/gopacket"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocev2"
)

// TestNoAllocs asserts the allocation contract: a count, not a time.
func TestNoAllocs(t *testing.T) {
	write := benchWrite()
	frame, err := write.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := rocev2.ToRoCEv1(nil, frame)
	if err != nil {
		t.Fatal(err)
	}
	v6, err := rocev2.FromRoCEv1(nil, vec(t, "v1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var (
		f       roce.Frame
		l       roce.Layers
		parser  = l.Parser()
		decoded = make([]gopacket.LayerType, 0, 16)
		buf     = make([]byte, 0, 16384)
		p       ib.Packet
	)
	for _, c := range []struct {
		name string
		fn   func() error
	}{
		{"DecodingLayerParser RoCEv2/IPv4", func() error { return parser.DecodeLayers(frame, &decoded) }},
		{"DecodingLayerParser RoCEv1", func() error { return parser.DecodeLayers(v1, &decoded) }},
		{"DecodingLayerParser RoCEv2/IPv6", func() error { return parser.DecodeLayers(v6, &decoded) }},
		{"Frame.Decode", func() error { return f.Decode(frame) }},
		{"Frame.Decode RoCEv1", func() error { return f.Decode(v1) }},
		{"Frame.VerifyICRC", func() error { _ = f.Decode(frame); return f.VerifyICRC() }},
		{"Packet.Decode", func() error { return p.Decode(frame[42:]) }},
		{"ComputeICRC", func() error { _, err := ib.ComputeICRC(ib.RoCEv2IPv4, frame[14:]); return err }},
		{"VerifyICRC", func() error { return ib.VerifyICRC(ib.RoCEv2IPv4, frame[14:]) }},
		{"VerifyICRC bad", func() error {
			frame[len(frame)-1] ^= 1
			err := ib.VerifyICRC(ib.RoCEv2IPv4, frame[14:])
			frame[len(frame)-1] ^= 1
			if err == nil {
				t.Fatal("bad ICRC accepted")
			}
			return nil
		}},
		{"VerifyFrame", func() error { return roce.VerifyFrame(frame) }},
		{"FixICRC", func() error { return roce.FixICRC(frame) }},
		{"Frame.AppendTo", func() error { _, err := write.AppendTo(buf[:0]); return err }},
		{"Packet.AppendTo", func() error { _, err := write.Packet.AppendTo(buf[:0]); return err }},
		{"rocev2.ToRoCEv1", func() error { _, err := rocev2.ToRoCEv1(buf[:0], frame); return err }},
		{"rocev2.FromRoCEv1", func() error { _, err := rocev2.FromRoCEv1(buf[:0], v1, 0); return err }},
	} {
		var err error
		n := testing.AllocsPerRun(100, func() {
			if e := c.fn(); e != nil {
				err = e
			}
		})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", c.name, n)
		}
	}
}
