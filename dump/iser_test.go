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

// iserCapture writes the iSER sessions of rocegen -ulp iser to a capture
// in dir: READs and WRITEs, (10) on each phase's first connection and
// (16) on the others, of several sizes, MTUs (the smallest splits the
// Logins over several packets), encapsulations and numbers of queue
// pairs, each phase on queue pairs of its own.
func iserCapture(t testing.TB, dir string) string {
	t.Helper()
	var phases []gen.Config
	add := func(f func(c *gen.Config)) {
		c := gen.DefaultConfig()
		c.ULP, c.Size, c.Op = gen.ULPISER, 8192, gen.OpRead
		c.LocalQP, c.RemoteQP = 0x100+uint32(len(phases))*0x10, 0x800+uint32(len(phases))*0x10
		f(&c)
		phases = append(phases, c)
	}
	add(func(c *gen.Config) { c.QPs, c.Messages = 2, 3 })
	add(func(c *gen.Config) { c.Op, c.QPs, c.Messages, c.MTU, c.Encap = gen.OpWrite, 3, 2, 1024, ib.RoCEv2IPv6 })
	add(func(c *gen.Config) { c.Op, c.Size, c.MTU, c.Messages = gen.OpWrite, 65536, 2048, 3 })
	add(func(c *gen.Config) { c.Size, c.MTU, c.QPs, c.Messages, c.Encap = 512, 256, 2, 2, ib.RoCEv1 })
	add(func(c *gen.Config) { c.Size, c.QPs, c.Messages, c.PSN = 1<<20, 2, 2, 0xfffff0 })
	add(func(c *gen.Config) { c.Op, c.Size, c.MTU, c.QPs, c.Messages = gen.OpWrite, 1536, 512, 4, 1 })
	g, err := gen.NewScenario(phases)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := gen.Write(&b, g, capfile.FormatPcap); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "iser.pcap")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// iserTsharkArgs are tshark's RoCE options with the iser heuristic left
// on: tshark takes the queue pairs for iSER from the CM REQ to port 3260.
func iserTsharkArgs() []string {
	var args []string
	for i := 0; i < len(oracle.TsharkRoCEArgs); i += 2 {
		if oracle.TsharkRoCEArgs[i+1] != "iser_infiniband" {
			args = append(args, oracle.TsharkRoCEArgs[i:i+2]...)
		}
	}
	return args
}

