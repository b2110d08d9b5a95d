package dfilter_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dfilter"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/ipoib"
)

// tsharkExprs are run through tshark 4.0's -Y and through dfilter on the
// same frames: each operator, precedence, sets, negation, presence and
// every field type tshark shares with us (tshark has no string field of
// ours: those are tested in filter_test.go).
var tsharkExprs = []string{
	// unsigned, each relation, symbols and words
	"infiniband.bth.destqp == 0xa0", "infiniband.bth.destqp != 0x11", "infiniband.bth.psn < 100",
	"infiniband.bth.psn <= 9209054", "infiniband.bth.psn > 0x800000", "infiniband.bth.psn >= 9209054",
	"infiniband.bth.opcode eq 17", "infiniband.bth.opcode ne 17", "infiniband.bth.opcode lt 4",
	"infiniband.bth.opcode le 4", "infiniband.bth.opcode gt 100", "infiniband.bth.opcode ge 100",
	"infiniband.bth.opcode == 021", "infiniband.bth.p_key == 65535", "infiniband.bth.padcnt > 0",
	"infiniband.aeth.syndrome == 0x61", "infiniband.aeth.msn >= 2", "infiniband.deth.q_key == 0x80010000",
	"infiniband.deth.srcqp == 1", "infiniband.rdeth.eecnxt == 0xbeef", "infiniband.reth.dmalen > 1000",
	"infiniband.reth.r_key == 0x1234", "udp.srcport == 55410", "tcp.dstport == 4791", "ip.ttl < 64",
	"ip.dsfield.ecn == 3", "ip.dsfield.ecn lt 4", "infiniband.cm.rep.rnrretrcount < 8", "ip.dsfield.dscp == 26", "ip.proto == 17", "ip.id == 0", "ipv6.tclass.ecn == 2",
	"ipv6.flow > 0", "ipv6.hlim == 64", "ipv6.nxt == 17", "eth.type == 0x8100", "frame.len > 1000",
	"frame.cap_len < 80", "frame.number in {1, 2, 3000}", "erf.types.type == 21",
	"infiniband.lrh.dlid == 1", "infiniband.lrh.slid > 2", "infiniband.lrh.lnh == 2", "infiniband.lrh.vl == 15",
	"infiniband.grh.tclass > 0", "infiniband.grh.hoplmt == 64", "infiniband.grh.nxthdr == 27",
	"infiniband.invariant.crc > 0x80000000", "infiniband.variant.crc > 0",
	"macc.opcode == 0x0101", "macc.pause_time == 65535", "macc.cbfc.pause_time.c3 > 0", "macc.cbfc.enbv == 0x8a",
	// flags
	"infiniband.bth.se == 1", "infiniband.bth.se == True", "infiniband.bth.a == 0", "infiniband.bth.m == False",
	"infiniband.bth.se != 1", "macc.cbfc.enbv.c3 == 1", "vlan.dei == 1", "infiniband.bth.se == 2",
	// 64-bit
	"infiniband.reth.va == 0x7f0000001000", "infiniband.reth.va > 0xaaab00000000", "infiniband.atomiceth.swapdt > 0",
	"infiniband.atomiceth.cmpdt == 0", "infiniband.atomicacketh.origremdt >= 0",
	// addresses
	"ip.src == 192.168.65.5", "ip.dst != 192.168.65.4", "ip.addr == 10.0.0.1", "ip.addr != 10.0.0.1",
	"ip.src == 10.0.0.0/24", "ip.src > 10.200.0.0", "ip.dst in {192.168.65.4, 10.0.0.2}", "ip.src in {10.1.0.0/16}",
	"ipv6.src == 2001:db8::1", "ipv6.addr == 2001:db8::2", "ipv6.dst == 2001:db8::/32",
	"infiniband.grh.sgid == fe80::/64", "infiniband.grh.dgid != fe80::1",
	"eth.src == 02:00:00:00:00:01", "eth.dst == 01:80:c2:00:00:01", "eth.addr == 02-11-22-33-44-55",
	"eth.src == 0200.0000.0001", "eth.dst > 02:00:00:00:00:01",
	// bytes and time
	"infiniband.immdt == de:ad:be:ef", "infiniband.ieth == 0b:ad:ca:fe", "infiniband.immdt != de:ad:be:ef",
	"frame.time_epoch >= 1764400000.000005", "frame.time_epoch < 1700000000",
	// presence
	"infiniband.reth", "infiniband.aeth", "infiniband.deth", "infiniband.rdeth", "infiniband.atomiceth",
	"infiniband.atomicacketh", "infiniband.immdt", "infiniband.ieth", "infiniband.grh", "infiniband.lrh",
	"infiniband.bth", "infiniband", "vlan", "ieee8021ad", "macc", "ip", "ipv6", "udp", "tcp", "eth", "erf",
	"frame", "infiniband.bth.se", "macc.pause_time", "infiniband.variant.crc", "infiniband.invariant.crc",
	// fields that occur twice (two tags, ip.addr, udp.port), fields absent
	"vlan.id == 20", "vlan.id != 10", "vlan.id == 10", "vlan.id === 10", "vlan.id ~= 10", "vlan.id in {20}",
	"vlan.id !== 10", "vlan.priority any_ne 1", "vlan.id all_eq 10", "ieee8021ad.id == 40", "ieee8021ad.id != 30",
	// up to eight tags of TPID 0x8100, 0x88a8 and 0x9100 (testcaps.Tagged)
	"vlan.id == 1", "vlan.id == 102", "vlan.id == 608", "vlan.id == 807", "vlan.id in {201..203}", "ieee8021ad.id == 705",
	"ieee8021ad.id == 502", "ieee8021ad.priority == 2", "vlan.priority == 7", "vlan.dei == 1 && ieee8021ad", "vlan && ieee8021ad && arp",
	"vlan.id == 302 && udp.dstport == 5000", "vlan.id === 402", "vlan.id ~= 1",
	"udp.port == 4791", "udp.port != 4791", "tcp.port != 5", "!(tcp.port == 5)", "infiniband.reth.va > 0",
	// and, or, not, precedence, parentheses
	"udp or udp and tcp", "tcp and udp or udp", "not udp or ip", "!infiniband.reth && infiniband.bth.opcode == 7",
	"infiniband.bth.destqp == 0xa0 or infiniband.bth.destqp == 0x11 and infiniband.bth.a == 1",
	"(infiniband.bth.destqp == 0xa0 or infiniband.bth.destqp == 0x11) and infiniband.bth.a == 1",
	"not (udp.dstport == 4791)", "!macc && !udp", "!!udp", "not not not tcp", "ip || ipv6 && !udp",
	"infiniband.bth.opcode == 10 && ip.src == 192.168.65.5 || macc.opcode == 1",
	// sets
	"infiniband.bth.opcode in {4, 10, 0x11}", "infiniband.bth.opcode in {0..5, 100}",
	"infiniband.bth.opcode not in {17, 10}", "infiniband.bth.psn in {9209053..9209056}",
	"udp.dstport in {4790 .. 4792}", "!(infiniband.bth.opcode in {17})",
	// Linux cooked captures
	"sll", "sll.pkttype == 4", "sll.src.eth == 02:11:22:33:44:55", "sll.ifindex == 7", "sll.etype == 0x8100",
	"sll.hatype == 1", "sll.halen == 6", "sll && infiniband.bth.opcode == 17", "!eth",
	// management datagrams (CM on RoCEv2 and native InfiniBand, SMP, SA
	// PathRecord with RMPP), IPoIB, DCBX
	"infiniband.mad", "infiniband.mad.mgmtclass == 0x07", "infiniband.mad.mgmtclass == 0x81", "infiniband.mad.attributeid == 0x0010",
	"infiniband.mad.method == 0x81", "infiniband.mad.transactionid == 0x0000000252b5cf34", "infiniband.mad.transactionid > 0x100000000",
	"infiniband.mad.status != 0", "infiniband.mad.attributemodifier > 0", "infiniband.cm.req", "infiniband.cm.req.localqpn == 0x11",
	"infiniband.cm.req.serviceid == 0x0000000001061d2f", "infiniband.cm.req.serviceid.dport == 7471", "infiniband.cm.req.startpsn > 0x800000",
	"infiniband.cm.req.ip_cm.sip4 == 192.168.65.5", "infiniband.cm.req.ip_cm.dip4 in {192.168.2.24, 10.0.0.1}", "infiniband.cm.req.ip_cm.ipv == 4",
	"infiniband.cm.req.prim_localgid == fe80::/64", "infiniband.cm.req.prim_remotegid_ipv4 == 192.168.65.4", "infiniband.cm.req.localcaguid > 0x5054000000000000",
	"infiniband.cm.req.pppmtu == 3", "infiniband.cm.req.prim_locallid == 65535", "infiniband.cm.rep", "infiniband.cm.rep.localqpn == infiniband.bth.destqp",
	"infiniband.cm.rep.startpsn < 0x100000", "infiniband.cm.rep.remotecommid == 0x34cfb552", "infiniband.cm.rtu.localcommid", "infiniband.cm.rtu.remotecommid > 0",
	"infiniband.cm.dreq.localcommid", "infiniband.cm.req.remoteqpneecn > 0", "infiniband.cm.drsp.remotecommid", "infiniband.rmpp", "infiniband.rmpp.rmpptype == 0",
	"infiniband.sa.componentmask == 0x340c", "infiniband.sa.smkey == 0", "infiniband.sa.attributeoffset == 0", "infiniband.pathrecord.dgid == fe80::2:c903:0:1895",
	"infiniband.pathrecord.numbpath == 1", "infiniband.pathrecord.p_key == 0xffff", "!infiniband.mad && infiniband.deth",
	"infiniband.smpdirected", "infiniband.smpdirected.smpstatus == 0x8000", "infiniband.smpdirected.hopcount == 0", "infiniband.smpdirected.drslid == 0xffff",
	"infiniband.sminfo.smstate == 3", "infiniband.sminfo.guid == 0x0002c9020020b4dd", "infiniband.sminfo.priority > 0", "infiniband.smplid.mkey == 0",
	"lldp", "lldp.dcbx.ieee.pfc.mbc == 1", "lldp.dcbx.ieee.pfc.numtcs == 8", "lldp.dcbx.feature.pfc.prio3 == 1", "lldp.dcbx.feature.pfc.prio4 == 0",
	"lldp.dcbx.ieee.willing == 1", "lldp.dcbx.ieee.ets.cbs == 1", "lldp.dcbx.ieee.ets.maxtcs == 3", "lldp.dcbx.feature.pg.pgid_prio0 == 15",
	"lldp.dcbx.feature.pg.per0 == 50", "lldp.dcbx.ieee.ets.tsa3 == 255", "lldp.dcbx.ieee.ets.tsa0 == 2", "lldp.dcbx.feature.pg.per3 all_eq 50",
	"ipoib", "ipoib.type == 0x0806", "ipoib.reserved == 0", "ipoib.grh.sqpn == 0x405", "ipoib.daddr.qpn == 0xfc0407", "ipoib.dgid == ff12:401b:ffff::ffff:ffff",
	"ipoib.grh.sgid == fe80::/64", "ipoib.grh.ipver == 6",
	// what IPoIB carries, native and link type 242, and Ethernet ARP
	"arp", "arp.opcode == 2", "arp.hw.type == 32", "arp.src.proto_ipv4 == 10.0.0.58", "arp.dst.proto_ipv4 == 10.0.1.34",
	"arp.src.hw == 80:00:04:04:fe:80:00:00:00:00:00:00:00:02:c9:02:00:20:b4:dd", "arp.src.hw contains 02:c9:02",
	"arp.hw.size == 20 && ip", "ip && infiniband.lrh", "ipv6 && infiniband.lrh", "udp && erf", "ip.dst == 10.0.0.255",
	"arp.src.hw_mac == 02:00:00:00:00:01", "arp.src.proto contains 20:01:0d:b8", "arp.proto.type == 0x86dd",
	// SMP PortInfo and SwitchInfo, PerfMgt PortCounters and PortCountersExtended (golden MADs)
	"infiniband.portinfo.lid == 42", "infiniband.portinfo.portstate == 4", "infiniband.portinfo.m_key == 0x0102030405060708",
	"infiniband.portinfo.guid == 0xfe80000000000000", "infiniband.portinfo.capabilitymask == 0x0251086a", "infiniband.portinfo.lmc > 2",
	"infiniband.portinfo.clientreregister == 1", "infiniband.portinfo.linkroundtriplatency == 0x010203",
	"infiniband.switchinfo.linearfdbcap == 0xc000", "infiniband.switchinfo.enhancedportzero == 1", "infiniband.switchinfo.lifetimevalue == 0x12",
	"infiniband.portcounters.portxmitdata == 0x12345678", "infiniband.portcounters.symbolerrorcounter in {7, 8}", "infiniband.portcounters.portselect == 1",
	"infiniband.portcounters_ext.portxmitdata == 0x1122334455", "infiniband.portcounters_ext.portrcvdata > 0x2000000000",
	"infiniband.portcounters_ext.portselect == 2", "infiniband.portcounters_ext.portmulticastxmitpkts",
	"infiniband.mcmemberrecord.mgid == ff12:401b:ffff::ffff:ffff", "infiniband.mcmemberrecord.mlid == 0xc001", "infiniband.mcmemberrecord.joinstate == 1",
	"infiniband.mcmemberrecord.flowlabel == 0x12345", "infiniband.mcmemberrecord.portgid == fe80::/64",
	// NodeDescription and the SA NodeRecord, PortInfoRecord and ServiceRecord (testcaps.SARecords)
	`infiniband.nodedescription.nodestring contains "mlx"`, `infiniband.nodedescription.nodestring == "ib-leaf-07 mlx5_0"`,
	`infiniband.nodedescription.nodestring contains "\"core\""`, `infiniband.nodedescription.nodestring != "ib-leaf-07 mlx5_0"`,
	"infiniband.nodedescription.nodestring", `infiniband.nodedescription.nodestring > "m"`,
	"infiniband.sa.lid == 0x42", "infiniband.nodeinfo.numports == 36", "infiniband.nodeinfo.nodeguid == 0x0002c90300a1b2c1",
	"infiniband.sa.endportlid == 0x2a", "infiniband.sa.portnum in {7, 8}", "infiniband.portinfo.lid == 0x2a && infiniband.sa.portnum == 7",
	"infiniband.linkrecord.serviceid == 0x0002c90300001895", "infiniband.linkrecord.servicegid == fe80::/64",
	"infiniband.linkrecord.servicep_key == 0x8001", "infiniband.linkrecord.servicelease == 3600", "infiniband.pathrecord.dlid == 0x11",
	// a field on the right
	"udp.srcport == udp.dstport", "udp.srcport > udp.dstport", "ip.src == ip.dst", "ip.src < ip.dst", "infiniband.bth.destqp == infiniband.deth.srcqp",
	"vlan.id != vlan.id", "vlan.id == vlan.id", "vlan.id ~= vlan.id", "vlan.id === vlan.id", "ip.addr == ip.dst",
}

