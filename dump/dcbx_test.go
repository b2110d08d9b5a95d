package dump_test

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// dcbxPcap holds LLDP frames with DCBX TLVs (see testdata/golden/README.md).
var dcbxPcap = filepath.Join("..", "testdata", "golden", "dcbx_lldp.pcap")

// selectorNames are IEEE 802.1Q-2014 Table D-9's selectors as the text
// lines name them.
var selectorNames = map[string]string{"1": "ethertype", "2": "tcp", "3": "udp", "4": "port", "5": "dscp"}

// dcbxText builds, from tshark's fields of a frame, the parts of our DCBX
// line: the PFC part, the ETS tables of each ETS TLV, the APP part.
func dcbxText(f map[string][]string) []string {
	var parts []string
	if v := f["lldp.dcbx.ieee.pfc.numtcs"]; len(v) == 1 {
		var on []string
		for p := 0; p < 8; p++ {
			if f["lldp.dcbx.feature.pfc.prio"+strconv.Itoa(p)][0] == "1" {
				on = append(on, strconv.Itoa(p))
			}
		}
		parts = append(parts, "PFC enabled ["+strings.Join(on, " ")+"] cap "+v[0])
		if f["lldp.dcbx.ieee.pfc.mbc"][0] == "1" {
			parts = append(parts, " mbc")
		}
	}
	for j := range f["lldp.dcbx.feature.pg.pgid_prio0"] {
		var tc, bw []string
		for p := 0; p < 8; p++ {
			tc = append(tc, f["lldp.dcbx.feature.pg.pgid_prio"+strconv.Itoa(p)][j])
			bw = append(bw, f["lldp.dcbx.feature.pg.per"+strconv.Itoa(p)][j])
		}
		parts = append(parts, " prio-tc ["+strings.Join(tc, " ")+"] bw ["+strings.Join(bw, " ")+"]")
	}
	if _, ok := f["lldp.dcbx.ieee.app.reserved"]; ok {
		var es []string
		for j, sel := range f["lldp.dcbx.iee.app.sf"] {
			proto, _ := strconv.ParseUint(f["lldp.dcbx.feature.app.proto"][j], 0, 16)
			p := strconv.FormatUint(proto, 10)
			if sel == "1" {
				p = "0x" + strconv.FormatUint(proto, 16)
			}
			es = append(es, selectorNames[sel]+" "+p+" prio "+f["lldp.dcbx.ieee.app.prio"][j])
		}
		parts = append(parts, "APP ["+strings.Join(es, ", ")+"]")
	}
	return parts
}

// TestDCBXText checks the DCBX lines of the golden LLDP frames against
// tshark's decoding: the PFC-enabled priorities, PFC cap and MBC, the
// ETS priority and bandwidth tables, the application table; an LLDP frame
// without DCBX stays "not RoCE: LLDP".
func TestDCBXText(t *testing.T) {
	names := []string{"lldp.dcbx.ieee.pfc.numtcs", "lldp.dcbx.ieee.pfc.mbc", "lldp.dcbx.ieee.app.reserved",
		"lldp.dcbx.iee.app.sf", "lldp.dcbx.feature.app.proto", "lldp.dcbx.ieee.app.prio"}
	for p := 0; p < 8; p++ {
		for _, k := range []string{"lldp.dcbx.feature.pfc.prio", "lldp.dcbx.feature.pg.pgid_prio", "lldp.dcbx.feature.pg.per"} {
			names = append(names, k+strconv.Itoa(p))
		}
	}
	ts := oracle.TsharkFields(t, dcbxPcap, names)
	frames, lts := framesOf(t, dcbxPcap, capfile.LinkTypeEthernet)
	if len(ts) != len(frames) {
		t.Fatalf("tshark %d frames, we %d", len(ts), len(frames))
	}
	var rec dump.Record
	compared := 0
	for i, fr := range frames {
		rec.Decode(i+1, gopacket.CaptureInfo{Length: len(fr)}, lts[i], fr)
		line := string(rec.AppendText(nil))
		parts := dcbxText(ts[i])
		if len(parts) == 0 {
			if rec.HasDCBX || !strings.Contains(line, " not RoCE: LLDP 02:00:00:00:00:04 > 01:80:c2:00:00:0e len 60") {
				t.Errorf("frame %d: %q", i+1, line)
			}
			continue
		}
		if !rec.HasDCBX || rec.DCBXErr != nil || !strings.Contains(line, " LLDP DCBX ") {
			t.Errorf("frame %d: %q, DCBX error %v", i+1, line, rec.DCBXErr)
		}
		for _, p := range parts {
			compared++
			if !strings.Contains(line, p) {
				t.Errorf("frame %d: %q, want %q in it", i+1, line, p)
			}
		}
	}
	t.Logf("%d parts of DCBX lines compared with tshark", compared)
}

// TestDCBXMalformed: a DCBX TLV that does not decode is said in the line,
// after the TLVs before it; the frame stays not RoCE.
func TestDCBXMalformed(t *testing.T) {
	frames, _ := framesOf(t, dcbxPcap, capfile.LinkTypeEthernet)
	fr := bytes.Clone(frames[0][:14+22+8]) // Ethernet, chassis, port, TTL TLVs, 6 bytes of the ETS TLV
	fr = append(fr[:14+22], 0xfe, 0x06, 0x00, 0x80, 0xc2, 0x0b, 0x88, 0x08, 0xfe, 0x19, 0x00, 0x80, 0xc2, 0x09, 0x00)
	var rec dump.Record
	rec.Decode(1, gopacket.CaptureInfo{}, capfile.LinkTypeEthernet, fr)
	line := string(rec.AppendText(nil))
	want := "LLDP DCBX PFC enabled [3] cap 8 willing; malformed: roce: LLDP TLV at offset 30: truncated (want 27 bytes, have 7)\n"
	if rec.Kind != dump.KindNotRoCE || !strings.HasSuffix(line, want) {
		t.Errorf("%v %q, want %q", rec.Kind, line, want)
	}
}

// TestDCBXAllocs: decoding and printing DCBX frames allocates nothing.
func TestDCBXAllocs(t *testing.T) {
	frames, lts := framesOf(t, dcbxPcap, capfile.LinkTypeEthernet)
	var rec dump.Record
	buf := make([]byte, 0, 4096)
	for i, fr := range frames[:3] {
		ok := true
		n := testing.AllocsPerRun(100, func() {
			rec.Decode(1, gopacket.CaptureInfo{}, lts[i], fr)
			buf = rec.AppendText(buf[:0])
			ok = ok && rec.HasDCBX && bytes.Contains(buf, []byte(" LLDP DCBX "))
		})
		if !ok || n != 0 {
			t.Errorf("frame %d: %v allocs, DCBX %v", i+1, n, ok)
		}
	}
}
