package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// tcpdumpOut runs tcpdump -n -r path with flags, in UTC, and returns its
// standard output.
func tcpdumpOut(t *testing.T, path string, flags ...string) string {
	t.Helper()
	return tcpdumpIn(t, "UTC", path, flags...)
}

// tcpdumpIn is tcpdumpOut in the time zone tz.
func tcpdumpIn(t *testing.T, tz, path string, flags ...string) string {
	t.Helper()
	bin := oracle.Need(t, "tcpdump")
	cmd := exec.Command(bin, append([]string{"-n", "-r", path}, flags...)...)
	cmd.Env = append(os.Environ(), "TZ="+tz)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tcpdump %q %s: %v: %s", flags, filepath.Base(path), err, errb.String())
	}
	return string(out)
}

// rocedumpOut runs rocedump -utc with flags on path and returns its
// standard output.
func rocedumpOut(t *testing.T, path string, flags ...string) string {
	t.Helper()
	st, out, errs := runCmd(t, nil, append(append([]string{"-utc"}, flags...), path)...)
	if st == 1 && strings.HasPrefix(filepath.Base(path), "cut_") && strings.Contains(errs, "frames did not decode") {
		st = 0 // frames cut in their headers, malformed on purpose
	}
	if st != 0 {
		t.Fatalf("rocedump %q %s: status %d: %s\n%s", flags, filepath.Base(path), st, errs, out)
	}
	return out
}

// tcpdumpCaptures returns the captures both tools are run on: the shipped
// Ethernet captures (tcpdump does not decode ERF), generated ones with
// VLAN tags, RoCEv1, IPv6, PFC and CNPs, and synthetic ones with QinQ, a
// DEI bit, an odd length, times out of order and far apart, and the
// Linux cooked and raw IP link types. The bool says whether a line starts
// with the interface name tcpdump takes from this host (SLL2).
func tcpdumpCaptures(t *testing.T) map[string]bool {
	paths := map[string]bool{}
	shipped, _ := filepath.Glob(filepath.Join(capDir, "*.pcap"))
	for _, p := range shipped {
		if !strings.Contains(p, "erf") {
			paths[p] = false
		}
	}
	var frames [][]byte
	for _, enc := range []string{"v1", "v2", "v2-ipv6"} {
		cfg := gen.DefaultConfig()
		if err := cfg.Set("encap", enc); err != nil {
			t.Fatal(err)
		}
		cfg.Size, cfg.MTU, cfg.VLAN, cfg.PCP, cfg.PFCEvery = 3000, 1024, 100, 5, 2
		if enc != "v1" {
			cfg.CEEvery = 2
		}
		p, _ := genCapture(t, cfg)
		paths[p] = false
		g, err := gen.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3 && g.Next(); i++ {
			frames = append(frames, bytes.Clone(g.Frame()))
		}
	}
	dir := t.TempDir()
	v2 := frames[3] // a RoCEv2 frame tagged 0x8100, VLAN 100, PCP 5
	qinq := append(append(bytes.Clone(v2[:12]), 0x88, 0xa8, 0xb0, 0x07), v2[12:]...)
	qinq[18] |= 0x10 // the inner tag's DEI
	udp := bytes.Clone(v2[:18+20+8+7])
	binary.BigEndian.PutUint16(udp[18+2:], 20+8+7) // IPv4 total length
	binary.BigEndian.PutUint16(udp[18+20+2:], 9)   // UDP port 9, not RoCE
	binary.BigEndian.PutUint16(udp[18+20+4:], 8+7) // UDP length: 7 bytes of payload, an odd frame
	untagged := append(bytes.Clone(v2[:12]), v2[16:]...)
	frames = append(frames, qinq, udp, untagged)
	// Frames of Ethertypes tcpdump names, 46 zero bytes after the header
	// (not MPLS or Slow Protocols, whose zeros tcpdump's -x prints from
	// elsewhere).
	for _, et := range []uint16{0x8035, 0x88f7, 0x8863, 0x8864} {
		frames = append(frames, binary.BigEndian.AppendUint16(bytes.Clone(v2[:12]), et))
		frames[len(frames)-1] = append(frames[len(frames)-1], make([]byte, 46)...)
	}
	paths[writeTestCapture(t, dir, "ethernet.pcap", capfile.LinkTypeEthernet, frames)] = false
	paths[writeTestCapture(t, dir, "ieee8023.pcap", capfile.LinkTypeEthernet, ieee8023Frames(v2[:12]))] = false
	paths[writeTestCapture(t, dir, "cut_tags.pcap", capfile.LinkTypeEthernet, cutTagFrames(v2))] = false
	ip := untagged[14:]
	sll := append([]byte{0, 4, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00}, ip...)
	sll2 := append([]byte{0x08, 0x00, 0, 0, 0, 0, 0, 1, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0}, ip...)
	paths[writeTestCapture(t, dir, "sll.pcap", capfile.LinkTypeLinuxSLL, [][]byte{sll, sll})] = false
	paths[writeTestCapture(t, dir, "sll2.pcap", capfile.LinkTypeLinuxSLL2, [][]byte{sll2, sll2})] = true
	paths[writeTestCapture(t, dir, "raw.pcap", capfile.LinkTypeRaw, [][]byte{ip, ip})] = false
	return paths
}

