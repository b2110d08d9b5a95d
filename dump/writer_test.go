package dump_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
)

// frame is a frame as read, copied.
type wframe struct {
	data []byte
	len  int
	ts   time.Time
	lt   uint16
}

func scanFrames(t *testing.T, b []byte, opt dump.Options) []wframe {
	t.Helper()
	src, err := capfile.NewSource(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var fs []wframe
	if _, err := dump.Scan(src, opt, func(r *dump.Record) error {
		fs = append(fs, wframe{append([]byte(nil), r.Data...), r.Len, r.Time, r.LinkType})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return fs
}

func sameFrames(t *testing.T, got, want []wframe) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d frames, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if !bytes.Equal(g.data, w.data) || g.len != w.len || !g.ts.Equal(w.ts) || g.lt != w.lt {
			t.Fatalf("frame %d: %d bytes len %d %v lt %d, want %d bytes len %d %v lt %d",
				i+1, len(g.data), g.len, g.ts, g.lt, len(w.data), w.len, w.ts, w.lt)
		}
	}
}

// TestWriterRoundTrip writes the frames a filter selects from every
// shipped capture, in both formats, and reads them back: the same bytes,
// lengths, timestamps and link types; tshark reads as many frames.
func TestWriterRoundTrip(t *testing.T) {
	caps, _ := filepath.Glob("../testdata/captures/*.pcap")
	if len(caps) == 0 {
		t.Fatal("no captures")
	}
	tshark, _ := exec.LookPath("tshark")
	var f dump.Filter
	if err := f.AddOpcodes("send"); err != nil {
		t.Fatal(err)
	}
	f.AddOpcodes("ack")
	f.AddOpcodes("mad")
	for _, c := range caps {
		in, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for i, opt := range []dump.Options{{Workers: 1}, {Workers: 3, Filter: f}, {Workers: 1, Filter: f, Count: 5}} {
			want := scanFrames(t, in, opt)
			for _, format := range []capfile.Format{capfile.FormatPcap, capfile.FormatPcapng} {
				var out bytes.Buffer
				src, _ := capfile.NewSource(bytes.NewReader(in))
				lt, _ := src.LinkType()
				w := capfile.NewWriter(&out, format, lt)
				if _, err := dump.Scan(src, opt, func(r *dump.Record) error { return dump.WriteRecord(w, r) }); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				sameFrames(t, scanFrames(t, out.Bytes(), dump.Options{Workers: 1}), want)
				if tshark != "" && i < 2 {
					p := filepath.Join(t.TempDir(), "out."+format.String())
					os.WriteFile(p, out.Bytes(), 0o644)
					o, err := exec.Command(tshark, "-r", p, "-T", "fields", "-e", "frame.number").Output()
					if err != nil {
						t.Fatalf("%s: tshark: %v", c, err)
					}
					if n := strings.Count(string(o), "\n"); n != len(want) {
						t.Errorf("%s %s: tshark reads %d frames, want %d", filepath.Base(c), format, n, len(want))
					}
				}
			}
		}
	}
}

// TestWriterMixed writes frames of two link types: pcapng describes two
// interfaces, pcap refuses the second.
func TestWriterMixed(t *testing.T) {
	ts := time.Unix(1700000000, 123456789)
	var out bytes.Buffer
	w := capfile.NewWriter(&out, capfile.FormatPcapng, 1)
	w.WriteFrame([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x08, 0}, 60, ts, 1)
	w.WriteFrame([]byte{0x45, 0}, 2, ts.Add(time.Nanosecond), capfile.LinkTypeRaw)
	w.WriteFrame([]byte{1, 2, 3}, 3, ts.Add(2), 1)
	got := scanFrames(t, out.Bytes(), dump.Options{Workers: 1})
	if len(got) != 3 || got[1].lt != capfile.LinkTypeRaw || got[2].lt != 1 || !got[1].ts.Equal(ts.Add(1)) || got[0].len != 60 {
		t.Fatalf("got %+v", got)
	}
	w = capfile.NewWriter(&out, capfile.FormatPcap, 1)
	w.WriteFrame([]byte{1}, 1, ts, 1)
	if err := w.WriteFrame([]byte{1}, 1, ts, 101); err != capfile.ErrLinkTypes {
		t.Fatalf("pcap of two link types: %v", err)
	}
	for _, f := range []capfile.Format{capfile.FormatPcap, capfile.FormatPcapng} {
		out.Reset()
		w = capfile.NewWriter(&out, f, capfile.LinkTypeERF)
		w.Close()
		if got := scanFrames(t, out.Bytes(), dump.Options{}); len(got) != 0 {
			t.Fatalf("%s: empty capture reads %d frames", f, len(got))
		}
	}
}

func TestWriterAllocs(t *testing.T) {
	var out bytes.Buffer
	out.Grow(1 << 20)
	w := capfile.NewWriter(&out, capfile.FormatPcapng, 1)
	data := make([]byte, 1000)
	ts := time.Unix(1, 2)
	w.WriteFrame(data, 1000, ts, 1)
	if n := testing.AllocsPerRun(100, func() { w.WriteFrame(data, 1000, ts, 1) }); n != 0 {
		t.Errorf("%v allocations per frame", n)
	}
}

func TestFilterFamilies(t *testing.T) {
	in := func(fam string, ops ...ib.Opcode) {
		t.Helper()
		set, mad, err := dump.ParseOpcodes(fam)
		if err != nil || mad {
			t.Fatalf("%s: %v %v", fam, err, mad)
		}
		for _, op := range ops {
			if !set.Has(op) {
				t.Errorf("%s lacks %v", fam, op)
			}
		}
	}
	in("send", ib.OpRCSendOnly, ib.OpUDSendOnly, ib.Opcode(0x00))
	in("WRITE", ib.OpRCRDMAWriteOnly)
	in("read", ib.Opcode(0x0c), ib.Opcode(0x0d), ib.Opcode(0x10))
	in("atomic", ib.Opcode(0x12), ib.Opcode(0x13), ib.Opcode(0x14), ib.Opcode(0x1d))
	in("ack", ib.Opcode(0x11))
	in("cnp", ib.OpCNP)
	if set, _, _ := dump.ParseOpcodes("ack"); set.Has(ib.Opcode(0x12)) || set.Has(ib.OpRCSendOnly) {
		t.Error("ack holds ATOMIC Acknowledge or SEND")
	}
	if _, mad, err := dump.ParseOpcodes("MAD"); !mad || err != nil {
		t.Error("mad")
	}
	if _, _, err := dump.ParseOpcodes("sned"); err == nil || !strings.Contains(err.Error(), "family") {
		t.Errorf("bad family: %v", err)
	}
	var f dump.Filter
	for _, q := range []uint32{1, 0x11, 5} {
		f.AddQP(q)
	}
	var r dump.Record
	r.Kind = dump.KindRoCE
	for qp, want := range map[uint32]bool{1: true, 0x11: true, 5: true, 2: false} {
		r.RoCE.Packet.BTH.DestQP = qp
		if f.Match(&r) != want {
			t.Errorf("qp %d: %v", qp, !want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { f.Match(&r) }); n != 0 {
		t.Errorf("Match: %v allocations", n)
	}
	f = dump.Filter{}
	f.AddOpcodes("mad")
	f.AddOpcodes(strconv.Itoa(int(ib.OpCNP)))
	r.RoCE.Packet.BTH.OpCode, r.RoCE.Packet.BTH.DestQP = ib.OpUDSendOnly, 1
	if !f.Match(&r) {
		t.Error("mad to QP 1 not matched")
	}
	r.RoCE.Packet.BTH.DestQP = 2
	if f.Match(&r) {
		t.Error("UD SEND to QP 2 matched mad")
	}
	r.RoCE.Packet.BTH.OpCode = ib.OpCNP
	if !f.Match(&r) {
		t.Error("CNP not matched")
	}
}
