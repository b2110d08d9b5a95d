package fuzz

import (
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
)

// flowSeedFrames returns up to n frames (and their link type) of each
// capture in testdata/captures.
func flowSeedFrames(f *testing.F, n int) (lt []uint16, frames [][]byte) {
	paths, _ := filepath.Glob("../testdata/captures/*.pcap")
	for _, p := range paths {
		fh, err := os.Open(p)
		if err != nil {
			f.Fatal(err)
		}
		src, err := capfile.NewSource(fh)
		if err != nil {
			f.Fatal(err)
		}
		for i := 0; i < n; i++ {
			data, _, l, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Fatal(err)
			}
			lt = append(lt, l)
			frames = append(frames, append([]byte(nil), data...))
		}
		fh.Close()
	}
	return lt, frames
}

// flowLinkTypes are the link types the first input byte selects.
var flowLinkTypes = [...]uint16{capfile.LinkTypeEthernet, capfile.LinkTypeLinuxSLL, capfile.LinkTypeLinuxSLL2, capfile.LinkTypeERF}

// FuzzFlowAnalysis feeds a sequence of frames (input: a link type
// selector byte, then frames each preceded by a 2-byte big-endian
// length) through dump.Record and flow.Analyzer, formatting each frame
// and the report. Invariant: nothing panics, and the flows' frame counts
// (other bucket included) add up to the RoCE and InfiniBand frames fed.
func FuzzFlowAnalysis(f *testing.F) {
	lts, frames := flowSeedFrames(f, 40)
	// Seeds: runs of consecutive frames of one capture and link type.
	for i := 0; i < len(frames); i += 8 {
		sel := byte(0)
		for k, l := range flowLinkTypes {
			if l == lts[i] {
				sel = byte(k)
			}
		}
		in := []byte{sel}
		for j := i; j < i+8 && j < len(frames) && lts[j] == lts[i]; j++ {
			in = binary.BigEndian.AppendUint16(in, uint16(len(frames[j])))
			in = append(in, frames[j]...)
		}
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 1 {
			return
		}
		lt := flowLinkTypes[int(in[0])%len(flowLinkTypes)]
		in = in[1:]
		an := flow.New(flow.Config{MaxFlows: 4})
		var rec dump.Record
		var buf []byte
		fed := uint64(0)
		for n := 1; len(in) >= 2; n++ {
			l := int(binary.BigEndian.Uint16(in))
			in = in[2:]
			if l > len(in) {
				l = len(in)
			}
			data := in[:l]
			in = in[l:]
			ci := gopacket.CaptureInfo{Timestamp: time.Unix(int64(n), 0), Length: l, CaptureLength: l}
			rec.Decode(n, ci, lt, data)
			buf = rec.AppendText(buf[:0])
			buf = rec.AppendJSON(buf[:0])
			if rec.Kind == dump.KindRoCE || rec.Kind == dump.KindInfiniBand {
				fed++
			}
			an.AddRecord(&rec)
		}
		r := an.Report()
		var sum uint64
		for _, fl := range r.Flows {
			sum += fl.Frames
		}
		if r.Other != nil {
			sum += r.Other.Frames
		}
		if sum != fed {
			t.Fatalf("flows count %d frames, %d fed", sum, fed)
		}
		if err := r.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteJSON(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}
