package capfile_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/capfile"
)

// TestWriterOptionsLikePcapgo: a Writer given a snapshot length, an
// application and an interface name, started before its frames, writes
// the bytes gopacket's pcapgo writes for the same file (what gen wrote
// through pcapgo before it wrote through Writer), in both formats, and
// a Source reads the frames back.
func TestWriterOptionsLikePcapgo(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	frames := [][]byte{[]byte("a frame of 17 b.."), make([]byte, 60), {1, 2, 3}}
	opt := capfile.WriterOptions{LinkType: capfile.LinkTypeEthernet, Snaplen: 65535, Application: "rocegen", Interface: "rocegen"}
	for _, n := range []int{0, len(frames)} {
		var want bytes.Buffer
		pw := pcapgo.NewWriterNanos(&want)
		if err := pw.WriteFileHeader(opt.Snaplen, layers.LinkTypeEthernet); err != nil {
			t.Fatal(err)
		}
		var wantNg bytes.Buffer
		nw, err := pcapgo.NewNgWriterInterface(&wantNg, pcapgo.NgInterface{Name: "rocegen", LinkType: layers.LinkTypeEthernet, TimestampResolution: 9, SnapLength: opt.Snaplen},
			pcapgo.NgWriterOptions{SectionInfo: pcapgo.NgSectionInfo{Application: "rocegen"}})
		if err != nil {
			t.Fatal(err)
		}
		var got, gotNg bytes.Buffer
		w := capfile.NewWriterOptions(&got, capfile.FormatPcap, opt)
		wng := capfile.NewWriterOptions(&gotNg, capfile.FormatPcapng, opt)
		for _, cw := range []*capfile.Writer{w, wng} {
			if err := cw.Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, f := range frames[:n] {
			ts := t0.Add(time.Duration(i) * 1500 * time.Nanosecond)
			ci := gopacket.CaptureInfo{Timestamp: ts, CaptureLength: len(f), Length: len(f)}
			if err := pw.WritePacket(ci, f); err != nil {
				t.Fatal(err)
			}
			if err := nw.WritePacket(ci, f); err != nil {
				t.Fatal(err)
			}
			for _, cw := range []*capfile.Writer{w, wng} {
				if err := cw.WriteFrame(f, len(f), ts, capfile.LinkTypeEthernet); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := nw.Flush(); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name      string
			got, want []byte
		}{{"pcap", got.Bytes(), want.Bytes()}, {"pcapng", gotNg.Bytes(), wantNg.Bytes()}} {
			if !bytes.Equal(c.got, c.want) {
				t.Errorf("%s, %d frames:\n got % x\nwant % x", c.name, n, c.got, c.want)
				continue
			}
			src, err := capfile.NewSourceBytes(c.got)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			read := 0
			for {
				data, ci, lt, err := src.Next()
				if err != nil {
					break
				}
				if !bytes.Equal(data, frames[read]) || lt != capfile.LinkTypeEthernet || !ci.Timestamp.Equal(t0.Add(time.Duration(read)*1500*time.Nanosecond)) {
					t.Errorf("%s frame %d: %x %v %d", c.name, read+1, data, ci.Timestamp, lt)
				}
				read++
			}
			if lt, ok := src.LinkType(); read != n || !ok || lt != capfile.LinkTypeEthernet {
				t.Errorf("%s: read %d frames of %d, link type %d %v", c.name, read, n, lt, ok)
			}
		}
	}
}
