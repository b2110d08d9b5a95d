package gen_test

// TestTshark writes a mixed capture (every operation on every transport,
// every encapsulation, VLANs, DSCP and ECN, CE marks with their CNPs, PFC
// frames, bad ICRCs) and compares, field by field, what tshark shows with
// what the generator was asked for and what roce.Frame decodes.
//
// tshark 4.0 does not dissect the XRC extended headers, FLUSH and ATOMIC
// WRITE (0x1C, 0x1D) or the CNP (0x81): for those it shows the bytes after
// the BTH as "infiniband.vendor", which are compared as bytes. Its payload
// heuristics are off (see tshark_test.go in the module root: they throw
// "Malformed Packet" on small random SEND payloads). tshark does not check
// the ICRC; the ICRC value it shows is compared with the frame's, and
// roce.VerifyFrame counts the bad ones.

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/pfc"
)

var tsharkArgs = oracle.TsharkRoCEArgs

// What TestTshark measured with tshark 4.0.17; fewer means frames or
// fields silently dropped out of the comparison.
const (
	tsharkMinFrames = 868
	tsharkMinFull   = 576
	tsharkMinFields = 24860
)

// tsharkConfigs is the mixed capture: one phase per line of variation.
func tsharkConfigs() []gen.Config {
	var cs []gen.Config
	add := func(f func(c *gen.Config)) {
		c := gen.DefaultConfig()
		c.MTU, c.Size, c.Messages, c.QPs = 256, 600, 2, 2
		f(&c)
		cs = append(cs, c)
	}
	for _, tr := range []ib.Transport{ib.RC, ib.UC, ib.UD, ib.XRC} {
		for _, op := range allOps {
			if !supported[tr][op] {
				continue
			}
			for _, size := range []int{0, 5, 600} {
				if tr == ib.UD && size > 256 {
					continue
				}
				add(func(c *gen.Config) { c.Transport, c.Op, c.Size = tr, op, size })
			}
		}
	}
	for _, enc := range []ib.Encapsulation{ib.RoCEv1, ib.RoCEv2IPv4, ib.RoCEv2IPv6} {
		add(func(c *gen.Config) {
			c.Encap, c.Op, c.VLAN, c.PCP, c.DSCP, c.ECN, c.HopLimit = enc, gen.OpRead, 42, 6, 34, 1, 9
		})
		add(func(c *gen.Config) { c.Encap, c.Op, c.AckEvery, c.BadICRC = enc, gen.OpSendImm, 1, 0.3 })
	}
	for _, enc := range []ib.Encapsulation{ib.RoCEv2IPv4, ib.RoCEv2IPv6} {
		add(func(c *gen.Config) { c.Encap, c.Op, c.CEEvery, c.VLAN = enc, gen.OpRead, 2, 7 })
		add(func(c *gen.Config) { c.Encap, c.CEEvery, c.BadICRC = enc, 3, 0.5 })
	}
	add(func(c *gen.Config) { c.PFCEvery, c.PFCPrio, c.PFCQuanta = 3, 5, 0xFFFF })
	add(func(c *gen.Config) { c.MTU, c.Size, c.PSN = 4096, 10000, 0xFFFFFF })
	return cs
}

// tsOpaque reports whether tshark 4.0 shows the bytes after the BTH of
// op as opaque vendor bytes.
func tsOpaque(op ib.Opcode) bool {
	return op.Transport() == ib.XRC || op == ib.OpCNP || op == 0x1C || op == 0x1D
}

func TestTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	var frames []genFrame
	for _, c := range tsharkConfigs() {
		frames = append(frames, generate(t, c)...)
	}
	raw := make([][]byte, len(frames))
	for i := range frames {
		raw[i] = frames[i].b
	}
	got := oracle.Tshark(t, oracle.WritePcap(t, t.TempDir(), "gen.pcap", raw), tsharkArgs...)
	if len(got) != len(frames) {
		t.Fatalf("tshark decoded %d frames of %d", len(got), len(frames))
	}
	nFrames, nFull, nFields, nBad, nPFC, nCNP := 0, 0, 0, 0, 0, 0
	errs := 0
	for i, gf := range frames {
		want, full, err := tsharkWant(gf.b)
		if err != nil {
			t.Errorf("frame %d: %v", i+1, err)
			continue
		}
		nFrames++
		if full {
			nFull++
		}
		switch gf.kind {
		case gen.KindPFC:
			nPFC++
		case gen.KindCNP:
			nCNP++
		}
		if gf.kind != gen.KindPFC && roce.VerifyFrame(gf.b) != nil {
			nBad++
		}
		tf := got[i]
		for _, w := range want {
			have := tf[w.name]
			nFields++
			if !tsEqual(w, have) {
				if errs++; errs < 30 {
					t.Errorf("frame %d (%v): %s: tshark %q, want %q", i+1, gf.kind, w.name, have, w.want)
				}
			}
		}
		if m, ok := tf.First("_ws.malformed"); ok {
			t.Errorf("frame %d: tshark: malformed packet %q", i+1, m)
		}
		if gf.kind != gen.KindPFC {
			if _, ok := tf.First("infiniband.bth.opcode"); !ok {
				t.Errorf("frame %d: tshark shows no BTH", i+1)
			}
		}
	}
	t.Logf("tshark: %d frames (%d fully dissected, %d PFC, %d CNP, %d with a bad ICRC), %d fields compared",
		nFrames, nFull, nPFC, nCNP, nBad, nFields)
	if nFrames < tsharkMinFrames || nFull < tsharkMinFull || nFields < tsharkMinFields || nPFC == 0 || nCNP == 0 || nBad == 0 {
		t.Errorf("compared %d frames (%d full) and %d fields, measured at least %d (%d) and %d",
			nFrames, nFull, nFields, tsharkMinFrames, tsharkMinFull, tsharkMinFields)
	}
}

type tsField struct {
	name string
	want []string
	num  bool
}

func tsEqual(w tsField, have []string) bool { return oracle.SameValues(have, w.want, w.num) }

func tsBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// tsharkWant lists the fields tshark must show for frame b, and whether
// tshark dissects its transport headers fully.
func tsharkWant(b []byte) (fs []tsField, full bool, err error) {
	num := func(name string, v ...uint64) {
		w := make([]string, len(v))
		for i, x := range v {
			w[i] = strconv.FormatUint(x, 10)
		}
		fs = append(fs, tsField{name: name, want: w, num: true})
	}
	str := func(name string, v ...string) { fs = append(fs, tsField{name: name, want: v}) }
	str("eth.dst", oracle.Hex(b[:6]))
	str("eth.src", oracle.Hex(b[6:12]))

	if binary.BigEndian.Uint16(b[12:]) == uint16(pfc.EthernetTypeMACControl) {
		var m pfc.MACControl
		if err := m.Decode(b[14:]); err != nil {
			return nil, false, err
		}
		num("eth.type", 0x8808)
		num("macc.opcode", uint64(m.Opcode))
		num("macc.cbfc.enbv", uint64(m.PriorityEnableVector))
		for n := 0; n < 8; n++ {
			num(fmt.Sprintf("macc.cbfc.enbv.c%d", n), tsBit(m.Enabled().Has(n)))
			num(fmt.Sprintf("macc.cbfc.pause_time.c%d", n), uint64(m.Time[n]))
		}
		return fs, false, nil
	}

	var f roce.Frame
	if err := f.Decode(b); err != nil {
		return nil, false, err
	}
	netType := map[ib.Encapsulation]uint64{ib.RoCEv1: 0x8915, ib.RoCEv2IPv4: 0x0800, ib.RoCEv2IPv6: 0x86dd}[f.Encap]
	if f.NumVLANs > 0 {
		v := f.VLANs[0]
		num("eth.type", uint64(v.TPID))
		num("vlan.priority", uint64(v.PCP))
		num("vlan.id", uint64(v.ID))
		num("vlan.etype", netType)
	} else {
		num("eth.type", netType)
	}
	g := &f.GRH
	switch f.Encap {
	case ib.RoCEv1:
		num("infiniband.grh.tclass", uint64(g.TClass))
		num("infiniband.grh.flowlabel", uint64(g.FlowLabel))
		num("infiniband.grh.paylen", uint64(g.PayLen))
		num("infiniband.grh.nxthdr", 0x1b)
		num("infiniband.grh.hoplmt", uint64(g.HopLmt))
		str("infiniband.grh.sgid", netip.AddrFrom16(g.SGID).String())
		str("infiniband.grh.dgid", netip.AddrFrom16(g.DGID).String())
	case ib.RoCEv2IPv4:
		num("ip.dsfield.dscp", uint64(g.TClass>>2))
		num("ip.dsfield.ecn", uint64(g.TClass&3))
		num("ip.len", 28+uint64(g.PayLen))
		num("ip.id", uint64(f.IPv4ID))
		num("ip.flags.df", uint64(f.IPv4Flags>>14&1))
		num("ip.ttl", uint64(g.HopLmt))
		num("ip.checksum.status", 1)
		str("ip.src", netip.AddrFrom16(g.SGID).Unmap().String())
		str("ip.dst", netip.AddrFrom16(g.DGID).Unmap().String())
	case ib.RoCEv2IPv6:
		num("ipv6.tclass.dscp", uint64(g.TClass>>2))
		num("ipv6.tclass.ecn", uint64(g.TClass&3))
		num("ipv6.flow", uint64(g.FlowLabel))
		num("ipv6.plen", 8+uint64(g.PayLen))
		num("ipv6.hlim", uint64(g.HopLmt))
		str("ipv6.src", netip.AddrFrom16(g.SGID).String())
		str("ipv6.dst", netip.AddrFrom16(g.DGID).String())
	}
	if f.Encap != ib.RoCEv1 {
		num("udp.srcport", uint64(f.SrcPort))
		num("udp.dstport", 4791)
		num("udp.length", 8+uint64(g.PayLen))
		if f.UDPChecksum {
			num("udp.checksum.status", 1) // good
		} else {
			num("udp.checksum.status", 3) // not present
		}
	}
	p := &f.Packet
	bth := &p.BTH
	num("infiniband.bth.opcode", uint64(bth.OpCode))
	num("infiniband.bth.se", tsBit(bth.SE))
	num("infiniband.bth.m", tsBit(bth.MigReq))
	num("infiniband.bth.padcnt", uint64(bth.PadCnt))
	num("infiniband.bth.p_key", uint64(bth.PKey))
	num("infiniband.bth.destqp", uint64(bth.DestQP))
	num("infiniband.bth.a", tsBit(bth.AckReq))
	num("infiniband.bth.psn", uint64(bth.PSN))
	bthOff := len(f.Raw) - p.Len()
	str("infiniband.bth", oracle.Hex(f.Raw[bthOff:bthOff+ib.BTHLen]))
	after := f.Raw[bthOff+ib.BTHLen:]
	if tsOpaque(bth.OpCode) {
		str("infiniband.vendor", oracle.Hex(after[:4]), oracle.Hex(after))
		return fs, false, nil
	}
	off := 0
	hs := p.Headers()
	for i := 0; i < hs.Len(); i++ {
		h := hs.At(i)
		raw := oracle.Hex(after[off : off+h.Len()])
		off += h.Len()
		switch h {
		case ib.HeaderDETH:
			str("infiniband.deth", raw)
			num("infiniband.deth.q_key", uint64(p.DETH.QKey))
			num("infiniband.deth.srcqp", uint64(p.DETH.SrcQP))
		case ib.HeaderRETH:
			str("infiniband.reth", raw)
			num("infiniband.reth.va", p.RETH.VA)
			num("infiniband.reth.r_key", uint64(p.RETH.RKey))
			num("infiniband.reth.dmalen", uint64(p.RETH.DMALen))
		case ib.HeaderAtomicETH:
			str("infiniband.atomiceth", raw)
			num("infiniband.reth.va", p.AtomicETH.VA)
			num("infiniband.reth.r_key", uint64(p.AtomicETH.RKey))
			num("infiniband.atomiceth.swapdt", p.AtomicETH.SwapData)
			num("infiniband.atomiceth.cmpdt", p.AtomicETH.CompareData)
		case ib.HeaderAtomicAckETH:
			str("infiniband.atomicacketh", raw)
			num("infiniband.atomicacketh.origremdt", p.AtomicAckETH.OrigRemData)
		case ib.HeaderAETH:
			str("infiniband.aeth", raw)
			num("infiniband.aeth.syndrome", uint64(p.AETH.Syndrome))
			num("infiniband.aeth.syndrome.opcode", uint64(p.AETH.Type()))
			num("infiniband.aeth.msn", uint64(p.AETH.MSN))
		case ib.HeaderImmDt:
			str("infiniband.immdt", raw, raw)
		case ib.HeaderIETH:
			str("infiniband.ieth", raw, raw)
		default:
			return nil, false, fmt.Errorf("%v: unexpected %v", bth.OpCode, h)
		}
	}
	num("infiniband.invariant.crc", uint64(binary.BigEndian.Uint32(bth.ICRC[:])))
	if n := len(p.Payload) + len(bth.Pad); n > 0 {
		num("data.len", uint64(n))
		str("data.data", oracle.Hex(append(append([]byte(nil), p.Payload...), bth.Pad...)))
	} else {
		fs = append(fs, tsField{name: "data.len"}) // absent
	}
	return fs, true, nil
}
