package rocelayers_test

import (
	"errors"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/rocelayers"
)

// TestShortInputNilFeedback holds the decoding contract for the layers of
// this package and its UDP: a nil DecodeFeedback is accepted, and every
// input shorter than the header gives an error matching ib.ErrTruncated.
func TestShortInputNilFeedback(t *testing.T) {
	var l rocelayers.Layers
	for _, d := range l.DecodingLayers() {
		switch d.(type) {
		case *layers.Ethernet, *layers.Dot1Q, *layers.IPv4, *layers.IPv6, *gopacket.Payload:
			continue // the fork's own
		}
		for n := 0; n < 2; n++ {
			l.MAD.AttributeID = mad.AttrConnectRequest // CM decodes what its MAD names
			if err := d.DecodeFromBytes(make([]byte, n), nil); !errors.Is(err, ib.ErrTruncated) {
				t.Errorf("%T of %d bytes: %v", d, n, err)
			}
		}
	}
}

// TestUDPDispatch checks RoCEv2's rule in the fork: destination port 4791
// leads to a BTH, source port 4791 alone does not, and a Length of 1 to 7
// is refused with ib.ErrBadLength.
func TestUDPDispatch(t *testing.T) {
	for _, c := range []struct {
		src, dst uint16
		want     gopacket.LayerType
	}{
		{49152, 4791, rocelayers.LayerTypeBTH},
		{4791, 49152, gopacket.LayerTypePayload},
		{4791, 53, layers.LayerTypeDNS},
		{53, 49152, layers.LayerTypeDNS},
	} {
		var u rocelayers.UDP
		hdr := []byte{byte(c.src >> 8), byte(c.src), byte(c.dst >> 8), byte(c.dst), 0, 8, 0, 0}
		if err := u.DecodeFromBytes(hdr, nil); err != nil {
			t.Fatal(err)
		}
		if got := u.NextLayerType(); got != c.want {
			t.Errorf("%d -> %d: %v, want %v", c.src, c.dst, got, c.want)
		}
	}
	var u rocelayers.UDP
	if err := u.DecodeFromBytes([]byte{0, 1, 0x12, 0xb7, 0, 7, 0, 0}, nil); !errors.Is(err, ib.ErrBadLength) {
		t.Errorf("Length 7: %v", err)
	}
}
