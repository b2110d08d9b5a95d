package dump_test

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
)

// TextOptions.Format formats the line as tcpdump's output flags do:
// here -ttt (the time since the previous line, from TextOptions.TimeRef,
// which Follow keeps over the lines in capture order), -e (the Ethernet
// header) and -x (the bytes after it, in hex), for an RDMA WRITE of 16
// bytes and its acknowledgement made by package gen.
func ExampleTextFormat() {
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.PSN = 16, 100
	g, err := gen.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	var rec dump.Record
	txt := dump.TextOptions{Format: dump.TextFormat{Time: dump.TimeDelta, Link: true, Hex: dump.Hex}}
	for n := 1; g.Next(); n++ {
		rec.Decode(n, g.CaptureInfo(), capfile.LinkTypeEthernet, g.Frame())
		txt.Follow(rec.Time)
		os.Stdout.Write(txt.AppendText(nil, &rec))
	}
	// Output:
	//  00:00:00.000000 02:00:00:00:00:01 > 02:00:00:00:00:02, ethertype IPv4 (0x0800), length 90: 192.0.2.1:49160 > 192.0.2.2:4791 RoCEv2 RC RDMA WRITE Only qp 0x000200 psn 100 [M,A] reth va 0x00007f000078c000 rkey 0x9927a129 dmalen 16 payload 16 ecn ECT(0) icrc good
	// 	0x0000:  456a 004c 0000 4000 4011 b633 c000 0201
	// 	0x0010:  c000 0202 c008 12b7 0038 0000 0a40 ffff
	// 	0x0020:  0000 0200 8000 0064 0000 7f00 0078 c000
	// 	0x0030:  9927 a129 0000 0010 bad7 f5cc cea1 bc89
	// 	0x0040:  e3f3 2fd7 eb0f c867 797f cf3e
	//  00:00:00.000001 02:00:00:00:00:02 > 02:00:00:00:00:01, ethertype IPv4 (0x0800), length 62: 192.0.2.2:49160 > 192.0.2.1:4791 RoCEv2 RC Acknowledge qp 0x000100 psn 100 [M] aeth ACK msn 1 payload 0 ecn ECT(0) icrc good
	// 	0x0000:  456a 0030 0000 4000 4011 b64f c000 0202
	// 	0x0010:  c000 0201 c008 12b7 001c 0000 1140 ffff
	// 	0x0020:  0000 0100 0000 0064 1f00 0001 b2a6 83c2
}

