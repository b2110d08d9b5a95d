package gen

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce/capfile"
)

// recorder is a PacketWriter keeping copies of what it is given.
type recorder struct {
	frames [][]byte
	fail   int // fail the write of this frame number (from 1); 0: never
	stop   chan struct{}
	stopAt int // close stop after this many frames
}

func (r *recorder) WritePacketData(b []byte) error {
	if len(r.frames)+1 == r.fail {
		return errors.New("write failed")
	}
	r.frames = append(r.frames, append([]byte(nil), b...))
	if r.stopAt > 0 && len(r.frames) == r.stopAt {
		close(r.stop)
	}
	return nil
}

func fileFrames(t *testing.T, cfg Config) [][]byte {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := Write(&buf, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	r, err := pcapgo.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	for {
		d, _, err := r.ReadPacketData()
		if err != nil {
			return frames
		}
		frames = append(frames, d)
	}
}

// TestSendLoops: Send hands the writer the frames Write puts in a file,
// in order, once per loop.
func TestSendLoops(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Op, cfg.Size, cfg.MTU, cfg.QPs, cfg.CEEvery = OpRead, 8<<10, 1024, 2, 3
	want := fileFrames(t, cfg)
	var w recorder
	next := func() (*Generator, error) { return New(cfg) }
	st, err := Send(&w, next, SendOptions{Loops: 3})
	if err != nil {
		t.Fatal(err)
	}
	if st.Loops != 3 || st.Frames != 3*len(want) || len(w.frames) != st.Frames {
		t.Fatalf("stats %+v, %d frames written; want 3 loops of %d", st, len(w.frames), len(want))
	}
	bytesWant, bits := 0, uint64(0)
	for i, f := range w.frames {
		if !bytes.Equal(f, want[i%len(want)]) {
			t.Fatalf("frame %d differs from the file's %d", i+1, i%len(want)+1)
		}
		bytesWant += len(f)
		bits += uint64(max(len(f)+4, 64)+20) * 8
	}
	if st.Bytes != bytesWant || st.WireBits != bits {
		t.Errorf("Bytes %d, WireBits %d; want %d, %d", st.Bytes, st.WireBits, bytesWant, bits)
	}
}

// TestSendStopAndErrors: a closed Stop ends Send after the frame being
// sent; a writer's error ends it with the frames before.
func TestSendStopAndErrors(t *testing.T) {
	cfg := DefaultConfig()
	next := func() (*Generator, error) { return New(cfg) }
	w := recorder{stop: make(chan struct{}), stopAt: 40}
	st, err := Send(&w, next, SendOptions{Loops: 0, Stop: w.stop})
	if err != nil || st.Frames != 40 || st.Loops != 2 {
		t.Errorf("stopped: %+v, %v; want 40 frames in the third loop (2 done)", st, err)
	}
	w = recorder{fail: 5}
	if st, err := Send(&w, next, SendOptions{Loops: 1}); err == nil || st.Frames != 4 {
		t.Errorf("failing writer: %+v, %v; want 4 frames and the error", st, err)
	}
	bad := errors.New("no scenario")
	if _, err := Send(&w, func() (*Generator, error) { return nil, bad }, SendOptions{}); err != bad {
		t.Errorf("next's error: %v", err)
	}
}

// TestPacketRate: rate=NNNpps lays the frames 1/NNN s apart, whatever
// their length, and the option reads back.
func TestPacketRate(t *testing.T) {
	cfg := DefaultConfig()
	if err := cfg.Set("rate", "250kpps"); err != nil {
		t.Fatal(err)
	}
	if cfg.PacketRate != 250_000 || cfg.Get("rate") != "250000pps" {
		t.Fatalf("PacketRate %d, Get %q", cfg.PacketRate, cfg.Get("rate"))
	}
	cfg.Op, cfg.Messages, cfg.Size = OpSend, 10, 64 // UD SEND: no responses
	if err := cfg.Set("transport", "ud"); err != nil {
		t.Fatal(err)
	}
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var prev time.Time
	for i := 0; g.Next(); i++ {
		if i > 0 && g.Time().Sub(prev) != 4*time.Microsecond {
			t.Fatalf("frame %d: %v after the one before, want 4µs", i+1, g.Time().Sub(prev))
		}
		if g.Free().Sub(g.Time()) != 4*time.Microsecond {
			t.Fatalf("frame %d: the wire is free %v after it, want 4µs", i+1, g.Free().Sub(g.Time()))
		}
		prev = g.Time()
	}
	if err := cfg.Set("rate", "25G"); err != nil || cfg.PacketRate != 0 || cfg.Rate != 25e9 {
		t.Errorf("rate=25G after a packet rate: %v, PacketRate %d, Rate %d", err, cfg.PacketRate, cfg.Rate)
	}
	for _, bad := range []string{"0pps", "1.5pps", "2Gpps", "pps", "10k", "xpps"} {
		if err := cfg.Set("rate", bad); err == nil {
			t.Errorf("rate=%s accepted", bad)
		}
	}
	for v, want := range map[string]uint64{"1pps": 1, "5000pps": 5000, "10kpps": 10_000, "1.5Mpps": 1_500_000, "1Gpps": 1e9} {
		if err := cfg.Set("rate", v); err != nil || cfg.PacketRate != want {
			t.Errorf("rate=%s: %v, PacketRate %d, want %d", v, err, cfg.PacketRate, want)
		}
	}
}

// TestPacerStop: a long wait ends as soon as stop is closed.
func TestPacerStop(t *testing.T) {
	p := NewPacer()
	stop := make(chan struct{})
	go func() { time.Sleep(10 * time.Millisecond); close(stop) }()
	if p.Wait(time.Hour, stop) {
		t.Fatal("Wait of an hour returned true")
	}
	if p.Elapsed() > 10*time.Second {
		t.Fatal("stop did not end the wait")
	}
	if !p.Wait(0, nil) {
		t.Fatal("a deadline past did not return at once")
	}
}

// batcher is a recorder that takes batches too.
type batcher struct {
	recorder
	batches []int
}

func (b *batcher) WritePacketBatch(frames [][]byte) (int, error) {
	b.batches = append(b.batches, len(frames))
	for i, f := range frames {
		if err := b.WritePacketData(f); err != nil {
			return i, err
		}
	}
	return len(frames), nil
}

// TestSendBatches: frames due together (at the default 100 Gb/s every
// frame is due before the one before is sent) go to a BatchWriter in
// batches of up to 32, in order; a failed batch counts what was sent.
func TestSendBatches(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Op, cfg.Size, cfg.MTU = OpWrite, 64<<10, 256 // 256 WRITEs and an ACK
	want := fileFrames(t, cfg)
	next := func() (*Generator, error) { return New(cfg) }
	var b batcher
	st, err := Send(&b, next, SendOptions{Loops: 1})
	if err != nil || st.Frames != len(want) {
		t.Fatalf("%+v, %v; want %d frames", st, err, len(want))
	}
	for i := range want {
		if !bytes.Equal(b.frames[i], want[i]) {
			t.Fatalf("frame %d differs from the file's", i+1)
		}
	}
	most := 0
	for _, n := range b.batches {
		most = max(most, n)
	}
	if most < 2 || most > 32 {
		t.Errorf("batches %v: want some of 2 to 32 frames", b.batches)
	}
	b = batcher{recorder: recorder{fail: 40}}
	if st, err := Send(&b, next, SendOptions{Loops: 1}); err == nil || st.Frames != 39 {
		t.Errorf("failing writer: %+v, %v; want 39 frames and the error", st, err)
	}
}
