package dump_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/ipoib"
)

// fieldTestCaptures are every capture the field table is checked on:
// shipped, golden, generated (VLAN, IPv6, RoCEv1, CNP, PFC, hand-built
// frames), the congestion and synthetic frames of the other tests, Linux
// cooked copies, and the shipped captures cut by editcap when it is
// installed.
func fieldTestCaptures(t *testing.T) []string {
	dir := t.TempDir()
	paths := append(testcaps.Shipped(t), testcaps.Generated(t, dir)...)
	paths = append(paths, nvmeCapture(t, dir), iserCapture(t, dir))
	var frames [][]byte
	for _, s := range synthetic(t) {
		frames = append(frames, s.frame)
	}
	frames = append(frames, congestionFrames(t)...)
	frames = append(frames, madFrames(t)...)
	frames = append(frames, testcaps.GoldenSMP(t)...) // PortInfo, SwitchInfo, PortCounters, PortCountersExtended
	var cis []gopacket.CaptureInfo
	for i, f := range frames {
		cis = append(cis, gopacket.CaptureInfo{Timestamp: time.Unix(1, int64(i)), Length: len(f), CaptureLength: len(f)})
	}
	synth := filepath.Join(dir, "synthetic.pcap")
	writeCooked(t, filepath.Join(dir, "sll1.pcap"), capfile.LinkTypeLinuxSLL, frames, cis)
	writeCooked(t, filepath.Join(dir, "sll2.pcap"), capfile.LinkTypeLinuxSLL2, frames, cis)
	paths = append(paths, filepath.Join(dir, "sll1.pcap"), filepath.Join(dir, "sll2.pcap"), writePcap(t, synth, frames, cis),
		oracle.WritePcapLinkType(t, dir, "ipoib242.pcap", layers.LinkType(ipoib.LinkType), linkFrames(t)),
		oracle.WritePcap(t, dir, "arp.pcap", testcaps.EthernetARP(t)),
		oracle.WritePcap(t, dir, "tagged.pcap", testcaps.Tagged(t)),
		oracle.WritePcapLinkType(t, dir, "ipoib_native.pcap", layers.LinkType(capfile.LinkTypeERF), testcaps.IPoIBNative(t)),
		oracle.WritePcapLinkType(t, dir, "ipoib_native242.pcap", layers.LinkType(ipoib.LinkType), testcaps.IPoIBLinkOf(t, testcaps.IPoIBNative(t))))
	if _, err := exec_tshark(); err == nil { // editcap comes with tshark
		for _, p := range testcaps.Shipped(t) {
			paths = append(paths, EditcapCut(t, p, 66))
		}
	}
	var mads []capFrame
	for i, f := range append(madFrames(t), testcaps.GoldenSMP(t)...) {
		mads = append(mads, capFrame{f, gopacket.CaptureInfo{Timestamp: time.Unix(2, int64(i)), Length: len(f), CaptureLength: len(f)}, capfile.LinkTypeEthernet})
	}
	return append(paths, cutEverywhere(t, dir, corpus.Path("golden", "rocev2_ipv4.pcap"), writeFrames(t, filepath.Join(dir, "mads.pcap"), mads),
		corpus.Path("captures", "ib_native_erf_dag_smp_ipoib_cm.pcap"))...)
}

// cutEverywhere writes, for each capture, a copy holding each of its
// RoCE and InfiniBand frames cut by the capture at every byte from the
// end of its BTH to its last, as editcap -s would.
func cutEverywhere(t *testing.T, dir string, paths ...string) []string {
	var out []string
	for i, path := range paths {
		var cut []capFrame
		for n, fr := range readCapFrames(t, path) {
			l, ok := layoutOf(fr.decode(n + 1))
			if !ok {
				continue
			}
			for snap := l.bth + ib.BTHLen; snap < len(fr.data)-pseudoLen(fr); snap++ {
				cut = append(cut, cutAt(fr, snap))
			}
		}
		out = append(out, writeFrames(t, filepath.Join(dir, "cut_everywhere"+strconv.Itoa(i)+".pcap"), cut))
	}
	return out
}

