package fuzz

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/cnp"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/pfc"
)

// fzTsharkArgs turn off tshark's payload heuristics, which misread the
// golden frames' random payloads (see tshark_test.go in the module root),
// and turn on its IPv4 and UDP checksum checks.
var fzTsharkArgs = oracle.TsharkRoCEArgs

// fzWant is one field as tshark must show it: num compares as unsigned
// integers (tshark prints some in hex), otherwise as text.
type fzWant struct {
	name, value string
	num         bool
}

// TestInteropSummary is the interop suite in one run of tshark: every
// golden frame (every opcode on every encapsulation, untagged and behind
// an 802.1Q tag), PAUSE and PFC frames built by pfc, and the CNPs cnp.Reply
// builds in answer to the RoCEv2 golden frames. For each frame it compares
// the fields that identify it (Ethernet, VLAN, GRH or IP and UDP, the BTH,
// the MAC Control fields, the ICRC where tshark 4.0 finds it) with this
// module's decode, and logs how many frames and fields it compared.
//
// It is a cross-check and a count, not the whole suite: the field-by-field
// comparisons of every extended header live in TestTshark (module root,
// with the exceptions tshark 4.0 needs), pfc.TestTshark (all 256 PFC
// enable vectors), cnp.TestReplyTshark, TestCapturesTshark and
// dump.TestTsharkJSON/TestTsharkSynthetic (802.1ad double tags), and the
// ICRC agreement with Scapy on RoCEv2/IPv4 in TestScapyICRC. Like those,
// it skips when tshark is missing and fails under CI=true.
func TestInteropSummary(t *testing.T) {
	oracle.Need(t, "tshark")
	frames, _ := fzLoad(t)
	var golden [][]byte
	for _, c := range frames {
		if strings.HasPrefix(c.file, filepath.Join("golden", "rocev")) { // the RoCE golden frames, not dcbx_lldp.pcap
			golden = append(golden, c.data)
		}
	}
	if len(golden) != 3*174 {
		t.Fatalf("%d golden frames, want %d", len(golden), 3*174)
	}

	type item struct {
		kind  string
		frame []byte
	}
	var items []item
	for _, g := range golden {
		items = append(items, item{"golden", g})
	}
	src := [6]byte{0x02, 0x11, 0x22, 0x33, 0x44, 0x55}
	for _, q := range []uint16{0, 1, 0x1234, 0xffff} {
		items = append(items, item{"PAUSE", pfc.AppendPause(nil, src, q)})
	}
	for v := 0; v < 256; v += 17 {
		var times [pfc.NumPriorities]uint16
		for i := range times {
			times[i] = uint16(v*257 + i*4099)
		}
		items = append(items, item{"PFC", pfc.AppendPFC(nil, src, pfc.Priorities(v), times)})
	}
	for i, g := range golden {
		var f roce.Frame
		if err := f.Decode(g); err != nil {
			t.Fatalf("golden frame %d: %v", i, err)
		}
		if f.Encap == ib.RoCEv1 || f.Packet.BTH.OpCode == ib.OpCNP {
			continue
		}
		ce := append([]byte(nil), g...)
		if err := ecn.SetFrameECN(ce, ecn.CE); err != nil {
			t.Fatal(err)
		}
		reply, err := fzCNPReply(ce, f.Packet.BTH.DestQP^0x5a5a5a)
		if err != nil {
			t.Fatalf("golden frame %d: cnp.Reply: %v", i, err)
		}
		items = append(items, item{"CNP", reply})
	}

	raw := make([][]byte, len(items))
	for i, it := range items {
		raw[i] = it.frame
	}
	got := oracle.Tshark(t, oracle.WritePcap(t, t.TempDir(), "interop.pcap", raw), fzTsharkArgs...)
	if len(got) != len(items) {
		t.Fatalf("tshark decoded %d frames of %d", len(got), len(items))
	}
	nFrames, nFields := map[string]int{}, map[string]int{}
	for i, it := range items {
		var want []fzWant
		if it.kind == "PAUSE" || it.kind == "PFC" {
			want = fzMACCFields(t, it.frame)
		} else {
			want = fzRoCEFields(t, it.frame)
		}
		for _, w := range want {
			have, ok := got[i].First(w.name)
			if !ok {
				t.Errorf("%s frame %d: tshark shows no %s (want %s)", it.kind, i+1, w.name, w.value)
				continue
			}
			if !fzSameField(w, have) {
				t.Errorf("%s frame %d: %s: tshark %q, we %q", it.kind, i+1, w.name, have, w.value)
			}
			nFields[it.kind]++
		}
		if m, ok := got[i].First("_ws.malformed"); ok && !fzTsharkMisreadsRD(it.frame) {
			t.Errorf("%s frame %d: tshark: malformed packet %q", it.kind, i+1, m)
		}
		nFrames[it.kind]++
	}
	kinds := make([]string, 0, len(nFrames))
	total := [2]int{}
	for k := range nFrames {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var sb strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&sb, " %s %d frames/%d fields;", k, nFrames[k], nFields[k])
		total[0] += nFrames[k]
		total[1] += nFields[k]
	}
	t.Logf("interop summary: tshark compared %d frames and %d fields:%s", total[0], total[1], sb.String())
	// Measured with tshark 4.0.17; fewer means frames or fields dropped
	// out of the comparison.
	if total[0] < 522+4+16+340 || total[1] < 15000 {
		t.Errorf("compared %d frames and %d fields, fewer than measured", total[0], total[1])
	}
}

