package capfile_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
)

// TestErrorSentinels: every error of ParseFormat, the writer and the
// capture header says "roce: " first and matches its sentinel.
func TestErrorSentinels(t *testing.T) {
	pcapHeader := func(major uint16) []byte {
		return []byte{0xd4, 0xc3, 0xb2, 0xa1, byte(major), 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0, 0, 0}
	}
	source := func(b []byte) error {
		_, err := capfile.NewSource(bytes.NewReader(b))
		return err
	}
	_, format := capfile.ParseFormat("pcapx")
	w := capfile.NewWriter(io.Discard, capfile.FormatPcapng, 1)
	long := w.WriteFrame(make([]byte, capfile.MaxSnaplen+1), 0, time.Unix(0, 0), capfile.LinkTypeEthernet)
	for _, c := range []struct {
		name string
		err  error
		is   error
		text string
	}{
		{"ParseFormat", format, capfile.ErrUnknownFormat, `roce: unknown capture format "pcapx": want pcap or pcapng`},
		{"WriteFrame", long, capfile.ErrTooLong, "roce: frame of 262145 bytes over the limit of 262144"},
		{"pcap version", source(pcapHeader(9)), capfile.ErrNotCapture, "roce: not a pcap or pcapng capture: pcap major version 9"},
		{"pcap header", source(pcapHeader(2)[:20]), capfile.ErrNotCapture, "roce: not a pcap or pcapng capture: pcap file header of 20 bytes"},
		{"pcapng header", source([]byte{0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0}), capfile.ErrNotCapture, "roce: not a pcap or pcapng capture: pcapng Section Header Block of 8 bytes"},
	} {
		if !errors.Is(c.err, c.is) || c.err == nil || !strings.HasPrefix(c.err.Error(), c.text) {
			t.Errorf("%s: %v, want %q matching %v", c.name, c.err, c.text, c.is)
		}
	}
	for _, s := range []error{capfile.ErrUnreadable, capfile.ErrLinkTypes, capfile.ErrTimeRange, capfile.ErrShrank} {
		if !strings.HasPrefix(s.Error(), "roce: ") {
			t.Errorf("sentinel %q", s)
		}
	}
}
