package parquetrows_test

import (
	"errors"
	"io"
	"testing"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/dump/parquetrows"
)

// TestErrClosed: after Close, Write, WriteBatch and Close return
// ErrClosed.
func TestErrClosed(t *testing.T) {
	w := parquetrows.NewWriter(io.Discard, "x.pcap", parquetrows.Options{})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"Write":      w.Write(&dump.Record{}),
		"WriteBatch": w.WriteBatch(parquetrows.NewBatch()),
		"Close":      w.Close(),
	} {
		if !errors.Is(err, parquetrows.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
}