func writePcap(t *testing.T, path string, frames [][]byte, cis []gopacket.CaptureInfo) string {
	var b bytes.Buffer
	w := pcapgo.NewWriter(&b)
	if err := w.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		t.Fatal(err)
	}
	for i, f := range frames {
		if err := w.WritePacket(cis[i], f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// helloOnly are the fields of iSER Hello and HelloReply messages, which
// rocegen does not send and no test capture holds yet.
var helloOnly = map[string]bool{"iser.flags.rej": true, "iser.ird": true, "iser.ord": true}

// TestFieldTableIsJSON checks, on every frame of every test capture, that
// the field table gives exactly the keys and values AppendJSON writes: a
// display filter sees what the JSON shows.
func TestFieldTableIsJSON(t *testing.T) {
	frames, values := 0, 0
	seen := map[string]bool{}
	for _, path := range fieldTestCaptures(t) {
		for _, ulp := range dump.ULPs() {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			src, err := capfile.NewSource(f)
			if err != nil {
				t.Fatal(err)
			}
			bad := 0
			// Each upper-layer protocol, for the capsules of nvmeCapture and
			// the messages of iserCapture (and any SEND of the others that
			// looks like one).
			_, err = dump.Scan(src, dump.Options{Workers: 1, ULP: ulp}, func(r *dump.Record) error {
				frames++
				js := parseLines(t, r.AppendJSON(nil))[0]
				fromTable := map[string]string{}
				for i := range dump.Fields() {
					fd := &dump.Fields()[i]
					v, ok := fd.Get(r)
					if ok {
						fromTable[fd.Name] = string(fd.AppendValue(nil, v))
						seen[fd.Name] = true
					}
					if fd.Uint != nil {
						if u, uok := fd.Uint(r); uok != ok || ok && u != v.U {
							bad++
							t.Errorf("%s frame %d: %s: Uint gives %d %v, Get %d %v", path, r.Number, fd.Name, u, uok, v.U, ok)
						}
					}
				}
				for k, v := range js {
					var text string
					switch v := v.(type) {
					case json.Number:
						text = string(v)
					case bool:
						text = strconv.FormatBool(v)
					case string:
						text = v
					}
					got, ok := fromTable[k]
					switch {
					case !ok:
						bad++
						t.Errorf("%s frame %d: JSON has %s = %v, the field table has no value", path, r.Number, k, v)
					case got != text:
						bad++
						t.Errorf("%s frame %d: %s: JSON %q, field table %q", path, r.Number, k, text, got)
					}
					values++
				}
				for k, v := range fromTable {
					if _, ok := js[k]; !ok {
						bad++
						t.Errorf("%s frame %d: field table has %s = %s, JSON has no such key", path, r.Number, k, v)
					}
				}
				if bad > 20 {
					t.FailNow()
				}
				return nil
			})
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, fd := range dump.Fields() {
		if !seen[fd.Name] && !helloOnly[fd.Name] {
			t.Errorf("field %s never present in the test captures", fd.Name)
		}
	}
	t.Logf("%d frames, %d values: JSON and field table agree", frames, values)
}

// TestFieldTable checks the table's own rules: names unique, protocol
// names found, types set.
func TestFieldTable(t *testing.T) {
	for _, f := range dump.Fields() {
		if f.Type == 0 || f.Get == nil {
			t.Errorf("%s: no type or getter", f.Name)
		}
		if f.Type == dump.FieldUint && (f.Bits == 0 || f.Bits > 64) {
			t.Errorf("%s: unsigned of %d bits", f.Name, f.Bits)
		}
		if g, ok := dump.LookupField(f.Name); !ok || g.Name != f.Name {
			t.Errorf("LookupField(%s)", f.Name)
		}
	}
	for name, want := range map[string]string{
		"vlan.inner.id": "vlan", "infiniband.bth.psn": "infiniband.bth", "infiniband.immdt": "infiniband",
		"_error": "frame", "eth.src": "eth", "ip.src": "ip", "ipv6.src": "ipv6", "macc.cbfc.enbv.c3": "macc",
	} {
		if got := dump.FieldProtocol(name); got != want {
			t.Errorf("FieldProtocol(%s) = %s, want %s", name, got, want)
		}
	}
}

// tableJSON writes a frame's JSON object from the field table, as
// AppendJSON could (keys in table order): BenchmarkJSONByTable measures
// it against AppendJSON.
func tableJSON(b []byte, r *dump.Record) []byte {
	b = append(b, '{')
	for i := range dump.Fields() {
		f := &dump.Fields()[i]
		v, ok := f.Get(r)
		if !ok {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, f.Name...)
		b = append(b, '"', ':')
		switch f.Type {
		case dump.FieldUint, dump.FieldBool, dump.FieldTime:
			b = f.AppendValue(b, v)
		default:
			b = strconv.AppendQuote(b, string(f.AppendValue(nil, v)))
		}
	}
	return append(b, '}', '\n')
}

// BenchmarkJSONByTable formats the frames of the 4,000-frame capture
// with AppendJSON (direct) and from the field table (table).
func BenchmarkJSONByTable(b *testing.B) {
	recs := testcaps.Records(b, filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"))
	buf := make([]byte, 0, 4096)
	for _, bc := range []struct {
		name string
		fn   func([]byte, *dump.Record) []byte
	}{{"direct", func(b []byte, r *dump.Record) []byte { return r.AppendJSON(b) }}, {"table", tableJSON}} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				buf = bc.fn(buf[:0], &recs[i%len(recs)])
			}
		})
	}
}

// TestFieldNamesAreWireshark checks the table's names against tshark 4.0's
// (tshark -G fields lists fields and protocols): every field, second name
// and protocol is Wireshark's, except those the package documentation
// marks as ours.
func TestFieldNamesAreWireshark(t *testing.T) {
	bin := oracle.Need(t, "tshark")
	cmd := exec.Command(bin, "-G", "fields")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark -G fields: %v", err)
	}
	ws := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if c := strings.Split(l, "\t"); len(c) > 2 && (c[0] == "F" || c[0] == "P") {
			ws[c[2]] = true
		}
	}
	ours := func(name string) bool {
		return ourName(name) || name == "_cnp_error" ||
			name == "infiniband.xrceth" || name == "infiniband.feth"
	}
	n := 0
	check := func(name string) {
		switch {
		case name == "":
		case ws[name] && ours(name):
			t.Errorf("%s is a Wireshark name, yet marked ours", name)
		case !ws[name] && !ours(name):
			t.Errorf("%s is not a Wireshark field or protocol (tshark -G fields)", name)
		default:
			n++
		}
	}
	for _, f := range dump.Fields() {
		check(f.Name)
		check(f.Also)
	}
	for _, p := range dump.Protocols() {
		check(p.Name)
	}
	t.Logf("%d names checked against tshark -G fields", n)
}