// iserKey reports whether a key is one of the iSER message's: iser.*,
// iscsi.*, scsi.* and scsi_sbc.*.
func iserKey(k string) bool {
	for _, p := range []string{"iser.", "iscsi.", "scsi.", "scsi_sbc."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// iserConversation are the keys tshark shows on a SCSI Response that it
// takes from the command it answers (the LUN, the CDB's operation code),
// which the frame alone does not say.
var iserConversation = map[string]bool{"scsi.lun": true, "scsi_sbc.opcode": true}

// TestTsharkISERJSON compares the JSON of Scan with ULP ULPISER on the
// iSER sessions of package gen with tshark -T json, for every iser,
// iscsi, scsi and scsi_sbc key we show: each must equal every value
// tshark gives it on that frame, and every one of our keys tshark shows
// on a frame we decode must be ours too. A message of several packets
// (a Login at MTU 256), which tshark reads from its first packet and we
// leave to the reassembly of messages, is counted apart, and so is the
// payload of an RDMA WRITE or READ response that tshark's heuristic
// takes for an iSER header (the data gen writes is random).
func TestTsharkISERJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	path := iserCapture(t, t.TempDir())
	ts := oracle.Tshark(t, path, iserTsharkArgs()...)
	out, _ := runDump(t, path, dump.Options{JSON: true, ULP: dump.ULPISER})
	objs := parseLines(t, out)
	if len(objs) != len(ts) {
		t.Fatalf("%d objects, tshark shows %d frames", len(objs), len(ts))
	}
	ours := map[string]bool{}
	for _, f := range dump.Fields() {
		if f.ULP == dump.ULPISER {
			ours[f.Name] = true
		}
	}
	compared, frames, split, misread := 0, 0, 0, 0
	keys := map[string]int{}
	theirsOnly := map[string]int{}
	ops := map[string]int{}
	for i, m := range objs {
		is := false
		for k, v := range m {
			if !iserKey(k) {
				continue
			}
			is = true
			vals, ok := ts[i][k]
			if !ok {
				t.Errorf("frame %d: %s = %v, which tshark does not show", i+1, k, v)
				continue
			}
			for _, tv := range vals {
				compared++
				keys[k]++
				if !sameValue(k, v, tv) {
					t.Errorf("frame %d: %s: ours %v, tshark %q", i+1, k, v, tv)
				}
			}
		}
		_, tsISER := ts[i]["iser.flags"]
		if !is && tsISER {
			switch op := m["infiniband.bth.opcode"].(interface{ String() string }).String(); op {
			case "0", "1", "2", "3": // SEND First, Middle, Last: a message of several packets
				split++
			case "4", "23": // SEND Only, with Invalidate
				t.Errorf("frame %d: tshark shows iSER, we do not", i+1)
			default: // RDMA data whose first bytes tshark takes for an iSER header
				misread++
			}
			continue
		}
		if !is {
			continue
		}
		frames++
		if op, ok := m["iscsi.opcode"]; ok {
			ops[op.(interface{ String() string }).String()]++
		}
		for k := range ts[i] {
			if _, ok := m[k]; ok || !iserKey(k) {
				continue
			}
			if ours[k] && !(iserConversation[k] && m["iscsi.opcode"] != nil && m["iscsi.opcode"].(interface{ String() string }).String() == "33") {
				t.Errorf("frame %d: tshark shows %s = %q, we do not", i+1, k, ts[i][k])
			}
			theirsOnly[k]++
		}
	}
	var only []string
	for k, n := range theirsOnly {
		only = append(only, k+" "+strconv.Itoa(n))
	}
	sort.Strings(only)
	t.Logf("%d frames, %d with iSER keys (iSCSI opcodes %v), %d packets of split messages and %d of RDMA data tshark takes for iSER left out: %d values of %d keys agree with tshark; tshark's only (%d keys): %s",
		len(objs), frames, ops, split, misread, compared, len(keys), len(only), strings.Join(only, ", "))
	if compared < 500 {
		t.Errorf("only %d values compared", compared)
	}
	for k := range ours {
		if keys[k] == 0 && k != "iser.ird" && k != "iser.ord" && k != "iser.flags.rej" {
			t.Errorf("%s never compared", k)
		}
	}
	for _, op := range []string{"1", "3", "33", "35"} {
		if ops[op] == 0 {
			t.Errorf("no iSCSI opcode %s", op)
		}
	}
}

// TestISEROffByDefault checks that without ULPISER an iSER capture has
// no iser key nor iSER text, and that with it the text names the
// commands and responses.
func TestISEROffByDefault(t *testing.T) {
	path := iserCapture(t, t.TempDir())
	out, _ := runDump(t, path, dump.Options{JSON: true})
	if bytes.Contains(out, []byte(`"iser.`)) || bytes.Contains(out, []byte(`"iscsi.`)) {
		t.Error("iser keys without ULPISER")
	}
	text, _ := runDump(t, path, dump.Options{Location: time.UTC})
	if bytes.Contains(text, []byte("iSER")) {
		t.Error("iSER in the text without ULPISER")
	}
	text, _ = runDump(t, path, dump.Options{Location: time.UTC, ULP: dump.ULPISER})
	for _, want := range []string{
		"payload 76: iSER SCSI Command READ(10) LBA 0 len 16 ITT 0x00000001 edtl 8192 read stag 0x",
		"payload 76: iSER SCSI Command WRITE(16) LBA 4294967296 len 16 ITT 0x00000001 edtl 8192 write stag 0x",
		": iSER SCSI Response ITT 0x00000001 status GOOD",
		": iSER Login Request ITT 0x00000000 data 304",
		": iSER Login Response ITT 0x00000000 status 0x0000 data 212",
	} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("text lacks %q", want)
		}
	}
}

// TestISERAllocs checks that decoding an iSER message, and writing it as
// JSON, text and verbose text, allocates nothing.
func TestISERAllocs(t *testing.T) {
	path := iserCapture(t, t.TempDir())
	var frames [][]byte
	for _, fr := range readCapFrames(t, path) {
		frames = append(frames, fr.data)
	}
	r := dump.Record{ULP: dump.ULPISER}
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
		if bytes.Contains(buf, []byte(": iSER ")) {
			n++
		}
	}
	if n < 50 {
		t.Errorf("only %d iSER messages", n)
	}
}
