package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roce-go/roce/internal/testkit/oracle"
)

// ngBlock is a little-endian pcapng block of type typ around body.
func ngBlock(typ uint32, body []byte) []byte {
	n := uint32(12 + len(body))
	b := binary.LittleEndian.AppendUint32(nil, typ)
	b = binary.LittleEndian.AppendUint32(b, n)
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, n)
}

// ngEPB is the body of an Enhanced Packet Block of frame on interface
// id.
func ngEPB(id uint32, frame []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, id)
	b = binary.LittleEndian.AppendUint64(b, 0) // timestamp
	b = binary.LittleEndian.AppendUint32(b, uint32(len(frame)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(frame)))
	return append(b, frame...)
}

// ngStart is a Section Header Block and one Ethernet interface.
func ngStart() []byte {
	shb := binary.LittleEndian.AppendUint32(nil, 0x1a2b3c4d)
	shb = binary.LittleEndian.AppendUint16(shb, 1)
	shb = binary.LittleEndian.AppendUint16(shb, 0)
	shb = binary.LittleEndian.AppendUint64(shb, ^uint64(0))
	idb := binary.LittleEndian.AppendUint16(nil, 1)
	idb = binary.LittleEndian.AppendUint16(idb, 0)
	idb = binary.LittleEndian.AppendUint32(idb, 0)
	return append(ngBlock(0x0a0d0d0a, shb), ngBlock(1, idb)...)
}

// TestHugeBlockMessage: a pcapng block claiming 2 GB, in a file that
// ends 88 bytes into it, is reported with its frame number, its byte
// offset and what is wrong (its length runs past the end), read from a
// file (mapped) or from a pipe; tshark too stops there, after the same
// two frames.
func TestHugeBlockMessage(t *testing.T) {
	frame := make([]byte, 60)
	start := ngStart()
	epb := ngBlock(6, ngEPB(0, frame))
	huge := ngBlock(6, ngEPB(0, frame))
	binary.LittleEndian.PutUint32(huge[4:], 1<<31)
	b := append(append(append(append([]byte(nil), start...), epb...), epb...), huge...)
	off := len(start) + 2*len(epb)
	path := filepath.Join(t.TempDir(), "huge.pcapng")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stdin []byte
		args  []string
	}{{path, nil, []string{path}}, {"standard input", b, []string{"-j", "1"}}, {path, nil, []string{"-stats", path}}} {
		st, out, errs := runCmd(t, tc.stdin, tc.args...)
		want := fmt.Sprintf("rocedump: %s: after 2 frames: frame 3: Enhanced Packet Block at offset %d: total length 2147483648 runs past the end of the capture, %d bytes into the block (cut short, or a wrong length)\n",
			tc.name, off, len(b)-off)
		if st != 1 || errs != want || tc.args[0] != "-stats" && len(lines(out)) != 2 {
			t.Errorf("%v: status %d, %d lines, stderr %q; want 1, 2 lines and %q", tc.args, st, len(lines(out)), errs, want)
		}
	}
	// tshark reads the two frames before it (its own message:
	// "pcapng: total block length 2147483648 is too large").
	if fields := tsharkTolerant(t, path); fields != 2 {
		t.Errorf("tshark reads %d frames, want 2", fields)
	}
}

// tsharkTolerant counts the frames tshark reads from a capture it may
// call damaged.
func tsharkTolerant(t *testing.T, path string) int {
	t.Helper()
	out, _ := execOutput(oracle.Need(t, "tshark"), "-n", "-r", path, "-T", "fields", "-e", "frame.number")
	return len(lines(out))
}

