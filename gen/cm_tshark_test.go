package gen_test

import (
	"fmt"
	"net/netip"
	"strconv"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// cmTsharkConfigs are the phases of TestCMTshark: RC and UC, the three
// encapsulations, a VLAN, another service port, wrapping PSNs, and a
// rejected connection.
func cmTsharkConfigs() []gen.Config {
	var cs []gen.Config
	add := func(f func(c *gen.Config)) {
		c := gen.DefaultConfig()
		c.CM, c.Size, c.MTU, c.QPs, c.PSN = true, 2048, 1024, 2, 0x123456
		f(&c)
		cs = append(cs, c)
	}
	add(func(c *gen.Config) {})
	add(func(c *gen.Config) { c.Encap, c.CMPort, c.PSN, c.MTU = ib.RoCEv2IPv6, 18515, 0xffffff, 4096 })
	add(func(c *gen.Config) { c.Encap, c.Transport, c.Op, c.VLAN, c.PCP = ib.RoCEv1, ib.UC, gen.OpSend, 7, 5 })
	add(func(c *gen.Config) { c.Encap, c.Transport, c.Op, c.MTU = ib.RoCEv2IPv4, ib.UC, gen.OpWriteImm, 256 })
	add(func(c *gen.Config) { c.CMReject, c.QPs = 28, 3 })
	add(func(c *gen.Config) { c.CMReject, c.QPs, c.Encap = 8, 1, ib.RoCEv2IPv6 })
	return cs
}

// cmWant is one field tshark must show with a value.
type cmWant struct {
	name, want string
	num        bool
}

// TestCMTshark writes the RDMA-CM handshakes of rocegen -cm and checks
// every CM field tshark 4.0 decodes against what the generator was asked
// for: the MAD header (class 7, version 2, Send, the attribute), QP 1 and
// Q_Key 0x80010000, the REQ's QP, service ID (TCP port space, port),
// P_Key, path MTU, transport, CA GUID (EUI-64 of the MAC), primary path
// GIDs, hop limit and SL, IP-CM addresses, the REP's QP and StartingPSN
// (the requester's first PSN, which the data carries), the reject
// reason, the DREQ's remote QPN; and that the communication IDs tie the
// messages of each connection together as tshark reads them. The
// communication IDs, transaction IDs, the REQ's StartingPSN and the
// IP-CM source port are drawn from the seed: for them the test checks
// that tshark agrees across the messages. Every frame's ICRC verifies.
func TestCMTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	var frames []genFrame
	type cmFrame struct {
		cfg   *gen.Config
		phase int
		i     int // index in frames
		qp    int // queue pair of the phase
		attr  uint16
		psn   uint32 // the first PSN of the queue pair's requests
	}
	var cms []cmFrame
	cfgs := cmTsharkConfigs()
	for ci := range cfgs {
		c := &cfgs[ci]
		fs := generate(t, *c)
		var at []int // the CM frames of the phase
		firstPSN := map[uint32]uint32{}
		for j, f := range fs {
			switch f.kind {
			case gen.KindRequest:
				var fr roce.Frame
				if err := fr.Decode(f.b); err != nil {
					t.Fatal(err)
				}
				if _, ok := firstPSN[fr.Packet.BTH.DestQP]; !ok {
					firstPSN[fr.Packet.BTH.DestQP] = fr.Packet.BTH.PSN
				}
			case gen.KindCM:
				at = append(at, len(frames)+j)
			}
		}
		// The generator's order: per stage, per queue pair, the
		// stage's messages.
		stages := [][]uint16{{0x10, 0x13, 0x14}, {0x15, 0x16}}
		if c.CMReject != 0 {
			stages = [][]uint16{{0x10, 0x12}}
		}
		k := 0
		for _, st := range stages {
			for q := 0; q < c.QPs; q++ {
				for _, a := range st {
					if k < len(at) {
						cms = append(cms, cmFrame{c, ci, at[k], q, a, firstPSN[c.RemoteQP+uint32(q)]})
					}
					k++
				}
			}
		}
		if k != len(at) {
			t.Fatalf("phase %d: %d CM frames, want %d", ci+1, len(at), k)
		}
		frames = append(frames, fs...)
	}
	raw := make([][]byte, len(frames))
	for i := range frames {
		raw[i] = frames[i].b
		if err := roce.VerifyFrame(raw[i]); err != nil {
			t.Errorf("frame %d: %v", i+1, err)
		}
	}
	got := oracle.Tshark(t, oracle.WritePcap(t, t.TempDir(), "cm.pcap", raw), tsharkArgs...)
	if len(got) != len(frames) {
		t.Fatalf("tshark decoded %d frames of %d", len(got), len(frames))
	}
	hexn := func(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }
	first := func(i int, name string) string {
		v, _ := got[i].First(name)
		return v
	}
	nFields, errs := 0, 0
	type connKey struct{ phase, qp int }
	reqAt, repAt := map[connKey]int{}, map[connKey]int{} // the frames of each connection's REQ and REP
	for _, m := range cms {
		ck := connKey{m.phase, m.qp}
		req, rep := reqAt[ck], repAt[ck]
		c := m.cfg
		local, remote := uint64(c.LocalQP)+uint64(m.qp), uint64(c.RemoteQP)+uint64(m.qp)
		want := []cmWant{
			{"infiniband.bth.opcode", "100", true}, {"infiniband.bth.destqp", "1", true},
			{"infiniband.deth.q_key", "0x80010000", true}, {"infiniband.deth.srcqp", "1", true},
			{"infiniband.mad.baseversion", "1", true}, {"infiniband.mad.mgmtclass", "7", true},
			{"infiniband.mad.classversion", "2", true}, {"infiniband.mad.method", "3", true},
			{"infiniband.mad.attributeid", hexn(uint64(m.attr)), true},
		}
		v4 := c.Encap == ib.RoCEv2IPv4
		src, dst := c.SrcIP, c.DstIP
		if !src.IsValid() { // the generator's defaults (gen.Config.SrcIP)
			src, dst = defaultAddrs(c)
		}
		ipField := func(f string) string {
			if v4 {
				return f + "4"
			}
			return f + "6"
		}
		gidSuffix := ""
		if v4 {
			gidSuffix = "_ipv4"
		}
		switch m.attr {
		case 0x10:
			reqAt[ck] = m.i
			tst := "0"
			if c.Transport == ib.UC {
				tst = "1"
			}
			port := c.CMPort
			if port == 0 {
				port = gen.DefaultCMPort
			}
			want = append(want,
				cmWant{"infiniband.cm.req.localqpn", hexn(local), true},
				cmWant{"infiniband.cm.req.serviceid", fmt.Sprintf("0x000000000106%04x", port), true},
				cmWant{"infiniband.cm.req.serviceid.protocol", "6", true},
				cmWant{"infiniband.cm.req.serviceid.dport", strconv.Itoa(int(port)), true},
				cmWant{"infiniband.cm.req.pkey", hexn(uint64(c.PKey)), true},
				cmWant{"infiniband.cm.req.pppmtu", strconv.Itoa(mtuEnum(c.MTU)), true},
				cmWant{"infiniband.cm.req.transpsvctype", tst, true},
				cmWant{"infiniband.cm.req.localcaguid", hexn(eui64(c.SrcMAC)), true},
				cmWant{"infiniband.cm.req.prim_localgid" + gidSuffix, src.String(), false},
				cmWant{"infiniband.cm.req.prim_remotegid" + gidSuffix, dst.String(), false},
				cmWant{"infiniband.cm.req.prim_hoplim", strconv.Itoa(int(c.HopLimit)), true},
				cmWant{"infiniband.cm.req.prim_sl", strconv.Itoa(int(c.PCP)), true},
				cmWant{"infiniband.cm.req.ip_cm.ipv", map[bool]string{true: "4", false: "6"}[src.Is4()], true},
				cmWant{"infiniband.cm.req.ip_cm." + ipField("sip"), src.String(), false},
				cmWant{"infiniband.cm.req.ip_cm." + ipField("dip"), dst.String(), false},
			)
		case 0x13:
			repAt[ck] = m.i
			want = append(want,
				cmWant{"infiniband.cm.rep.remotecommid", first(req, "infiniband.cm.req"), true},
				cmWant{"infiniband.cm.rep.localqpn", hexn(remote), true},
				cmWant{"infiniband.cm.rep.startpsn", hexn(uint64(m.psn)), true},
				cmWant{"infiniband.cm.rep.localcaguid", hexn(eui64(c.DstMAC)), true},
				cmWant{"infiniband.mad.transactionid", first(req, "infiniband.mad.transactionid"), true},
			)
			if uint64(m.psn) != uint64(c.PSN) {
				t.Errorf("frame %d: the first request's PSN %#x, want the configured %#x", m.i+1, m.psn, c.PSN)
			}
		case 0x14:
			want = append(want,
				cmWant{"infiniband.cm.rtu.localcommid", first(req, "infiniband.cm.req"), true},
				cmWant{"infiniband.cm.rtu.remotecommid", first(rep, "infiniband.cm.rep"), true})
		case 0x12:
			want = append(want,
				cmWant{"infiniband.cm.rej.remotecommid", first(req, "infiniband.cm.req"), true},
				cmWant{"infiniband.cm.rej.reason", strconv.Itoa(int(c.CMReject)), true},
				cmWant{"infiniband.cm.rej.msgrej", "0", true})
		case 0x15:
			// tshark names the DREQ's remote QPN infiniband.cm.req.remoteqpneecn.
			want = append(want, cmWant{"infiniband.cm.req.remoteqpneecn", hexn(remote), true},
				cmWant{"infiniband.cm.dreq.localcommid", first(req, "infiniband.cm.req"), true},
				cmWant{"infiniband.cm.dreq.remotecommid", first(rep, "infiniband.cm.rep"), true})
		case 0x16:
			// tshark names DREP's fields infiniband.cm.drsp.
			want = append(want, cmWant{"infiniband.cm.drsp.localcommid", first(rep, "infiniband.cm.rep"), true},
				cmWant{"infiniband.cm.drsp.remotecommid", first(req, "infiniband.cm.req"), true})
		}
		for _, w := range want {
			nFields++
			have, ok := got[m.i].First(w.name)
			if !ok || !oracle.SameValue(have, w.want, w.num) {
				if errs++; errs < 30 {
					t.Errorf("frame %d (CM %#x, qp %d): %s: tshark %q, want %q", m.i+1, m.attr, m.qp, w.name, have, w.want)
				}
			}
		}
		if mal, ok := got[m.i].First("_ws.malformed"); ok {
			t.Errorf("frame %d: tshark: malformed packet %q", m.i+1, mal)
		}
	}
	t.Logf("tshark: %d CM frames of %d, %d fields compared", len(cms), len(frames), nFields)
	if len(cms) < 48 || nFields < 720 { // measured with tshark 4.0.17
		t.Errorf("only %d CM frames and %d fields compared", len(cms), nFields)
	}
}

