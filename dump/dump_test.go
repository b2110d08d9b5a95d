package dump_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const capDir = "../testdata/captures"

// captureFacts are what we know of each capture without our decoders,
// from "Facts the tests check" in testdata/captures/README.md: frames,
// RoCE frames, opcode counts and ECN codepoints, all counted with tshark
// and a separate scanner when the files were collected.
type captureFacts struct {
	name        string
	frames      int
	roce        int            // RoCEv2 frames
	unsupported int            // frames of a link type other than Ethernet
	ib          int            // native InfiniBand frames
	opcodes     map[uint64]int // BTH opcode histogram
	ecn         map[uint64]int // ip.dsfield.ecn histogram over IPv4 frames (nil: not checked)
}

var captures = []captureFacts{
	{name: "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap", frames: 123, roce: 105,
		opcodes: map[uint64]int{0: 33, 3: 33, 5: 2, 17: 37}},
	{name: "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", frames: 4004, roce: 4000,
		opcodes: map[uint64]int{10: 2000, 17: 2000}, ecn: map[uint64]int{2: 4000}},
	{name: "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", frames: 12, roce: 12,
		opcodes: map[uint64]int{100: 5, 10: 1, 12: 1, 13: 1, 14: 2, 15: 1, 17: 1}, ecn: map[uint64]int{0: 12}},
	{name: "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap", frames: 16, roce: 12,
		opcodes: map[uint64]int{100: 5, 10: 1, 12: 1, 13: 1, 14: 2, 15: 1, 17: 1}, ecn: map[uint64]int{0: 12}},
	// tshark: 43 ERF type 21 records, UD SEND Only x24, RC SEND Only x10, RC ACK x9.
	{name: "ib_native_erf_dag_smp_ipoib_cm.pcap", frames: 43, ib: 43,
		opcodes: map[uint64]int{100: 24, 4: 10, 17: 9}},
	{name: "ecn_ipv4_udp_all_ce_p4switch.pcap", frames: 3616, ecn: map[uint64]int{3: 3616}},
	{name: "ecn_tcp_accecn_handshake_ect0_ect1.pcap", frames: 6, ecn: map[uint64]int{0: 3, 1: 2, 2: 1}},
}

// runDump dumps a capture file and returns the output and the stats.
func runDump(t *testing.T, path string, opt dump.Options) ([]byte, dump.Stats) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := capfile.NewSource(f)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	st, err := dump.Dump(&out, src, opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out.Bytes(), st
}

// parseLines parses JSON Lines, keeping numbers exact.
func parseLines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var objs []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", len(objs)+1, err, sc.Bytes())
		}
		if d.More() {
			t.Fatalf("line %d holds more than one value", len(objs)+1)
		}
		objs = append(objs, m)
	}
	return objs
}

func num(t *testing.T, m map[string]any, key string) (uint64, bool) {
	t.Helper()
	v, ok := m[key]
	if !ok {
		return 0, false
	}
	n, isNum := v.(json.Number)
	if !isNum {
		t.Fatalf("%s = %v (%T), want a number", key, v, v)
	}
	var u uint64
	if err := json.Unmarshal([]byte(n), &u); err != nil {
		t.Fatalf("%s = %s: %v", key, n, err)
	}
	return u, true
}

