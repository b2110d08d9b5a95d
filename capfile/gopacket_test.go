package capfile_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/capfile"
)

// TestGopacketPacketSource: gopacket.NewPacketSource reads through a
// Source every frame Next reads, byte for byte, with its capture
// information and link type, for pcap, pcapng with several interfaces
// and link types, gzip and ERF, where pcapgo's readers take pcap or
// pcapng alone; ReadPacketData's bytes stay valid after the next call.
func TestGopacketPacketSource(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/captures/*.pcap*")
	golden, _ := filepath.Glob("../testdata/golden/*.pcap*")
	paths = append(paths, golden...)
	// pcapng with an Ethernet and a raw IP interface, gzipped too.
	var ng bytes.Buffer
	w := capfile.NewWriter(&ng, capfile.FormatPcapng, capfile.LinkTypeEthernet)
	eth := append(make([]byte, 12), 0x08, 0x00, 0x45)
	raw := []byte{0x45, 0, 0, 20}
	for i := 0; i < 3; i++ {
		w.WriteFrame(eth, len(eth), testTime(i), capfile.LinkTypeEthernet)
		w.WriteFrame(raw, len(raw), testTime(i), capfile.LinkTypeRaw)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	two := filepath.Join(dir, "two-links.pcapng")
	os.WriteFile(two, ng.Bytes(), 0o644)
	paths = append(paths, two)
	frames := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		type frame struct {
			b  []byte
			ci gopacket.CaptureInfo
			lt uint16
		}
		var want []frame
		src, err := capfile.NewSourceBytes(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for {
			b, ci, lt, err := src.Next()
			var re *capfile.ReadError
			if errors.As(err, &re) && !re.Fatal {
				continue
			} else if err != nil {
				break
			}
			want = append(want, frame{bytes.Clone(b), ci, lt})
		}
		src, _ = capfile.NewSourceBytes(data)
		ps := gopacket.NewPacketSource(src, layers.LinkTypeEthernet)
		var got []frame
		var kept [][]byte
		for {
			pk, err := ps.NextPacket()
			if err == io.EOF {
				break
			}
			var re *capfile.ReadError
			if errors.As(err, &re) && !re.Fatal {
				continue
			} else if err != nil {
				break
			}
			got = append(got, frame{pk.Data(), pk.Metadata().CaptureInfo, src.LastLinkType()})
			kept = append(kept, pk.Data())
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d packets through gopacket, %d frames through Next", filepath.Base(p), len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if !bytes.Equal(g.b, w.b) || !bytes.Equal(kept[i], w.b) || g.ci.Length != w.ci.Length || g.ci.CaptureLength != w.ci.CaptureLength ||
				!g.ci.Timestamp.Equal(w.ci.Timestamp) || g.lt != w.lt {
				t.Fatalf("%s: frame %d differs: %d bytes lt %d at %v, want %d bytes lt %d at %v", filepath.Base(p), i+1,
					len(g.b), g.lt, g.ci.Timestamp, len(w.b), w.lt, w.ci.Timestamp)
			}
		}
		frames += len(want)
	}
	if frames < 8000 { // 8,352 measured
		t.Errorf("only %d frames", frames)
	}
	t.Logf("%d frames of %d captures", frames, len(paths))
}

// testTime is the i-th second of 2026.
func testTime(i int) time.Time { return time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC) }