// TestVerboseAllocs checks that AppendVerbose allocates nothing for a
// RoCE frame, a PFC frame, a CM REQ, a CM REJ (its reason named) and
// NodeStrings (of an SMP, and of an SA NodeRecord with bytes to quote),
// and writes their header lines.
func TestVerboseAllocs(t *testing.T) {
	for _, tc := range []struct {
		frame []byte
		want  string
	}{
		{firstFrame(t, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", 1), "    infiniband.reth: va 0x"},
		{congestionFrames(t)[0], "    macc: opcode 0x0101 (PFC) cbfc.enbv 0x008a cbfc.enbv.c0 false cbfc.enbv.c1 true"},
		{firstFrame(t, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 1), "    infiniband.cm: req 0x34cfb552 req.serviceid 0x0000000001061d2f"},
		{madFrames(t)[1], "rej.reason 0x001c (Consumer Reject)"},
		{testcaps.GoldenSMP(t)[3], `nodedescription.nodestring "ib-leaf-07 mlx5_0"`}, // a text held in the frame (Value.B)
		{testcaps.GoldenSMP(t)[11], `nodedescription.nodestring "sw-spine-01\u0001 \"core\" \\ mlx5_2"`},
	} {
		var r dump.Record
		r.Decode(1, gopacket.CaptureInfo{Timestamp: time.Unix(1, 0), Length: len(tc.frame), CaptureLength: len(tc.frame)}, capfile.LinkTypeEthernet, tc.frame)
		buf := make([]byte, 0, 4096)
		allocs := testing.AllocsPerRun(100, func() { buf = r.AppendVerbose(buf[:0]) })
		if allocs != 0 || !strings.Contains(string(buf), tc.want) {
			t.Errorf("%v allocations; output lacks %q:\n%s", allocs, tc.want, buf)
		}
	}
}

// TestTypeBitsAreTshark checks Field.TypeBits, the width display filters
// bound a literal by, against the type tshark 4.0 gives each field
// (tshark -G fields): for every unsigned field that has a Wireshark name.
func TestTypeBitsAreTshark(t *testing.T) {
	tshark := oracle.Need(t, "tshark")
	cmd := exec.Command(tshark, "-G", "fields")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark -G fields: %v", err)
	}
	types := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if c := strings.Split(l, "\t"); len(c) > 3 && c[0] == "F" {
			types[c[2]] = c[3]
		}
	}
	widths := map[string]uint8{"FT_UINT8": 8, "FT_UINT16": 16, "FT_UINT24": 24, "FT_UINT32": 32, "FT_FRAMENUM": 32,
		"FT_UINT40": 40, "FT_UINT48": 48, "FT_UINT56": 56, "FT_UINT64": 64}
	checked := 0
	for _, f := range dump.Fields() {
		if f.Type != dump.FieldUint {
			continue
		}
		for _, name := range []string{f.Name, f.Also} {
			typ, ok := types[name]
			if name == "" || !ok {
				continue
			}
			if w, ok := widths[typ]; !ok {
				t.Errorf("%s: tshark's %s is %s, not an unsigned integer", f.Name, name, typ)
			} else if w != f.TypeBits {
				t.Errorf("%s: TypeBits %d, tshark's %s is %s", f.Name, f.TypeBits, name, typ)
			}
			checked++
			break
		}
	}
	if checked < 200 {
		t.Errorf("only %d fields checked", checked)
	}
	t.Logf("%d unsigned fields have the width of tshark's type", checked)
}