// ieee8023Frames are 802.3 frames, whose type field is a length, after
// the MAC addresses macs: 802.2 LLC headers of every form tcpdump's LLC
// printer takes (unnumbered, 3 bytes; information and supervisory, 4;
// SNAP, 8, with an Ethertype it decodes and one it does not), payloads of
// several lengths, frames padded to 60 bytes beyond their length, a
// length larger than the frame, lengths of 0, 2 and 1500, types just
// above 1500 (not yet Ethertypes), and the same behind VLAN tags.
func ieee8023Frames(macs []byte) [][]byte {
	frame := func(tags []uint16, length int, llc []byte, pad int) []byte {
		b := bytes.Clone(macs)
		for i, tpid := range tags {
			b = binary.BigEndian.AppendUint16(b, tpid)
			b = binary.BigEndian.AppendUint16(b, uint16(0x2000*i+10+i))
		}
		b = binary.BigEndian.AppendUint16(b, uint16(length))
		b = append(b, llc...)
		return append(b, make([]byte, pad)...)
	}
	seq := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i)
		}
		return b
	}
	stp := append([]byte{0x42, 0x42, 0x03}, seq(35)...) // STP BPDU (unknown version)
	ui := append([]byte{0xf0, 0xf0, 0x03}, seq(20)...)  // NetBIOS UI
	ifr := append([]byte{0x06, 0x06, 0x00, 0x00}, seq(30)...)
	sframe := append([]byte{0x06, 0x06, 0x01, 0x02}, seq(30)...)
	snapARP := append([]byte{0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x06}, 0, 1, 8, 0, 6, 4, 0, 1, 2, 0, 0, 0, 0, 1, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 0, 0, 2)
	snapOther := append([]byte{0xaa, 0xaa, 0x03, 0x00, 0x00, 0x0c, 0x20, 0x00}, seq(20)...) // Cisco OUI, CDP
	var out [][]byte
	for _, tags := range [][]uint16{nil, {0x8100}, {0x9100, 0x8100}} {
		for _, llc := range [][]byte{stp[:3], stp[:8], stp, ui, ifr, sframe, snapARP, snapOther} {
			out = append(out, frame(tags, len(llc), llc, 0))
		}
		out = append(out, frame(tags, 10, stp[:10], 40), // padded beyond its length
			frame(tags, 100, ui, 0),             // a length beyond the frame
			frame(tags, 0, make([]byte, 46), 0), // no room for the LLC header: tcpdump -x starts after the MAC header
			// (not a length of 1 or 2: tcpdump then prints those bytes
			// as a packet it cannot decode, a second dump in hex and
			// ASCII even without -x)
			frame(tags, 1500, stp, 0), frame(tags, 1501, seq(46), 0), frame(tags, 1535, seq(46), 0))
	}
	return out
}

// cutTagFrames are the RoCE frame v2 (one 802.1Q tag) behind other VLAN
// stacks, whole and cut by the capture at every byte from the Ethertype
// field of the MAC header to the last byte before the Ethertype after the
// tags completes: inside the tags, where tcpdump prints " [|vlan]".
func cutTagFrames(v2 []byte) [][]byte {
	var out [][]byte
	for _, stack := range [][]byte{{}, {0x88, 0xa8, 0xa0, 0x07}, {0x91, 0x00, 0x20, 0x05, 0x88, 0xa8, 0x30, 0x06}} {
		full := append(append(bytes.Clone(v2[:12]), stack...), v2[12:]...)
		tags := 1 + len(stack)/4
		out = append(out, full)
		for n := 12; n < 14+4*tags; n++ {
			out = append(out, full[:n])
		}
	}
	return out
}

