package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
)

// readPcap reads every frame of a pcap or pcapng capture.
func readPcap(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var next func() ([]byte, error)
	if r, err := pcapgo.NewReader(bytes.NewReader(b)); err == nil {
		next = func() ([]byte, error) { d, _, err := r.ReadPacketData(); return d, err }
	} else if r, err := pcapgo.NewNgReader(bytes.NewReader(b), pcapgo.DefaultNgReaderOptions); err == nil {
		next = func() ([]byte, error) { d, _, err := r.ReadPacketData(); return d, err }
	} else {
		t.Fatalf("not a capture: %v", err)
	}
	var frames [][]byte
	for {
		d, err := next()
		if err == io.EOF {
			return frames
		}
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, d)
	}
}

// opcodes decodes every frame and lists its opcode.
func opcodes(t *testing.T, frames [][]byte) []string {
	t.Helper()
	var ops []string
	for i, b := range frames {
		var f roce.Frame
		if err := f.Decode(b); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if err := f.VerifyICRC(); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		ops = append(ops, f.Packet.BTH.OpCode.String())
	}
	return ops
}

// The documented default: with no flags and stdout not a terminal, one
// RC RDMA WRITE of 64 KiB at MTU 4096 over RoCEv2/IPv4 and its ACK go to
// stdout as pcap.
func TestNoFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if st := run(nil, &out, false, &errOut); st != 0 {
		t.Fatalf("exit %d: %s", st, errOut.String())
	}
	if !bytes.HasPrefix(out.Bytes(), []byte{0x4d, 0x3c, 0xb2, 0xa1}) {
		t.Errorf("not a nanosecond pcap: % x", out.Bytes()[:4])
	}
	frames := readPcap(t, out.Bytes())
	ops := opcodes(t, frames)
	want := []string{"RC RDMA WRITE First"}
	for i := 0; i < 14; i++ {
		want = append(want, "RC RDMA WRITE Middle")
	}
	want = append(want, "RC RDMA WRITE Last", "RC Acknowledge")
	if strings.Join(ops, ",") != strings.Join(want, ",") {
		t.Errorf("opcodes %q, want %q", ops, want)
	}
	var f roce.Frame
	f.Decode(frames[0])
	if f.Encap != ib.RoCEv2IPv4 || f.Packet.RETH.DMALen != 65536 || len(f.Packet.Payload) != 4096 {
		t.Errorf("first frame %v, DMA length %d, payload %d", f.Encap, f.Packet.RETH.DMALen, len(f.Packet.Payload))
	}
	if !strings.Contains(errOut.String(), "wrote 17 frames") || !strings.Contains(errOut.String(), "standard output") {
		t.Errorf("stderr %q", errOut.String())
	}
}

// With stdout a terminal and no -w, the capture goes to rocegen.pcap.
func TestNoFlagsTerminal(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errOut bytes.Buffer
	if st := run(nil, &out, true, &errOut); st != 0 {
		t.Fatalf("exit %d: %s", st, errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes written to the terminal", out.Len())
	}
	b, err := os.ReadFile(defaultFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(readPcap(t, b)); n != 17 {
		t.Errorf("%s holds %d frames, want 17", defaultFile, n)
	}
}

func TestFlags(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.pcapng")
	args := []string{"-w", name, "-encap", "v2-ipv6", "-transport", "xrc", "-op", "send-inv", "-size", "3K",
		"-mtu", "1024", "-messages", "2", "-qps", "3", "-vlan", "12", "-pcp", "4", "-dscp", "10", "-seed", "9"}
	var out, errOut bytes.Buffer
	if st := run(args, &out, false, &errOut); st != 0 {
		t.Fatalf("exit %d: %s", st, errOut.String())
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x0a, 0x0d, 0x0d, 0x0a}) {
		t.Errorf("a .pcapng name did not give pcapng")
	}
	frames := readPcap(t, b)
	// 3 QPs x 2 messages x (3 SEND packets + 1 ACK)
	if len(frames) != 24 {
		t.Errorf("%d frames, want 24", len(frames))
	}
	n := map[string]int{}
	for i, op := range opcodes(t, frames) {
		n[op]++
		var f roce.Frame
		f.Decode(frames[i])
		if f.Encap != ib.RoCEv2IPv6 || f.NumVLANs != 1 || f.VLANs[0].ID != 12 || f.VLANs[0].PCP != 4 || f.GRH.TClass>>2 != 10 {
			t.Errorf("frame %d: %v, tags %+v, TClass %#x", i, f.Encap, f.VLANs[:f.NumVLANs], f.GRH.TClass)
		}
	}
	if n["XRC SEND First"] != 6 || n["XRC SEND Middle"] != 6 || n["XRC SEND Last with Invalidate"] != 6 || n["XRC Acknowledge"] != 6 {
		t.Errorf("opcodes %v", n)
	}

	// The same flags give the same bytes; -format overrides the name.
	name2 := filepath.Join(dir, "y.pcapng")
	args[1] = name2
	if st := run(append(args, "-format", "pcapng"), &out, false, &errOut); st != 0 {
		t.Fatal(errOut.String())
	}
	b2, _ := os.ReadFile(name2)
	if !bytes.Equal(b, b2) {
		t.Error("two runs with the same flags differ")
	}
	if st := run(append(args, "-format", "pcap"), &out, false, &errOut); st != 0 {
		t.Fatal(errOut.String())
	}
	b3, _ := os.ReadFile(name2)
	if !bytes.HasPrefix(b3, []byte{0x4d, 0x3c, 0xb2, 0xa1}) {
		t.Error("-format pcap did not give pcap")
	}
}

func TestScenarioFlag(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "s.txt")
	os.WriteFile(sc, []byte("op=fetch-add messages=3\n# comment\nop=read size=8K gap=5us\n"), 0o644)
	var out, errOut bytes.Buffer
	if st := run([]string{"-scenario", sc, "-transport", "rc", "-mtu", "4096"}, &out, false, &errOut); st != 0 {
		t.Fatalf("exit %d: %s", st, errOut.String())
	}
	got := strings.Join(opcodes(t, readPcap(t, out.Bytes())), ",")
	want := "RC FetchAdd,RC FetchAdd,RC FetchAdd,RC ATOMIC Acknowledge,RC ATOMIC Acknowledge,RC ATOMIC Acknowledge," +
		"RC RDMA READ Request,RC RDMA READ Response First,RC RDMA READ Response Last"
	if got != want {
		t.Errorf("opcodes\n%s\nwant\n%s", got, want)
	}
}

func TestBadUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("op=write mtu=9000\n"), 0o644)
	for _, args := range [][]string{
		{"-op", "jump"}, {"-mtu", "1000"}, {"extra"}, {"-nosuch"}, {"-transport", "ud", "-op", "read"},
		{"-scenario", filepath.Join(dir, "missing")}, {"-scenario", bad}, {"-format", "erf"},
	} {
		var out, errOut bytes.Buffer
		if st := run(args, &out, false, &errOut); st != 2 || errOut.Len() == 0 || out.Len() != 0 {
			t.Errorf("%q: exit %d, %d bytes out, stderr %q", args, st, out.Len(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if st := run([]string{"-w", filepath.Join(dir, "no", "such", "dir.pcap")}, &out, false, &errOut); st != 1 {
		t.Errorf("unwritable file: exit %d", st)
	}
	out.Reset()
	errOut.Reset()
	if st := run([]string{"-h"}, &out, false, &errOut); st != 0 || !strings.Contains(out.String(), "-pfc-quanta") || errOut.Len() != 0 {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", st, out.String(), errOut.String())
	}
}

// TestCLIConsistency: rocegen's command line behaves as rocedump's
// (package internal/cli): a stray argument or a flag given twice is
// named, with the usage line, exit 2; -scenario - reads standard input,
// and refuses a terminal there with a one-line hint.
func TestCLIConsistency(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"extra"}, `unexpected argument "extra": rocegen takes flags only`},
		{[]string{"-mtu", "1024", "scenario.txt"}, `unexpected argument "scenario.txt"`},
		{[]string{"-mtu", "1024", "-mtu", "2048"}, `given twice (already "1024")`},
		{[]string{"-w", "a.pcap", "-w", "b.pcap"}, "given twice"},
		{[]string{"-nosuch"}, "not defined: -nosuch"},
	} {
		var out, errOut bytes.Buffer
		st := run(tc.args, &out, false, &errOut)
		if st != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), tc.msg) || !strings.Contains(errOut.String(), "usage: rocegen") {
			t.Errorf("%q: exit %d, stderr %q; want 2, %q and the usage line", tc.args, st, errOut.String(), tc.msg)
		}
	}

	// -scenario - from a file on standard input: the same capture as
	// -scenario FILE.
	sc := filepath.Join(t.TempDir(), "s.txt")
	os.WriteFile(sc, []byte("op=fetch-add messages=3\nop=read size=8K gap=5us\n"), 0o644)
	var want, got, errOut bytes.Buffer
	if st := run([]string{"-scenario", sc}, &want, false, &errOut); st != 0 {
		t.Fatal(errOut.String())
	}
	f, err := os.Open(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	defer func(old *os.File) { stdin = old }(stdin)
	stdin = f
	if st := run([]string{"-scenario", "-"}, &got, false, &errOut); st != 0 || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("-scenario -: exit %d, %d bytes, want %d (stderr %q)", st, got.Len(), want.Len(), errOut.String())
	}

	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no terminal:", err)
	}
	defer tty.Close()
	stdin = tty
	errOut.Reset()
	got.Reset()
	if st := run([]string{"-scenario", "-"}, &got, false, &errOut); st != 2 || got.Len() != 0 ||
		!strings.HasPrefix(errOut.String(), "rocegen: standard input is a terminal: ") || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("terminal: exit %d, stderr %q", st, errOut.String())
	}
}