// fzTsharkMisreadsRD says whether tshark 4.0 misreads the frame: it reads
// an RD packet's BTH as 20 bytes (see tshark_test.go) and may then run
// off the end.
func fzTsharkMisreadsRD(b []byte) bool {
	var f roce.Frame
	return f.Decode(b) == nil && f.Packet.BTH.OpCode.Transport() == ib.RD
}

// fzSameField compares tshark's text with ours.
func fzSameField(w fzWant, have string) bool { return oracle.SameValue(have, w.value, w.num) }

func fzNum(name string, v uint64) fzWant { return fzWant{name, strconv.FormatUint(v, 10), true} }

func fzBit(name string, v bool) fzWant {
	if v {
		return fzNum(name, 1)
	}
	return fzNum(name, 0)
}

// fzMACCFields lists what tshark must show for a PAUSE or PFC frame.
func fzMACCFields(t *testing.T, b []byte) []fzWant {
	var m pfc.MACControl
	if err := m.Decode(b[14:]); err != nil {
		t.Fatal(err)
	}
	w := []fzWant{{"eth.dst", oracle.Hex(b[:6]), false}, {"eth.src", oracle.Hex(b[6:12]), false},
		fzNum("eth.type", uint64(pfc.EthernetTypeMACControl)), fzNum("macc.opcode", uint64(m.Opcode))}
	if m.Opcode == pfc.OpcodePause {
		return append(w, fzNum("macc.pause_time", uint64(m.PauseTime)))
	}
	w = append(w, fzNum("macc.cbfc.enbv", uint64(m.PriorityEnableVector)))
	for n := range pfc.NumPriorities {
		w = append(w, fzBit(fmt.Sprintf("macc.cbfc.enbv.c%d", n), m.Enabled().Has(n)),
			fzNum(fmt.Sprintf("macc.cbfc.pause_time.c%d", n), uint64(m.Time[n])))
	}
	return w
}

