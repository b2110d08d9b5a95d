package dump_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// ourNames are keys tshark 4.0 does not have (or has under another
// meaning): they are never compared.
func ourName(k string) bool {
	switch k {
	case "infiniband.bth.fecn", "infiniband.bth.becn", "infiniband.atomiceth.va", "infiniband.atomiceth.r_key",
		"infiniband.payload.len", "infiniband.invariant.crc.status":
		return true
	}
	for _, pre := range []string{"infiniband.cm.mra.", "infiniband.cm.sidr_", "infiniband.cm.lap.", "infiniband.cm.apr."} {
		if strings.HasPrefix(k, pre) {
			return true // CM messages tshark 4.0 does not decode
		}
	}
	if strings.HasPrefix(k, "infiniband.guidinfo.") || strings.HasPrefix(k, "infiniband.p_keytable.") && strings.TrimRight(k, "0123456789") != k {
		return true // numbered GUIDInfo and P_KeyTable entries (smp_table_fields.go)
	}
	if _, ok := tsharkLacks[k]; ok || strings.HasPrefix(k, "infiniband.servicerecord.") {
		return true // SMP, PerfMgt and SA fields tshark 4.0 does not decode (smp_attr_fields_test.go)
	}
	switch k {
	case "lldp.dcbx.ieee.pfc.willing", "lldp.dcbx.ieee.pfc.enable", "lldp.dcbx.ieee.ets.willing", "lldp.dcbx.ieee.app.entries":
		return true // DCBX keys tshark 4.0 names otherwise or lacks
	}
	return k == "infiniband.cm" || k == "nvme.cmd.name" || strings.HasPrefix(k, "lldp.dcbx.ieee.etsrec.") || strings.HasPrefix(k, "_") || innerTag.MatchString(k) ||
		strings.HasPrefix(k, "infiniband.xrceth.") || strings.HasPrefix(k, "infiniband.feth.")
}

// innerTag matches the keys of a VLAN tag after the first of its kind:
// vlan.inner.id, ieee8021ad.inner3.priority (ours: tshark repeats
// vlan.id).
var innerTag = regexp.MustCompile(`^(vlan|ieee8021ad)\.inner[0-9]*\.`)

// tsharkAlias maps our keys to the tshark field that holds the same
// value under another name: tshark 4.0 shows an AtomicETH's VA and R_Key
// as infiniband.reth.va and infiniband.reth.r_key.
var tsharkAlias = map[string]string{
	"infiniband.atomiceth.va":    "infiniband.reth.va",
	"infiniband.atomiceth.r_key": "infiniband.reth.r_key",
}

// tsharkWrong are tshark 4.0 fields whose value is wrong, with why; they
// are counted as skipped, not compared. IBTA Vol 1 12.6.5 (Table 99):
// the primary and alternate paths' Flow Label is bits 0-19 of the
// 32-bit word at byte 36 of the path, the Packet Rate bits 26-31; tshark
// 4.0 takes the flow label from the word's first three bytes (the top 12
// bits of the label) and the packet rate from its first byte. IBTA Vol 1
// 13.6.2.1: the RMPP header's byte 2 holds RRespTime in its top 5 bits
// and RMPPFlags in the low 3; tshark 4.0 splits it 4 and 4.
// The directed-route SMP's D bit is bit 15 of the status (IBTA Vol 1
// 14.2.1.2); tshark 4.0 reads its infiniband.smpdirected.d as 0 in
// responses whose status is 0x8000.
var tsharkWrong = map[string]string{
	"infiniband.smpdirected.d":  "reads 0",
	"infiniband.rmpp.rresptime": "4-bit split", "infiniband.rmpp.rmppflags": "4-bit split",
	"infiniband.cm.req.prim_flowlabel": "3-byte read", "infiniband.cm.req.prim_pktrate": "first byte",
	"infiniband.cm.req.alt_flowlabel": "3-byte read", "infiniband.cm.req.alt_pktrate": "first byte",
}

