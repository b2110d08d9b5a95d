package dump_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"runtime"
	"testing"

	"github.com/roce-go/roce/capfile"
)

// A capture header may claim any snapshot length and a record any
// captured length; pcapgo allocates by them before reading. Reading these
// small files must not allocate gigabytes (found by fuzz.FuzzCaptureReader;
// inputs in fuzz/testdata/fuzz/FuzzCaptureReader/pcap_snaplen,
// pcapng_snaplen and pcapng_caplen).
func TestHostileLengthsAllocateLittle(t *testing.T) {
	le := binary.LittleEndian
	frame := bytes.Repeat([]byte{0xab}, 60)

	pcap := le.AppendUint32(nil, 0xa1b2c3d4)
	pcap = le.AppendUint16(pcap, 2)
	pcap = le.AppendUint16(pcap, 4)
	pcap = append(pcap, make([]byte, 8)...)
	pcap = le.AppendUint32(pcap, 0xffffffff) // snaplen
	pcap = le.AppendUint32(pcap, 1)
	pcap = append(pcap, make([]byte, 8)...)
	pcap = le.AppendUint32(pcap, 60)
	pcap = le.AppendUint32(pcap, 60)
	pcap = append(pcap, frame...)

	block := func(typ uint32, body []byte) []byte {
		b := le.AppendUint32(nil, typ)
		b = le.AppendUint32(b, uint32(12+len(body)))
		b = append(b, body...)
		return le.AppendUint32(b, uint32(12+len(body)))
	}
	shb := block(0x0a0d0d0a, []byte{0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	idb := func(snaplen uint32) []byte { return block(1, le.AppendUint32([]byte{1, 0, 0, 0}, snaplen)) }
	epb := func(caplen uint32) []byte {
		b := le.AppendUint32(make([]byte, 12), caplen)
		b = le.AppendUint32(b, caplen)
		return block(6, append(b, frame...))
	}
	bigSnap := append(append(append([]byte{}, shb...), idb(0xffffffff)...), epb(60)...)
	bigCap := append(append(append([]byte{}, shb...), idb(0)...), epb(0x7ffffff0)...)
	// A block that claims to hold 2 GiB: the file ends long before.
	bigBlock := append(append(append([]byte{}, shb...), idb(0)...), epb(0x7ffffff0)...)
	le.PutUint32(bigBlock[len(shb)+len(idb(0))+4:], 0x7ffffff0+32)

	for _, c := range []struct {
		name   string
		in     []byte
		frames int
	}{
		{"pcap snaplen 4 GiB", pcap, 1},
		{"pcapng snaplen 4 GiB", bigSnap, 1},
		{"pcapng caplen 2 GiB", bigCap, 0},
		{"pcapng block and caplen 2 GiB", bigBlock, 0},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		src, err := capfile.NewSource(bytes.NewReader(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := 0
		for {
			data, _, _, err := src.Next()
			if err != nil {
				if n != c.frames || (c.frames > 0) != (err == io.EOF) {
					t.Errorf("%s: after %d frames: %v", c.name, n, err)
				}
				break
			}
			if !bytes.Equal(data, frame) {
				t.Errorf("%s: frame %x", c.name, data)
			}
			n++
		}
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
			t.Errorf("%s: reading %d bytes allocated %d", c.name, len(c.in), got)
		}
	}
}

// An Interface Description Block's if_tsresol may be as fine as 2^-127
// or 10^-127 seconds (gopacket's pcapng reader divided by zero on 2^-64,
// found by fuzz.FuzzCaptureReader, input
// fuzz/testdata/fuzz/FuzzCaptureReader/94d810933365ca0d). Source reads
// the packet and converts its timestamp exactly. tshark 4.0 reads these
// packets too but shows 0 for their time (its conversion overflows below
// a nanosecond), so the expected times are worked out here by hand.
func TestFineTimestampResolutions(t *testing.T) {
	le := binary.LittleEndian
	block := func(typ uint32, body []byte) []byte {
		b := le.AppendUint32(nil, typ)
		b = le.AppendUint32(b, uint32(12+len(body)))
		b = append(b, body...)
		return le.AppendUint32(b, uint32(12+len(body)))
	}
	shb := block(0x0a0d0d0a, []byte{0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	idb := func(opts ...byte) []byte {
		body := append([]byte{1, 0, 0, 0, 0, 0, 4, 0}, opts...)
		return block(1, append(body, 0, 0, 0, 0)) // opt_endofopt
	}
	// Timestamp 2^62 + 2^40 units (set below).
	epb := block(6, append(le.AppendUint32(le.AppendUint32([]byte{0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0}, 60), 60), make([]byte, 60)...))
	le.PutUint32(epb[12:], 1<<30|1<<8) // timestamp (upper)
	for _, c := range []struct {
		name string
		idb  []byte
		sec  int64
		ns   int64
	}{
		// 2^62/2^64 = 0.25 s; 2^40/2^64 s = 59.6 ns.
		{"if_tsresol 2^-64", idb(9, 0, 1, 0, 0xc0, 0, 0, 0), 0, 250_000_059},
		// (2^62+2^40)/10^64 s: nothing left at nanosecond precision.
		{"if_tsresol 10^-64", idb(9, 0, 1, 0, 64, 0, 0, 0), 0, 0},
		// 2^62+2^40 = 4611687117939015680 units of 0.1 ns.
		{"if_tsresol 10^-10", idb(9, 0, 1, 0, 10, 0, 0, 0), 461168711, 793901568},
		// (2^62+2^40)/2^20 = 2^42+2^20 s.
		{"if_tsresol 2^-20", idb(9, 0, 1, 0, 0x94, 0, 0, 0), 1<<42 + 1<<20, 0},
		// Microseconds, less 1000 s of if_tsoffset.
		{"if_tsoffset -1000", idb(14, 0, 8, 0, 0x18, 0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 4611687117939 - 1000, 15_680_000},
	} {
		in := append(append(append([]byte{}, shb...), c.idb...), epb...)
		src, err := capfile.NewSource(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, ci, _, err := src.Next()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s, ns := ci.Timestamp.Unix(), int64(ci.Timestamp.Nanosecond()); s != c.sec || ns != c.ns {
			t.Errorf("%s: time %d.%09d, want %d.%09d", c.name, s, ns, c.sec, c.ns)
		}
	}
}
