package samegoogle_test

import (
	"errors"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/rocelayers"
)

// TestVerifyChecksums checks that Packet.VerifyChecksums of the fork
// checks the ICRC through the BTH, as roce.VerifyFrame does, on every
// RoCE frame of the captures and on each with its last ICRC byte
// flipped, and that VerifyPacket agrees with roce.VerifyFrame.
func TestVerifyChecksums(t *testing.T) {
	checked, viaPacket := 0, 0
	for _, c := range captures(t) {
		_, first := c.starts()
		for i, data := range c.frames {
			for _, damage := range []bool{false, true} {
				frame := append([]byte(nil), data...)
				p := gopacket.NewPacket(frame, first, gopacket.Default)
				bth, ok := p.Layer(rocelayers.LayerTypeBTH).(*rocelayers.BTH)
				if !ok || bth.Truncated {
					break
				}
				end := cap(p.Data()) - cap(bth.Contents) + len(bth.Contents) + len(bth.Payload) + len(bth.Pad) + ib.ICRCLen
				if damage {
					p.Data()[end-1] ^= 0x80 // the ICRC's last byte
				}
				want := expected(c.native, p.Data()[:end])
				err, res := bth.VerifyChecksum()
				if err != nil {
					t.Fatalf("%s frame %d: %v", c.name, i+1, err)
				}
				if !res.Valid != (want != nil) || !res.Valid != damage {
					t.Fatalf("%s frame %d (damaged %v): %+v, roce says %v", c.name, i+1, damage, res, want)
				}
				// Packet.VerifyChecksums lists the BTH among its mismatches.
				// The fork's UDP and TCP layers check their checksums only
				// once told their IP header.
				if err := setNetworkLayers(p); err != nil {
					t.Fatal(err)
				}
				if err, bad := p.VerifyChecksums(); err != nil {
					t.Fatalf("%s frame %d: %v", c.name, i+1, err)
				} else {
					listed := false
					for _, m := range bad {
						listed = listed || m.Layer.LayerType() == rocelayers.LayerTypeBTH
					}
					if listed != damage {
						t.Fatalf("%s frame %d (damaged %v): VerifyChecksums %+v", c.name, i+1, damage, bad)
					}
					viaPacket++
				}
				if !c.native {
					if got := rocelayers.VerifyPacket(p); (got == nil) != (want == nil) {
						t.Fatalf("%s frame %d: VerifyPacket %v, VerifyFrame %v", c.name, i+1, got, want)
					}
				}
				checked++
			}
		}
	}
	t.Logf("%d ICRCs checked through BTH.VerifyChecksum, %d of them in Packet.VerifyChecksums", checked, viaPacket)
	if checked < 8000 || viaPacket != checked {
		t.Errorf("only %d ICRCs checked", checked)
	}
}

// setNetworkLayers tells each layer of p that checks a checksum over a
// pseudo-header (UDP, TCP, ICMPv6) the IPv4 or IPv6 layer in front of it
// (a native IPoIB packet's network layer is its GRH).
func setNetworkLayers(p gopacket.Packet) error {
	var ip gopacket.NetworkLayer
	for _, l := range p.Layers() {
		switch l := l.(type) {
		case *layers.IPv4:
			ip = l
		case *layers.IPv6:
			ip = l
		case interface {
			SetNetworkLayerForChecksum(gopacket.NetworkLayer) error
		}:
			if err := l.SetNetworkLayerForChecksum(ip); err != nil {
				return err
			}
		}
	}
	return nil
}

// expected is the verdict of package ib or roce on a frame, or on a
// native packet from its LRH through its ICRC.
func expected(native bool, frame []byte) error {
	if native {
		return ib.VerifyNativeICRC(frame)
	}
	return roce.VerifyFrame(frame)
}

// TestVerifyChecksumParser checks that a BTH a DecodingLayerParser
// decoded, which knows no packet, says so rather than guessing.
func TestVerifyChecksumParser(t *testing.T) {
	var b rocelayers.BTH
	if err, _ := b.VerifyChecksum(); !errors.Is(err, ib.ErrUnsupported) {
		t.Fatalf("VerifyChecksum without a packet: %v", err)
	}
}
