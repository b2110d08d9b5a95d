package dump_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// nvmeCapture writes the NVMe/RDMA conversations of rocegen -ulp nvme
// to a capture in dir: a Read on two I/O queues, a Write that the MTU
// splits over IPv6, a SEND with Invalidate and a rejected connection,
// each on queue pairs of its own (as gen's TestNVMeTshark has them).
func nvmeCapture(t testing.TB, dir string) string {
	t.Helper()
	var phases []gen.Config
	add := func(f func(c *gen.Config)) {
		c := gen.DefaultConfig()
		c.ULP, c.Size, c.Op = gen.ULPNVMe, 8192, gen.OpRead
		c.LocalQP, c.RemoteQP = 0x100+uint32(len(phases))*0x10, 0x800+uint32(len(phases))*0x10
		f(&c)
		phases = append(phases, c)
	}
	add(func(c *gen.Config) { c.QPs, c.Messages = 2, 2 })
	add(func(c *gen.Config) { c.Op, c.MTU, c.Encap = gen.OpWrite, 1024, ib.RoCEv2IPv6 })
	add(func(c *gen.Config) { c.Op, c.Size, c.Encap = gen.OpSend, 2048, ib.RoCEv1 })
	add(func(c *gen.Config) { c.Op, c.Size, c.PSN = gen.OpSendInv, 4096, 0xffffff })
	add(func(c *gen.Config) { c.CMReject = 28 })
	g, err := gen.NewScenario(phases)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(&b, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "nvme_rdma.pcap")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// nvmeTsharkArgs are tshark's RoCE options with the nvme-rdma heuristic
// left on.
func nvmeTsharkArgs() []string {
	var args []string
	for i := 0; i < len(oracle.TsharkRoCEArgs); i += 2 {
		if oracle.TsharkRoCEArgs[i+1] != "nvme_rdma" {
			args = append(args, oracle.TsharkRoCEArgs[i:i+2]...)
		}
	}
	return args
}

// nvmeOnlyOurs are nvme keys we show where tshark 4.0 shows none, and
// why: the frame alone does not say what tshark learns from the
// connection.
var nvmeOnlyOurs = map[string]string{
	"nvme.cmd.name":     "ours",
	"nvme.cqe.dword0":   "a Fabrics command's completion: tshark shows the Connect's or Property Get's result fields instead",
	"nvme.cqe.dword1":   "a Fabrics command's completion",
	"nvme.cqe.status.p": "a Fabrics command's completion: tshark calls the bit nvme.cqe.status.rsvd",
}

// TestTsharkNVMeJSON compares the JSON of Scan with ULP ULPNVMe on the
// NVMe/RDMA conversations of package gen with tshark -T json, for every
// nvme key both show; it reports how many values agree, and the nvme
// keys tshark shows that the JSON has none of (what needs the
// connection: the queue, the command a completion answers, the data of
// a transfer).
func TestTsharkNVMeJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	path := nvmeCapture(t, t.TempDir())
	ts := oracle.Tshark(t, path, nvmeTsharkArgs()...)
	out, _ := runDump(t, path, dump.Options{JSON: true, ULP: dump.ULPNVMe})
	objs := parseLines(t, out)
	if len(objs) != len(ts) {
		t.Fatalf("%d objects, tshark shows %d frames", len(objs), len(ts))
	}
	compared, frames := 0, 0
	keys := map[string]int{}
	theirsOnly, oursOnly := map[string]int{}, map[string]int{}
	for i, m := range objs {
		nv := false
		for k, v := range m {
			if !strings.HasPrefix(k, "nvme") {
				continue
			}
			nv = true
			vals, ok := ts[i][k]
			if !ok {
				_, known := nvmeOnlyOurs[k]
				if _, split := ts[i]["nvme-rdma.unknown_data"]; split {
					// A completion of a command whose capsule took
					// several packets: tshark, which saw no command, shows
					// its bytes as unknown data.
					known = true
				}
				if !known {
					t.Errorf("frame %d: %s = %v, which tshark does not show", i+1, k, v)
				}
				oursOnly[k]++
				continue
			}
			if len(vals) != 1 {
				t.Errorf("frame %d: tshark shows %s %d times: %q", i+1, k, len(vals), vals)
				continue
			}
			compared++
			keys[k]++
			if !sameValue(k, v, vals[0]) {
				t.Errorf("frame %d: %s: ours %v, tshark %q", i+1, k, v, vals[0])
			}
		}
		if nv {
			frames++
		}
		for k := range ts[i] {
			if _, ok := m[k]; !ok && (strings.HasPrefix(k, "nvme.") || strings.HasPrefix(k, "nvme-rdma.")) {
				theirsOnly[k]++
			}
		}
	}
	var only []string
	for k, n := range theirsOnly {
		for _, pre := range []string{"nvme.cmd.identify.ctrl.", "nvme.fabrics.prop_get.", "nvme.fabrics.prop_get_set.cc.", "nvme.fabrics.prop_get_set.csts.", "nvme.fabrics.cmd.connect.data."} {
			if strings.HasPrefix(k, pre) {
				k = pre + "*"
			}
		}
		if n > theirsOnly[k] {
			theirsOnly[k] = n
		}
	}
	for k, n := range theirsOnly {
		if !strings.HasSuffix(k, "*") && strings.Contains(k, ".identify.ctrl.") || strings.Contains(k, ".prop_get.") && !strings.HasSuffix(k, "*") ||
			strings.Contains(k, ".cc.") && !strings.HasSuffix(k, "*") || strings.Contains(k, ".csts.") && !strings.HasSuffix(k, "*") ||
			strings.Contains(k, ".connect.data.") && !strings.HasSuffix(k, "*") {
			continue
		}
		only = append(only, k+" "+strconv.Itoa(n))
	}
	sort.Strings(only)
	t.Logf("%d frames, %d with NVMe keys: %d values of %d keys agree with tshark; ours only: %v; tshark's only (%d keys): %s",
		len(objs), frames, compared, len(keys), oursOnly, len(only), strings.Join(only, ", "))
	for _, k := range []string{"nvme.cmd.opc", "nvme.cmd.slba", "nvme.cmd.nlb", "nvme.cmd.sgl1.key", "nvme.fabrics.cmd.fctype",
		"nvme.fabrics.cmd.connect.qid", "nvme.fabrics.cmd.prop_get_set.offset", "nvme.cmd.identify.dword10.cns", "nvme.cqe.status.sc", "nvme.cqe.cid"} {
		if keys[k] == 0 {
			t.Errorf("%s never compared", k)
		}
	}
}