func TestCapturesJSON(t *testing.T) {
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			out, st := runDump(t, filepath.Join(capDir, c.name), dump.Options{JSON: true})
			objs := parseLines(t, out)
			if len(objs) != c.frames || st.Frames != c.frames {
				t.Fatalf("%d objects, %d frames counted, want %d", len(objs), st.Frames, c.frames)
			}
			if st.RoCE != c.roce || st.InfiniBand != c.ib || st.Unsupported != c.unsupported || st.Malformed != 0 || st.BadICRC != 0 {
				t.Errorf("stats %+v, want %d RoCE, %d IB, %d unsupported, none malformed or bad", st, c.roce, c.ib, c.unsupported)
			}
			ops, ecn := map[uint64]int{}, map[uint64]int{}
			good := 0
			for i, m := range objs {
				if n, _ := num(t, m, "frame.number"); n != uint64(i+1) {
					t.Fatalf("object %d has frame.number %d", i, n)
				}
				if op, ok := num(t, m, "infiniband.bth.opcode"); ok {
					ops[op]++
					if m["infiniband.invariant.crc.status"] == "good" {
						good++
					}
				}
				if e, ok := num(t, m, "ip.dsfield.ecn"); ok {
					ecn[e]++
				}
				_, hasErr := m["_error"]
				if hasErr != (i < c.unsupported) {
					t.Errorf("frame %d: _error present %v", i+1, hasErr)
				}
			}
			if good != c.roce+c.ib {
				t.Errorf("%d frames with a good ICRC, want %d", good, c.roce+c.ib)
			}
			if c.opcodes != nil {
				assert.Equal(t, c.opcodes, ops, "opcode histogram")
			}
			if c.ecn != nil {
				assert.Equal(t, c.ecn, ecn, "ECN histogram")
			}
		})
	}
}

func TestCapturesText(t *testing.T) {
	for _, c := range captures {
		t.Run(c.name, func(t *testing.T) {
			out, _ := runDump(t, filepath.Join(capDir, c.name), dump.Options{})
			lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(lines) != c.frames {
				t.Fatalf("%d lines, want %d frames", len(lines), c.frames)
			}
			var roceLines, ibLines, other, unsup int
			for _, l := range lines {
				switch {
				case strings.Contains(l, " RoCEv2 ") && strings.HasSuffix(l, " icrc good"):
					roceLines++
				case strings.Contains(l, " IB ") && strings.HasSuffix(l, " icrc good"):
					ibLines++
				case strings.Contains(l, " not RoCE: "):
					other++
				case strings.Contains(l, "not supported yet"):
					unsup++
				default:
					t.Errorf("unexpected line %q", l)
				}
			}
			if roceLines != c.roce || ibLines != c.ib || unsup != c.unsupported || other != c.frames-c.roce-c.ib-c.unsupported {
				t.Errorf("%d RoCE, %d IB, %d other, %d unsupported lines; want %d, %d, %d, %d",
					roceLines, ibLines, other, unsup, c.roce, c.ib, c.frames-c.roce-c.ib-c.unsupported, c.unsupported)
			}
		})
	}
}

