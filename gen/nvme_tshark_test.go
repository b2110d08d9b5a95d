package gen_test

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/nvmeof"
)

// nvmeTsharkConfigs are the phases of TestNVMeTshark: each -op of -ulp
// nvme, the three encapsulations, an MTU that splits the capsules and
// the data, two I/O queues, and a rejected connection. Each phase has
// queue pairs of its own, so that tshark's conversations stay apart.
func nvmeTsharkConfigs() []gen.Config {
	var cs []gen.Config
	add := func(f func(c *gen.Config)) {
		c := gen.DefaultConfig()
		c.ULP, c.Size, c.Op = gen.ULPNVMe, 8192, gen.OpRead
		c.LocalQP, c.RemoteQP = 0x100+uint32(len(cs))*0x10, 0x800+uint32(len(cs))*0x10
		f(&c)
		cs = append(cs, c)
	}
	add(func(c *gen.Config) { c.QPs, c.Messages = 2, 2 })
	add(func(c *gen.Config) { c.Op, c.MTU, c.Encap = gen.OpWrite, 1024, ib.RoCEv2IPv6 })
	add(func(c *gen.Config) { c.Op, c.Size, c.Encap = gen.OpSend, 2048, ib.RoCEv1 })
	add(func(c *gen.Config) { c.Op, c.Size, c.PSN = gen.OpSendInv, 4096, 0xffffff })
	add(func(c *gen.Config) { c.Op, c.MTU, c.Messages = gen.OpWrite, 4096, 3 })
	add(func(c *gen.Config) { c.CMReject = 28 })
	return cs
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

// nvmeSkipped are the fields of tshark's nvme-rdma and nvme dissectors
// the test does not compare with a decoded value, and why; a field in
// neither this table nor the comparisons fails the test.
var nvmeSkipped = map[string]string{
	"nvme-rdma.read_to_host_req":    "a label (FT_NONE) on an RDMA READ Request",
	"nvme-rdma.write_to_host_req":   "a label (FT_NONE) on an RDMA WRITE",
	"nvme-rdma.write_to_host_prev":  "tshark's frame numbers of a transfer's packets",
	"nvme-rdma.write_to_host_next":  "tshark's frame numbers of a transfer's packets",
	"nvme-rdma.read_from_host_prev": "tshark's frame numbers of a transfer's packets",
	"nvme-rdma.read_from_host_next": "tshark's frame numbers of a transfer's packets",
	"nvme.cmd_latency":              "the time between the capture's frames",
	"nvme.fabrics.cmd_latency":      "the time between the capture's frames",
	"nvme.cmd.identify.ctrl":        "Identify Controller data, which package nvmeof does not decode (nvmeIdentifyWant checks the fields the generator fills in)",
}

// nvmeIdentifyWant are the fields of the Identify Controller data the
// generator's target fills in, as tshark shows them: not nvmeof's, the
// generator's (gen/nvme.go, nvmeIdentifyFields).
var nvmeIdentifyWant = map[string]nvmeField{
	"nvme.cmd.identify.ctrl.sn":            {"0123456789abcdef    ", false},
	"nvme.cmd.identify.ctrl.mn":            {"Linux                                   ", false},
	"nvme.cmd.identify.ctrl.fr":            {oracle.Hex([]byte("6.1.0   ")), false},
	"nvme.cmd.identify.ctrl.rab":           {"6", true},
	"nvme.cmd.identify.ctrl.cntlid":        {"1", true},
	"nvme.cmd.identify.ctrl.ver":           {"0x00010300", true},
	"nvme.cmd.identify.ctrl.sqes":          {"0x66", true},
	"nvme.cmd.identify.ctrl.cqes":          {"0x44", true},
	"nvme.cmd.identify.ctrl.nn":            {"1", true},
	"nvme.cmd.identify.ctrl.sgls":          {"0x00100005", true},
	"nvme.cmd.identify.ctrl.subnqn":        {"nqn.2026-01.org.example:nvme:roce-go", false},
	"nvme.cmd.identify.ctrl.nvmeof.ioccsz": {"260", true},
	"nvme.cmd.identify.ctrl.nvmeof.iorcsz": {"1", true},
}

// nvmeField is the value a field tshark shows should have, from what
// package nvmeof decodes of the same bytes.
type nvmeField struct {
	want string
	num  bool
}

// TestNVMeTshark writes the NVMe/RDMA conversations of rocegen -ulp nvme
// and compares every nvme-rdma.* and nvme.* field tshark 4.0 shows with
// what package nvmeof decodes from the same bytes: the RDMA-CM private
// data of the REP and REJ, every command capsule (the Fabrics Connect,
// Identify, Read and Write: opcode, CID, NSID, the SGL descriptor, the
// command's dwords), every completion (its status field by field), the
// Connect data the target reads, the queue tshark puts each capsule on
// (the QID of the connection's CM REQ) and the frame of the command a
// completion or a transfer answers. It reports how many fields it
// compared.
func TestNVMeTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	var raw [][]byte
	for _, c := range nvmeTsharkConfigs() {
		for _, f := range generate(t, c) {
			raw = append(raw, f.b)
		}
	}
	for i, b := range raw {
		if err := roce.VerifyFrame(b); err != nil {
			t.Errorf("frame %d: %v", i+1, err)
		}
	}
	got := oracle.Tshark(t, oracle.WritePcap(t, t.TempDir(), "nvme.pcap", raw), nvmeTsharkArgs()...)
	if len(got) != len(raw) {
		t.Fatalf("tshark decoded %d frames of %d", len(got), len(raw))
	}
	st := nvmeCompare(t, raw, got)
	t.Logf("%d frames, %d of them NVMe/RDMA in tshark: %d fields compared with nvmeof, %d agree; %d Identify fields compared with the generator's; %d shown but not compared (%s)",
		len(raw), st.nvmeFrames, st.compared, st.compared-st.differ, st.identify, st.skipped, strings.Join(st.skippedNames(), ", "))
	if st.identify == 0 {
		t.Error("no Identify field compared")
	}
	for _, kind := range []string{"command", "completion", "connect data", "CM accept", "CM reject", "CM request"} {
		if st.kinds[kind] == 0 {
			t.Errorf("no %s compared", kind)
		}
	}
}