// TestERFTypeMessage: an ERF record of a type rocedump does not decode
// is not a link type rocedump does not decode: the capture is ERF,
// which it reads. The frame shows what it is, the message says how many
// frames are such records and which types are decoded, and the exit
// status is 1 (frames that did not decode), not 2. tshark reads the
// same 43 frames.
func TestERFTypeMessage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	// Frame 3's ERF type byte (after the 24-byte file header, each
	// record's 16-byte header and its captured bytes; the type is at
	// offset 8 of the ERF header) becomes 7.
	off := 24
	for n := 1; n < 3; n++ {
		off += 16 + int(binary.LittleEndian.Uint32(b[off+8:]))
	}
	b[off+16+8] = b[off+16+8]&0x80 | 7
	path := filepath.Join(t.TempDir(), "erf7.pcap")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "rocedump: " + path + ": 1 of 43 frames are ERF records of a type rocedump does not decode (it decodes types 2, Ethernet, and 21, InfiniBand)\n"
	for _, args := range [][]string{{path}, {"-json", path}, {"-stats", path}} {
		st, out, errs := runCmd(t, nil, args...)
		if st != 1 || errs != want {
			t.Errorf("%v: status %d, stderr %q; want 1 and %q", args, st, errs, want)
		}
		if args[0] == path && lines(out)[2] != "19:48:02.908070 ERF record type 7 not supported yet len 174" && !strings.Contains(lines(out)[2], " ERF record type 7 not supported yet") {
			t.Errorf("frame 3: %s", lines(out)[2])
		}
	}
	if n := tsharkTolerant(t, path); n != 43 {
		t.Errorf("tshark reads %d frames, want 43", n)
	}
}

// internalPrefix finds a package's prefix in a message: "roce: ", or a
// package name after the command's name or a ": ".
var internalPrefix = regexp.MustCompile(`(^|: )(roce|dump|capture|gen|parquet|parquetrows): `)

// checkMessages holds stderr to the rules of a command's messages: each
// line starts with the command's name (tcpdump's closing counts of -i
// aside), none carries a package's prefix or the flag package's wording,
// and the usage line follows only a command line of the wrong shape.
func checkMessages(t *testing.T, cmd, stderr string, usage bool) {
	t.Helper()
	for _, l := range lines(stderr) {
		switch {
		case strings.HasPrefix(l, "usage: "+cmd), l == "("+cmd+" -h lists the flags)", strings.HasPrefix(l, "    "):
		case regexp.MustCompile(`^\d+ packets? (captured|received by filter|dropped by kernel)$`).MatchString(l):
		case !strings.HasPrefix(l, cmd+": "):
			t.Errorf("a line without %q: %q", cmd+": ", l)
		case internalPrefix.MatchString(strings.TrimPrefix(l, cmd+": ")):
			t.Errorf("an internal prefix: %q", l)
		case strings.Contains(l, "invalid value") || strings.Contains(l, "for flag -"):
			t.Errorf("the flag package's wording: %q", l)
		}
	}
	if got := strings.Contains(stderr, "usage: "+cmd); got != usage {
		t.Errorf("usage line %v, want %v: %q", got, usage, stderr)
	}
}