// TestTimeFormats: each time format on frames at chosen times, the
// expected text written out by hand from tcpdump's formats.
func TestTimeFormats(t *testing.T) {
	frame := firstFrame(t, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", 1)
	at := time.Date(2025, 9, 1, 9, 39, 11, 554171999, time.UTC)
	for _, tc := range []struct {
		f      dump.TextFormat
		t, ref time.Time
		want   string
	}{
		{dump.TextFormat{}, at, time.Time{}, "09:39:11.554171 "},
		{dump.TextFormat{Nano: true}, at, time.Time{}, "09:39:11.554171999 "},
		{dump.TextFormat{Time: dump.TimeNone}, at, time.Time{}, ""},
		{dump.TextFormat{Time: dump.TimeEpoch}, at, time.Time{}, "1756719551.554171 "},
		{dump.TextFormat{Time: dump.TimeEpoch, Nano: true}, at, time.Time{}, "1756719551.554171999 "},
		{dump.TextFormat{Time: dump.TimeDate}, at, time.Time{}, "2025-09-01 09:39:11.554171 "},
		{dump.TextFormat{Time: dump.TimeDelta}, at, time.Time{}, " 00:00:00.000000 "},
		{dump.TextFormat{Time: dump.TimeDelta}, at, at.Add(-2899 * time.Microsecond), " 00:00:00.002899 "},
		// Later than the frame: a negative delta.
		{dump.TextFormat{Time: dump.TimeDelta}, at, at.Add(300 * time.Millisecond), "-00:00:00.300000 "},
		{dump.TextFormat{Time: dump.TimeDelta}, at, at.Add(1700 * time.Millisecond), "-00:00:01.700000 "},
		// Cut to the microsecond before subtracting: .554171999 - .554171001.
		{dump.TextFormat{Time: dump.TimeDelta}, at, at.Add(-998 * time.Nanosecond), " 00:00:00.000000 "},
		{dump.TextFormat{Time: dump.TimeDelta, Nano: true}, at, at.Add(-998 * time.Nanosecond), " 00:00:00.000000998 "},
		// Hours past a day go on.
		{dump.TextFormat{Time: dump.TimeSinceFirst}, at, at.Add(-(101*time.Hour + 2*time.Minute + 3*time.Second)), " 101:02:03.000000 "},
	} {
		var r dump.Record
		r.Decode(1, gopacket.CaptureInfo{Timestamp: tc.t, Length: len(frame), CaptureLength: len(frame)}, capfile.LinkTypeEthernet, frame)
		txt := dump.TextOptions{Format: tc.f, TimeRef: tc.ref}
		line := string(txt.AppendText(nil, &r))
		txt = dump.TextOptions{Format: dump.TextFormat{Time: dump.TimeNone}}
		bare := string(txt.AppendText(nil, &r))
		if line != tc.want+bare {
			t.Errorf("%+v at %v from %v:\n%q\nwant\n%q", tc.f, tc.t, tc.ref, line, tc.want+bare)
		}
	}
}

// TestScanTimeRef: Scan hands on the frames in capture order, whatever
// Workers: printing them with TextOptions.Follow and AppendText gives
// Dump's lines (a frame earlier than the one before included).
func TestScanTimeRef(t *testing.T) {
	data, err := os.ReadFile(capDir + "/rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap")
	if err != nil {
		t.Fatal(err)
	}
	for _, tf := range []dump.TimeFormat{dump.TimeDelta, dump.TimeSinceFirst} {
		opt := dump.Options{Text: dump.TextFormat{Time: tf}, Workers: 1}
		src, _ := capfile.NewSource(bytes.NewReader(data))
		var want bytes.Buffer
		if _, err := dump.Dump(&want, src, opt); err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 3} {
			opt.Workers = w
			src, _ := capfile.NewSource(bytes.NewReader(data))
			var got []byte
			txt := opt.TextOptions()
			if _, err := dump.Scan(src, opt, func(r *dump.Record) error {
				txt.Follow(r.Time)
				got = txt.AppendText(got, r)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) || tf == dump.TimeDelta && !bytes.Contains(got, []byte("\n-00:00:00.")) {
				t.Errorf("format %d, %d workers: Scan's lines differ from Dump's (or no negative delta)", tf, w)
			}
		}
	}
}

// TestPipelineTextFormats: with tcpdump's output formats, the delta
// times included, Dump and Scan give the same output and Stats whatever
// Workers, on every shipped and golden capture and generated ones, with
// counts and filters (TestPipelineStops has them with a write error).
func TestPipelineTextFormats(t *testing.T) {
	before := runtime.NumGoroutine()
	formats := []dump.TextFormat{
		{Time: dump.TimeDelta, Link: true, Hex: dump.Hex},
		{Time: dump.TimeSinceFirst, Nano: true, Quiet: true, Hex: dump.HexASCII, HexLink: true},
	}
	for name, in := range pipeInputs(t) {
		for fi, tf := range formats {
			for _, count := range []int{0, 7} {
				for _, f := range []dump.Filter{{}, {HasQP: true, QP: 0x11}} {
					for _, scan := range []bool{false, true} {
						opt := dump.Options{Text: tf, Count: count, Filter: f, Workers: 1}
						want := pipeDump(t, in, opt, scan)
						for _, w := range []int{2, 4} {
							opt.Workers = w
							samePipeRun(t, fmt.Sprintf("%s format %d -c %d qp %v scan=%v -j %d", name, fi, count, f.HasQP, scan, w), pipeDump(t, in, opt, scan), want)
						}
					}
				}
			}
		}
	}
	noLeak(t, before)
}