// nvmeStats counts what nvmeCompare compared.
type nvmeStats struct {
	nvmeFrames, compared, differ, skipped, identify int
	skippedBy                                       map[string]int
	kinds                                           map[string]int
}

func (s *nvmeStats) skippedNames() []string {
	var names []string
	for n, k := range s.skippedBy {
		names = append(names, fmt.Sprintf("%s %d", n, k))
	}
	sort.Strings(names)
	return names
}

// nvmeConn is what the test knows of one queue pair's connection.
type nvmeConn struct {
	qid     uint16
	cmds    map[uint16]int  // the frame of each command, by CID
	keys    map[uint32]int  // the frame of each command, by the key of its SGL
	split   map[uint16]bool // the commands whose capsule took several packets
	capsule []byte          // the capsule of several packets under way
	key     uint32          // the key of the transfer under way
	keyAt   int             // the frame of its RDMA WRITE First or READ Request
}

// nvmeCompare compares tshark's fields of each frame with nvmeof's
// decoding.
func nvmeCompare(t *testing.T, raw [][]byte, got []oracle.Fields) *nvmeStats {
	st := &nvmeStats{skippedBy: map[string]int{}, kinds: map[string]int{}}
	conns := map[uint32]*nvmeConn{} // by either side's QP
	target := map[uint32]bool{}     // the target's QPs
	reqs := map[uint32]*nvmeConn{}  // by the REQ's local communication ID
	var lastConnect *nvmeof.Command // the Connect whose data the next READ Response carries
	for i, b := range raw {
		var fr roce.Frame
		if err := fr.Decode(b); err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		p := &fr.Packet
		want := map[string]nvmeField{}
		set := func(kind string, fields map[string]nvmeField) {
			st.kinds[kind]++
			for k, v := range fields {
				want[k] = v
			}
		}
		if p.BTH.DestQP == ib.QPGSI {
			var h mad.Header
			var m mad.CM
			if err := h.Decode(p.Payload); err != nil {
				t.Fatalf("frame %d: %v", i+1, err)
			}
			m.AttributeID = h.AttributeID
			if err := m.Decode(p.Payload[mad.HeaderLen:]); err != nil {
				t.Fatalf("frame %d: %v", i+1, err)
			}
			switch h.AttributeID {
			case mad.AttrConnectRequest:
				var ip mad.IPCM
				var r nvmeof.CMRequest
				if err := ip.Decode(m.REQ.PrivateData); err != nil {
					t.Fatal(err)
				}
				if err := r.Decode(ip.ConsumerPrivateData); err != nil {
					t.Fatal(err)
				}
				c := &nvmeConn{qid: r.QID, cmds: map[uint16]int{}, keys: map[uint32]int{}, split: map[uint16]bool{}}
				conns[m.REQ.LocalQPN], reqs[m.REQ.LocalCommID] = c, c
				// tshark 4.0 hands a REQ's private data to nvme-rdma only
				// once the infiniband dissector has the connection's
				// conversation, which it makes at the REP: it shows the
				// NVMe/RDMA request as the IP-CM header's raw private
				// data. Compare those bytes with nvmeof's re-encoding.
				enc, _ := r.AppendTo(nil)
				want["infiniband.cm.req.ip_cm.private"] = nvmeField{oracle.Hex(append(enc, make([]byte, len(ip.ConsumerPrivateData)-len(enc))...)), false}
				st.kinds["CM request"]++
			case mad.AttrConnectReply:
				var a nvmeof.CMAccept
				if err := a.Decode(m.REP.PrivateData); err != nil {
					t.Fatal(err)
				}
				if c := reqs[m.REP.RemoteCommID]; c != nil {
					conns[m.REP.LocalQPN], target[m.REP.LocalQPN] = c, true
				}
				set("CM accept", map[string]nvmeField{
					"nvme-rdma.cm.rsp.recfmt":   {u(a.RecFmt), true},
					"nvme-rdma.cm.rsp.crqsize":  {u(a.CRQSize), true},
					"nvme-rdma.cm.rsp.reserved": {oracle.Hex(a.Rsvd[:]), false},
				})
			case mad.AttrConnectReject:
				var j nvmeof.CMReject
				if err := j.Decode(m.REJ.PrivateData); err != nil {
					t.Fatal(err)
				}
				set("CM reject", map[string]nvmeField{
					"nvme-rdma.cm.rej.recfmt": {u(j.RecFmt), true},
					"nvme-rdma.cm.rej.status": {u(uint16(j.Status)), true},
				})
			}
		} else if c := conns[p.BTH.DestQP]; c != nil {
			op := p.BTH.OpCode.Operation()
			fromHost := target[p.BTH.DestQP]
			want["nvme-rdma.cmd.qid"] = nvmeField{u(c.qid), true}
			switch {
			case fromHost && (op == ib.SendOnly) && len(p.Payload) >= nvmeof.CommandLen:
				var cmd nvmeof.Command
				if err := cmd.Decode(p.Payload); err != nil {
					t.Fatal(err)
				}
				c.cmds[cmd.CID] = i
				if cmd.SGL1.Keyed() {
					c.keys[cmd.SGL1.Key] = i
				}
				if cmd.IsFabrics() && cmd.FabricsType() == nvmeof.Connect {
					lastConnect = &cmd
				}
				set("command", commandFields(&cmd, p.Payload[:nvmeof.CommandLen], c.qid == 0))
			case !fromHost && (op == ib.SendOnly || op == ib.SendOnlyWithInvalidate) && len(p.Payload) == nvmeof.CompletionLen:
				var cqe nvmeof.Completion
				if err := cqe.Decode(p.Payload); err != nil {
					t.Fatal(err)
				}
				cmdAt, ok := c.cmds[cqe.CID]
				if !ok {
					t.Fatalf("frame %d: a completion of CID %d, which no command had", i+1, cqe.CID)
				}
				if c.split[cqe.CID] {
					// tshark saw no command: it shows the completion's
					// bytes as unknown data.
					want["nvme-rdma.unknown_data"] = nvmeField{oracle.Hex(p.Payload), false}
					break
				}
				var cmd nvmeof.Command
				if err := cmd.Decode(payloadOf(t, raw[cmdAt])); err != nil {
					t.Fatal(err)
				}
				set("completion", completionFields(&cqe, p.Payload, &cmd, cmdAt))
				if op == ib.SendOnlyWithInvalidate && p.IETH.RKey != cmd.SGL1.Key {
					t.Errorf("frame %d: SEND with Invalidate of key %#x, the command's is %#x", i+1, p.IETH.RKey, cmd.SGL1.Key)
				}
			case fromHost && (op == ib.RDMAReadResponseOnly || op == ib.RDMAReadResponseFirst) && lastConnect != nil && c.qid == 0 && len(p.Payload) >= nvmeof.ConnectDataLen:
				var d nvmeof.ConnectData
				if err := d.Decode(p.Payload); err != nil {
					t.Fatal(err)
				}
				set("connect data", map[string]nvmeField{
					"nvme.fabrics.cmd.connect.data.hostid":  {oracle.Hex(d.HostID[:]), false},
					"nvme.fabrics.cmd.connect.data.cntrlid": {u(d.CntlID), true},
					"nvme.fabrics.cmd.connect.data.rsvd0":   {oracle.Hex(p.Payload[18:256]), false},
					"nvme.fabrics.cmd.connect.data.subnqn":  {string(d.SubNQN), false},
					"nvme.fabrics.cmd.connect.data.hostnqn": {string(d.HostNQN), false},
					"nvme.fabrics.cmd.connect.data.rsvd1":   {oracle.Hex(p.Payload[768:1024]), false},
				})
				lastConnect = nil
			}
			// The frame of the command a transfer moves the data of, by
			// the key of its SGL (of the READ Request the responses
			// answer).
			cmdOf := func(key uint32) {
				if at, ok := c.keys[key]; ok {
					want["nvme.fabrics.cmd_pkt"] = nvmeField{u(uint32(at + 1)), true}
				}
			}
			switch op {
			case ib.RDMAWriteFirst, ib.RDMAWriteOnly, ib.RDMAReadRequest:
				c.key, c.keyAt = p.RETH.RKey, i
				cmdOf(c.key)
			case ib.RDMAWriteMiddle, ib.RDMAWriteLast:
				cmdOf(c.key)
			}
			switch op {
			case ib.RDMAReadResponseFirst, ib.RDMAReadResponseMiddle, ib.RDMAReadResponseLast, ib.RDMAReadResponseOnly:
				// The data of an RDMA READ: tshark shows it whole.
				want["nvme-rdma.read_from_host_resp"] = nvmeField{oracle.Hex(p.Payload), false}
				want["nvme.fabrics.data_req"] = nvmeField{u(uint32(c.keyAt + 1)), true}
				cmdOf(c.key)
			case ib.SendFirst, ib.SendMiddle, ib.SendLast:
				// tshark 4.0 does not put a capsule of several packets
				// together: it shows each packet's payload as unknown
				// data. The test does, to know the command.
				want["nvme-rdma.unknown_data"] = nvmeField{oracle.Hex(p.Payload), false}
				if op == ib.SendFirst {
					c.capsule = c.capsule[:0]
				}
				c.capsule = append(c.capsule, p.Payload...)
				var cmd nvmeof.Command
				if op == ib.SendLast && fromHost && cmd.Decode(c.capsule) == nil {
					c.cmds[cmd.CID], c.split[cmd.CID] = i, true
				}
			}
		}
		g := got[i]
		nv := false
		for name, vals := range g {
			if !strings.HasPrefix(name, "nvme") && name != "infiniband.cm.req.ip_cm.private" {
				continue
			}
			if name == "infiniband.cm.req.ip_cm.private" {
				if _, ok := want[name]; !ok {
					continue // a REQ of another service
				}
			} else {
				nv = true
			}
			if w, ok := nvmeIdentifyWant[name]; ok {
				for _, v := range vals {
					st.identify++
					if !oracle.SameValue(v, w.want, w.num) {
						t.Errorf("frame %d: %s: tshark %q, the generator's Identify data %q", i+1, name, v, w.want)
					}
				}
				continue
			}
			w, ok := want[name]
			if !ok {
				if reason := skipReason(name); reason != "" {
					st.skipped += len(vals)
					st.skippedBy[skipKey(name)] += len(vals)
					continue
				}
				if name == "nvme-rdma" || name == "nvme" {
					continue
				}
				t.Errorf("frame %d: tshark shows %s %q, which the test does not compare", i+1, name, vals)
				continue
			}
			delete(want, name)
			for _, v := range vals {
				st.compared++
				if !oracle.SameValue(v, w.want, w.num) {
					st.differ++
					t.Errorf("frame %d: %s: tshark %q, nvmeof %q", i+1, name, v, w.want)
				}
			}
		}
		if nv {
			st.nvmeFrames++
		}
		for name := range want {
			if name != "nvme-rdma.cmd.qid" || nv {
				t.Errorf("frame %d: tshark does not show %s (want %s)", i+1, name, want[name].want)
			}
		}
	}
	return st
}