// sharedKeys are the tshark fields we emit: when tshark shows one for a
// frame, our object must have it too.
var sharedKeys = []string{
	"frame.number", "frame.time_epoch", "frame.len", "frame.cap_len", "eth.dst", "eth.src", "eth.type",
	"ieee8021ad.priority", "ieee8021ad.dei", "ieee8021ad.id", "vlan.priority", "vlan.dei", "vlan.id",
	"ip.src", "ip.dst", "ip.dsfield.dscp", "ip.dsfield.ecn", "ip.ttl", "ip.id", "ip.proto",
	"ipv6.src", "ipv6.dst", "ipv6.tclass.dscp", "ipv6.tclass.ecn", "ipv6.flow", "ipv6.hlim", "ipv6.nxt",
	"udp.srcport", "udp.dstport", "tcp.srcport", "tcp.dstport",
	"arp.hw.type", "arp.proto.type", "arp.hw.size", "arp.proto.size", "arp.opcode", "arp.src.hw_mac", "arp.src.hw",
	"arp.src.proto_ipv4", "arp.src.proto", "arp.dst.hw_mac", "arp.dst.hw", "arp.dst.proto_ipv4", "arp.dst.proto",
	"infiniband.grh.ipver", "infiniband.grh.tclass", "infiniband.grh.flowlabel", "infiniband.grh.paylen",
	"infiniband.grh.nxthdr", "infiniband.grh.hoplmt", "infiniband.grh.sgid", "infiniband.grh.dgid",
	"infiniband.bth.opcode", "infiniband.bth.se", "infiniband.bth.m", "infiniband.bth.padcnt",
	"infiniband.bth.tver", "infiniband.bth.p_key", "infiniband.bth.destqp", "infiniband.bth.a",
	"infiniband.bth.psn", "infiniband.rdeth.eecnxt", "infiniband.deth.q_key", "infiniband.deth.srcqp",
	"infiniband.reth.va", "infiniband.reth.r_key", "infiniband.reth.dmalen",
	"infiniband.atomiceth.swapdt", "infiniband.atomiceth.cmpdt", "infiniband.aeth.syndrome",
	"infiniband.aeth.msn", "infiniband.atomicacketh.origremdt", "infiniband.immdt", "infiniband.ieth",
	"infiniband.invariant.crc",
	"macc.opcode", "macc.pause_time", "macc.cbfc.enbv",
	"macc.cbfc.enbv.c0", "macc.cbfc.enbv.c1", "macc.cbfc.enbv.c2", "macc.cbfc.enbv.c3",
	"macc.cbfc.enbv.c4", "macc.cbfc.enbv.c5", "macc.cbfc.enbv.c6", "macc.cbfc.enbv.c7",
	"macc.cbfc.pause_time.c0", "macc.cbfc.pause_time.c1", "macc.cbfc.pause_time.c2", "macc.cbfc.pause_time.c3",
	"macc.cbfc.pause_time.c4", "macc.cbfc.pause_time.c5", "macc.cbfc.pause_time.c6", "macc.cbfc.pause_time.c7",
	"sll.pkttype", "sll.hatype", "sll.halen", "sll.src.eth", "sll.etype", "sll.ifindex",
	"infiniband.lrh.vl", "infiniband.lrh.lver", "infiniband.lrh.sl", "infiniband.lrh.lnh",
	"infiniband.lrh.dlid", "infiniband.lrh.pktlen", "infiniband.lrh.slid", "infiniband.variant.crc",
}

// sharedMADKeys are the MAD keys of the field table that tshark 4.0 has.
func sharedMADKeys() []string {
	var ks []string
	for _, k := range append(madKeys(), ipoibKeys...) {
		if !ourName(k) {
			ks = append(ks, k)
		}
	}
	return ks
}

// sameValue compares one of our JSON values with tshark's text for it.
func sameValue(key string, ours any, theirs string) bool {
	switch v := ours.(type) {
	case bool:
		t := theirs == "1" || strings.EqualFold(theirs, "true")
		f := theirs == "0" || strings.EqualFold(theirs, "false")
		return v && t || !v && f
	case json.Number:
		if key == "frame.time_epoch" {
			return string(v) == theirs
		}
		a, err1 := strconv.ParseUint(string(v), 10, 64)
		b, err2 := strconv.ParseUint(theirs, 0, 64) // tshark prints some fields in hex
		return err1 == nil && err2 == nil && a == b
	case string:
		if f, ok := dump.LookupField(key); ok && f.Type == dump.FieldBytes {
			theirs = strings.ReplaceAll(theirs, ":", "") // FT_BYTES: aa:bb:cc:dd
		}
		return v == theirs
	}
	return false
}

