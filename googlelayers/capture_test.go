package googlelayers_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
)

// captureDir holds the real captures described in
// testdata/captures/README.md.
const captureDir = "../testdata/captures"

// readCapture returns the link type and the frames of a pcap file.
func readCapture(t *testing.T, name string) (layers.LinkType, [][]byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(captureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var frames [][]byte
	for {
		data, ci, err := r.ReadPacketData()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s frame %d: %v", name, len(frames)+1, err)
		}
		if ci.CaptureLength != ci.Length {
			t.Errorf("%s frame %d: truncated capture (%d of %d bytes)", name, len(frames)+1, ci.CaptureLength, ci.Length)
		}
		frames = append(frames, data)
	}
	return r.LinkType(), frames
}

// ERF (Extensible Record Format) record header, as Endace documents it:
// 8-byte little-endian timestamp, type (bit 7: an extension header
// follows), flags (bits 0-1: capture interface), rlen, lctr, wlen (all
// big-endian 16-bit).
const (
	erfHeaderLen      = 16
	erfTypeInfiniBand = 21
	erfTypeExt        = 0x80
	linkTypeERF       = 197
)

// erfPayload returns the InfiniBand packet of one ERF record and its
// capture interface.
func erfPayload(rec []byte) (pkt []byte, iface int, err error) {
	if len(rec) < erfHeaderLen {
		return nil, 0, fmt.Errorf("ERF record of %d bytes", len(rec))
	}
	typ, flags := rec[8], rec[9]
	if typ&0x7f != erfTypeInfiniBand {
		return nil, 0, fmt.Errorf("ERF type %d, want %d (InfiniBand)", typ&0x7f, erfTypeInfiniBand)
	}
	off := erfHeaderLen
	for more := typ&erfTypeExt != 0; more; {
		if len(rec) < off+8 {
			return nil, 0, fmt.Errorf("ERF extension header truncated")
		}
		more = rec[off]&0x80 != 0
		off += 8
	}
	wlen := int(binary.BigEndian.Uint16(rec[14:]))
	pkt = rec[off:]
	if len(pkt) > wlen {
		pkt = pkt[:wlen] // ERF pads records to 8 bytes
	}
	return pkt, int(flags & 3), nil
}

// wantMap fails unless got and want hold the same counts (a nil want is
// an empty one).
func wantMap[K comparable, M ~map[K]int](t *testing.T, what string, got, want M) {
	t.Helper()
	if !maps.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// TestCaptureNativeIB decodes the ERF InfiniBand capture with the ib
// layers: LRH, an optional GRH, BTH and the extended headers. The native
// IB ICRC and VCRC are not checked: native IB masks the LRH VL, not a
// stand-in of eight 0xFF bytes, and the VCRC is a CRC-16 over the whole
// packet; package ib implements the RoCE variant only.
func TestCaptureNativeIB(t *testing.T) {
	lt, frames := readCapture(t, "ib_native_erf_dag_smp_ipoib_cm.pcap")
	if lt != linkTypeERF {
		t.Fatalf("link type %d, want %d (ERF)", lt, linkTypeERF)
	}
	// testdata/captures/README.md: 43 frames, 6 with a GRH, opcodes UD
	// SEND Only x24, RC SEND Only x10, RC Acknowledge x9; two ports.
	if len(frames) != 43 {
		t.Errorf("%d frames, want 43", len(frames))
	}
	want := map[ib.Opcode]int{ib.OpUDSendOnly: 24, ib.OpRCSendOnly: 10, ib.OpRCAcknowledge: 9}
	opcodes := map[ib.Opcode]int{}
	ifaces := map[int]int{}
	nGRH := 0
	var ibl googlelayers.Layers
	parser := gopacket.NewDecodingLayerParser(googlelayers.LayerTypeLRH, ibl.DecodingLayers()...)
	var decoded []gopacket.LayerType
	for i, rec := range frames {
		n := i + 1
		data, iface, err := erfPayload(rec)
		if err != nil {
			t.Errorf("frame %d: %v", n, err)
			continue
		}
		ifaces[iface]++
		pkt := gopacket.NewPacket(data, googlelayers.LayerTypeLRH, gopacket.Default)
		if el := pkt.ErrorLayer(); el != nil {
			t.Errorf("frame %d: %v", n, el.Error())
			continue
		}
		lrh, _ := pkt.Layer(googlelayers.LayerTypeLRH).(*googlelayers.LRH)
		bth, _ := pkt.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
		if lrh == nil || bth == nil {
			t.Errorf("frame %d: layers %v, want LRH and BTH", n, pkt.Layers())
			continue
		}
		if got := int(lrh.PktLen)*4 + 2; got != len(data) {
			t.Errorf("frame %d: LRH PktLen %d words + VCRC = %d bytes, ERF wlen %d", n, lrh.PktLen, got, len(data))
		}
		if vcrc := binary.BigEndian.Uint16(data[len(data)-2:]); lrh.VCRC != vcrc {
			t.Errorf("frame %d: VCRC %#04x, last two bytes %#04x", n, lrh.VCRC, vcrc)
		}
		if pkt.Layer(googlelayers.LayerTypeGRH) != nil {
			nGRH++
			if lrh.LNH != ib.LNHIBAGlobal {
				t.Errorf("frame %d: GRH with LNH %d", n, lrh.LNH)
			}
		} else if lrh.LNH != ib.LNHIBALocal {
			t.Errorf("frame %d: no GRH, LNH %d", n, lrh.LNH)
		}
		if bth.OpCode.Transport() == ib.UD {
			if d, _ := pkt.Layer(googlelayers.LayerTypeDETH).(*googlelayers.DETH); d == nil {
				t.Errorf("frame %d: %v without DETH", n, bth.OpCode)
			}
		}
		if bth.OpCode == ib.OpRCAcknowledge && pkt.Layer(googlelayers.LayerTypeAETH) == nil {
			t.Errorf("frame %d: ACK without AETH", n)
		}
		opcodes[bth.OpCode]++

		// The DecodingLayerParser over the same bytes must agree.
		if err := parser.DecodeLayers(data, &decoded); err != nil {
			t.Errorf("frame %d: DecodingLayerParser: %v (decoded %v)", n, err, decoded)
		} else if ibl.BTH.OpCode != bth.OpCode || ibl.BTH.DestQP != bth.DestQP || ibl.BTH.PSN != bth.PSN || ibl.BTH.ICRC != bth.ICRC {
			t.Errorf("frame %d: parser BTH %v/%#x/%d, NewPacket %v/%#x/%d", n,
				ibl.BTH.OpCode, ibl.BTH.DestQP, ibl.BTH.PSN, bth.OpCode, bth.DestQP, bth.PSN)
		}
	}
	wantMap(t, "frames per opcode", opcodes, want)
	if nGRH != 6 {
		t.Errorf("%d frames with a GRH, want 6", nGRH)
	}
	if len(ifaces) != 2 {
		t.Errorf("capture interfaces %v, want two ports", ifaces)
	}
	t.Logf("%d frames, %d with GRH, opcodes %v, per port %v", len(frames), nGRH, opcodes, ifaces)
}