// payloadOf returns the BTH payload of a frame.
func payloadOf(t *testing.T, b []byte) []byte {
	var fr roce.Frame
	if err := fr.Decode(b); err != nil {
		t.Fatal(err)
	}
	return fr.Packet.Payload
}

// skipReason returns why a field is not compared, "" when it should be.
func skipReason(name string) string {
	return nvmeSkipped[skipKey(name)]
}

func skipKey(name string) string {
	if strings.HasPrefix(name, "nvme.cmd.identify.ctrl.") {
		return "nvme.cmd.identify.ctrl"
	}
	return name
}

func u[T ~uint8 | ~uint16 | ~uint32 | ~uint64](v T) string { return strconv.FormatUint(uint64(v), 10) }

// sglFields adds the fields of a command's SGL descriptor.
func sglFields(f map[string]nvmeField, c *nvmeof.Command, b []byte) {
	f["nvme.cmd.sgl.type"] = nvmeField{u(uint8(c.SGL1.Type)), true}
	f["nvme.cmd.sgl.subtype"] = nvmeField{u(uint8(c.SGL1.SubType)), true}
	f["nvme.cmd.sgl1.addr"] = nvmeField{u(c.SGL1.Address), true}
	f["nvme.cmd.sgl1.len"] = nvmeField{u(c.SGL1.Length), true}
	if c.SGL1.Keyed() {
		f["nvme.cmd.sgl1.key"] = nvmeField{u(c.SGL1.Key), true}
	} else {
		f["nvme.cmd.sgl1.rsvd"] = nvmeField{oracle.Hex(b[36:39]), false}
	}
}

