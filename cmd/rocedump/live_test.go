package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/oracle"
	"github.com/roce-go/roce/internal/vethtest"
)

var tools struct {
	once              sync.Once
	dir               string
	rocedump, rocegen string
	err               string
}

// binaries builds rocedump and rocegen once for the live tests, which
// run them as child processes (to send them signals).
func binaries(t *testing.T) (rocedump, rocegen string) {
	t.Helper()
	tools.once.Do(func() {
		dir, err := os.MkdirTemp("", "rocedump-live")
		if err != nil {
			tools.err = err.Error()
			return
		}
		tools.dir = dir
		tools.rocedump = vethtest.Build(t, dir, ".", "rocedump")
		tools.rocegen = vethtest.Build(t, dir, "../rocegen", "rocegen")
	})
	if tools.err != "" {
		t.Fatal(tools.err)
	}
	return tools.rocedump, tools.rocegen
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tools.dir != "" {
		os.RemoveAll(tools.dir)
	}
	os.Exit(code)
}

// syncBuffer is a bytes.Buffer written by a child process and read by
// the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// liveDump is a rocedump -i child process.
type liveDump struct {
	cmd            *exec.Cmd
	stdout, stderr syncBuffer
	done           chan struct{}
}

// startDump starts rocedump with args and waits for its "listening on"
// line.
func startDump(t *testing.T, bin string, args ...string) *liveDump {
	t.Helper()
	d := &liveDump{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	d.cmd.Stdout, d.cmd.Stderr = &d.stdout, &d.stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.cmd.Wait(); close(d.done) }()
	t.Cleanup(func() { d.cmd.Process.Kill(); <-d.done })
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(d.stderr.String(), "listening on") {
		select {
		case <-d.done:
			t.Fatalf("rocedump %v exited: %s", args, d.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("rocedump %v: no listening line: %s", args, d.stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return d
}

// wait waits for the child to exit and returns its exit status.
func (d *liveDump) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-d.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("rocedump did not exit; stderr: %s", d.stderr.String())
	}
	return d.cmd.ProcessState.ExitCode()
}

// stop sends sig after the frames have had time to arrive and waits for
// the exit.
func (d *liveDump) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	time.Sleep(200 * time.Millisecond)
	if err := d.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	return d.wait(t)
}

// closing parses tcpdump's three closing lines.
func closing(t *testing.T, stderr string) (captured, received, dropped int) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(\d+) packets? captured\n(\d+) packets? received by filter\n(\d+) packets? dropped by kernel\n`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no closing lines in %q", stderr)
	}
	captured, _ = strconv.Atoi(m[1])
	received, _ = strconv.Atoi(m[2])
	dropped, _ = strconv.Atoi(m[3])
	return
}

func runGen(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("rocegen %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// readCapture returns the frames of a capture file that package gen's
// addresses sent, decoded: each must be RoCE with a good ICRC.
func readCapture(t *testing.T, path string) (frames [][]byte, stamps []time.Time, numbers []int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := dump.NewSource(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	_, err = dump.Scan(src, dump.Options{Workers: 1}, func(r *dump.Record) error {
		if !vethtest.FromGen(r.Data) {
			return nil
		}
		if r.Kind != dump.KindRoCE || !r.ICRCGood {
			return fmt.Errorf("frame %d: kind %v, ICRC good %v", r.Number, r.Kind, r.ICRCGood)
		}
		frames = append(frames, append([]byte(nil), r.Data...))
		stamps = append(stamps, r.Time)
		numbers = append(numbers, r.Number)
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return frames, stamps, numbers
}

// TestLiveWrite: rocegen -i sends the default scenario while rocedump
// -i -w records; SIGINT stops rocedump, whose file holds every frame,
// byte for byte as rocegen writes them to a file, each with a good ICRC
// and the kernel's timestamp.
func TestLiveWrite(t *testing.T) {
	link := vethtest.Pair(t)
	dumpBin, genBin := binaries(t)
	dir := t.TempDir()
	want := filepath.Join(dir, "gen.pcap")
	runGen(t, genBin, "-w", want)
	wantFrames, _, _ := readCapture(t, want)
	for _, format := range []string{"pcap", "pcapng"} {
		got := filepath.Join(dir, "live."+format)
		before := time.Now()
		d := startDump(t, dumpBin, "-i", link.Recv, "-w", got)
		runGen(t, genBin, "-i", link.Send)
		if st := d.stop(t, syscall.SIGINT); st != 0 {
			t.Fatalf("rocedump exit status %d: %s", st, d.stderr.String())
		}
		gotFrames, stamps, numbers := readCapture(t, got)
		if len(gotFrames) != len(wantFrames) {
			t.Fatalf("%s: %d frames of rocegen's, want %d", format, len(gotFrames), len(wantFrames))
		}
		for i := range wantFrames {
			if !bytes.Equal(gotFrames[i], wantFrames[i]) {
				t.Fatalf("%s: frame %d differs from rocegen's file", format, i+1)
			}
			if stamps[i].Before(before) || stamps[i].After(time.Now()) {
				t.Fatalf("%s: frame %d: timestamp %v not during the test", format, i+1, stamps[i])
			}
		}
		// tshark reads the file as written: the frames' lengths and
		// the kernel's timestamps, to the nanosecond.
		fields := oracle.Tshark(t, got)
		for i, n := range numbers {
			f := fields[n-1]
			ts, _ := f.First("frame.time_epoch")
			ln, _ := f.First("frame.len")
			if wantTS := fmt.Sprintf("%d.%09d", stamps[i].Unix(), stamps[i].Nanosecond()); ts != wantTS || ln != fmt.Sprint(len(gotFrames[i])) {
				t.Fatalf("%s: frame %d: tshark says time %s, length %s; want %s, %d", format, n, ts, ln, wantTS, len(gotFrames[i]))
			}
		}
		captured, received, dropped := closing(t, d.stderr.String())
		if !link.Loopback && (captured != len(wantFrames) || received != captured || dropped != 0) {
			t.Errorf("%s: closing lines %d captured, %d received, %d dropped; want %d, %d, 0", format, captured, received, dropped, len(wantFrames), len(wantFrames))
		}
	}
}

// TestLiveCount: -c stops rocedump by itself, after N frames that pass
// the filter, printing their lines.
func TestLiveCount(t *testing.T) {
	link := vethtest.Pair(t)
	dumpBin, genBin := binaries(t)
	d := startDump(t, dumpBin, "-i", link.Recv, "-c", "5", "-qp", "0x200", "-json")
	runGen(t, genBin, "-i", link.Send)
	if st := d.wait(t); st != 0 {
		t.Fatalf("exit status %d: %s", st, d.stderr.String())
	}
	ls := lines(d.stdout.String())
	if len(ls) != 5 {
		t.Fatalf("%d lines, want 5", len(ls))
	}
	for _, l := range ls {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["infiniband.bth.destqp"] != "0x000200" && m["infiniband.bth.destqp"] != float64(0x200) {
			t.Fatalf("line %s: %v, destqp %v", l, err, m["infiniband.bth.destqp"])
		}
	}
	if captured, _, _ := closing(t, d.stderr.String()); !link.Loopback && captured != 5 {
		t.Errorf("%d packets captured, want 5", captured)
	}
}

// TestLiveSnaplen: -s cuts each frame, which keeps its length on the
// wire and decodes with its ICRC unchecked.
func TestLiveSnaplen(t *testing.T) {
	link := vethtest.Pair(t)
	dumpBin, genBin := binaries(t)
	d := startDump(t, dumpBin, "-i", link.Recv, "-s", "80", "-c", "3", "-qp", "0x200", "-json")
	runGen(t, genBin, "-i", link.Send)
	if st := d.wait(t); st != 0 {
		t.Fatalf("exit status %d: %s", st, d.stderr.String())
	}
	if !strings.Contains(d.stderr.String(), "snapshot length 80 bytes") {
		t.Errorf("listening line: %s", d.stderr.String())
	}
	ls := lines(d.stdout.String())
	for i, l := range ls {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		// RDMA WRITE First (with its RETH), then Middle, at MTU 4096.
		want := 4154.0
		if i == 0 {
			want = 4170
		}
		if m["frame.cap_len"] != float64(80) || m["frame.len"] != want || m["infiniband.invariant.crc.status"] != "unchecked" {
			t.Errorf("line %d: cap_len %v, len %v, icrc %v; want 80, %v, unchecked", i+1, m["frame.cap_len"], m["frame.len"], m["infiniband.invariant.crc.status"], want)
		}
	}
	if len(ls) != 3 {
		t.Errorf("%d lines, want 3", len(ls))
	}
}

// TestLiveStats: SIGTERM ends a -stats capture with the summary.
func TestLiveStats(t *testing.T) {
	link := vethtest.Pair(t)
	dumpBin, genBin := binaries(t)
	d := startDump(t, dumpBin, "-i", link.Recv, "-stats", "-json")
	runGen(t, genBin, "-i", link.Send, "-loop", "3")
	if st := d.stop(t, syscall.SIGTERM); st != 0 {
		t.Fatalf("exit status %d: %s", st, d.stderr.String())
	}
	var rep struct {
		Totals struct {
			Frames, RoCE int
			BadICRC      int `json:"bad_icrc"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(d.stdout.String()), &rep); err != nil {
		t.Fatalf("%v: %s", err, d.stdout.String())
	}
	if rep.Totals.RoCE < 51 || !link.Loopback && rep.Totals.Frames != 51 || rep.Totals.BadICRC != 0 {
		t.Errorf("totals %+v, want 51 RoCE frames (3 loops of 17), no bad ICRC\n%s", rep.Totals, d.stdout.String())
	}
}