// TestTsharkFilters runs every expression through tshark -Y and dfilter
// on all the shipped and generated captures (merged into one file) and
// compares the frame numbers.
func TestTsharkFilters(t *testing.T) {
	tshark := oracle.Need(t, "tshark")
	mergecap := oracle.Need(t, "mergecap")
	dir := t.TempDir()
	paths := append(testcaps.Shipped(t), testcaps.Generated(t, dir)...)
	paths = append(paths, oracle.WritePcapLinkType(t, dir, "ipoib242.pcap", layers.LinkType(ipoib.LinkType), testcaps.IPoIBLink(t)))
	paths = append(paths, testcaps.WriteGoldenSMP(t, dir)) // PortInfo, SwitchInfo, PortCounters, PortCountersExtended
	native := testcaps.IPoIBNative(t)
	paths = append(paths, oracle.WritePcap(t, dir, "arp.pcap", testcaps.EthernetARP(t)), oracle.WritePcap(t, dir, "tagged.pcap", testcaps.Tagged(t)),
		oracle.WritePcapLinkType(t, dir, "ipoib_native.pcap", layers.LinkType(capfile.LinkTypeERF), native),
		oracle.WritePcapLinkType(t, dir, "ipoib_native242.pcap", layers.LinkType(ipoib.LinkType), testcaps.IPoIBLinkOf(t, native)))
	merged := filepath.Join(dir, "all.pcapng")
	if out, err := exec.Command(mergecap, append([]string{"-a", "-F", "pcapng", "-w", merged}, paths...)...).CombinedOutput(); err != nil {
		t.Fatalf("mergecap: %v\n%s", err, out)
	}
	recs := testcaps.Records(t, merged)
	theirs := make([][]int, len(tsharkExprs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, e := range tsharkExprs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			theirs[i] = tsharkFrames(t, tshark, merged, e)
		}()
	}
	wg.Wait()
	agree, frames, compared := 0, 0, 0
	protos := tsharkProtocols(t, tshark, merged)
	reasons := map[string]int{}
	for i, e := range tsharkExprs {
		f, err := dfilter.Compile(e)
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		var ours, want []int
		skip := map[int]bool{}
		for j := range recs {
			r := &recs[j]
			if why := knownDifference(e, r, protos[r.Number]); why != "" {
				skip[r.Number] = true
				reasons[why]++
				continue
			}
			if f.Match(r) {
				ours = append(ours, r.Number)
			}
		}
		for _, n := range theirs[i] {
			if !skip[n] {
				want = append(want, n)
			}
		}
		compared += len(recs) - len(skip)
		if !slices.Equal(ours, want) {
			t.Errorf("%s: we select %d frames, tshark %d: %s", e, len(ours), len(want), diff(ours, want))
			continue
		}
		agree++
		frames += len(ours)
	}
	t.Logf("%d of %d expressions select the same frames as tshark over %d frames: %d frame-expression pairs compared, %d selected",
		agree, len(tsharkExprs), len(recs), compared, frames)
	for why, n := range reasons {
		t.Logf("not compared (%d frame-expression pairs): %s", n, why)
	}
}