// propertyFields adds the fields of a Property Get or Set (NVMe-oF 1.1
// Figures 26 and 28). Bytes 5 to 39 are reserved there, SGL1 included,
// and tshark shows them as such: the Keyed SGL Data Block of length 0
// Linux's host puts in every command without data is in them.
func propertyFields(f map[string]nvmeField, c *nvmeof.Command, b []byte) {
	f["nvme.fabrics.cmd.prop_get_set.rsvd0"] = nvmeField{oracle.Hex(b[5:40]), false}
	f["nvme.fabrics.cmd.prop_get_set.attrib"] = nvmeField{u(uint8(c.CDW[0])), true}
	f["nvme.fabrics.cmd.prop_get_set.attrib.size"] = nvmeField{bits(c.CDW[0], 0, 3), true}
	f["nvme.fabrics.cmd.prop_get_set.attrib.rsvd"] = nvmeField{bits(c.CDW[0], 3, 5), true}
	f["nvme.fabrics.cmd.prop_get_set.rsvd1"] = nvmeField{oracle.Hex(b[41:44]), false}
	f["nvme.fabrics.cmd.prop_get_set.offset"] = nvmeField{u(c.PropertyOffset()), true}
	if c.FabricsType() == nvmeof.PropertyGet {
		f["nvme.fabrics.cmd.prop_get.rsvd2"] = nvmeField{oracle.Hex(b[48:64]), false}
		return
	}
	f["nvme.fabrics.cmd.prop_set.rsvd"] = nvmeField{oracle.Hex(b[56:64]), false}
	propertyValue(f, c.PropertyOffset(), c.PropertyValue(), b[48:56])
}