// TestNVMeOffByDefault checks that without ULPNVMe an NVMe/RDMA capture
// has no nvme key: Options.ULP is the zero value's ULPNone.
func TestNVMeOffByDefault(t *testing.T) {
	path := nvmeCapture(t, t.TempDir())
	out, _ := runDump(t, path, dump.Options{JSON: true})
	if bytes.Contains(out, []byte(`"nvme`)) {
		t.Error("nvme keys without ULPNVMe")
	}
	text, _ := runDump(t, path, dump.Options{Location: time.UTC})
	if bytes.Contains(text, []byte("NVMe")) {
		t.Error("NVMe in the text without ULPNVMe")
	}
	text, _ = runDump(t, path, dump.Options{Location: time.UTC, ULP: dump.ULPNVMe})
	for _, want := range []string{
		"payload 64: NVMe Read cid 1 nsid 1 slba 0 nlb 16 sgl keyed addr 0x",
		": NVMe completion cid 1 sqhd 2 status Successful Completion",
		": NVMe Fabrics Connect cid 0 qid 0 sqsize 32 sgl keyed",
		": NVMe Fabrics Property Set cid 3 property Controller Configuration (CC) value 0x",
		": NVMe Identify cid 5 nsid 0 sgl keyed",
		"SEND Only with Invalidate",
	} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("text lacks %q", want)
		}
	}
}

// TestNVMeAllocs checks that decoding a capsule, and writing it as JSON,
// text and verbose text, allocates nothing.
func TestNVMeAllocs(t *testing.T) {
	path := nvmeCapture(t, t.TempDir())
	var frames [][]byte
	for _, fr := range readCapFrames(t, path) {
		frames = append(frames, fr.data)
	}
	r := dump.Record{ULP: dump.ULPNVMe}
	buf := make([]byte, 0, 1<<16)
	n := 0
	for _, f := range frames {
		ci := gopacket.CaptureInfo{Timestamp: time.Unix(1, 0), Length: len(f), CaptureLength: len(f)}
		allocs := testing.AllocsPerRun(20, func() {
			r.Decode(1, ci, capfile.LinkTypeEthernet, f)
			buf = r.AppendJSON(buf[:0])
			buf = r.AppendText(buf)
			buf = r.AppendVerbose(buf)
		})
		if allocs != 0 {
			t.Fatalf("%v allocations: %s", allocs, buf)
		}
		if bytes.Contains(buf, []byte(": NVMe ")) {
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d capsules", n)
	}
}
