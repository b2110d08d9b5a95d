package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/ipoib"
)

// TestLinkTypeIPoIB: a capture of link type 242, which rocedump once
// refused with exit status 2, prints IPoIB lines and exits 0; with
// -stats it counts no unsupported frame.
func TestLinkTypeIPoIB(t *testing.T) {
	lh := ipoib.LinkHeader{IPVer: 6, SrcQP: 0x405}
	rec, err := lh.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ = (&ipoib.Header{Type: ipoib.TypeIPv4}).AppendTo(rec) // a Header always encodes
	rec = append(rec, 0x45, 0, 0, 28, 0, 0, 0x40, 0, 64, 1, 0, 0, 10, 0, 1, 34, 10, 0, 0, 58, 8, 0, 0xf7, 0xff, 0, 0, 0, 0)
	var buf bytes.Buffer
	w := pcapgo.NewWriter(&buf)
	if err := w.WriteFileHeader(65535, layers.LinkType(ipoib.LinkType)); err != nil {
		t.Fatal(err)
	}
	ci := gopacket.CaptureInfo{Timestamp: time.Unix(0, 0), CaptureLength: len(rec), Length: len(rec)}
	if err := w.WritePacket(ci, rec); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ipoib.pcap")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, errs := runCmd(t, nil, path)
	want := "00:00:00.000000 :: > :: sqpn 0x000405 IPoIB IPv4 ICMP 10.0.1.34 > 10.0.0.58 len 72\n"
	if st != 0 || out != want {
		t.Errorf("status %d, stdout %q, stderr %q; want %q", st, out, errs, want)
	}
	st, out, _ = runCmd(t, nil, "-stats", path)
	if st != 0 || !strings.Contains(out, "frames 1: RoCE 0, InfiniBand 0, MAC Control 0, not RoCE 1, malformed 0, unsupported 0,") {
		t.Errorf("-stats: status %d\n%s", st, out)
	}
}