// propertyBits are the fields of the controller properties tshark 4.0
// breaks a Property Get's or Set's value into, by property offset, and
// their bits (NVMe Base 2.0, 3.1.3: CAP, VS, CC, CSTS).
var propertyBits = map[uint32][]struct {
	name  string
	lo, n uint
}{
	0x00: {{"nvme.fabrics.prop_get.ccap", 0, 64}, {"nvme.fabrics.prop_get.ccap.mqes", 0, 16}, {"nvme.fabrics.prop_get.ccap.cqr", 16, 1},
		{"nvme.fabrics.prop_get.ccap.ams.wrr", 17, 1}, {"nvme.fabrics.prop_get.ccap.ams.vs", 18, 1}, {"nvme.fabrics.prop_get.ccap.rsvd0", 19, 5},
		{"nvme.fabrics.prop_get.ccap.to", 24, 8}, {"nvme.fabrics.prop_get.ccap.dstrd", 32, 4}, {"nvme.fabrics.prop_get.ccap.nssrs", 36, 1},
		{"nvme.fabrics.prop_get.ccap.css", 37, 8}, {"nvme.fabrics.prop_get.ccap.bps", 45, 1}, {"nvme.fabrics.prop_get.ccap.rsdv1", 46, 2},
		{"nvme.fabrics.prop_get.ccap.mpsmin", 48, 4}, {"nvme.fabrics.prop_get.ccap.mpsmax", 52, 4}, {"nvme.fabrics.prop_get.ccap.pmrs", 56, 1},
		{"nvme.fabrics.prop_get.ccap.cmbs", 57, 1}, {"nvme.fabrics.prop_get.ccap.rsvd2", 58, 6}},
	0x08: {{"nvme.fabrics.prop_get.vs", 0, 32}, {"nvme.fabrics.prop_get.vs.ter", 0, 8}, {"nvme.fabrics.prop_get.vs.mnr", 8, 8},
		{"nvme.fabrics.prop_get.vs.mjr", 16, 16}, {"nvme.fabrics.prop_get_set.data.rsvd", 32, 32}},
	0x14: {{"nvme.fabrics.prop_get_set.cc", 0, 32}, {"nvme.fabrics.prop_get_set.cc.en", 0, 1}, {"nvme.fabrics.prop_get_set.cc.rsvd0", 1, 3},
		{"nvme.fabrics.prop_get_set.cc.css", 4, 3}, {"nvme.fabrics.prop_get_set.cc.mps", 7, 4}, {"nvme.fabrics.prop_get_set.cc.ams", 11, 3},
		{"nvme.fabrics.prop_get_set.cc.shn", 14, 2}, {"nvme.fabrics.prop_get_set.cc.iosqes", 16, 4}, {"nvme.fabrics.prop_get_set.cc.iocqes", 20, 4},
		{"nvme.fabrics.prop_get_set.cc.rsvd1", 24, 8}, {"nvme.fabrics.prop_get_set.data.rsvd", 32, 32}},
	0x1c: {{"nvme.fabrics.prop_get_set.csts", 0, 32}, {"nvme.fabrics.prop_get_set.csts.rdy", 0, 1}, {"nvme.fabrics.prop_get_set.csts.cfs", 1, 1},
		{"nvme.fabrics.prop_get_set.csts.shst", 2, 2}, {"nvme.fabrics.prop_get_set.csts.nssro", 4, 1}, {"nvme.fabrics.prop_get_set.csts.pp", 5, 1},
		{"nvme.fabrics.prop_get_set.csts.rsvd", 6, 26}, {"nvme.fabrics.prop_get_set.data.rsvd", 32, 32}},
}