// fzRoCEFields lists what tshark must show for a RoCE frame: Ethernet,
// the VLAN tag, the GRH or IP and UDP headers, the BTH, and the ICRC for
// the opcodes tshark 4.0 dissects to the end (not RD, which it misreads,
// nor XRC, FLUSH, ATOMIC WRITE and the CNP, which it shows as opaque
// bytes).
func fzRoCEFields(t *testing.T, b []byte) []fzWant {
	var f roce.Frame
	if err := f.Decode(b); err != nil {
		t.Fatal(err)
	}
	w := []fzWant{{"eth.dst", oracle.Hex(b[:6]), false}, {"eth.src", oracle.Hex(b[6:12]), false},
		fzNum("eth.type", uint64(binary.BigEndian.Uint16(b[12:])))}
	if f.NumVLANs == 1 {
		v := f.VLANs[0]
		w = append(w, fzNum("vlan.id", uint64(v.ID)), fzNum("vlan.priority", uint64(v.PCP)), fzBit("vlan.dei", v.DEI))
	}
	g := &f.GRH
	switch f.Encap {
	case ib.RoCEv1:
		w = append(w, fzNum("infiniband.grh.ipver", uint64(g.IPVer)), fzNum("infiniband.grh.tclass", uint64(g.TClass)),
			fzNum("infiniband.grh.flowlabel", uint64(g.FlowLabel)), fzNum("infiniband.grh.paylen", uint64(g.PayLen)),
			fzNum("infiniband.grh.nxthdr", uint64(g.NxtHdr)), fzNum("infiniband.grh.hoplmt", uint64(g.HopLmt)),
			fzWant{"infiniband.grh.sgid", netip.AddrFrom16(g.SGID).String(), false},
			fzWant{"infiniband.grh.dgid", netip.AddrFrom16(g.DGID).String(), false})
	case ib.RoCEv2IPv4:
		w = append(w, fzWant{"ip.src", g.SrcGID().Unmap().String(), false}, fzWant{"ip.dst", g.DstGID().Unmap().String(), false},
			fzNum("ip.dsfield.dscp", uint64(g.TClass>>2)), fzNum("ip.dsfield.ecn", uint64(g.TClass&3)),
			fzNum("ip.ttl", uint64(g.HopLmt)), fzNum("ip.id", uint64(f.IPv4ID)), fzNum("ip.len", 28+uint64(g.PayLen)),
			fzNum("ip.checksum", uint64(f.IPv4Checksum)), fzNum("ip.checksum.status", 1))
	case ib.RoCEv2IPv6:
		w = append(w, fzWant{"ipv6.src", g.SrcGID().String(), false}, fzWant{"ipv6.dst", g.DstGID().String(), false},
			fzNum("ipv6.tclass.dscp", uint64(g.TClass>>2)), fzNum("ipv6.tclass.ecn", uint64(g.TClass&3)),
			fzNum("ipv6.flow", uint64(g.FlowLabel)), fzNum("ipv6.hlim", uint64(g.HopLmt)), fzNum("ipv6.plen", 8+uint64(g.PayLen)))
	}
	if f.Encap != ib.RoCEv1 {
		w = append(w, fzNum("udp.srcport", uint64(f.SrcPort)), fzNum("udp.dstport", uint64(f.DstPort)),
			fzNum("udp.length", 8+uint64(g.PayLen)))
	}
	h := &f.Packet.BTH
	w = append(w, fzNum("infiniband.bth.opcode", uint64(h.OpCode)), fzBit("infiniband.bth.se", h.SE),
		fzBit("infiniband.bth.m", h.MigReq), fzNum("infiniband.bth.padcnt", uint64(h.PadCnt)),
		fzNum("infiniband.bth.tver", uint64(h.TVer)), fzNum("infiniband.bth.p_key", uint64(h.PKey)),
		fzNum("infiniband.bth.destqp", uint64(h.DestQP)), fzBit("infiniband.bth.a", h.AckReq),
		fzNum("infiniband.bth.psn", uint64(h.PSN)))
	op := h.OpCode
	if op.Transport() != ib.RD && op.Transport() != ib.XRC && op != ib.OpCNP && op != 0x1c && op != 0x1d {
		w = append(w, fzNum("infiniband.invariant.crc", uint64(binary.BigEndian.Uint32(h.ICRC[:]))))
	}
	return w
}

// fzCNPReply answers a CE-marked frame with cnp.Reply's defaults.
func fzCNPReply(rx []byte, qp uint32) ([]byte, error) { return cnp.Reply(nil, rx, qp&0xffffff, nil) }