// compareTshark dumps a capture as JSON and compares it with tshark field
// by field. It returns the number of values compared, per key.
func compareTshark(t *testing.T, path string) map[string]int {
	t.Helper()
	// tshark takes UDP port 69 for TFTP (see testdata/captures/README.md):
	// disable it.
	ts := oracle.Tshark(t, path, "--disable-protocol", "tftp")
	out, _ := runDump(t, path, dump.Options{JSON: true})
	objs := parseLines(t, out)
	if len(objs) != len(ts) {
		t.Fatalf("%d objects, tshark shows %d frames", len(objs), len(ts))
	}
	counts := map[string]int{}
	bad := 0
	for i, m := range objs {
		op, _ := num(t, m, "infiniband.bth.opcode")
		rd := op >= 0x40 && op < 0x60 && m["infiniband.bth.opcode"] != nil
		for k, v := range m {
			tk := k
			if a, ok := tsharkAlias[k]; ok {
				tk = a
			} else if ourName(k) {
				continue
			}
			if rd && (strings.HasPrefix(k, "infiniband.rdeth.") || strings.HasPrefix(k, "infiniband.deth.")) {
				counts["skipped: RD "+k]++ // tshark 4.0 reads RD's RDETH 8 bytes late
				continue
			}
			theirs, ok := ts[i].First(tk)
			if !ok {
				continue
			}
			if s, ok := v.(string); ok && k == "infiniband.nodedescription.nodestring" && strings.ContainsFunc(s, func(r rune) bool { return r > 0x7f }) {
				// IBTA Vol 1 14.2.5.2: the NodeString is UTF-8; tshark 4.0
				// reads it as ASCII, each byte above 0x7f U+FFFD
				// (testcaps.SARecords' UTF-8 one is checked as built).
				counts["skipped: tshark ASCII "+k]++
				continue
			}
			if _, wrong := tsharkWrong[k]; wrong {
				counts["skipped: tshark wrong "+k]++
				continue
			}
			counts[k]++
			if !sameValue(k, v, theirs) {
				bad++
				if bad <= 20 {
					t.Errorf("frame %d: %s = %v, tshark says %q", i+1, k, v, theirs)
				}
			}
		}
		for _, k := range append(sharedKeys[:len(sharedKeys):len(sharedKeys)], sharedMADKeys()...) {
			if _, malformed := m["_error"]; malformed && strings.HasPrefix(k, "ipoib.") {
				continue // a record cut in its link header: tshark shows what it can
			}
			if _, atomic := m["infiniband.atomiceth.va"]; atomic && strings.HasPrefix(k, "infiniband.reth.") {
				continue // tshark's AtomicETH VA and R_Key: see tsharkAlias
			}
			if _, malformed := m["_error"]; malformed && strings.HasPrefix(k, "infiniband.") {
				continue // we print no transport field of a frame that does not decode
			}
			if hrd, _ := m["arp.hw.type"].(json.Number); hrd == "19" && strings.HasPrefix(k, "arp.") {
				continue // ATM ARP: tshark decodes its addresses, we only its hardware type, protocol and opcode
			}
			if _, ours := m[k]; !ours {
				if theirs, ok := ts[i].First(k); ok {
					bad++
					if bad <= 20 {
						t.Errorf("frame %d: tshark shows %s = %q, we do not", i+1, k, theirs)
					}
				}
			}
		}
	}
	if bad > 20 {
		t.Errorf("... %d disagreements in all", bad)
	}
	return counts
}

func total(c map[string]int) int {
	n := 0
	for k, v := range c {
		if !strings.HasPrefix(k, "skipped") {
			n += v
		}
	}
	return n
}

func TestTsharkJSON(t *testing.T) {
	oracle.Need(t, "tshark")
	// Values compared per file, measured with tshark 4.0.17: fewer means
	// a field went missing on one side.
	minCompared := map[string]int{
		"rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap": 3083,
		"rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap": 114004,
		"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap":   334,
		"rocev2_ipv4_rdmacm_write_read_rxe_b.pcap":   362,
		"ecn_ipv4_udp_all_ce_p4switch.pcap":          57856,
		"ecn_tcp_accecn_handshake_ect0_ect1.pcap":    96,
	}
	for name, min := range minCompared {
		t.Run(name, func(t *testing.T) {
			c := compareTshark(t, filepath.Join(capDir, name))
			n := total(c)
			t.Logf("%d values compared over %d keys", n, len(c))
			if n < min {
				t.Errorf("only %d values compared, want at least %d: %v", n, min, c)
			}
			if strings.HasPrefix(name, "rocev2") && c["infiniband.bth.opcode"] == 0 {
				t.Errorf("no BTH compared")
			}
		})
	}
}

// TestTsharkSynthetic compares frames the captures lack (RoCEv1, IPv6,
// VLAN tags, atomics, RD, immediate data, invalidate) with tshark.
func TestTsharkSynthetic(t *testing.T) {
	oracle.Need(t, "tshark")
	var frames [][]byte
	for _, s := range synthetic(t) {
		if s.tshark {
			frames = append(frames, s.frame)
		}
	}
	// A bad ICRC and a RoCE frame cut inside its RETH.
	good := firstFrame(t, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", 6)
	bad := bytes.Clone(good)
	bad[14+20+8+12] ^= 1
	frames = append(frames, bad, good[:len(good)-10])
	path := oracle.WritePcap(t, t.TempDir(), "synthetic.pcap", frames)
	c := compareTshark(t, path)
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("%d values compared over %d keys: %v", total(c), len(c), keys)
	for _, k := range []string{"infiniband.grh.sgid", "infiniband.grh.flowlabel", "ipv6.flow", "vlan.id",
		"vlan.priority", "infiniband.atomiceth.swapdt", "infiniband.atomicacketh.origremdt",
		"infiniband.immdt", "infiniband.ieth", "infiniband.aeth.syndrome", "infiniband.atomiceth.va",
		"ieee8021ad.id", "ieee8021ad.priority", "ieee8021ad.dei"} {
		if c[k] == 0 {
			t.Errorf("%s never compared", k)
		}
	}
	if n := total(c); n < 224 { // measured with tshark 4.0.17
		t.Errorf("only %d values compared", n)
	}
}