// propertyValue adds the fields of the value v of the property at off,
// raw its 8 bytes.
func propertyValue(f map[string]nvmeField, off uint32, v uint64, raw []byte) {
	f["nvme.fabrics.prop_get_set.data"] = nvmeField{oracle.Hex(raw), false}
	for _, p := range propertyBits[off] {
		w := v >> p.lo
		if p.n < 64 {
			w &= 1<<p.n - 1
		}
		f[p.name] = nvmeField{u(w), true}
	}
}

// bits returns bits [lo, lo+n) of w.
func bits(w uint32, lo, n uint) string { return u(w >> lo & (1<<n - 1)) }

// commandFields returns the fields tshark shows of a command capsule's
// command, b its 64 bytes, from nvmeof's decoding.
func commandFields(c *nvmeof.Command, b []byte, admin bool) map[string]nvmeField {
	f := map[string]nvmeField{}
	if c.IsFabrics() {
		// tshark names byte 1 of a Fabrics command reserved, as NVMe-oF
		// 1.1 Figure 9 does: it shows PSDT, which Linux sets in every
		// command (NVME_CMD_SGL_METABUF), as part of that byte.
		for k, v := range map[string]nvmeField{
			// tshark prints the Fabrics opcode in hex without 0x.
			"nvme.fabrics.cmd.opc":    {fmt.Sprintf("%02x", c.Opcode), false},
			"nvme.fabrics.cmd.rsvd":   {u(c.Fuse | c.Rsvd1<<2 | c.PSDT<<6), true},
			"nvme.fabrics.cmd.cid":    {u(c.CID), true},
			"nvme.fabrics.cmd.fctype": {u(uint8(c.FabricsType())), true},
		} {
			f[k] = v
		}
		if c.FabricsType() != nvmeof.Connect {
			propertyFields(f, c, b)
			return f
		}
	}
	sglFields(f, c, b)
	if c.IsFabrics() {
		for k, v := range map[string]nvmeField{
			"nvme.fabrics.cmd.connect.rsvd1":  {oracle.Hex(b[5:24]), false},
			"nvme.fabrics.cmd.connect.recfmt": {u(c.RecFmt()), true},
			"nvme.fabrics.cmd.connect.qid":    {u(c.QID()), true},
			"nvme.fabrics.cmd.connect.sqsize": {u(c.SQSize()), true},
			"nvme.fabrics.cmd.connect.cattr":  {u(c.CAttr()), true},
			// CATTR: priority class bits 1:0, disable SQ flow control
			// bit 2, I/O queue deletion bit 3 (NVMe-oF 1.1 Figure 19 and
			// 2.0); 0 in every generated Connect.
			"nvme.fabrics.cmd.connect.cattr.pc":   {bits(uint32(c.CAttr()), 0, 2), true},
			"nvme.fabrics.cmd.connect.cattr.dfc":  {bits(uint32(c.CAttr()), 2, 1), true},
			"nvme.fabrics.cmd.connect.cattr.dioq": {bits(uint32(c.CAttr()), 3, 1), true},
			"nvme.fabrics.cmd.connect.cattr.rsvd": {bits(uint32(c.CAttr()), 4, 4), true},
			"nvme.fabrics.cmd.connect.rsvd2":      {oracle.Hex(b[47:48]), false},
			"nvme.fabrics.cmd.connect.kato":       {u(c.KATO()), true},
			"nvme.fabrics.cmd.connect.rsvd3":      {oracle.Hex(b[52:64]), false},
		} {
			f[k] = v
		}
		return f
	}
	for k, v := range map[string]nvmeField{
		"nvme.cmd.opc":     {u(c.Opcode), true},
		"nvme.cmd.fuse_op": {u(c.Fuse), true},
		"nvme.cmd.rsvd":    {u(c.Rsvd1), true},
		"nvme.cmd.psdt":    {u(c.PSDT), true},
		"nvme.cmd.cid":     {u(c.CID), true},
		"nvme.cmd.nsid":    {u(c.NSID), true},
		"nvme.cmd.rsvd1":   {oracle.Hex(b[8:16]), false},
		"nvme.cmd.mptr":    {u(c.MPTR), true},
	} {
		f[k] = v
	}
	d := c.CDW
	switch {
	case admin && c.Opcode == nvmeof.OpIdentify:
		for k, v := range map[string]nvmeField{
			"nvme.cmd.identify.dword10":            {u(d[0]), true},
			"nvme.cmd.identify.dword10.cns":        {u(c.CNS()), true},
			"nvme.cmd.identify.dword10.rsvd":       {bits(d[0], 8, 8), true},
			"nvme.cmd.identify.dword10.cntid":      {bits(d[0], 16, 16), true},
			"nvme.cmd.identify.dword11":            {u(d[1]), true},
			"nvme.cmd.identify.dwrod11.nvmesetid":  {bits(d[1], 0, 16), true}, // sic: tshark 4.0's name
			"nvme.cmd.identify.dword11.rsvd":       {bits(d[1], 16, 16), true},
			"nvme.cmd.dword12":                     {u(d[2]), true},
			"nvme.cmd.dword13":                     {u(d[3]), true},
			"nvme.cmd.identify.dword14":            {u(d[4]), true},
			"nvme.cmd.identify.dword14.uuid_index": {bits(d[4], 0, 7), true},
			"nvme.cmd.identify.dword14.rsvd":       {bits(d[4], 7, 25), true},
			"nvme.cmd.dword15":                     {u(d[5]), true},
		} {
			f[k] = v
		}
	case !admin && (c.Opcode == nvmeof.OpRead || c.Opcode == nvmeof.OpWrite):
		for k, v := range map[string]nvmeField{
			"nvme.cmd.slba": {u(c.SLBA()), true},
			// NLB is 0-based (NVM Command Set 1.0, Figure 17, as
			// nvmeof.Command.NLB returns it); tshark 4.0 shows the
			// number of blocks, NLB+1.
			"nvme.cmd.nlb":   {u(uint32(c.NLB()) + 1), true},
			"nvme.cmd.rsvd2": {bits(d[2], 16, 4), true},
			// CDW12: PRINFO bits 29:26 (PRACT bit 29, PRCHK 28:26),
			// FUA bit 30, LR bit 31; 0 in every generated command.
			"nvme.cmd.prinfo":             {bits(d[2], 26, 4), true},
			"nvme.cmd.prinfo.lbrtag":      {bits(d[2], 26, 1), true},
			"nvme.cmd.prinfo.apptag":      {bits(d[2], 27, 1), true},
			"nvme.cmd.prinfo.guard":       {bits(d[2], 28, 1), true},
			"nvme.cmd.prinfo.action":      {bits(d[2], 29, 1), true},
			"nvme.cmd.fua":                {bits(d[2], 30, 1), true},
			"nvme.cmd.lr":                 {bits(d[2], 31, 1), true},
			"nvme.cmd.eilbrt":             {u(d[4]), true},
			"nvme.cmd.elbat":              {bits(d[5], 0, 16), true},
			"nvme.cmd.elbatm":             {bits(d[5], 16, 16), true},
			"nvme.cmd.dsm.access_freq":    {bits(d[3], 0, 4), true},
			"nvme.cmd.dsm.access_lat":     {bits(d[3], 4, 2), true},
			"nvme.cmd.dsm.seq_req":        {bits(d[3], 6, 1), true},
			"nvme.cmd.dsm.incompressible": {bits(d[3], 7, 1), true},
			"nvme.cmd.rsvd3":              {oracle.Hex(b[53:56]), false},
		} {
			f[k] = v
		}
	}
	return f
}