// TestMessages: every kind of message rocedump prints, each brought
// about, holds to the rules: the command's name first, the flag and
// the value, the frame or byte offset, no internal prefix, the usage
// line only after a flag it does not know, one without its value, a
// flag given twice; a -Y error is the filter with its caret and nothing
// more.
func TestMessages(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pcap")
	os.WriteFile(junk, []byte("this is not a packet capture\n"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	a := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	// A pcapng file whose second packet names an interface never
	// described: reported and skipped.
	frame := make([]byte, 60)
	badIf := append(append(append(ngStart(), ngBlock(6, ngEPB(0, frame))...), ngBlock(6, ngEPB(5, frame))...), ngBlock(6, ngEPB(0, frame))...)
	badIfPath := filepath.Join(dir, "badif.pcapng")
	os.WriteFile(badIfPath, badIf, 0o644)
	// A pcap of link type 105 (IEEE 802.11), which rocedump does not
	// decode.
	wifi := filepath.Join(dir, "wifi.pcap")
	hdr := binary.LittleEndian.AppendUint32(nil, 0xa1b2c3d4)
	hdr = binary.LittleEndian.AppendUint16(hdr, 2)
	hdr = binary.LittleEndian.AppendUint16(hdr, 4)
	hdr = binary.LittleEndian.AppendUint64(hdr, 0)
	hdr = binary.LittleEndian.AppendUint32(hdr, 65535)
	hdr = binary.LittleEndian.AppendUint32(hdr, 105)
	rec := binary.LittleEndian.AppendUint64(nil, 0)
	rec = binary.LittleEndian.AppendUint32(rec, 24)
	rec = binary.LittleEndian.AppendUint32(rec, 24)
	os.WriteFile(wifi, append(append(hdr, rec...), make([]byte, 24)...), 0o644)

	for _, tc := range []struct {
		args   []string
		status int
		want   []string // in order, each in a line of its own
		usage  bool
	}{
		{[]string{"-nosuch", a}, 2, []string{"rocedump: flag provided but not defined: -nosuch"}, true},
		{[]string{a, "-c"}, 2, []string{"rocedump: flag needs an argument: -c"}, true},
		{[]string{"-c", "1", "-c", "2", a}, 2, []string{`rocedump: -c "2": given twice (already "1"): it takes one value`}, true},
		{[]string{"-c", "x", a}, 2, []string{`rocedump: -c "x": not a whole number`}, false},
		{[]string{"-pfc-storm", "5", "-stats", a}, 2, []string{`rocedump: -pfc-storm "5": not a duration (a number and a unit: 4us, 100ms, 2s)`}, false},
		{[]string{"-opcode", "sned", a}, 2, []string{`rocedump: -opcode: unknown opcode "sned": give an IBTA name`}, false},
		{[]string{"-qp", "0x1000000", a}, 2, []string{`rocedump: -qp`}, false},
		{[]string{"-speed", "1Q", a}, 2, []string{`rocedump: -speed: bad link speed "1Q"`}, false},
		{[]string{"-Y", "ip.srcx == 1", a}, 2, []string{"rocedump: -Y: column 1: ip.srcx is neither a field nor a protocol name", "    ip.srcx == 1", "    ^~~~~~~"}, false},
		{[]string{"-Y", "ip.src ==", a}, 2, []string{"rocedump: -Y: column 10: unexpected end of filter expression"}, false},
		{[]string{"-F", "erf", "-w", "x", a}, 2, []string{`rocedump: -F: unknown capture format "erf": want pcap or pcapng`}, false},
		{[]string{"-c", "-1", a}, 2, []string{"rocedump: -c and -max-flows must be positive"}, false},
		{[]string{"-j", "-1", a}, 2, []string{"rocedump: -j must not be negative"}, false},
		{[]string{"-t", "-ttttt", a}, 2, []string{"rocedump: only -t, -tt, -ttt, -tttt and -ttttt are supported"}, false},
		{[]string{"-s", "100", a}, 2, []string{"rocedump: -s, -p, -B and -all are for a live capture: give -i IFACE"}, false},
		{[]string{"-i", "lo", a}, 2, []string{`rocedump: -i lo and capture file "` + a + `": capture live or read a file, not both`}, false},
		{[]string{"-timeline-flows", "0", "-timeline", "x.html", a}, 2, []string{"rocedump: -timeline-flows must be positive"}, false},
		{[]string{"-json", "-v", a}, 2, []string{"rocedump: -v shapes the text lines, which -json does not print"}, false},
		{[]string{"-w", filepath.Join(dir, "x.pcap"), a, a}, 2, []string{"rocedump: -w writes the frames of one capture, not of several captures"}, false},
		{[]string{"-", a}, 2, []string{"rocedump: standard input (-) can only be read alone"}, false},
		{[]string{"-timeline", a, a}, 2, []string{"rocedump: -timeline " + a + ": the capture being read: no output may overwrite an input"}, false},
		{[]string{filepath.Join(dir, "missing.pcap")}, 2, []string{"rocedump: open " + filepath.Join(dir, "missing.pcap") + ": no such file or directory"}, false},
		{[]string{junk}, 2, []string{"rocedump: " + junk + ": not a pcap or pcapng capture: unknown magic number 74686973"}, false},
		{[]string{junk, a}, 2, []string{"rocedump: " + junk + ": not a pcap or pcapng capture: unknown magic number 74686973"}, false},
		{[]string{"-stats", junk, a}, 2, []string{"rocedump: " + junk + ": not a pcap or pcapng capture: unknown magic number 74686973"}, false},
		{[]string{empty, a}, 2, []string{"rocedump: " + empty + ": no capture files (*.pcap, *.pcapng, *.cap, .gz); -R reads subdirectories"}, false},
		{[]string{"-w", filepath.Join(dir, "no", "x.pcap"), a}, 2, []string{"rocedump: -w: open " + filepath.Join(dir, "no", "x.pcap") + ": no such file or directory"}, false},
		{[]string{"-parquet", filepath.Join(dir, "no", "x.parquet"), a}, 2, []string{"rocedump: -parquet: open " + filepath.Join(dir, "no", "x.parquet") + ": no such file or directory"}, false},
		{[]string{"-timeline", filepath.Join(dir, "no", "x.html"), a}, 2, []string{"rocedump: -timeline: open " + filepath.Join(dir, "no", "x.html") + ": no such file or directory"}, false},
		{[]string{"-timeline", filepath.Join(dir, "no", "x.html"), a, a}, 2, []string{"rocedump: -timeline: open " + filepath.Join(dir, "no", "x.html") + ": no such file or directory"}, false},
		{[]string{badIfPath}, 1, []string{
			"rocedump: " + badIfPath + fmt.Sprintf(": frame 2: Enhanced Packet Block at offset %d: interface 5", len(ngStart())+len(ngBlock(6, ngEPB(0, frame)))) + ", which the section has not described (it describes 1)",
			"rocedump: " + badIfPath + ": 1 records could not be read and were skipped"}, false},
		{[]string{wifi}, 2, []string{"rocedump: " + wifi + ": 1 frames of a link type rocedump does not decode"}, false},
		{[]string{"-i", "no-such-if0"}, 2, []string{"rocedump: no-such-if0: no such network interface"}, false},
	} {
		st, _, errs := runCmd(t, nil, tc.args...)
		if st != tc.status {
			t.Errorf("%q: status %d, want %d (stderr %q)", tc.args, st, tc.status, errs)
		}
		rest := errs
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 || i > 0 && rest[i-1] != '\n' {
				t.Errorf("%q: stderr %q; want a line %q", tc.args, errs, w)
				break
			}
			rest = rest[i+len(w):]
		}
		checkMessages(t, "rocedump", errs, tc.usage)
		if !tc.usage && tc.status == 2 && strings.Count(errs, "\n") != len(tc.want) && !strings.Contains(tc.args[0], "-Y") {
			t.Errorf("%q: %d lines of messages, want %d: %q", tc.args, strings.Count(errs, "\n"), len(tc.want), errs)
		}
	}
	// The -Y error is three lines: the message, the filter, the caret.
	if _, _, errs := runCmd(t, nil, "-Y", "ip.srcx == 1", a); strings.Count(errs, "\n") != 3 {
		t.Errorf("-Y: %q; want three lines", errs)
	}
	// A write error on standard output names what failed.
	var errb bytes.Buffer
	if st := run([]string{"-json", a, a}, nil, &failAfter{n: 100}, &errb); st != 1 {
		t.Errorf("a failing standard output: status %d", st)
	}
	checkMessages(t, "rocedump", errb.String(), false)
}

// execOutput runs a program and returns its standard output.
func execOutput(bin string, args ...string) (string, error) {
	out, err := exec.Command(bin, args...).Output()
	return string(out), err
}
