package dump_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/ipoib"
	"github.com/stretchr/testify/require"
)

// framesOf returns every frame of a pcap file and, for each, the file's
// link type lt.
func framesOf(t *testing.T, path string, lt uint16) (frames [][]byte, lts []uint16) {
	frames = corpus.ReadPcap(t, path)
	for range frames {
		lts = append(lts, lt)
	}
	return frames, lts
}

// ipoibText is what our IPoIB text says of a frame as tshark decodes it:
// "IPoIB " then ARP's question or answer, or the IP version, protocol
// and addresses; "" when tshark sees no IPoIB.
func ipoibText(f oracle.Fields) string {
	first := func(k string) string { v, _ := f.First(k); return v }
	switch {
	case first("arp.opcode") == "1":
		return "IPoIB ARP who-has " + first("arp.dst.proto_ipv4") + " tell " + first("arp.src.proto_ipv4")
	case first("arp.opcode") == "2":
		hw := strings.ReplaceAll(first("arp.src.hw"), ":", "")
		return "IPoIB ARP " + first("arp.src.proto_ipv4") + " is-at qpn 0x" + hw[2:8]
	case first("ip.src") != "":
		if p := first("udp.srcport"); p != "" {
			return fmt.Sprintf("IPoIB IPv4 UDP %s:%s > %s:%s", first("ip.src"), p, first("ip.dst"), first("udp.dstport"))
		}
		if first("ip.proto") == "1" {
			return "IPoIB IPv4 ICMP " + first("ip.src") + " > " + first("ip.dst")
		}
	case first("ipv6.src") != "" && first("ipv6.nxt") == "58":
		return "IPoIB IPv6 ICMPv6 " + first("ipv6.src") + " > " + first("ipv6.dst")
	}
	return ""
}

// checkIPoIBLines compares each text line with tshark's decoding of the
// same frame and returns how many frames carried IPoIB.
func checkIPoIBLines(t *testing.T, path string, frames [][]byte, lts []uint16) int {
	t.Helper()
	ts := oracle.Tshark(t, path)
	if len(ts) != len(frames) {
		t.Fatalf("tshark %d frames, we %d", len(ts), len(frames))
	}
	var rec dump.Record
	n := 0
	for i, fr := range frames {
		rec.Decode(i+1, gopacket.CaptureInfo{Length: len(fr), CaptureLength: len(fr)}, lts[i], fr)
		line := string(rec.AppendText(nil))
		want := ipoibText(ts[i])
		_, tsharkIPoIB := ts[i].First("ipoib.type")
		if _, ok := ts[i].First("infiniband.rwh.etype"); ok {
			tsharkIPoIB = true
		}
		if want == "" && tsharkIPoIB {
			t.Errorf("frame %d: tshark decodes an IPoIB packet the test does not know", i+1)
		}
		if want == "" {
			if rec.HasIPoIB {
				t.Errorf("frame %d: %q shows IPoIB, tshark does not", i+1, line)
			}
			continue
		}
		n++
		if !rec.HasIPoIB || !strings.Contains(line, " "+want) {
			t.Errorf("frame %d: %q, want %q in it", i+1, line, want)
		}
	}
	return n
}

// TestIPoIBTextNative checks the IPoIB part of the text lines of the ERF
// capture against tshark, frame by frame.
func TestIPoIBTextNative(t *testing.T) {
	path := filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap")
	frames, lts := framesOf(t, path, capfile.LinkTypeERF)
	if n := checkIPoIBLines(t, path, frames, lts); n != 17 {
		t.Errorf("%d IPoIB frames, want 17", n)
	}
}

// linkFrames are link type 242 records of both forms (testcaps.IPoIBLink).
func linkFrames(t *testing.T) [][]byte { return testcaps.IPoIBLink(t) }

// TestLinkTypeIPoIB reads a capture of link type 242 and checks its text
// lines against tshark: the link header's GIDs and QP, and the packet the
// IPoIB header carries.
func TestLinkTypeIPoIB(t *testing.T) {
	frames := linkFrames(t)
	path := oracle.WritePcapLinkType(t, t.TempDir(), "ipoib242.pcap", layers.LinkType(ipoib.LinkType), frames)
	got, lts := framesOf(t, path, capfile.LinkTypeIPoIB)
	if n := checkIPoIBLines(t, path, got, lts); n != 17 {
		t.Errorf("%d IPoIB frames, want 17", n)
	}
	ts := oracle.Tshark(t, path)
	var rec dump.Record
	for i, fr := range got {
		rec.Decode(i+1, gopacket.CaptureInfo{Length: len(fr)}, lts[i], fr)
		line := string(rec.AppendText(nil))
		if i == len(got)-1 {
			if rec.Kind != dump.KindMalformed || !strings.Contains(line, "link type 242 (IPoIB) malformed: roce: IPoIB link header at offset 0: truncated") {
				t.Errorf("short record: %v %q", rec.Kind, line)
			}
			continue
		}
		sqpn, _ := ts[i].First("ipoib.grh.sqpn")
		want := fmt.Sprintf("sqpn 0x%06s IPoIB", strings.TrimPrefix(sqpn, "0x"))
		dgid, _ := ts[i].First("ipoib.dgid")
		if qpn, sent := ts[i].First("ipoib.daddr.qpn"); sent {
			want = fmt.Sprintf("to qpn 0x%06s gid %s IPoIB", strings.TrimPrefix(qpn, "0x"), dgid)
		} else if v, _ := ts[i].First("ipoib.grh.ipver"); v == "6" {
			sgid, _ := ts[i].First("ipoib.grh.sgid")
			want = sgid + " > " + dgid + " " + want
		}
		if !strings.Contains(line, want) || !strings.HasSuffix(line, fmt.Sprintf(" len %d\n", len(fr))) {
			t.Errorf("frame %d: %q, want %q and the length", i+1, line, want)
		}
	}
	_, st := runDump(t, path, dump.Options{})
	if st.Unsupported != 0 || st.Malformed != 1 || st.NotRoCE != 17 {
		t.Errorf("stats %+v", st)
	}
}