// TestLiveDrops: a receive buffer too small for the burst makes the
// kernel drop frames, which the closing lines count: captured and
// dropped make up what reached the socket.
func TestLiveDrops(t *testing.T) {
	link := vethtest.Pair(t)
	if link.Loopback {
		t.Skip("drop counts need a link of our own")
	}
	dumpBin, genBin := binaries(t)
	d := startDump(t, dumpBin, "-i", link.Recv, "-B", "1", "-stats")
	runGen(t, genBin, "-i", link.Send, "-loop", "50")
	if st := d.stop(t, syscall.SIGINT); st != 0 {
		t.Fatalf("exit status %d: %s", st, d.stderr.String())
	}
	captured, received, dropped := closing(t, d.stderr.String())
	if received != 850 || captured+dropped != received || dropped == 0 {
		t.Errorf("%d captured, %d received, %d dropped: want 850 received, some dropped, the rest captured", captured, received, dropped)
	}
}

// TestLiveFlags: -i and a file exclude each other; the live flags need
// -i.
func TestLiveFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-i", "lo", "x.pcap"}, `-i lo and capture file "x.pcap"`},
		{[]string{"-r", "x.pcap", "-i", "lo"}, `-i lo and capture file "x.pcap"`},
		{[]string{"-s", "100", "x.pcap"}, "give -i IFACE"},
		{[]string{"-i", "lo", "-s", "300000"}, "-s 300000"},
		{[]string{"-i", "lo", "-i", "eth0"}, "given twice"},
	} {
		st, _, errs := runCmd(t, nil, c.args...)
		if st != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", c.args, st, errs, c.want)
		}
	}
	st, _, errs := runCmd(t, nil, "-i", "no-such-if0")
	if st != 2 || !strings.Contains(errs, "no-such-if0") {
		t.Errorf("a missing interface: status %d, %q", st, errs)
	}
}