// defaultAddrs are the addresses gen.Config documents for a zero SrcIP
// and DstIP.
func defaultAddrs(c *gen.Config) (netip.Addr, netip.Addr) {
	switch c.Encap {
	case ib.RoCEv2IPv4:
		return netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	case ib.RoCEv2IPv6:
		return netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("2001:db8::2")
	}
	link := func(m [6]byte) netip.Addr {
		return netip.AddrFrom16([16]byte{0xfe, 0x80, 8: m[0] ^ 2, 9: m[1], 10: m[2], 11: 0xff, 12: 0xfe, 13: m[3], 14: m[4], 15: m[5]})
	}
	return link(c.SrcMAC), link(c.DstMAC)
}

// eui64 is the modified EUI-64 of a MAC address (RFC 4291, Appendix A).
func eui64(m [6]byte) uint64 {
	var v uint64
	for _, b := range []byte{m[0] ^ 2, m[1], m[2], 0xff, 0xfe, m[3], m[4], m[5]} {
		v = v<<8 | uint64(b)
	}
	return v
}

// mtuEnum is IBTA's path MTU code (Vol 1, 9.6.3.1.1... Table 218): 1
// for 256 bytes up to 5 for 4096.
func mtuEnum(mtu int) int {
	return map[int]int{256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5}[mtu]
}
