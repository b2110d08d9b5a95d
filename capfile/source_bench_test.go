package capfile_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/internal/mmap"
)

// capDir holds the test captures.
const capDir = "../testdata/captures"

// BenchmarkSource measures Source.Next alone over a capture held in
// memory, as pcap, as pcapng (Enhanced Packet Blocks) and gzipped: one op
// is one capture.
func BenchmarkSource(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"))
	if err != nil {
		b.Fatal(err)
	}
	ng := pcapToPcapng(b, raw)
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw)
	w.Close()
	for _, c := range []struct {
		name string
		data []byte
	}{{"pcap", raw}, {"pcapng", ng}, {"pcap.gz", z.Bytes()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			frames := 0
			for i := 0; i < b.N; i++ {
				src, err := capfile.NewSource(bytes.NewReader(c.data))
				if err != nil {
					b.Fatal(err)
				}
				for {
					if _, _, _, err := src.Next(); err != nil {
						break
					}
					frames++
				}
			}
			b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}

// BenchmarkSourceMapped measures Source.Next alone over a capture file
// mapped into memory, read by NewSourceBytes (in place, unchecked) and by
// NewSourceMapped (each record checked against the file's size after it
// is read, what was read released): one op is one capture.
func BenchmarkSourceMapped(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"))
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "c.pcap")
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	m, ok := mmap.Map(f)
	if !ok {
		b.Skip("no mmap here")
	}
	defer m.Close()
	for _, how := range []string{"NewSourceBytes", "NewSourceMapped"} {
		b.Run(how, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			frames := 0
			for i := 0; i < b.N; i++ {
				var src *capfile.Source
				if how == "NewSourceBytes" {
					src, err = capfile.NewSourceBytes(m.Bytes())
				} else {
					src, err = capfile.NewSourceMapped(m)
				}
				if err != nil {
					b.Fatal(err)
				}
				for {
					if _, _, _, err := src.Next(); err != nil {
						break
					}
					frames++
				}
			}
			b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}

// pcapToPcapng rewrites a little-endian microsecond pcap file as pcapng:
// one section, one interface, an Enhanced Packet Block per record.
func pcapToPcapng(tb testing.TB, p []byte) []byte {
	le := binary.LittleEndian
	block := func(out []byte, typ uint32, body []byte) []byte {
		body = append(body, make([]byte, -len(body)&3)...)
		out = le.AppendUint32(le.AppendUint32(out, typ), uint32(12+len(body)))
		return le.AppendUint32(append(out, body...), uint32(12+len(body)))
	}
	out := block(nil, 0x0a0d0d0a, []byte{0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	out = block(out, 1, []byte{byte(p[20]), byte(p[21]), 0, 0, 0, 0, 0, 0})
	var body []byte
	for p = p[24:]; len(p) >= 16; {
		n := int(le.Uint32(p[8:]))
		ts := uint64(le.Uint32(p))*1e6 + uint64(le.Uint32(p[4:]))
		body = le.AppendUint32(body[:0], 0)
		body = le.AppendUint32(le.AppendUint32(body, uint32(ts>>32)), uint32(ts))
		body = le.AppendUint32(le.AppendUint32(body, uint32(n)), le.Uint32(p[12:]))
		out = block(out, 6, append(body, p[16:16+n]...))
		p = p[16+n:]
	}
	return out
}