// TestTextLines checks whole lines for frames whose fields were read off
// tshark (frames 1, 6 and 7 of rxe_a: see TestTsharkJSON for the rest).
// Frame 1 is an RDMA-CM REQ: tshark 4.0 shows its local communication ID
// 0x34cfb552, local QPN 0x000011, starting PSN 0xe1a47d, service ID
// protocol 0x06 (TCP) and port 0x1d2f (7471), and IP-CM source and
// destination 192.168.65.5 and 192.168.65.4. The REP, RTU, DREQ and
// DREP (frames 2, 3, 11, 12) carry the communication IDs, QPN and PSN
// tshark shows for them.
func TestTextLines(t *testing.T) {
	out, _ := runDump(t, filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"), dump.Options{})
	lines := strings.Split(string(out), "\n")
	want := map[int]string{
		0:  "09:39:11.554171 192.168.65.5:55410 > 192.168.65.4:4791 RoCEv2 UD SEND Only qp 0x000001 psn 65 [A] deth qkey 0x80010000 srcqp 0x000001 payload 256: CM REQ comm 0x34cfb552 qpn 0x000011 psn 0xe1a47d 192.168.65.5 > 192.168.65.4:7471 (RDMA-CM TCP port space) icrc good",
		1:  "payload 256: CM REP comm 0xa980e2d3 remote 0x34cfb552 qpn 0x000011 psn 0x8c84dd icrc good",
		2:  "payload 256: CM RTU comm 0x34cfb552 remote 0xa980e2d3 icrc good",
		10: "payload 256: CM DREQ comm 0x34cfb552 remote 0xa980e2d3 qpn 0x000011 icrc good",
		11: "payload 256: CM DREP comm 0xa980e2d3 remote 0x34cfb552 icrc good",
		5:  "192.168.65.5:57236 > 192.168.65.4:4791 RoCEv2 RC RDMA READ Request qp 0x000011 psn 9209054 [A] reth va 0x0000aaab09dd5000 rkey 0x000002d5 dmalen 4096 payload 0 icrc good",
		6:  "192.168.65.4:57236 > 192.168.65.5:4791 RoCEv2 RC RDMA READ Response First qp 0x000011 psn 9209054 aeth ACK msn 2 payload 1024 icrc good",
	}
	for i, w := range want {
		if !strings.HasSuffix(lines[i], w) {
			t.Errorf("line %d:\n got %s\nwant …%s", i+1, lines[i], w)
		}
	}
	out, _ = runDump(t, filepath.Join(capDir, "ecn_ipv4_udp_all_ce_p4switch.pcap"), dump.Options{})
	if first, _, _ := strings.Cut(string(out), "\n"); !strings.HasSuffix(first, " not RoCE: IPv4 UDP 10.0.0.1:12325 > 10.0.0.2:12346 len 62") {
		t.Errorf("line 1: %s", first)
	}
}

// TestNgSameAsPcap rewrites a capture as pcapng and checks that the
// output does not change.
func TestNgSameAsPcap(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap")
	want, _ := runDump(t, path, dump.Options{JSON: true})
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, err := pcapgo.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	ngPath := filepath.Join(t.TempDir(), "b.pcapng")
	f, err := os.Create(ngPath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pcapgo.NewNgWriter(f, layers.LinkTypeEthernet)
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, ci, err := r.ReadPacketData()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WritePacket(ci, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, _ := runDump(t, ngPath, dump.Options{JSON: true})
	if !bytes.Equal(got, want) {
		t.Errorf("pcapng output differs from pcap output:\n%s\nvs\n%s", got, want)
	}
}

func TestNotCapture(t *testing.T) {
	for _, in := range []string{"", "abc", "hello, this is not a capture file at all\n"} {
		if _, err := capfile.NewSource(strings.NewReader(in)); !errors.Is(err, capfile.ErrNotCapture) {
			t.Errorf("%q: error %v, want ErrNotCapture", in, err)
		}
	}
}

func TestTruncatedCapture(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	// 24-byte file header, then records of 16 + 322 bytes: cut record 2.
	cut := b[:24+16+322+16+100]
	src, err := capfile.NewSource(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	st, err := dump.Dump(&out, src, dump.Options{JSON: true})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error %v, want io.ErrUnexpectedEOF", err)
	}
	if st.Frames != 1 || len(parseLines(t, out.Bytes())) != 1 {
		t.Errorf("%d frames, output %q; want the one whole frame", st.Frames, out.Bytes())
	}
}

// firstFrame returns the bytes of frame n (from 1) of a capture.
func firstFrame(t testing.TB, name string, n int) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(capDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; ; i++ {
		data, _, err := r.ReadPacketData()
		if err != nil {
			t.Fatal(err)
		}
		if i == n {
			return data
		}
	}
}

func TestMalformedAndBadICRC(t *testing.T) {
	good := firstFrame(t, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 6) // RDMA READ Request
	ci := gopacket.CaptureInfo{Timestamp: time.Unix(1, 0), Length: len(good), CaptureLength: len(good)}
	var rec dump.Record

	bad := bytes.Clone(good)
	bad[14+20+8+12] ^= 1 // a RETH byte: the ICRC no longer matches
	rec.Decode(1, ci, capfile.LinkTypeEthernet, bad)
	if rec.Kind != dump.KindRoCE || rec.ICRCGood {
		t.Errorf("flipped RETH bit: kind %v, ICRC good %v", rec.Kind, rec.ICRCGood)
	}
	m := parseLines(t, rec.AppendJSON(nil))[0]
	if m["infiniband.invariant.crc.status"] != "bad" {
		t.Errorf("status %v, want bad", m["infiniband.invariant.crc.status"])
	}
	if !strings.HasSuffix(string(rec.AppendText(nil)), " icrc bad\n") {
		t.Errorf("text: %s", rec.AppendText(nil))
	}

	// Cut by the snap length inside the RETH (10 of its 16 bytes): the
	// frame decodes, with the RETH's VA, the field the capture kept whole
	// (tshark 4.0 on the whole capture: 0x0000aaab09dd5000).
	short := good[:len(good)-10]
	ci.CaptureLength = len(short)
	rec.Decode(2, ci, capfile.LinkTypeEthernet, short)
	require.Equal(t, dump.KindRoCE, rec.Kind, "frame cut inside its RETH: %v", rec.Err)
	require.True(t, rec.ICRCUnchecked)
	m = parseLines(t, rec.AppendJSON(nil))[0]
	require.Equal(t, "0x0000aaab09dd5000", m["infiniband.reth.va"])
	for _, k := range []string{"infiniband.reth.r_key", "infiniband.reth.dmalen", "infiniband.invariant.crc", "_error"} {
		require.NotContains(t, m, k)
	}
	require.Equal(t, json.Number("12"), m["infiniband.bth.opcode"])
	require.Equal(t, "unchecked", m["infiniband.invariant.crc.status"])
	if txt := string(rec.AppendText(nil)); !strings.HasSuffix(txt, " RDMA READ Request qp 0x000011 psn 9209054 [A] reth va 0x0000aaab09dd5000 [|reth] payload 0 icrc unchecked\n") {
		t.Errorf("text: %s", txt)
	}

	// The same bytes, the record saying the wire had no more: the frame
	// itself is shorter than its headers say, malformed.
	ci.Length = len(short)
	rec.Decode(3, ci, capfile.LinkTypeEthernet, short)
	require.Equal(t, dump.KindMalformed, rec.Kind, "truncated frame")
	require.ErrorIs(t, rec.Err, ib.ErrTruncated)
	m = parseLines(t, rec.AppendJSON(nil))[0]
	if e, _ := m["_error"].(string); !strings.Contains(e, "truncated") {
		t.Errorf("_error = %q", e)
	}
	if m["udp.dstport"] != json.Number("4791") || m["ip.src"] != "192.168.65.5" {
		t.Errorf("malformed frame lost its IP/UDP keys: %v", m)
	}
	if _, ok := m["infiniband.bth.opcode"]; ok {
		t.Errorf("malformed frame has BTH keys: %v", m)
	}
	if txt := string(rec.AppendText(nil)); !strings.Contains(txt, "192.168.65.5:57236 > 192.168.65.4:4791 malformed: roce: Frame at offset 0: truncated (want 74 bytes, have 64)") {
		t.Errorf("text: %s", txt)
	}
}

// TestSyntheticKeys builds frames the captures lack (RoCEv1, IPv6, VLAN
// tags, XRC, FLUSH, atomics) and checks each key against the value built.
func TestSyntheticKeys(t *testing.T) {
	for _, s := range synthetic(t) {
		t.Run(s.name, func(t *testing.T) {
			var rec dump.Record
			rec.Decode(1, gopacket.CaptureInfo{Length: len(s.frame)}, capfile.LinkTypeEthernet, s.frame)
			if rec.Kind != dump.KindRoCE || !rec.ICRCGood {
				t.Fatalf("kind %v, ICRC good %v, err %v", rec.Kind, rec.ICRCGood, rec.Err)
			}
			m := parseLines(t, rec.AppendJSON(nil))[0]
			for k, want := range s.want {
				got, ok := m[k]
				if !ok {
					t.Errorf("%s missing", k)
					continue
				}
				if n, isNum := got.(json.Number); isNum {
					if wide64[k] {
						t.Errorf("%s = %v: a JSON number, want a string (64 bits)", k, n)
					}
					got = string(n)
				}
				if got != want {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
		})
	}
}

type synth struct {
	name  string
	frame []byte
	want  map[string]any // expected JSON values; numbers as decimal text
	// tshark says whether tshark 4.0 dissects the frame's headers.
	tshark bool
}

func gid(s string) [16]byte { return netip.MustParseAddr(s).As16() }

// synthetic builds frames with roce.Frame.AppendTo.
func synthetic(t testing.TB) []synth {
	t.Helper()
	build := func(f *roce.Frame) []byte { return testcaps.Build(t, f) }
	var out []synth

	var f roce.Frame
	f.Encap = ib.RoCEv1
	f.NumVLANs = 1
	f.VLANs[0] = roce.VLAN{TPID: 0x8100, PCP: 3, ID: 100}
	f.GRH = ib.GRH{TClass: 0x6a, FlowLabel: 0x12345, HopLmt: 64, SGID: gid("fe80::1"), DGID: gid("fe80::2")}
	f.Packet.BTH = ib.BTH{OpCode: 0x05, SE: true, PKey: 0xffff, DestQP: 0x1234, PSN: 77}
	f.Packet.ImmDt.Data = 0xdeadbeef
	f.Packet.Payload = []byte("hello")
	out = append(out, synth{"v1 vlan send-imm", build(&f), map[string]any{
		"vlan.priority": "3", "vlan.id": "100", "vlan.dei": false, "eth.type": "33024",
		"infiniband.grh.ipver": "6", "infiniband.grh.tclass": "106", "infiniband.grh.flowlabel": "74565",
		"infiniband.grh.paylen": "28", "infiniband.grh.nxthdr": "27", "infiniband.grh.hoplmt": "64",
		"infiniband.grh.sgid": "fe80::1", "infiniband.grh.dgid": "fe80::2",
		"infiniband.bth.opcode": "5", "infiniband.bth.se": true, "infiniband.bth.padcnt": "3",
		"infiniband.bth.destqp": "4660", "infiniband.bth.psn": "77", "infiniband.immdt": "deadbeef",
		"infiniband.payload.len": "5",
	}, true})

	f = roce.Frame{Encap: ib.RoCEv2IPv6}
	f.GRH = ib.GRH{TClass: 26<<2 | 3, FlowLabel: 0xabcde, HopLmt: 9, SGID: gid("2001:db8::1"), DGID: gid("2001:db8::2")}
	f.Packet.BTH = ib.BTH{OpCode: 0x13, PKey: 0x8001, DestQP: 0xabcdef, AckReq: true, PSN: 0xffffff}
	f.Packet.AtomicETH = ib.AtomicETH{VA: 0x1122334455667788, RKey: 0x99aabbcc, SwapData: 0xfedcba9876543210, CompareData: 42}
	out = append(out, synth{"v2 ipv6 cmpswap", build(&f), map[string]any{
		"ipv6.src": "2001:db8::1", "ipv6.dst": "2001:db8::2", "ipv6.tclass.dscp": "26", "ipv6.tclass.ecn": "3",
		"ipv6.flow": "703710", "ipv6.hlim": "9", "ipv6.nxt": "17", "udp.dstport": "4791",
		"infiniband.bth.opcode": "19", "infiniband.bth.p_key": "32769", "infiniband.bth.a": true,
		"infiniband.atomiceth.va": "0x1122334455667788", "infiniband.atomiceth.r_key": "2578103244",
		"infiniband.atomiceth.swapdt": "18364758544493064720", "infiniband.atomiceth.cmpdt": "42",
	}, true})

	f = roce.Frame{Encap: ib.RoCEv2IPv4, NumVLANs: 2}
	f.VLANs[0] = roce.VLAN{TPID: 0x88a8, PCP: 5, DEI: true, ID: 7}
	f.VLANs[1] = roce.VLAN{TPID: 0x8100, PCP: 4, ID: 4094}
	f.GRH = ib.GRH{TClass: 0x02, HopLmt: 63, SGID: gid("::ffff:10.1.2.3"), DGID: gid("::ffff:10.4.5.6")}
	f.Packet.BTH = ib.BTH{OpCode: 0x17, MigReq: true, PKey: 0xffff, DestQP: 3, PSN: 1}
	f.Packet.IETH.RKey = 0x0badcafe
	f.Packet.Payload = make([]byte, 8)
	out = append(out, synth{"v2 qinq send-inv", build(&f), map[string]any{
		"eth.type": "34984", "ieee8021ad.priority": "5", "ieee8021ad.dei": true, "ieee8021ad.id": "7",
		"vlan.priority": "4", "vlan.dei": false, "vlan.id": "4094",
		"ip.src": "10.1.2.3", "ip.dst": "10.4.5.6", "ip.dsfield.ecn": "2", "ip.ttl": "63",
		"infiniband.bth.m": true, "infiniband.ieth": "0badcafe", "infiniband.payload.len": "8",
	}, true})

	f = roce.Frame{Encap: ib.RoCEv2IPv4, NumVLANs: 2}
	f.VLANs[0] = roce.VLAN{TPID: 0x8100, PCP: 1, ID: 10}
	f.VLANs[1] = roce.VLAN{TPID: 0x8100, PCP: 6, DEI: true, ID: 20}
	f.GRH = ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}
	f.Packet.BTH = ib.BTH{OpCode: 0x12, PKey: 0xffff, DestQP: 9, PSN: 5}
	f.Packet.AETH = ib.AETH{Syndrome: 0x61, MSN: 0x010203}
	f.Packet.AtomicAckETH.OrigRemData = 0x0102030405060708
	out = append(out, synth{"v2 atomic ack nak", build(&f), map[string]any{
		"vlan.priority": "1", "vlan.id": "10", "vlan.inner.priority": "6", "vlan.inner.dei": true, "vlan.inner.id": "20",
		"infiniband.aeth.syndrome": "97", "infiniband.aeth.msn": "66051",
		"infiniband.atomicacketh.origremdt": "72623859790382856",
	}, true})

	f = roce.Frame{Encap: ib.RoCEv2IPv4}
	f.GRH = ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}
	f.Packet.BTH = ib.BTH{OpCode: 0x2b, SE: true, FECN: true, BECN: true, PKey: 0xffff, DestQP: 9, PSN: 6}
	f.Packet.RETH = ib.RETH{VA: 0x7f0000001000, RKey: 0x1234, DMALen: 3}
	f.Packet.ImmDt.Data = 0x00000102
	f.Packet.Payload = []byte{1, 2, 3}
	out = append(out, synth{"v2 uc write-imm fecn", build(&f), map[string]any{
		"infiniband.bth.fecn": true, "infiniband.bth.becn": true, "infiniband.bth.padcnt": "1",
		"infiniband.reth.va": "0x00007f0000001000", "infiniband.reth.r_key": "4660", "infiniband.reth.dmalen": "3",
		"infiniband.immdt": "00000102", "infiniband.payload.len": "3",
	}, true})

	f = roce.Frame{Encap: ib.RoCEv2IPv4}
	f.GRH = ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}
	f.Packet.BTH = ib.BTH{OpCode: 0x44, PKey: 0xffff, DestQP: 9, PSN: 7}
	f.Packet.RDETH.EECnxt = 0x00beef
	f.Packet.DETH = ib.DETH{QKey: 0x80010000, SrcQP: 0x123456}
	f.Packet.Payload = make([]byte, 4)
	out = append(out, synth{"v2 rd send-only", build(&f), map[string]any{
		"infiniband.rdeth.eecnxt": "48879", "infiniband.deth.q_key": "2147549184", "infiniband.deth.srcqp": "1193046",
	}, true})

	f = roce.Frame{Encap: ib.RoCEv2IPv4}
	f.GRH = ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}
	f.Packet.BTH = ib.BTH{OpCode: 0xaa, PKey: 0xffff, DestQP: 9, PSN: 8}
	f.Packet.XRCETH.XRCSRQ = 0x000abc
	f.Packet.RETH = ib.RETH{VA: 1, RKey: 2, DMALen: 0}
	out = append(out, synth{"v2 xrc write-only", build(&f), map[string]any{
		"infiniband.xrceth.xrcsrq": "2748", "infiniband.reth.va": "0x0000000000000001", "infiniband.payload.len": "0",
	}, false})

	f = roce.Frame{Encap: ib.RoCEv2IPv4}
	f.GRH = ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}
	f.Packet.BTH = ib.BTH{OpCode: 0x1c, PKey: 0xffff, DestQP: 9, PSN: 9}
	f.Packet.FETH = ib.FETH{SEL: 1, PLT: 2}
	f.Packet.RETH = ib.RETH{VA: 4096, RKey: 5, DMALen: 64}
	out = append(out, synth{"v2 flush", build(&f), map[string]any{
		"infiniband.feth.sel": "1", "infiniband.feth.plt": "2", "infiniband.reth.dmalen": "64",
	}, false})
	return out
}

