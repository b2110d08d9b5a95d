package mad

import (
	"testing"

	"github.com/google/gopacket"
)

// TestSMPPerfClasses: each row's layer type decodes a MAD of its class
// through gopacket, and names the attribute.
func TestSMPPerfClasses(t *testing.T) {
	for _, c := range []struct {
		class Class
		attr  uint16
		name  string
	}{{ClassSubnLID, 0x0015, "PortInfo"}, {ClassSubnDR, 0x0020, "SMInfo"}, {ClassPerfMgt, 0x0012, "PortCounters"}} {
		lt, name, ok := smpPerfClass(c.class)
		if !ok {
			t.Fatalf("class 0x%02x: no row", c.class)
		}
		m := make([]byte, Len)
		m[0], m[1], m[2], m[3], m[16], m[17] = 1, byte(c.class), 1, 1, byte(c.attr>>8), byte(c.attr)
		pk := gopacket.NewPacket(m, lt, gopacket.Default)
		if pk.ErrorLayer() != nil || pk.Layer(lt) == nil {
			t.Errorf("class 0x%02x: %v", c.class, pk)
		}
		if got := name(c.attr); got != c.name {
			t.Errorf("class 0x%02x attribute 0x%04x: %q, want %q", c.class, c.attr, got, c.name)
		}
	}
	if _, _, ok := smpPerfClass(ClassCM); ok {
		t.Error("CM has a row here")
	}
}
