package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

const capDir = "../../testdata/captures"

// frames per capture, from testdata/captures/README.md, and the exit
// status rocedump must give.
var captures = []struct {
	name   string
	frames int
	status int
}{
	{"rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap", 123, 0},
	{"rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", 4004, 0},
	{"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 12, 0},
	{"rocev2_ipv4_rdmacm_write_read_rxe_b.pcap", 16, 0},
	{"ib_native_erf_dag_smp_ipoib_cm.pcap", 43, 0}, // LINKTYPE_ERF, native InfiniBand
	{"ecn_ipv4_udp_all_ce_p4switch.pcap", 3616, 0},
	{"ecn_tcp_accecn_handshake_ect0_ect1.pcap", 6, 0},
}

func runCmd(t *testing.T, stdin []byte, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(args, bytes.NewReader(stdin), &out, &errb)
	return status, out.String(), errb.String()
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func TestCaptures(t *testing.T) {
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(capDir, c.name)
			st, out, errs := runCmd(t, nil, path)
			if st != c.status || len(lines(out)) != c.frames {
				t.Errorf("text: status %d, %d lines; want %d, %d (stderr %q)", st, len(lines(out)), c.status, c.frames, errs)
			}
			st, out, _ = runCmd(t, nil, "-json", "-r", path)
			ls := lines(out)
			if st != c.status || len(ls) != c.frames {
				t.Errorf("json: status %d, %d lines; want %d, %d", st, len(ls), c.status, c.frames)
			}
			for i, l := range ls {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("line %d: %v: %s", i+1, err, l)
				}
				if m["frame.number"] != float64(i+1) {
					t.Fatalf("line %d: frame.number %v", i+1, m["frame.number"])
				}
			}
			// The command prints exactly what the library formats.
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			src, err := capfile.NewSource(f)
			if err != nil {
				t.Fatal(err)
			}
			var lib bytes.Buffer
			if _, err := dump.Dump(&lib, src, dump.Options{JSON: true}); err != nil {
				t.Fatal(err)
			}
			if lib.String() != out {
				t.Errorf("rocedump -json differs from dump.Dump")
			}
		})
	}
}

func TestStdin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	st1, out1, _ := runCmd(t, b, "-utc")
	st2, out2, _ := runCmd(t, b, "-utc", "-")
	st3, out3, _ := runCmd(t, nil, "-utc", filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap"))
	if st1 != 0 || st2 != 0 || st3 != 0 || len(lines(out1)) != 16 || out1 != out2 || out1 != out3 {
		t.Errorf("stdin, -, and a file disagree: %d %d %d, %d lines", st1, st2, st3, len(lines(out1)))
	}
	// Frame 5 of _b, RDMA WRITE Only, as tshark shows it: 192.168.2.25 ->
	// 192.168.2.24, QP 0x000011, RETH with DMA length 18.
	if l := lines(out1)[3]; !strings.HasPrefix(l, "17:29:05.518062 192.168.2.25:62017 > 192.168.2.24:4791 RoCEv2 RC RDMA WRITE Only qp 0x000011 ") ||
		!strings.Contains(l, " dmalen 18 payload 18 icrc good") {
		t.Errorf("line 4: %s", l)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pcap")
	if err := os.WriteFile(junk, []byte("this is not a packet capture, just some text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.pcap")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"missing file", []string{filepath.Join(dir, "no-such-file.pcap")}},
		{"junk", []string{junk}},
		{"empty", []string{"-json", empty}},
		{"two files", []string{junk, junk}},
		{"bad flag", []string{"-nosuchflag"}},
	} {
		st, out, errs := runCmd(t, nil, tc.args...)
		if st != 2 || out != "" || errs == "" {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2, nothing, a message", tc.name, st, out, errs)
		}
	}
}

