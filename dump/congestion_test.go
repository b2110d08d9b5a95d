package dump_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/pfc"
)

var pfcSrc = [6]byte{0x02, 0x11, 0x22, 0x33, 0x44, 0x55}

// congestionFrames are PFC, PAUSE, another MAC Control opcode and CNPs.
func congestionFrames(t testing.TB) [][]byte {
	ce := firstFrame(t, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", 1)
	ce = bytes.Clone(ce)
	ce[15] |= 3 // mark CE: the IPv4 checksum goes stale, which CNPs do not mind
	cnp1, err := cnp.Reply(nil, ce, 0x34, nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(cnp1)
	bad[len(bad)-4-16] = 1 // a reserved byte set: the ICRC breaks too
	gate := pfc.AppendPause(nil, pfcSrc, 0)
	gate[15] = 2 // opcode 0x0002, EPON GATE
	return [][]byte{
		pfc.AppendPFC(nil, pfcSrc, 1<<3|1<<7|1<<1, [8]uint16{3: 65535, 7: 4660}),
		pfc.AppendPFC(nil, pfcSrc, 0xff, [8]uint16{0, 1, 2, 3, 4, 5, 6, 7}),
		pfc.AppendPause(nil, pfcSrc, 65535),
		pfc.AppendPause(nil, pfcSrc, 0),
		gate,
		cnp1,
		bad,
	}
}

func TestCongestionText(t *testing.T) {
	want := []string{
		"02:11:22:33:44:55 > 01:80:c2:00:00:01 PFC pause [3 7] c3 65535q=335.54us c7 4660q=23.86us resume [1]",
		"02:11:22:33:44:55 > 01:80:c2:00:00:01 PFC pause [1 2 3 4 5 6 7] c1 1q=0.01us c2 2q=0.01us c3 3q=0.02us c4 4q=0.02us c5 5q=0.03us c6 6q=0.03us c7 7q=0.04us resume [0]",
		"02:11:22:33:44:55 > 01:80:c2:00:00:01 PAUSE 65535q=335.54us",
		"02:11:22:33:44:55 > 01:80:c2:00:00:01 PAUSE resume 0q",
		"02:11:22:33:44:55 > 01:80:c2:00:00:01 MAC Control GATE len 60",
		"192.168.1.2:49506 > 192.168.1.3:4791 RoCEv2 CNP", // the CNP answers a frame from .3 to .2
		"192.168.1.2:49506 > 192.168.1.3:4791 RoCEv2 CNP",
	}
	var rec dump.Record
	for i, fr := range congestionFrames(t) {
		rec.Decode(i+1, gopacket.CaptureInfo{Timestamp: time.Unix(0, 0), Length: len(fr)}, capfile.LinkTypeEthernet, fr)
		got := strings.TrimSuffix(string(rec.AppendText(nil)), "\n")
		got = strings.TrimPrefix(got, "00:00:00.000000 ")
		if !strings.HasPrefix(got, want[i]) {
			t.Errorf("frame %d:\n got %s\nwant %s", i+1, got, want[i])
		}
		switch i {
		case 5:
			if !strings.HasSuffix(got, ":49506 > 192.168.1.3:4791 RoCEv2 CNP qp 0x000034 becn icrc good") {
				t.Errorf("CNP: %s", got)
			}
		case 6:
			if !strings.Contains(got, " CNP qp 0x000034 becn nonconforming: ") || !strings.HasSuffix(got, " icrc bad") {
				t.Errorf("bad CNP: %s", got)
			}
		}
	}
	// -speed: 65535 quanta at 1 Gb/s last 33.554 ms, at 800 Gb/s 41.94 µs.
	fr := congestionFrames(t)[0]
	for sp, w := range map[pfc.Speed]string{pfc.Speed1G: "c3 65535q=33.554ms c7 4660q=2385.92us", pfc.Speed800G: "c3 65535q=41.94us c7 4660q=2.98us"} {
		txt := dump.TextOptions{Speed: sp}
		rec.Decode(1, gopacket.CaptureInfo{Length: len(fr)}, capfile.LinkTypeEthernet, fr)
		if got := string(txt.AppendText(nil, &rec)); !strings.Contains(got, w) {
			t.Errorf("%v: %s", sp, got)
		}
	}
}

func TestCongestionJSON(t *testing.T) {
	var rec dump.Record
	fs := congestionFrames(t)
	rec.Decode(1, gopacket.CaptureInfo{Length: len(fs[0])}, capfile.LinkTypeEthernet, fs[0])
	if rec.Kind != dump.KindMACControl {
		t.Fatalf("kind %v", rec.Kind)
	}
	m := parseLines(t, rec.AppendJSON(nil))[0]
	for k, v := range map[string]uint64{"macc.opcode": 0x101, "macc.cbfc.enbv": 0x8a, "macc.cbfc.pause_time.c3": 65535,
		"macc.cbfc.pause_time.c7": 4660, "macc.cbfc.pause_time.c1": 0, "eth.type": 0x8808} {
		if n, ok := num(t, m, k); !ok || n != v {
			t.Errorf("%s = %v, want %d", k, m[k], v)
		}
	}
	for p, on := range []bool{false, true, false, true, false, false, false, true} {
		if k := "macc.cbfc.enbv.c" + string(rune('0'+p)); m[k] != on {
			t.Errorf("%s = %v, want %v", k, m[k], on)
		}
	}
	rec.Decode(3, gopacket.CaptureInfo{Length: len(fs[2])}, capfile.LinkTypeEthernet, fs[2])
	m = parseLines(t, rec.AppendJSON(nil))[0]
	if n, _ := num(t, m, "macc.pause_time"); n != 65535 {
		t.Errorf("PAUSE: %v", m)
	}
	rec.Decode(6, gopacket.CaptureInfo{Length: len(fs[5])}, capfile.LinkTypeEthernet, fs[5])
	m = parseLines(t, rec.AppendJSON(nil))[0]
	if n, _ := num(t, m, "infiniband.bth.opcode"); n != 0x81 || m["infiniband.bth.becn"] != true || m["infiniband.invariant.crc.status"] != "good" {
		t.Errorf("CNP: %v", m)
	}
	if n, _ := num(t, m, "infiniband.bth.destqp"); n != 0x34 {
		t.Errorf("CNP: %v", m)
	}
}

// TestTsharkCongestion compares the macc.* and CNP keys with tshark.
func TestTsharkCongestion(t *testing.T) {
	oracle.Need(t, "tshark")
	path := oracle.WritePcap(t, t.TempDir(), "congestion.pcap", congestionFrames(t))
	c := compareTshark(t, path)
	t.Logf("compared %v", c)
	maccs := 0
	for k, n := range c {
		if strings.HasPrefix(k, "macc.") {
			maccs += n
		}
	}
	// 2 PFC frames x 18 keys, 2 PAUSE x 2, the GATE's opcode.
	if maccs != 2*18+2*2+1 {
		t.Errorf("%d macc values compared, want 41", maccs)
	}
	if c["infiniband.bth.opcode"] != 2 || c["infiniband.bth.destqp"] != 2 {
		t.Errorf("CNP BTH not compared")
	}
}

// writeCooked writes frames as a pcap of link type lt (113 or 276),
// replacing each Ethernet header with a cooked header.
func writeCooked(t testing.TB, path string, lt uint32, frames [][]byte, cis []gopacket.CaptureInfo) {
	testcaps.WriteCooked(t, path, lt, frames, cis)
}

func readAll(t testing.TB, path string) ([][]byte, []gopacket.CaptureInfo) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var fs [][]byte
	var cis []gopacket.CaptureInfo
	for {
		d, ci, err := r.ReadPacketData()
		if err == io.EOF {
			return fs, cis
		}
		if err != nil {
			t.Fatal(err)
		}
		fs, cis = append(fs, d), append(cis, ci)
	}
}

// TestCooked checks that SLL and SLL2 captures made from the real
// Ethernet captures decode the same: the same text after the timestamp
// (addresses, opcodes, ICRC) and the same JSON keys from ip.* on; and
// compares the sll.* keys with tshark.
func TestCooked(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"rocev2_ipv4_rdmacm_write_read_rxe_b.pcap", "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap"} {
		frames, cis := readAll(t, filepath.Join(capDir, name))
		want, _ := runDump(t, filepath.Join(capDir, name), dump.Options{})
		wantJ, _ := runDump(t, filepath.Join(capDir, name), dump.Options{JSON: true})
		wantObjs := parseLines(t, wantJ)
		for _, lt := range []uint32{capfile.LinkTypeLinuxSLL, capfile.LinkTypeLinuxSLL2} {
			path := filepath.Join(dir, name+"."+string(rune('0'+lt%10)))
			writeCooked(t, path, lt, frames, cis)
			got, st := runDump(t, path, dump.Options{})
			if st.Frames != len(frames) || st.Malformed+st.Unsupported != 0 {
				t.Errorf("%s %d: stats %+v", name, lt, st)
			}
			gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
			same := 0
			for i := range wl {
				// RoCE and IP lines are identical; MAC-only lines
				// lose the destination MAC, which SLL does not keep.
				if gl[i] == wl[i] {
					same++
				} else if !strings.Contains(wl[i], ":00:00:00:00:00") && strings.Contains(wl[i], " RoCEv2 ") {
					t.Errorf("%s %d line %d:\n got %s\nwant %s", name, lt, i+1, gl[i], wl[i])
				}
			}
			gotJ, _ := runDump(t, path, dump.Options{JSON: true})
			objs := parseLines(t, gotJ)
			for i, m := range objs {
				for k, v := range wantObjs[i] {
					if strings.HasPrefix(k, "eth.") || strings.HasPrefix(k, "frame.") {
						continue
					}
					if m[k] != v {
						t.Errorf("%s %d frame %d: %s = %v, want %v", name, lt, i+1, k, m[k], v)
					}
				}
				if n, _ := num(t, m, "sll.halen"); n != 6 {
					t.Errorf("frame %d: sll.halen %v", i+1, m["sll.halen"])
				}
			}
			t.Logf("%s, link type %d: %d of %d lines identical", name, lt, same, len(wl))
			if name == "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap" && same < 12 {
				t.Errorf("only %d identical lines, want the 12 RoCE ones at least", same)
			}
			if _, err := exec_tshark(); err == nil {
				c := compareTshark(t, path)
				if c["sll.pkttype"] != len(frames) || c["sll.src.eth"] != len(frames) || c["infiniband.bth.opcode"] == 0 {
					t.Errorf("tshark comparison: %v", c)
				}
			}
		}
	}
}

// TestERFTshark compares the native InfiniBand frames with tshark.
func TestERFTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	c := compareTshark(t, filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	t.Logf("%d values compared: %v", total(c), c)
	for _, k := range []string{"infiniband.lrh.slid", "infiniband.lrh.dlid", "infiniband.bth.opcode", "infiniband.invariant.crc", "infiniband.variant.crc"} {
		if c[k] != 43 {
			t.Errorf("%s compared %d times, want 43", k, c[k])
		}
	}
	if c["infiniband.grh.sgid"] != 6 {
		t.Errorf("GRH compared %d times, want 6", c["infiniband.grh.sgid"])
	}
}

// exec_tshark says whether tshark is installed (comparison is optional
// in TestCooked, whose main checks need no oracle).
func exec_tshark() (string, error) { return lookPath("tshark") }

var lookPath = exec.LookPath