// TestAllocs checks that decoding and formatting a frame into a reused
// Record and buffer allocates nothing, a bad ICRC included, and that each
// call did its work.
func TestAllocs(t *testing.T) {
	type frame struct {
		name     string
		lt       uint16
		data     []byte
		kind     dump.Kind
		icrcGood bool
	}
	write := firstFrame(t, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", 1)
	badICRC := bytes.Clone(write)
	badICRC[len(badICRC)-1] ^= 1
	native := firstRecord(t, "ib_native_erf_dag_smp_ipoib_cm.pcap")
	badNative := bytes.Clone(native)
	badNative[len(badNative)-3] ^= 1 // the ICRC's last byte, before the 2-byte VCRC
	frames := []frame{
		{"write only", capfile.LinkTypeEthernet, write, dump.KindRoCE, true},
		{"write only, bad ICRC", capfile.LinkTypeEthernet, badICRC, dump.KindRoCE, false},
		{"send capture frame 15", capfile.LinkTypeEthernet, firstFrame(t, "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap", 15), dump.KindRoCE, true},
		{"UDP, not RoCE", capfile.LinkTypeEthernet, firstFrame(t, "ecn_ipv4_udp_all_ce_p4switch.pcap", 1), dump.KindNotRoCE, false},
		{"native InfiniBand", capfile.LinkTypeERF, native, dump.KindInfiniBand, true},
		{"native InfiniBand, bad ICRC", capfile.LinkTypeERF, badNative, dump.KindInfiniBand, false},
		{"RDMA-CM REQ", capfile.LinkTypeEthernet, firstFrame(t, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 1), dump.KindRoCE, true},
	}
	for _, s := range synthetic(t) {
		frames = append(frames, frame{s.name, capfile.LinkTypeEthernet, s.frame, dump.KindRoCE, true})
	}
	for i, f := range smpFrames(t) { // SMP, SMP-DR and PerfMgt lines with attribute fields
		frames = append(frames, frame{fmt.Sprintf("SMP or PerfMgt %d", i), capfile.LinkTypeEthernet, f, dump.KindRoCE, true})
	}
	for i, f := range madFrames(t) { // every CM attribute, SA PathRecord with RMPP
		frames = append(frames, frame{"MAD " + strconv.Itoa(i+1), capfile.LinkTypeEthernet, f, dump.KindRoCE, true})
	}
	var rec dump.Record
	buf := make([]byte, 0, 4096)
	ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, 123456789)}
	for _, fr := range frames {
		t.Run(fr.name, func(t *testing.T) {
			ci.Length, ci.CaptureLength = len(fr.data), len(fr.data)
			decoded := true
			n := testing.AllocsPerRun(100, func() {
				rec.Decode(1, ci, fr.lt, fr.data)
				decoded = decoded && rec.Kind == fr.kind && rec.ICRCGood == fr.icrcGood
			})
			if !decoded {
				t.Fatalf("decoded as %v, ICRC good %v (error %v); want %v, %v", rec.Kind, rec.ICRCGood, rec.Err, fr.kind, fr.icrcGood)
			}
			if n != 0 {
				t.Errorf("Decode allocates %v times", n)
			}
			// Each call must write the line a fresh buffer gets, which
			// for a transport packet ends with the ICRC status.
			icrc := "good"
			if !fr.icrcGood {
				icrc = "bad"
			}
			for _, f := range []struct {
				name   string
				append func([]byte) []byte
				status string
			}{
				{"AppendJSON", rec.AppendJSON, `"infiniband.invariant.crc.status":"` + icrc + `"`},
				{"AppendText", rec.AppendText, " icrc " + icrc + "\n"},
				// tcpdump's output flags: -e -XX -ttt --nano, -xx -tttt,
				// -q -e -tt.
				{"AppendText -e -XX -ttt -nano", withText(&rec, dump.TextFormat{Time: dump.TimeDelta, Nano: true,
					Hex: dump.HexASCII, HexLink: true, Link: true}), " icrc " + icrc + "\n\t0x0000:  "},
				{"AppendText -xx -tttt", withText(&rec, dump.TextFormat{Time: dump.TimeDate, Hex: dump.Hex, HexLink: true}), "\t0x0010:  "},
				{"AppendText -q -e -tt", withText(&rec, dump.TextFormat{Time: dump.TimeEpoch, Quiet: true, Link: true}), " qp 0x"},
			} {
				want := f.append(nil)
				if fr.kind != dump.KindNotRoCE && !bytes.Contains(want, []byte(f.status)) {
					t.Errorf("%s wrote %q, without %q", f.name, want, f.status)
				}
				same := true
				n := testing.AllocsPerRun(100, func() {
					buf = f.append(buf[:0])
					same = same && bytes.Equal(buf, want)
				})
				if !same {
					t.Errorf("%s wrote %q, then %q", f.name, want, buf)
				}
				if n != 0 {
					t.Errorf("%s allocates %v times", f.name, n)
				}
			}
		})
	}
}

// withText returns AppendText of r with the text format f and a time
// reference for the delta formats.
func withText(r *dump.Record, f dump.TextFormat) func([]byte) []byte {
	txt := &dump.TextOptions{Format: f}
	return func(b []byte) []byte {
		txt.TimeRef = r.Time.Add(-1500 * time.Millisecond)
		return txt.AppendText(b, r)
	}
}

// firstRecord returns a copy of the first record of a capture, as
// capfile.Source reads it (an ERF record with its header, for example).
func firstRecord(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(capDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := capfile.NewSource(f)
	if err != nil {
		t.Fatal(err)
	}
	data, _, _, err := src.Next()
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(data)
}

// wide64 are the keys whose values can exceed 2^53, written as strings
// (tshark's text: hex for the VAs, decimal for the atomic data).
var wide64 = map[string]bool{
	"infiniband.reth.va": true, "infiniband.atomiceth.va": true, "infiniband.atomiceth.swapdt": true,
	"infiniband.atomiceth.cmpdt": true, "infiniband.atomicacketh.origremdt": true,
}