// completionFields returns the fields tshark shows of the completion of
// cmd, whose capsule was frame cmdAt (from 0).
func completionFields(c *nvmeof.Completion, raw []byte, cmd *nvmeof.Command, cmdAt int) map[string]nvmeField {
	word := uint16(c.Status)<<1 | map[bool]uint16{true: 1}[c.Phase]
	f := map[string]nvmeField{
		"nvme.cqe.sqhd":       {u(c.SQHD), true},
		"nvme.cqe.sqid":       {u(c.SQID), true},
		"nvme.cqe.cid":        {u(c.CID), true},
		"nvme.cqe.status":     {u(word), true},
		"nvme.cqe.status.sc":  {u(c.Status.SC()), true},
		"nvme.cqe.status.sct": {u(c.Status.SCT()), true},
		"nvme.cqe.status.crd": {u(c.Status.CRD()), true},
		"nvme.cqe.status.m":   {u(b2u(c.Status.More())), true},
		"nvme.cqe.status.dnr": {u(b2u(c.Status.DNR())), true},
	}
	if cmd.IsFabrics() && cmd.FabricsType() != nvmeof.Connect {
		f["nvme.fabrics.cmd_pkt"] = nvmeField{u(uint32(cmdAt + 1)), true}
		f["nvme.cqe.status.rsvd"] = nvmeField{u(b2u(c.Phase)), true}
		if cmd.FabricsType() == nvmeof.PropertySet {
			f["nvme.fabrics.cqe.prop_set.rsvd"] = nvmeField{oracle.Hex(raw[:8]), false}
			return f
		}
		// A Property Get's result: the value in DW0 and DW1.
		propertyValue(f, cmd.PropertyOffset(), uint64(c.DW0)|uint64(c.DW1)<<32, raw[:8])
		return f
	}
	if cmd.IsFabrics() {
		// A Connect's result: the controller ID in DW0 bits 15:0 and
		// AUTHREQ in bits 31:16, DW1 reserved (NVMe-oF 1.1 Figure 22).
		// tshark calls bit 0 of the status word, the phase tag that
		// NVMe-oF reserves, rsvd.
		f["nvme.fabrics.cmd_pkt"] = nvmeField{u(uint32(cmdAt + 1)), true}
		f["nvme.fabrics.cqe.connect.cntrlid"] = nvmeField{u(uint16(c.DW0)), true}
		f["nvme.fabrics.cqe.connect.authreq"] = nvmeField{u(uint16(c.DW0 >> 16)), true}
		f["nvme.fabrics.cqe.connect.rsvd"] = nvmeField{oracle.Hex(binary.LittleEndian.AppendUint32(nil, c.DW1)), false}
		f["nvme.cqe.status.rsvd"] = nvmeField{u(b2u(c.Phase)), true}
		return f
	}
	f["nvme.cmd_pkt"] = nvmeField{u(uint32(cmdAt + 1)), true}
	f["nvme.cqe.dword0"] = nvmeField{u(c.DW0), true}
	f["nvme.cqe.dword1"] = nvmeField{u(c.DW1), true}
	f["nvme.cqe.status.p"] = nvmeField{u(b2u(c.Phase)), true}
	return f
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