func TestTruncated(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	// Keep about half the file and cut a record in the middle: the
	// records are 16 + 78 (write) or 16 + 62 (ack) bytes.
	cut := b[:len(b)/2]
	path := filepath.Join(t.TempDir(), "cut.pcap")
	if err := os.WriteFile(path, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	// The record cut, found by walking the pcap records (a 24-byte
	// file header, then a 16-byte header and caplen bytes each).
	frame, off := 1, 24
	for off+16+int(binary.LittleEndian.Uint32(cut[off+8:])) <= len(cut) {
		off += 16 + int(binary.LittleEndian.Uint32(cut[off+8:]))
		frame++
	}
	want := fmt.Sprintf("after %d frames: frame %d: pcap record at offset %d: cut short by the end of the capture\n", frame-1, frame, off)
	for _, args := range [][]string{{path}, {"-json", path}} {
		st, out, errs := runCmd(t, nil, args...)
		n := len(lines(out))
		if st != 1 || !strings.HasSuffix(errs, want) || strings.Contains(errs, "roce:") {
			t.Errorf("%v: status %d, stderr %q; want 1 and %q", args, st, errs, want)
		}
		if n != frame-1 || n < 1900 || n > 2100 {
			t.Errorf("%v: %d lines printed, want %d", args, n, frame-1)
		}
	}
}

func TestMalformed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	// Frame 1 is a 322-byte UD SEND Only after the 24-byte file header
	// and its 16-byte record header; cut inside its DETH (Ethernet 14,
	// IPv4 20, UDP 8, BTH 12, DETH 8 bytes): its headers are cut, so it
	// is malformed. (A frame cut after its headers decodes, its ICRC
	// unchecked: TestStatsSnapLength.)
	fr := b[24+16 : 24+16+322]
	path := oracle.WritePcap(t, t.TempDir(), "malformed.pcap", [][]byte{fr, fr[:58], fr})
	st, out, errs := runCmd(t, nil, path)
	ls := lines(out)
	if st != 1 || len(ls) != 3 || !strings.Contains(ls[1], " malformed: ") || !strings.Contains(errs, "1 of 3") {
		t.Errorf("status %d, stderr %q, output:\n%s", st, errs, out)
	}
	st, out, _ = runCmd(t, nil, "-json", path)
	ls = lines(out)
	var m map[string]any
	if st != 1 || len(ls) != 3 || json.Unmarshal([]byte(ls[1]), &m) != nil || m["_error"] == nil {
		t.Errorf("json: status %d, output:\n%s", st, out)
	}
}

// TestTshark checks the command's JSON against tshark on the capture
// whose RoCE source port (69) tshark would otherwise take for TFTP.
func TestTshark(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap")
	ts := oracle.Tshark(t, path, "--disable-protocol", "tftp")
	st, out, _ := runCmd(t, nil, "-json", path)
	ls := lines(out)
	if st != 0 || len(ls) != len(ts) {
		t.Fatalf("status %d, %d lines, tshark %d frames", st, len(ls), len(ts))
	}
	compared, ib := 0, 0
	for i, l := range ls {
		d := json.NewDecoder(strings.NewReader(l))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if _, ok := ts[i].First("infiniband.bth.opcode"); ok != (m["infiniband.bth.opcode"] != nil) {
			t.Errorf("frame %d: tshark and rocedump disagree on whether it is RoCE", i+1)
		}
		for _, k := range []string{"infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
			"infiniband.bth.padcnt", "infiniband.aeth.syndrome", "infiniband.aeth.msn", "infiniband.invariant.crc",
			"udp.srcport", "ip.dsfield.ecn"} {
			theirs, ok := ts[i].First(k)
			if !ok {
				continue
			}
			n, _ := m[k].(json.Number)
			a, err1 := strconv.ParseUint(string(n), 10, 64)
			b, err2 := strconv.ParseUint(theirs, 0, 64)
			if err1 != nil || err2 != nil || a != b {
				t.Errorf("frame %d: %s = %v, tshark %q", i+1, k, m[k], theirs)
			}
			compared++
		}
		if imm, ok := ts[i].First("infiniband.immdt"); ok {
			if m["infiniband.immdt"] != strings.ReplaceAll(imm, ":", "") {
				t.Errorf("frame %d: immdt %v, tshark %q", i+1, m["infiniband.immdt"], imm)
			}
			compared++
		}
		if m["infiniband.bth.opcode"] != nil {
			ib++
		}
	}
	t.Logf("%d values compared, %d RoCE frames", compared, ib)
	if ib != 105 || compared < 854 { // measured with tshark 4.0.17
		t.Errorf("%d RoCE frames (testdata/captures/README.md: 105), %d values compared", ib, compared)
	}
}
