package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// tsharkNames returns the names of the field table tshark 4.0 knows
// (tshark -G fields), each once: a field's own, or the Wireshark name it
// answers to (Field.Also).
func tsharkNames(t *testing.T, bin string) []string {
	t.Helper()
	cmd := exec.Command(bin, "-G", "fields")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark -G fields: %v", err)
	}
	ws := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if c := strings.Split(l, "\t"); len(c) > 2 && c[0] == "F" {
			ws[c[2]] = true
		}
	}
	seen := map[string]bool{}
	var names []string
	for _, f := range dump.Fields() {
		for _, n := range []string{f.Name, f.Also} {
			if n != "" && ws[n] && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names
}

// doubleTagged returns a copy of the capture at path with a second
// 802.1Q tag (VLAN 200) inside the first of every tagged frame.
func doubleTagged(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	for {
		data, _, err := r.ReadPacketData()
		if err != nil {
			break
		}
		if len(data) > 16 && data[12] == 0x81 && data[13] == 0 {
			data = append(append(append([]byte{}, data[:16]...), 0x81, 0, 0x40, 200), data[16:]...)
		}
		frames = append(frames, data)
	}
	return oracle.WritePcap(t, t.TempDir(), "qinq.pcap", frames)
}

// TestTsharkFields compares rocedump -T fields with tshark 4.0's -T fields
// byte for byte, on every shipped capture and on rocegen captures with CM, PFC, ECN marks and one or two VLAN tags: every field
// of the table tshark knows, with the default -E settings and with each
// of the others.
func TestTsharkFields(t *testing.T) {
	bin := oracle.Need(t, "tshark")
	names := tsharkNames(t, bin)
	if len(names) < 300 {
		t.Fatalf("only %d fields tshark knows", len(names))
	}
	paths, _ := filepath.Glob(filepath.Join(capDir, "*.pcap"))
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery = 2048, 1024, 20, 2, 3
	cfg.PFCEvery, cfg.PFCPrio, cfg.PFCQuanta = 10, 3, 65535
	cfg.CM, cfg.VLAN, cfg.PCP = true, 100, 3
	g, _ := genCapture(t, cfg)
	paths = append(paths, g, doubleTagged(t, g))
	settings := [][]string{
		nil,
		{"-E", "header=y", "-E", "separator=,", "-E", "quote=d", "-E", "aggregator=;"},
		{"-E", "occurrence=f", "-E", "separator=/s"},
		{"-E", "occurrence=l", "-E", "quote=s"},
	}
	var args []string
	for _, n := range names {
		args = append(args, "-e", n)
	}
	cells, skipped := 0, 0
	col := map[string]int{}
	for i, n := range names {
		col[n] = i
	}
	for _, path := range paths {
		for _, set := range settings {
			targs := append(append([]string{"-n", "-r", path, "-T", "fields"}, oracle.TsharkRoCEArgs...), set...)
			cmd := exec.Command(bin, append(targs, args...)...)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			want, err := cmd.Output()
			if err != nil {
				t.Fatalf("tshark: %v\n%s", err, stderr.String())
			}
			st, have, errs := runCmd(t, nil, append(append([]string{"-T", "fields"}, set...), append(args, path)...)...)
			if st != 0 {
				t.Fatalf("%s %v: exit status %d: %s", filepath.Base(path), set, st, errs)
			}
			sep := "\t"
			for i := 0; i+1 < len(set); i += 2 {
				switch set[i+1] {
				case "separator=,":
					sep = ","
				case "separator=/s":
					sep = " "
				}
			}
			hl, wl := lines(have), lines(string(want))
			if len(hl) != len(wl) {
				t.Errorf("%s %v: %d lines, tshark %d", filepath.Base(path), set, len(hl), len(wl))
				continue
			}
			bad := 0
			for i := range wl {
				if hl[i] == wl[i] {
					for _, c := range strings.Split(wl[i], sep) {
						if c != "" {
							cells++
						}
					}
					continue
				}
				hc, wc := strings.Split(hl[i], sep), strings.Split(wl[i], sep)
				if len(hc) != len(wc) {
					t.Errorf("%s %v: line %d: %d columns, tshark %d", filepath.Base(path), set, i+1, len(hc), len(wc))
					continue
				}
				// A frame tshark does not take for RoCE (a BTH it does not
				// decode: frame 15 of the TCP bootstrap capture) leaves its
				// InfiniBand columns empty.
				notRoCE := wc[col["infiniband.bth.opcode"]] == "" && hc[col["infiniband.bth.opcode"]] != ""
				for j := range wc {
					if hc[j] == wc[j] {
						if wc[j] != "" {
							cells++
						}
						continue
					}
					if notRoCE && strings.HasPrefix(names[j], "infiniband.") && wc[j] == "" {
						skipped++
						continue
					}
					if knownDifference(names[j], strings.Trim(hc[j], `"'`), strings.Trim(wc[j], `"'`), set) {
						skipped++
						continue
					}
					if bad++; bad <= 10 {
						t.Errorf("%s %v: line %d, %s: %q, tshark %q", filepath.Base(path), set, i+1, names[j], hc[j], wc[j])
					}
				}
			}
		}
	}
	t.Logf("%d captures, %d fields, 4 -E settings: %d columns with values equal to tshark's, byte for byte; %d columns of known differences (knownDifference)", len(paths), len(names), cells, skipped)
}

// knownDifference reports whether a column of ours (have) that differs
// from tshark's (want) is one of tshark 4.0's known departures from what
// the frame holds, which rocedump does not copy: it prints an ImmDt or
// IETH twice (its dissector adds the field twice: the value, the
// aggregator, the value), shows no IPoIB header in a native
// InfiniBand packet (ipoib.type, ipoib.reserved), shows no ICRC where a
// payload dissector of its own (CRTP on a 2-byte RDMA WRITE payload)
// fails before it, and misreads the CM REQ path's flow label and packet
// rate, the RMPP header's second byte and the directed-route D bit (the
// fields dump's tsharkWrong lists).
func knownDifference(name, have, want string, set []string) bool {
	switch name {
	case "infiniband.immdt", "infiniband.ieth":
		for _, agg := range []string{",", ";"} {
			if want == have+agg+have {
				return true
			}
		}
		return strings.Contains(strings.Join(set, " "), "occurrence=") && want == have
	case "infiniband.cm.req.prim_flowlabel", "infiniband.cm.req.prim_pktrate", "infiniband.cm.req.alt_flowlabel",
		"infiniband.cm.req.alt_pktrate", "infiniband.rmpp.rresptime", "infiniband.rmpp.rmppflags", "infiniband.smpdirected.d":
		return true
	case "ipoib.type", "ipoib.reserved", "infiniband.invariant.crc":
		return want == "" && have != ""
	}
	return false
}

// TestTAliases checks -T json and -T text, tshark's names of rocedump's
// JSON and text lines, and -e FIELD without -T fields, refused.
func TestTAliases(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	for _, c := range [][2][]string{{{"-T", "json"}, {"-json"}}, {{"-T", "text", "-utc"}, {"-utc"}}, {{"-Tfields", "-e", "ip.src", "-e", "vlan.id"}, {"-T", "fields", "-e", "ip.src", "-E", "separator=/t", "-e", "vlan.id"}}} {
		st1, out1, err1 := runCmd(t, nil, append(c[0], path)...)
		st2, out2, err2 := runCmd(t, nil, append(c[1], path)...)
		if st1 != 0 || st1 != st2 || out1 != out2 || err1 != err2 || out1 == "" {
			t.Errorf("%v: status %d, %d bytes, %q; %v: %d, %d bytes, %q", c[0], st1, len(out1), err1, c[1], st2, len(out2), err2)
		}
	}
	st, out, errs := runCmd(t, nil, "-e", "ip.src", path)
	if st != 2 || out != "" || !strings.Contains(errs, "-e ip.src: a field is printed with -T fields -e FIELD") {
		t.Errorf("-e ip.src without -T fields: status %d, %q, %q", st, out, errs)
	}
}
