package flow_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// TestBatch: frames added to Batches, in runs of 1, 7 and 256 frames,
// then to an Analyzer with AddBatch give the report AddRecord gives for
// them one by one, text and JSON, on every shipped capture and on
// generated traffic with CM connections, CNPs, PFC, bad ICRCs and UD;
// the Batch keeps nothing of the Records: their Record and bytes are
// overwritten after each Add.
func TestBatch(t *testing.T) {
	var caps [][]byte
	for _, p := range testcaps.Shipped(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		caps = append(caps, b)
	}
	for _, set := range []func(c *gen.Config){
		func(c *gen.Config) {
			c.Op, c.Size, c.MTU, c.QPs, c.Messages, c.CM = gen.OpWrite, 8192, 1024, 3, 40, true
		},
		func(c *gen.Config) {
			c.Op, c.Size, c.MTU, c.QPs, c.Messages, c.CEEvery, c.PFCEvery, c.BadICRC = gen.OpRead, 4096, 1024, 4, 60, 5, 9, 0.05
		},
		func(c *gen.Config) {
			c.Transport, c.Op, c.Size, c.MTU, c.QPs, c.Messages, c.CEEvery = ib.UD, gen.OpSend, 1024, 1024, 2, 80, 3
		},
	} {
		cfg := gen.DefaultConfig()
		set(&cfg)
		g, err := gen.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, g, capfile.FormatPcap); err != nil {
			t.Fatal(err)
		}
		caps = append(caps, buf.Bytes())
	}
	for i, c := range caps {
		want := analyzeBatched(t, c, 0)
		for _, run := range []int{1, 7, 256} {
			if got := analyzeBatched(t, c, run); got != want {
				t.Errorf("capture %d, batches of %d frames: the report differs from AddRecord's:\n%s\nwant\n%s", i, run, got, want)
			}
		}
	}
}

// analyzeBatched returns the text and JSON reports of the capture b: by
// AddRecord (run 0) or by Batches of run frames.
func analyzeBatched(t *testing.T, b []byte, run int) string {
	t.Helper()
	src, err := capfile.NewSource(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	an := flow.New(flow.Config{})
	batch := flow.NewBatch()
	var rec dump.Record
	var data []byte
	n := 0
	for {
		d, ci, lt, err := src.Next()
		if err != nil {
			break
		}
		data = append(data[:0], d...)
		rec.Decode(src.Number(), ci, lt, data)
		if run == 0 {
			an.AddRecord(&rec)
			continue
		}
		batch.Add(&rec)
		for i := range data {
			data[i] = 0xa5
		}
		rec.Decode(0, ci, lt, data)
		if n++; n == run {
			an.AddBatch(batch)
			batch.Reset()
			n = 0
		}
	}
	an.AddBatch(batch)
	rep := an.Report()
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
