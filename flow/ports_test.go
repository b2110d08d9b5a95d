package flow_test

import (
	"math"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ecmp"
	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// The tests in this file build captures with package gen whose UDP
// source ports are known from the configuration (Config.SrcPort, or the
// ports worked by hand from the QP numbers), and check the host pairs'
// source-port summaries and the ECMP what-if against them.

// portsReport runs the phases through gen and the analysis, by AddRecord
// and by AddBatch (the two must agree), and returns the report and the
// frames.
func portsReport(t *testing.T, paths int, phases ...gen.Config) (*flow.Report, [][]byte) {
	t.Helper()
	g, err := gen.NewScenario(phases)
	if err != nil {
		t.Fatal(err)
	}
	an := flow.New(flow.Config{ECMPPaths: paths})
	bn := flow.New(flow.Config{ECMPPaths: paths})
	b := flow.NewBatch()
	var rec dump.Record
	var frames [][]byte
	for n := 1; g.Next(); n++ {
		f := append([]byte(nil), g.Frame()...)
		frames = append(frames, f)
		rec.Decode(n, gopacket.CaptureInfo{Timestamp: g.Time(), Length: len(f), CaptureLength: len(f)}, capfile.LinkTypeEthernet, f)
		an.AddRecord(&rec)
		b.Add(&rec)
	}
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	bn.AddBatch(b)
	r := an.Report()
	var x, y strings.Builder
	if err := r.WriteText(&x); err != nil {
		t.Fatal(err)
	}
	if err := bn.Report().WriteText(&y); err != nil {
		t.Fatal(err)
	}
	if x.String() != y.String() {
		t.Errorf("AddBatch's report differs from AddRecord's:\n%s\n%s", y.String(), x.String())
	}
	return r, frames
}

// hostPorts returns the summary of the host pair src > dst.
func hostPorts(t *testing.T, r *flow.Report, src, dst string) flow.HostPorts {
	t.Helper()
	for _, h := range r.HostPorts {
		if h.Src == src && h.Dst == dst {
			return h
		}
	}
	t.Fatalf("no host pair %s > %s in %+v", src, dst, r.HostPorts)
	return flow.HostPorts{}
}

// portsOf returns port: qps of a host pair.
func portsOf(h flow.HostPorts) map[int]int {
	m := map[int]int{}
	for _, p := range h.Ports {
		m[p.Port] = p.QPs
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSrcPortsLinux: four RC queue pairs with the ports Linux derives
// from QPs 0x100-0x103 and 0x200-0x203, worked by hand: the flow label
// is the product of the QP numbers folded (rdma_calc_flow_label: v ^=
// v>>20; v ^= v>>40; 20 bits), then folded into a port.
//
//	0x100*0x200 = 0x20000: 0x0000 ^ (0x20000>>14 = 8) = 0x0008 -> 0xc008 49160
//	0x101*0x201 = 0x20301: 0x0301 ^ 8 = 0x0309                 -> 0xc309 49929
//	0x102*0x202 = 0x20604: 0x0604 ^ 8 = 0x060c                 -> 0xc60c 50700
//	0x103*0x203 = 0x20909: 0x0909 ^ 8 = 0x0901                 -> 0xc901 51457
//
// Four QPs on four ports: entropy log2 4 = 2 bits, nothing shared, not
// narrow. Over CM the REQ's primary flow label is that label: every QP
// follows Linux; over IPv6 the packets' flow labels say the same.
func TestSrcPortsLinux(t *testing.T) {
	want := map[int]int{49160: 1, 49929: 1, 50700: 1, 51457: 1}
	for _, c := range []struct {
		name, from string
		encap      ib.Encapsulation
		cm         bool
		src, dst   string
	}{
		{"ipv4", "", ib.RoCEv2IPv4, false, "192.0.2.1", "192.0.2.2"},
		{"ipv4-cm", "cm", ib.RoCEv2IPv4, true, "192.0.2.1", "192.0.2.2"},
		{"ipv6", "ipv6", ib.RoCEv2IPv6, false, "2001:db8::1", "2001:db8::2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := gen.DefaultConfig()
			cfg.Encap, cfg.CM, cfg.QPs, cfg.Messages, cfg.Size = c.encap, c.cm, 4, 2, 1024
			r, _ := portsReport(t, 0, cfg)
			for _, dir := range [][2]string{{c.src, c.dst}, {c.dst, c.src}} {
				h := hostPorts(t, r, dir[0], dir[1])
				if h.QPs != 4 || !mapsEqual(portsOf(h), want) || h.DistinctPorts != 4 || h.Lowest != 49160 || h.Highest != 51457 {
					t.Errorf("%s > %s: qps %d ports %v, want 4 qps on %v", dir[0], dir[1], h.QPs, portsOf(h), want)
				}
				if !near(h.Entropy, 2) || !near(h.MaxEntropy, 2) || h.SharedPorts != 0 || h.Narrow {
					t.Errorf("%s > %s: entropy %v of %v shared %d narrow %v, want 2 of 2, 0, false", dir[0], dir[1], h.Entropy, h.MaxEntropy, h.SharedPorts, h.Narrow)
				}
				labelled := 0
				if c.from != "" {
					labelled = 4
				}
				if h.LabelQPs != labelled || h.LabelFollow != labelled || h.LabelDiffer != 0 {
					t.Errorf("%s > %s: flow label qps %d follow %d differ %d, want %d %d 0", dir[0], dir[1], h.LabelQPs, h.LabelFollow, h.LabelDiffer, labelled, labelled)
				}
			}
			for _, f := range r.Flows {
				if f.QP == ib.QPGSI {
					continue
				}
				if c.from == "" {
					if f.FlowLabel != nil {
						t.Errorf("%s qp %#x: flow label %+v over IPv4 without CM", f.Src, f.QP, *f.FlowLabel)
					}
					continue
				}
				if l := f.FlowLabel; l == nil || l.From != c.from || !l.Follows || l.Differ != 0 || l.Packets != f.Frames ||
					len(f.SrcPorts) != 1 || l.LinuxSrcPort != f.SrcPorts[0].Port {
					t.Errorf("%s qp %#x: flow label %+v, ports %+v", f.Src, f.QP, l, f.SrcPorts)
				}
			}
			var text strings.Builder
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			line := "udp " + c.src + " > " + c.dst + ": qps 4 src-ports 4 (49160-51457) entropy 2.00 bits of 2.00\n"
			if !strings.Contains(text.String(), line) || strings.Contains(text.String(), "shared") || strings.Contains(text.String(), "narrow") {
				t.Errorf("text lacks %q or has a finding:\n%s", line, text.String())
			}
			if c.from != "" && !strings.Contains(text.String(), line+"  flow-label qps 4 follow-linux 4 differ 0\n") {
				t.Errorf("text lacks the flow-label line:\n%s", text.String())
			}
		})
	}
}

func mapsEqual(a, b map[int]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestSrcPortFixed: four queue pairs that all send from port 49152
// (gen's SrcPort), the RoCE bug of one port for every QP: one port, 4
// QPs on it, entropy 0 of 2 bits: shared and narrow. Over CM and IPv6
// the flow labels stay Linux's, whose ports differ from 49152: every QP
// differs, every packet counted.
func TestSrcPortFixed(t *testing.T) {
	for _, c := range []struct {
		name     string
		encap    ib.Encapsulation
		cm       bool
		src, dst string
	}{
		{"ipv4-cm", ib.RoCEv2IPv4, true, "192.0.2.1", "192.0.2.2"},
		{"ipv6", ib.RoCEv2IPv6, false, "2001:db8::1", "2001:db8::2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := gen.DefaultConfig()
			cfg.Encap, cfg.CM, cfg.QPs, cfg.Messages, cfg.Size, cfg.SrcPort = c.encap, c.cm, 4, 2, 1024, 49152
			r, _ := portsReport(t, 0, cfg)
			h := hostPorts(t, r, c.src, c.dst)
			if h.QPs != 4 || !mapsEqual(portsOf(h), map[int]int{49152: 4}) || h.Entropy != 0 || !near(h.MaxEntropy, 2) ||
				h.SharedPorts != 1 || !h.Narrow || h.LabelQPs != 4 || h.LabelFollow != 0 || h.LabelDiffer != 4 {
				t.Errorf("%+v", h)
			}
			for _, f := range r.Flows {
				if f.QP == ib.QPGSI {
					continue
				}
				if l := f.FlowLabel; l == nil || l.Follows || l.Differ != f.Frames || l.Packets != f.Frames {
					t.Errorf("%s qp %#x: flow label %+v, %d frames", f.Src, f.QP, l, f.Frames)
				}
			}
			var text strings.Builder
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			want := "udp " + c.src + " > " + c.dst + ": qps 4 src-ports 1 (49152) entropy 0.00 bits of 2.00\n" +
				"  shared src-ports 1: [49152 qps 4]\n" +
				"  narrow spread: entropy 0.00 bits below 2.00\n" +
				"  flow-label qps 4 follow-linux 0 differ 4\n"
			if !strings.Contains(text.String(), want) {
				t.Errorf("text lacks\n%s\nin\n%s", want, text.String())
			}
		})
	}
}

// TestSrcPortsShared: three phases of UC queue pairs (no responses),
// two on port 50000, two on 50001, one on 50002: counts 2, 2, 1 of 5
// QPs, entropy worked by hand 2*(2/5 log2 5/2) + 1/5 log2 5 =
// 0.8*1.3219281 + 0.2*2.3219281 = 1.5219281 bits, of log2 5 =
// 2.3219281: below 2, narrow; two ports shared.
func TestSrcPortsShared(t *testing.T) {
	var phases []gen.Config
	for i, p := range []struct {
		qps  int
		port uint16
	}{{2, 50000}, {2, 50001}, {1, 50002}} {
		cfg := gen.DefaultConfig()
		cfg.Transport, cfg.Size, cfg.QPs, cfg.SrcPort = ib.UC, 64, p.qps, p.port
		cfg.LocalQP, cfg.RemoteQP = 0x100+uint32(0x10*i), 0x200+uint32(0x10*i)
		phases = append(phases, cfg)
	}
	r, _ := portsReport(t, 0, phases...)
	h := hostPorts(t, r, "192.0.2.1", "192.0.2.2")
	if len(r.HostPorts) != 1 || h.QPs != 5 || !mapsEqual(portsOf(h), map[int]int{50000: 2, 50001: 2, 50002: 1}) ||
		h.SharedPorts != 2 || !h.Narrow || math.Abs(h.Entropy-1.5219281) > 1e-7 || math.Abs(h.MaxEntropy-2.3219281) > 1e-7 {
		t.Errorf("%d host pairs, %+v", len(r.HostPorts), h)
	}
	for _, p := range h.Ports { // one 138-byte WRITE Only per QP: 74 bytes of headers and ICRC, 64 of payload
		if p.Frames != uint64(p.QPs) || p.Bytes != 138*uint64(p.QPs) {
			t.Errorf("port %d: frames %d bytes %d for %d qps", p.Port, p.Frames, p.Bytes, p.QPs)
		}
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := "udp 192.0.2.1 > 192.0.2.2: qps 5 src-ports 3 (50000-50002) entropy 1.52 bits of 2.32\n" +
		"  shared src-ports 2: [50000 qps 2] [50001 qps 2]\n" +
		"  narrow spread: entropy 1.52 bits below 2.00\n"
	if !strings.Contains(text.String(), want) {
		t.Errorf("text lacks\n%s\nin\n%s", want, text.String())
	}
}

// TestECMPOnePort: UC WRITEs of 64 bytes (no responses) from four QPs
// on one port make one 5-tuple: 12 frames of 138 bytes, 1656 bytes, all
// on one path whatever the hash, so the max is 1656 and max/mean the
// number of paths. The XOR fold's path is worked by hand (TestXORFold of
// package ecmp: 192.0.2.1 > 192.0.2.2, 0xc000 > 4791 fold to 0xc0c0d266,
// path 0x66 % 4 = 2).
func TestECMPOnePort(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.Transport, cfg.Size, cfg.Messages, cfg.QPs, cfg.SrcPort = ib.UC, 64, 3, 4, 0xc000
	r, _ := portsReport(t, 4, cfg)
	e := r.ECMP
	if e == nil || e.Paths != 4 || e.Tuples != 1 || e.Bytes != 1656 || len(e.Hashes) != len(ecmp.Hashes) {
		t.Fatalf("ecmp %+v", e)
	}
	for _, s := range e.Hashes {
		if s.MaxBytes != 1656 || s.MeanBytes != 414 || s.Imbalance != 4 {
			t.Errorf("%s: max %d mean %v imbalance %v, want 1656 414 4", s.Hash, s.MaxBytes, s.MeanBytes, s.Imbalance)
		}
		if s.Hash == "xor-fold" && (s.Bytes[2] != 1656 || s.Tuples[2] != 1) {
			t.Errorf("xor-fold: bytes %v tuples %v, want all on path 2", s.Bytes, s.Tuples)
		}
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ecmp 4 paths: tuples 1 bytes 1656\n", "  xor-fold max/mean 4.00 bytes 0 0 1656 0\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if r, _ := portsReport(t, 0, cfg); r.ECMP != nil {
		t.Errorf("ECMP without ECMPPaths: %+v", r.ECMP)
	}
}

// TestECMPVsTshark checks the bytes per path of every hash against the
// 5-tuples and frame lengths tshark reads from the same capture (RC
// with CM, 8 QPs, responses and MADs included), each tuple hashed with
// package ecmp, whose hashes have tests of their own.
func TestECMPVsTshark(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.CM, cfg.QPs, cfg.Messages, cfg.Size, cfg.MTU = true, 8, 3, 3000, 1024
	const paths = 5
	r, frames := portsReport(t, paths, cfg)
	pcap := oracle.WritePcap(t, t.TempDir(), "ecmp.pcap", frames)
	rows := oracle.TsharkFields(t, pcap, []string{"frame.len", "ip.src", "ip.dst", "udp.srcport", "udp.dstport"})
	if len(rows) != len(frames) {
		t.Fatalf("tshark read %d frames of %d", len(rows), len(frames))
	}
	want := make(map[string][]uint64)
	tuples := map[ecmp.Tuple]bool{}
	var total uint64
	for _, row := range rows {
		n, _ := strconv.ParseUint(row["frame.len"][0], 10, 64)
		sp, _ := strconv.ParseUint(row["udp.srcport"][0], 10, 16)
		dp, _ := strconv.ParseUint(row["udp.dstport"][0], 10, 16)
		tu := ecmp.Tuple{Src: netip.MustParseAddr(row["ip.src"][0]), Dst: netip.MustParseAddr(row["ip.dst"][0]),
			Proto: ecmp.ProtoUDP, SrcPort: uint16(sp), DstPort: uint16(dp)}
		tuples[tu] = true
		total += n
		for _, h := range ecmp.Hashes {
			if want[h.Name] == nil {
				want[h.Name] = make([]uint64, paths)
			}
			want[h.Name][h.Path(&tu, paths)] += n
		}
	}
	e := r.ECMP
	if e == nil || e.Tuples != len(tuples) || e.Bytes != total {
		t.Fatalf("ecmp %+v; tshark: %d tuples, %d bytes", e, len(tuples), total)
	}
	for _, s := range e.Hashes {
		w := want[s.Hash]
		for i := range w {
			if s.Bytes[i] != w[i] {
				t.Errorf("%s: bytes per path %v, tshark %v", s.Hash, s.Bytes, w)
				break
			}
		}
		if !near(s.Imbalance, ecmp.Imbalance(w)) {
			t.Errorf("%s: imbalance %v, want %v", s.Hash, s.Imbalance, ecmp.Imbalance(w))
		}
	}
	t.Logf("%d frames, %d tuples, %d bytes on %d paths agree with tshark", len(rows), len(tuples), total, paths)
}