// noICRCAfter are the SA attributes (MCMemberRecord, NodeRecord,
// PortInfoRecord, ServiceRecord) after which tshark 4.0 shows no ICRC.
var noICRCAfter = map[byte]bool{0x38: true, 0x11: true, 0x12: true, 0x31: true}

// knownDifference says why tshark 4.0 decodes frame r differently from
// dump, by design or by a tshark limitation, for expression expr; "" when
// the frame is compared. protos is tshark's frame.protocols of the frame.
func knownDifference(expr string, r *dump.Record, protos string) string {
	op := r.RoCE.Packet.BTH.OpCode
	ib := r.Kind == dump.KindRoCE || r.Kind == dump.KindInfiniBand
	_, payload, _ := strings.Cut(protos, "infiniband:")
	pl := r.RoCE.Packet.Payload
	switch {
	case r.Kind == dump.KindMalformed:
		return "malformed: tshark shows the transport fields it could read, dump none"
	case ib && (op >= 0x40 && op < 0x60 || op >= 0xa0 && op < 0xc0 || op == 0x1c || op == 0x1d):
		return "RD, XRC, FLUSH or ATOMIC WRITE: tshark 4.0 misreads or lacks the opcode's extended headers"
	case strings.HasPrefix(expr, "ipoib") && r.LinkType == capfile.LinkTypeERF:
		return "IPoIB in a native InfiniBand packet: tshark 4.0 does not decode it (it does in link type 242)"
	case strings.Contains(expr, "crc") && (payload != "" || op == 0x81):
		return "CNP, or payload taken by a heuristic dissector: tshark shows no ICRC"
	case strings.Contains(expr, "crc") && op == 0x64 && len(pl) > 17 && (pl[1] == 0x04 || pl[1] == 0x03 && pl[16] == 0 && noICRCAfter[pl[17]]):
		return "PerfMgt MAD or SA MCMemberRecord, NodeRecord, PortInfoRecord, ServiceRecord: tshark 4.0's dissectors show no ICRC after the attribute"
	case strings.Contains(expr, "ieee8021ad") && twoSTags(r.Frame()):
		return "two S-tags in a row: tshark names their IDs ieee8021ad.svid and ieee8021ad.cvid"
	}
	return ""
}

