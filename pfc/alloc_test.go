package pfc

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoAllocs enforces the allocation contract of the package doc.
func TestNoAllocs(t *testing.T) {
	pfcFrame := unhex(t, vecPFC)
	pauseFrame := unhex(t, vecPause)
	short := pfcFrame[EthernetHeaderLen : EthernetHeaderLen+7]
	var (
		m     MACControl
		buf   = make([]byte, 0, 128)
		times = [8]uint16{3: 0xffff, 7: 0x1234}
	)
	var d MACControl // the PFC frame, for the rows that read one
	require.NoError(t, d.Decode(pfcFrame[EthernetHeaderLen:]))
	// Each call returns an error when it did not do what the row says, so
	// that a failing call cannot pass for a cheap one.
	tests := []struct {
		name string
		f    func() error
	}{
		{"Decode PFC", func() error { return m.Decode(pfcFrame[EthernetHeaderLen:]) }},
		{"Decode PAUSE", func() error { return m.Decode(pauseFrame[EthernetHeaderLen:]) }},
		{"Decode truncated", func() error {
			if err := m.Decode(short); !errors.Is(err, ErrTruncated) {
				return fmt.Errorf("short body: %v, want ErrTruncated", err)
			}
			return nil
		}},
		{"AppendPFC", func() error { buf = AppendPFC(buf[:0], testSrc, 0x88, times); return wantLen(buf, MinFrameLen) }},
		{"AppendPause", func() error { buf = AppendPause(buf[:0], testSrc, 0xffff); return wantLen(buf, MinFrameLen) }},
		{"AppendTo", func() error {
			var err error
			if buf, err = d.AppendTo(buf[:0]); err != nil {
				return err
			}
			return wantLen(buf, d.Len())
		}},
		{"XOFF XON Quanta", func() error {
			if q, ok := d.Quanta(3); !ok || q != 0xffff || d.XOFF()|d.XON() != d.Enabled() {
				return fmt.Errorf("Quanta(3) = %d, %v", q, ok)
			}
			return nil
		}},
		{"Speed", func() error {
			if q := Speed100G.Quanta(Speed100G.Duration(1234)); q != 1234 {
				return fmt.Errorf("round trip of 1234 quanta gave %d", q)
			}
			return nil
		}},
		{"ParseSpeed", func() error { _, err := ParseSpeed("100G"); return err }},
	}
	for _, tt := range tests {
		require.NoError(t, tt.f(), tt.name) // and warm up buffers
		var err error
		n := testing.AllocsPerRun(100, func() {
			if e := tt.f(); e != nil {
				err = e
			}
		})
		assert.NoError(t, err, tt.name)
		assert.Zero(t, n, "%s: allocations per run", tt.name)
	}
}

func wantLen(b []byte, n int) error {
	if len(b) != n {
		return fmt.Errorf("wrote %d bytes, want %d", len(b), n)
	}
	return nil
}
