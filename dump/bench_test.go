package dump_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
)

// BenchmarkDump measures Dump over whole captures held in memory, text
// and JSON: one op is one capture; frames/s is the figure to compare.
func BenchmarkDump(b *testing.B) {
	for _, name := range []string{
		"rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", // 4,000 RoCEv2 frames
		"ib_native_erf_dag_smp_ipoib_cm.pcap",        // native InfiniBand
	} {
		data, err := os.ReadFile(filepath.Join(capDir, name))
		if err != nil {
			b.Fatal(err)
		}
		for _, format := range []string{"text", "json", "text-ttt-e-X"} {
			opt := dump.Options{JSON: format == "json"}
			if format == "text-ttt-e-X" { // tcpdump's output flags, deltas put in by the consumer
				opt.Text = dump.TextFormat{Time: dump.TimeDelta, Link: true, Hex: dump.HexASCII}
			}
			b.Run(name[:len(name)-len(".pcap")]+"/"+format, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				frames := 0
				for i := 0; i < b.N; i++ {
					src, err := capfile.NewSource(bytes.NewReader(data))
					if err != nil {
						b.Fatal(err)
					}
					st, err := dump.Dump(io.Discard, src, opt)
					if err != nil {
						b.Fatal(err)
					}
					frames += st.Frames
				}
				b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}

// BenchmarkRecord measures Decode and AppendText of one frame into a
// reused Record and buffer, for a frame with a good ICRC and the same
// frame with a bad one, and with tcpdump's -e -ttt and -X: none may
// allocate.
func BenchmarkRecord(b *testing.B) {
	good := firstFrame(b, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", 1)
	bad := append([]byte(nil), good...)
	bad[len(bad)-1] ^= 1
	for _, bc := range []struct {
		name  string
		frame []byte
		text  dump.TextFormat
	}{{"icrc-good", good, dump.TextFormat{}}, {"icrc-bad", bad, dump.TextFormat{}},
		{"icrc-good-e-ttt", good, dump.TextFormat{Time: dump.TimeDelta, Link: true}},
		{"icrc-good-X", good, dump.TextFormat{Hex: dump.HexASCII}}} {
		b.Run(bc.name, func(b *testing.B) {
			var rec dump.Record
			txt := dump.TextOptions{Format: bc.text}
			buf := make([]byte, 0, 4096)
			ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 0), Length: len(bc.frame), CaptureLength: len(bc.frame)}
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.frame)))
			for i := 0; i < b.N; i++ {
				rec.Decode(i+1, ci, capfile.LinkTypeEthernet, bc.frame)
				buf = txt.AppendText(buf[:0], &rec)
			}
		})
	}
}