// TestIPoIBAllocs: decoding and printing IPoIB frames allocates nothing.
func TestIPoIBAllocs(t *testing.T) {
	frames, lts := framesOf(t, filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"), capfile.LinkTypeERF)
	lf := linkFrames(t)
	cases := []struct {
		name string
		lt   uint16
		data []byte
	}{
		{"native ARP request", lts[4], frames[4]},
		{"native ARP reply", lts[5], frames[5]},
		{"native IPv4", lts[9], frames[9]},
		{"native IPv6", lts[25], frames[25]},
		{"link type 242 ARP", ipoib.LinkType, lf[2]},
		{"link type 242 IPv4", ipoib.LinkType, lf[4]},
	}
	var rec dump.Record
	buf := make([]byte, 0, 4096)
	ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 0)}
	for _, c := range cases {
		ok := true
		n := testing.AllocsPerRun(100, func() {
			rec.Decode(1, ci, c.lt, c.data)
			buf = rec.AppendText(buf[:0])
			ok = ok && rec.HasIPoIB && bytes.Contains(buf, []byte(" IPoIB "))
		})
		if !ok || n != 0 {
			t.Errorf("%s: %v allocs, IPoIB decoded %v", c.name, n, ok)
		}
	}
}

// TestTsharkIPoIBCarried compares with tshark 4.0 the keys of what IPoIB
// carries (ip, ipv6, udp, tcp, arp) on native InfiniBand packets built
// for the purpose (testcaps.IPoIBNative: IPv4 and IPv6 with UDP and TCP,
// ARP request and reply, IPv4 options, an ARP packet cut short) and on
// the link type 242 records of the same packets: the same keys and
// values on both paths, and tshark's; the same on the shipped ERF capture
// and its link type 242 records; and the ARP keys of Ethernet frames of
// every form of ARP address tshark names (testcaps.EthernetARP).
func TestTsharkIPoIBCarried(t *testing.T) {
	oracle.Need(t, "tshark")
	dir := t.TempDir()
	native := testcaps.IPoIBNative(t)
	erf := oracle.WritePcapLinkType(t, dir, "ipoib_native.pcap", layers.LinkType(capfile.LinkTypeERF), native)
	link := oracle.WritePcapLinkType(t, dir, "ipoib_242.pcap", layers.LinkType(ipoib.LinkType), testcaps.IPoIBLinkOf(t, native))
	carriedKeys := func(path string) []map[string]string {
		out, _ := runDump(t, path, dump.Options{JSON: true})
		var objs []map[string]string
		for _, o := range parseLines(t, out) {
			m := map[string]string{}
			for k, v := range o {
				if strings.HasPrefix(k, "ip.") || strings.HasPrefix(k, "ipv6.") || strings.HasPrefix(k, "udp.") ||
					strings.HasPrefix(k, "tcp.") || strings.HasPrefix(k, "arp.") {
					m[k] = fmt.Sprint(v)
				}
			}
			objs = append(objs, m)
		}
		return objs
	}
	a, b := carriedKeys(erf), carriedKeys(link)
	require.Equal(t, len(native), len(a))
	require.Equal(t, a, b, "native InfiniBand and link type 242 give other keys")
	eth := oracle.WritePcap(t, dir, "arp.pcap", testcaps.EthernetARP(t))
	all := map[string]int{}
	shipped := filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap")
	shipped242 := oracle.WritePcapLinkType(t, dir, "shipped_242.pcap", layers.LinkType(ipoib.LinkType), testcaps.IPoIBLink(t))
	for _, path := range []string{erf, link, eth, shipped, shipped242} {
		for k, n := range compareTshark(t, path) {
			all[k] += n
		}
	}
	for _, k := range []string{"ip.src", "ip.dsfield.ecn", "ip.id", "ipv6.src", "ipv6.flow", "ipv6.tclass.ecn", "udp.srcport", "tcp.dstport",
		"arp.hw.type", "arp.proto.type", "arp.opcode", "arp.src.hw", "arp.src.proto_ipv4", "arp.dst.hw", "arp.dst.proto_ipv4",
		"arp.src.hw_mac", "arp.dst.hw_mac", "arp.src.proto", "arp.dst.proto", "arp.hw.size", "arp.proto.size"} {
		if all[k] == 0 {
			t.Errorf("%s never compared", k)
		}
	}
	t.Logf("%d values compared over %d keys", total(all), len(all))
}
