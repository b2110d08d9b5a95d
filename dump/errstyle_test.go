package dump_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/dump"
)

// TestErrorSentinels: every error of the parsers, the writer and the
// capture header says "roce: " first and matches its sentinel.
func TestErrorSentinels(t *testing.T) {
	pcapHeader := func(major uint16) []byte {
		return []byte{0xd4, 0xc3, 0xb2, 0xa1, byte(major), 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0, 0, 0}
	}
	source := func(b []byte) error {
		_, err := dump.NewSource(bytes.NewReader(b))
		return err
	}
	_, qp := dump.ParseQP("0x1000000")
	_, op := dump.ParseOpcode("RC FOO")
	_, _, ops := dump.ParseOpcodes("RC FOO")
	_, format := dump.ParseFormat("pcapx")
	w := dump.NewWriter(io.Discard, dump.FormatPcapng, 1)
	long := w.WriteFrame(make([]byte, dump.MaxSnaplen+1), 0, time.Unix(0, 0), dump.LinkTypeEthernet)
	for _, c := range []struct {
		name string
		err  error
		is   error
		text string
	}{
		{"ParseQP", qp, dump.ErrBadArgument, `roce: bad QP number "0x1000000"`},
		{"ParseOpcode", op, dump.ErrBadArgument, `roce: unknown opcode "RC FOO"`},
		{"ParseOpcodes", ops, dump.ErrBadArgument, `roce: unknown opcode "RC FOO"`},
		{"ParseFormat", format, dump.ErrBadArgument, `roce: unknown capture format "pcapx"`},
		{"WriteFrame", long, dump.ErrTooLong, "roce: frame of 262145 bytes over the limit of 262144"},
		{"pcap version", source(pcapHeader(9)), dump.ErrNotCapture, "roce: not a pcap or pcapng capture: pcap major version 9"},
		{"pcap header", source(pcapHeader(2)[:20]), dump.ErrNotCapture, "roce: not a pcap or pcapng capture: pcap file header of 20 bytes"},
		{"pcapng header", source([]byte{0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0}), dump.ErrNotCapture, "roce: not a pcap or pcapng capture: pcapng Section Header Block of 8 bytes"},
	} {
		if !errors.Is(c.err, c.is) || c.err == nil || !strings.HasPrefix(c.err.Error(), c.text) {
			t.Errorf("%s: %v, want %q matching %v", c.name, c.err, c.text, c.is)
		}
	}
	if !strings.HasPrefix(dump.ErrUnreadable.Error(), "roce: ") || !strings.HasPrefix(dump.ErrLinkTypes.Error(), "roce: ") {
		t.Errorf("sentinels %q, %q", dump.ErrUnreadable, dump.ErrLinkTypes)
	}
}