// writeTestCapture writes frames of link type lt to a nanosecond pcap file,
// at times with nanoseconds, one of them earlier than the one before and
// one 101 hours later.
func writeTestCapture(t *testing.T, dir, name string, lt uint16, frames [][]byte) string {
	var b bytes.Buffer
	w := capfile.NewWriter(&b, capfile.FormatPcap, lt)
	ts := time.Unix(1764400000, 123456789)
	for i, fr := range frames {
		switch i {
		case 1:
			ts = ts.Add(-1500 * time.Nanosecond)
		case 2:
			ts = ts.Add(101*time.Hour + 2*time.Minute + 3*time.Second)
		default:
			ts = ts.Add(time.Duration(i) * 1_000_999 * time.Nanosecond)
		}
		if err := w.WriteFrame(fr, len(fr)+i%2*4, ts, lt); err != nil { // some frames cut by 4 bytes
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// textLines returns the lines of s that are not bytes in hex (which
// tcpdump prints, without -x, for an Ethertype it does not decode).
func textLines(s string) []string {
	var out []string
	for _, l := range lines(s) {
		if !strings.HasPrefix(l, "\t") {
			out = append(out, l)
		}
	}
	return out
}

// hexLines returns the lines of a -x or -X output that hold bytes, and
// the number of the others.
func hexLines(s string) (hex []string, others int) {
	for _, l := range lines(s) {
		if strings.HasPrefix(l, "\t") {
			hex = append(hex, l)
		} else {
			others++
		}
	}
	return hex, others
}

// TestTcpdumpHex: -x, -xx, -X and -XX print, after each line, the bytes
// tcpdump prints, in tcpdump's layout, line for line; -X wins over -x,
// and its count alone says whether the link-level header is shown.
func TestTcpdumpHex(t *testing.T) {
	n := 0
	defer func() { t.Logf("%d hex lines compared with tcpdump's", n) }()
	for path := range tcpdumpCaptures(t) {
		for _, flag := range [][]string{{"-x"}, {"-xx"}, {"-X"}, {"-XX"}, {"-xx", "-X"}, {"-X", "-x", "-x"}} {
			want, wn := hexLines(tcpdumpOut(t, path, flag...))
			got, gn := hexLines(rocedumpOut(t, path, flag...))
			if gn != wn || len(want) == 0 {
				t.Fatalf("%s %q: %d lines, tcpdump %d; %d hex lines", filepath.Base(path), flag, gn, wn, len(want))
			}
			n += len(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				for i := range want {
					if i >= len(got) || got[i] != want[i] {
						t.Errorf("%s %q: hex line %d\n%q\ntcpdump\n%q", filepath.Base(path), flag, i+1, got[min(i, len(got)-1)], want[i])
						break
					}
				}
			}
		}
	}
}

// TestTcpdumpTimes: each time format's column is tcpdump's, to the
// character: what a line has before the line -t prints.
func TestTcpdumpTimes(t *testing.T) {
	n := 0
	for path := range tcpdumpCaptures(t) {
		name := filepath.Base(path)
		tdBare, rdBare := textLines(tcpdumpOut(t, path, "-t")), lines(rocedumpOut(t, path, "-t"))
		if len(rdBare) != len(tdBare) {
			t.Fatalf("%s -t: %d lines, tcpdump %d", name, len(rdBare), len(tdBare))
		}
		for _, flags := range [][]string{{}, {"-tt"}, {"-ttt"}, {"-tttt"}, {"-ttttt"}, {"-t", "-tt"},
			{"-nano"}, {"-tt", "-nano"}, {"-ttt", "-nano"}, {"-tttt", "-nano"}, {"-ttttt", "-nano"},
			// Frame numbers (--number, -#), and letters bundled as getopt
			// bundles them: -#tttt is -# -tttt, -nt is -n -t.
			{"--number"}, {"-#", "-ttt"}, {"-#tttt"}, {"--number", "-ttttt", "-nano"}, {"-nt"}, {"-#nt"}} {
			td, rd := textLines(tcpdumpOut(t, path, tcpdumpFlags(flags)...)), lines(rocedumpOut(t, path, flags...))
			if len(td) != len(tdBare) || len(rd) != len(td) {
				t.Fatalf("%s %q: %d lines, tcpdump %d", name, flags, len(rd), len(td))
			}
			for i := range td {
				stamp, ok := strings.CutSuffix(td[i], tdBare[i])
				if !ok {
					t.Fatalf("%s %q: tcpdump line %q does not end with its -t line %q", name, flags, td[i], tdBare[i])
				}
				got, ok := strings.CutSuffix(rd[i], rdBare[i])
				if len(got) > 7 && len(stamp) > 7 && got[:7] == stamp[:7] && strings.HasSuffix(got[:7], "  ") {
					got, stamp = got[7:], stamp[7:] // the same frame number first
				}
				if !ok || got != stamp && !dayWrapped(got, stamp) {
					t.Errorf("%s %q: line %d\n%q\nwant the time of tcpdump's\n%q", name, flags, i+1, rd[i], td[i])
					break
				}
				n++
			}
		}
	}
	t.Logf("%d times compared with tcpdump's", n)
}

// deltaStamp is a delta time as -ttt prints it.
var deltaStamp = regexp.MustCompile(`^([ -])(\d+)(:\d\d:\d\d\.\d+ )$`)

// dayWrapped reports whether ours is the delta stamp tcpdump 4.99 prints
// as theirs, which drops whole days (101 hours print as 05): rocedump
// keeps them.
func dayWrapped(ours, theirs string) bool {
	o, t := deltaStamp.FindStringSubmatch(ours), deltaStamp.FindStringSubmatch(theirs)
	if o == nil || t == nil || o[1] != t[1] || o[3] != t[3] {
		return false
	}
	oh, _ := strconv.Atoi(o[2])
	th, _ := strconv.Atoi(t[2])
	return oh >= 24 && oh%24 == th
}

// TestTcpdumpLocalTime: without -utc, the time of day and the date are
// local times, as tcpdump's in the same zone (one 5h30 off UTC).
func TestTcpdumpLocalTime(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = loc
	path := filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap")
	for _, flags := range [][]string{{}, {"-tttt"}, {"-tttt", "-nano"}} {
		td := textLines(tcpdumpIn(t, "Asia/Kolkata", path, tcpdumpFlags(flags)...))
		tdBare := textLines(tcpdumpIn(t, "Asia/Kolkata", path, "-t"))
		st, out, errs := runCmd(t, nil, append(flags, path)...)
		_, bare, _ := runCmd(t, nil, "-t", path)
		rd, rdBare := lines(out), lines(bare)
		if st != 0 || len(rd) != len(td) || len(td) == 0 {
			t.Fatalf("%q: status %d, %d lines, tcpdump %d: %s", flags, st, len(rd), len(td), errs)
		}
		for i := range td {
			if strings.TrimSuffix(rd[i], rdBare[i]) != strings.TrimSuffix(td[i], tdBare[i]) {
				t.Errorf("%q: line %d\n%q\ntcpdump\n%q", flags, i+1, rd[i], td[i])
				break
			}
		}
	}
}

// tcpdumpFlags is rocedump's -nano as tcpdump spells it.
func tcpdumpFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		if f == "-nano" {
			f = "--nano"
		}
		out = append(out, f)
	}
	return out
}

// TestTcpdumpDeltaFiltered: -ttt counts from the previous line printed,
// as tcpdump's does behind a capture filter that selects the same frames:
// the RoCEv2 frames to one QP (the BTH's destination QP is the low 24
// bits of the second word of the UDP payload).
func TestTcpdumpDeltaFiltered(t *testing.T) {
	for _, c := range []struct{ name, qp string }{
		{"rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", "0xa0"},
		{"rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap", "0x48"},
		{"rocev2_ipv4_rdmacm_write_read_rxe_b.pcap", "0x11"},
	} {
		path := filepath.Join(capDir, c.name)
		for _, flag := range []string{"-ttt", "-ttttt"} {
			td := lines(tcpdumpOut(t, path, "-t", "udp dst port 4791 and udp[12:4] & 0xffffff = "+c.qp))
			tdt := lines(tcpdumpOut(t, path, flag, "udp dst port 4791 and udp[12:4] & 0xffffff = "+c.qp))
			for _, j := range []string{"1", "4"} {
				rd := lines(rocedumpOut(t, path, "-t", "-qp", c.qp, "-j", j))
				rdt := lines(rocedumpOut(t, path, flag, "-qp", c.qp, "-j", j))
				if len(rdt) != len(tdt) || len(rd) != len(td) || len(td) < 2 {
					t.Fatalf("%s -qp %s: %d lines, tcpdump %d", c.name, c.qp, len(rdt), len(tdt))
				}
				for i := range tdt {
					if want := strings.TrimSuffix(tdt[i], td[i]) + rd[i]; rdt[i] != want {
						t.Errorf("%s %s -qp %s -j %s: line %d\n%q\nwant\n%q", c.name, flag, c.qp, j, i+1, rdt[i], want)
						break
					}
				}
			}
		}
	}
}

// linkHeader matches the link-level header of a tcpdump -e line (after
// -t): Ethernet, raw IP or cooked, with the VLAN tags after it.
var linkHeader = regexp.MustCompile(`^(?:[0-9a-f:]{17} > [0-9a-f:]{17}, [^:]*length \d+: |ip: |\s*\w+\s+(?:ifindex \d+ )?[0-9a-f:]{17} (?:ethertype [^:]*length \d+: )?)(?:vlan \d+, p \d(?:, DEI)?, [^,]+, )*`)

// tcpdumpNames are the Ethertype names rocedump gives where tcpdump 4.99
// has none or another protocol's.
var tcpdumpNames = strings.NewReplacer("ethertype Unknown (0x8915)", "ethertype RoCE (0x8915)", "Unknown Ethertype (0x8915)", "RoCE",
	"ethertype MPCP (0x8808)", "ethertype MAC Control (0x8808)", "MPCP,", "MAC Control,")

// TestTcpdumpLinkHeader: -e (and -e -q) starts each line with the
// link-level header tcpdump -e prints, and leaves out the line's own
// VLAN tags.
func TestTcpdumpLinkHeader(t *testing.T) {
	n := 0
	for path, ifname := range tcpdumpCaptures(t) {
		name := filepath.Base(path)
		for _, flags := range [][]string{{"-t", "-e"}, {"-t", "-e", "-q"}} {
			td, rd := textLines(tcpdumpOut(t, path, flags...)), lines(rocedumpOut(t, path, flags...))
			if len(rd) != len(td) {
				t.Fatalf("%s %q: %d lines, tcpdump %d", name, flags, len(rd), len(td))
			}
			for i := range td {
				l := td[i]
				if ifname {
					l = l[strings.Index(l, " ")+1:]
					l = strings.TrimLeft(l, " ")
				}
				if strings.HasPrefix(l, " [|ether]") { // shorter than a MAC header: no link-level header
					if linkHeader.MatchString(rd[i]) || !strings.HasPrefix(rd[i], "runt frame") {
						t.Errorf("%s %q: line %d\n%q\nwant no link-level header, as tcpdump's %q", name, flags, i+1, rd[i], td[i])
					}
					n++
					continue
				}
				want := tcpdumpNames.Replace(linkHeader.FindString(l))
				if h, _, cut := strings.Cut(l, " [|vlan]"); cut {
					// Cut inside a tag: tcpdump stops the header there.
					want = tcpdumpNames.Replace(h)
				}
				// An 802.3 length after the tags: tcpdump's LLC printer
				// goes on right after "802.3"; our line after ", ".
				want = strings.ReplaceAll(want, ", 802.3LLC, ", ", 802.3, ")
				if want == "" {
					t.Fatalf("%s %q: no link-level header in tcpdump's %q", name, flags, td[i])
				}
				if !strings.HasPrefix(rd[i], want) || strings.Contains(rd[i], " pcp ") {
					t.Errorf("%s %q: line %d\n%q\nwant it to start with tcpdump's\n%q", name, flags, i+1, rd[i], want)
					break
				}
				n++
			}
		}
	}
	t.Logf("%d link-level headers compared with tcpdump -e", n)
}