// twoSTags reports whether Ethernet frame b has two 802.1ad tags in a
// row among its VLAN tags.
func twoSTags(b []byte) bool {
	prev := uint16(0)
	for off := 12; off+4 <= len(b); off += 4 {
		tpid := uint16(b[off])<<8 | uint16(b[off+1])
		if tpid != 0x8100 && tpid != 0x88a8 && tpid != 0x9100 {
			return false
		}
		if tpid == 0x88a8 && prev == 0x88a8 {
			return true
		}
		prev = tpid
	}
	return false
}

// tsharkProtocols returns frame.protocols of every frame, by number.
func tsharkProtocols(t *testing.T, bin, path string) map[int]string {
	cmd := exec.Command(bin, "-n", "-r", path, "--disable-protocol", "tftp", "-T", "fields", "-e", "frame.number", "-e", "frame.protocols")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	m := map[int]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		n, p, _ := strings.Cut(l, "\t")
		i, _ := strconv.Atoi(n)
		m[i] = p
	}
	return m
}

func tsharkFrames(t *testing.T, bin, path, expr string) []int {
	return tsharkFramesArgs(t, bin, path, expr, nil)
}

// tsharkFramesArgs is tsharkFrames with tshark's further arguments.
func tsharkFramesArgs(t *testing.T, bin, path, expr string, extra []string) []int {
	args := append([]string{"-n", "-r", path, "--disable-protocol", "tftp", "-Y", expr, "-T", "fields", "-e", "frame.number"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("tshark -Y %q: %v\n%s", expr, err, stderr.String())
		return nil
	}
	var ns []int
	for _, l := range strings.Fields(string(out)) {
		n, err := strconv.Atoi(l)
		if err != nil {
			t.Errorf("tshark -Y %q: %q", expr, l)
			return nil
		}
		ns = append(ns, n)
	}
	return ns
}

// diff names the first frames one side selects and the other does not.
func diff(ours, theirs []int) string {
	only := func(a, b []int) []int {
		var out []int
		for _, x := range a {
			if _, found := slices.BinarySearch(b, x); !found {
				out = append(out, x)
			}
		}
		return out
	}
	a, b := only(ours, theirs), only(theirs, ours)
	return fmt.Sprintf("only ours %v, only tshark's %v", head(a), head(b))
}

func head(x []int) []int {
	if len(x) > 10 {
		return x[:10]
	}
	return x
}

// TestTsharkLiteralWidths compares with tshark -Y the literals wider
// than their field: tshark 4.0 refuses a number only when the Wireshark
// type of the field (FT_UINT8 ... FT_UINT64) cannot hold it, and compares
// any other, so that ip.dsfield.ecn (two bits in an FT_UINT8) == 4 matches
// nothing and < 4 every frame with the field. For each field, the largest
// value its bits hold, the next one, the largest its type holds and the
// next one, under every relation and in sets: where tshark refuses the
// expression dfilter must refuse it, and where it accepts it both must
// select the same frames.
func TestTsharkLiteralWidths(t *testing.T) {
	tshark := oracle.Need(t, "tshark")
	mergecap := oracle.Need(t, "mergecap")
	dir := t.TempDir()
	// A few frames of each kind: RoCEv2/IPv4 with a VLAN tag and ECN,
	// IPv6, RoCEv1, CM REQ and REP, native InfiniBand.
	var paths []string
	for _, p := range append(testcaps.Generated(t, dir), testcaps.Shipped(t)...) {
		switch filepath.Base(p) {
		case "gen_v4_vlan_cnp_pfc.pcap", "gen_v6.pcap", "gen_v1.pcap", "handmade.pcap",
			"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", "ib_native_erf_dag_smp_ipoib_cm.pcap":
			paths = append(paths, p)
		}
	}
	merged := filepath.Join(dir, "widths.pcapng")
	if out, err := exec.Command(mergecap, append([]string{"-a", "-F", "pcapng", "-w", merged}, paths...)...).CombinedOutput(); err != nil {
		t.Fatalf("mergecap: %v\n%s", err, out)
	}
	recs := testcaps.Records(t, merged)
	var exprs []string
	for _, name := range []string{"ip.dsfield.ecn", "infiniband.cm.rep.rnrretrcount", "vlan.id", "infiniband.bth.padcnt",
		"infiniband.lrh.vl", "infiniband.bth.psn", "ipv6.flow", "ipv6.tclass.ecn", "infiniband.grh.flowlabel",
		"infiniband.cm.req.prim_flowlabel", "ip.dsfield.dscp", "infiniband.deth.srcqp", "infiniband.lrh.pktlen"} {
		f, ok := dump.LookupField(name)
		if !ok {
			t.Fatalf("no field %s", name)
		}
		over := uint64(1) << f.Bits // the first value the field's bits cannot hold
		top := over - 1             // the largest value the smallest Wireshark type above them holds
		for _, w := range []uint{8, 16, 24, 32} {
			if m := uint64(1)<<w - 1; m > top {
				top = m
				break
			}
		}
		if name == "ip.dsfield.ecn" || name == "infiniband.cm.rep.rnrretrcount" {
			// Every relation and sets, each side of the type's limit.
			for _, v := range []uint64{over, top, top + 1} {
				for _, rel := range []string{"==", "!=", "<", "<=", ">", ">="} {
					exprs = append(exprs, fmt.Sprintf("%s %s %d", name, rel, v))
				}
			}
			exprs = append(exprs, fmt.Sprintf("%s in {0, %d}", name, over), fmt.Sprintf("%s in {1..%d}", name, top),
				fmt.Sprintf("%s in {%d..%d}", name, over, top), fmt.Sprintf("%s in {1..%d}", name, top+1))
			continue
		}
		exprs = append(exprs, fmt.Sprintf("%s == %d", name, over), fmt.Sprintf("%s <= %d", name, top),
			fmt.Sprintf("%s > %d", name, top), fmt.Sprintf("%s == %d", name, top+1))
	}
	exprs = append(exprs, "ip.dsfield.ecn lt 4", "infiniband.cm.rep.rnrretrcount < 8", "infiniband.cm.rep.rnrretrcount ge 8",
		"ip.dsfield.ecn == 0x100", "ip.dsfield.ecn == 0400", "vlan.id == 4096 || ip.dsfield.ecn == 3", "!(ip.dsfield.ecn > 3)")
	type verdict struct {
		frames  []int
		refused string
	}
	theirs := make([]verdict, len(exprs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, e := range exprs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			theirs[i].frames, theirs[i].refused = tsharkVerdict(t, tshark, merged, e)
		}()
	}
	wg.Wait()
	protos := tsharkProtocols(t, tshark, merged)
	refused, accepted := 0, 0
	for i, e := range exprs {
		f, err := dfilter.Compile(e)
		switch {
		case theirs[i].refused != "" && err == nil:
			t.Errorf("%s: tshark refuses it (%s), dfilter compiles it", e, theirs[i].refused)
			continue
		case theirs[i].refused != "":
			refused++
			continue
		case err != nil:
			t.Errorf("%s: tshark accepts it, dfilter refuses it: %v", e, err)
			continue
		}
		var ours []int
		for j := range recs {
			if r := &recs[j]; knownDifference(e, r, protos[r.Number]) == "" && f.Match(r) {
				ours = append(ours, r.Number)
			}
		}
		var want []int
		for _, n := range theirs[i].frames {
			if knownDifference(e, &recs[n-1], protos[n]) == "" {
				want = append(want, n)
			}
		}
		if !slices.Equal(ours, want) {
			t.Errorf("%s: we select %d frames, tshark %d: %s", e, len(ours), len(want), diff(ours, want))
			continue
		}
		accepted++
	}
	t.Logf("%d expressions over %d frames: %d refused by both, %d accepted by both with the same frames", len(exprs), len(recs), refused, accepted)
	if refused == 0 || accepted < len(exprs)/2 {
		t.Errorf("%d refused, %d accepted: the family does not cover both sides", refused, accepted)
	}
}

// tsharkVerdict runs tshark -Y expr and returns the frames it selects,
// or the first line of its message when it refuses the expression.
func tsharkVerdict(t *testing.T, bin, path, expr string) ([]int, string) {
	cmd := exec.Command(bin, "-n", "-r", path, "--disable-protocol", "tftp", "-Y", expr, "-T", "fields", "-e", "frame.number")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg, _, _ := strings.Cut(stderr.String(), "\n")
		if msg == "" {
			t.Errorf("tshark -Y %q: %v", expr, err)
		}
		return nil, msg
	}
	var ns []int
	for _, l := range strings.Fields(string(out)) {
		n, err := strconv.Atoi(l)
		if err != nil {
			t.Errorf("tshark -Y %q: %q", expr, l)
			return nil, ""
		}
		ns = append(ns, n)
	}
	return ns, ""
}
