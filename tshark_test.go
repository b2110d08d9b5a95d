package roce_test

// TestTshark decodes every golden frame and every hand-written vector
// with tshark (Wireshark's dissectors) and compares, field by field, what
// tshark shows with what roce.Frame.Decode gives.
//
// tshark 4.0 gets some RoCE packets wrong; for those only what it decodes
// correctly is compared, and what it does instead is asserted, so that a
// change in tshark shows up here. Each exclusion was checked by reading
// tshark's output for the frames concerned:
//
//   - RD (opcodes 0x40-0x5D): tshark extends the BTH to 20 bytes and reads
//     the RDETH and DETH 8 bytes late, so its RDETH, DETH, RETH, AETH,
//     AtomicETH, ImmDt, "Invariant CRC" and payload are bytes from the
//     wrong offsets (for some opcodes it then runs off the end: "Malformed
//     Packet: IB"). IBTA and rxe (rxe_opcode.c: RDETH at offset 12) put
//     the RDETH right after the 12-byte BTH, as ib does. Compared: Ethernet,
//     VLAN, IP/GRH, UDP and the BTH fields; asserted: tshark's 20-byte BTH.
//   - XRC (0xA0-0xB7): tshark names the opcodes but does not dissect the
//     XRCETH or anything after it. FLUSH and ATOMIC WRITE (RC 0x1C/0x1D,
//     RD 0x5C/0x5D, IBTA 1.5) and the CNP 0x81 are unknown to tshark 4.0
//     ("Unknown (28)" etc.). For all of these tshark shows every byte
//     after the BTH as "infiniband.vendor", which is compared with our
//     extended headers, payload, pad and ICRC as bytes.
//   - tshark's payload heuristics (RPC over RDMA, Mellanox EoIB, iSER,
//     NVMe-oF, SMB Direct, SMC-R, LNet, SDP, FCoIB) are disabled: the
//     golden payloads are random bytes, and with the heuristics on tshark
//     throws "Malformed Packet: RPCoRDMA" on RC SEND Last/Only (with and
//     without Invalidate) carrying 12 bytes of payload or fewer, and
//     "Malformed Packet: Mellanox EoIB" on an empty UD SEND Only, before
//     it reaches the ICRC. With them off, every payload is plain "data".
//   - tshark shows the payload and the pad together as "data" (data.len is
//     payload length + PadCnt); the pad bytes are zeros.
//   - The UDP checksum status of IPv6 frames sent without one (as rxe
//     does) is 4, "Illegal checksum value (0)" per RFC 8200; the golden set
//     has such frames on purpose.

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"testing"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// tsharkArgs are the options TestTshark runs tshark with.
var tsharkArgs = oracle.TsharkRoCEArgs

// The counts TestTshark measured with tshark 4.0.17; fewer means a field
// or a frame silently dropped out of the comparison.
const (
	tsharkMinFrames = 531
	tsharkMinFull   = 230
	tsharkMinFields = 17639
)

// tsField is one field as tshark must show it. A nil want means tshark
// must not show the field at all.
type tsField struct {
	name string
	want []string
	num  bool // compare as unsigned integers (tshark prints hex or decimal)
}

// tsharkClass says how far tshark 4.0 decodes an opcode.
type tsharkClass int

const (
	tsFull   tsharkClass = iota // every header
	tsRD                        // BTH right, the rest read 8 bytes late
	tsOpaque                    // BTH right, the rest shown as vendor bytes
)

func tsharkClassOf(op ib.Opcode) tsharkClass {
	switch {
	case op.Transport() == ib.RD:
		return tsRD
	case op.Transport() == ib.XRC, op == ib.OpCNP, op == 0x1C, op == 0x1D:
		return tsOpaque
	}
	return tsFull
}

func TestTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	var names []string
	var frames [][]byte
	for _, gf := range goldenFiles {
		cases := goldenCases(gf.enc)
		golden := goldenFrames(t, gf.file)
		if len(golden) != len(cases) {
			t.Fatalf("%s holds %d frames, the spec %d", gf.file, len(golden), len(cases))
		}
		for i, g := range golden {
			names = append(names, cases[i].name)
			frames = append(frames, g)
		}
	}
	for _, v := range handVectors() {
		names = append(names, v.name)
		frames = append(frames, v.bytes(t))
	}
	pcap := oracle.WritePcap(t, t.TempDir(), "golden.pcap", frames)
	got := oracle.Tshark(t, pcap, tsharkArgs...)
	if len(got) != len(frames) {
		t.Fatalf("tshark decoded %d frames of %d", len(got), len(frames))
	}

	nFrames, nFields := 0, 0
	classes := map[tsharkClass]int{}
	for i, b := range frames {
		var f roce.Frame
		if err := f.Decode(b); err != nil {
			t.Errorf("%s: Decode: %v", names[i], err)
			continue
		}
		nFrames++
		class := tsharkClassOf(f.Packet.BTH.OpCode)
		classes[class]++
		tf := got[i]
		for _, w := range tsharkFields(&f, class) {
			have := tf[w.name]
			if w.want == nil {
				if len(have) != 0 {
					t.Errorf("%s: tshark shows %s = %q, want it absent", names[i], w.name, have)
				}
				continue
			}
			nFields++
			if !tsharkEqual(w, have) {
				t.Errorf("%s: %s: tshark %q, we %q", names[i], w.name, have, w.want)
			}
		}
		// What tshark does instead on the opcodes it gets wrong.
		switch class {
		case tsRD:
			bth := len(f.Raw) - f.Packet.Len()
			if want := oracle.Hex(f.Raw[bth : bth+20]); !tsharkEqual(tsField{want: []string{want}}, tf["infiniband.bth"]) {
				t.Errorf("%s: tshark's RD BTH is %q, expected the 20 bytes %s", names[i], tf["infiniband.bth"], want)
			}
		case tsOpaque:
			for _, h := range []string{"infiniband.aeth", "infiniband.reth", "infiniband.deth", "infiniband.invariant.crc", "data.len"} {
				if v, ok := tf.First(h); ok {
					t.Errorf("%s: tshark now dissects %s = %s: review the exclusion", names[i], h, v)
				}
			}
		}
		if m, ok := tf.First("_ws.malformed"); ok && class != tsRD {
			t.Errorf("%s: tshark: malformed packet %q", names[i], m)
		}
	}
	t.Logf("tshark: %d frames (%d fully dissected, %d RD, %d XRC/FLUSH/ATOMIC WRITE/CNP as opaque bytes), %d fields compared",
		nFrames, classes[tsFull], classes[tsRD], classes[tsOpaque], nFields)
	if nFrames < tsharkMinFrames || classes[tsFull] < tsharkMinFull || nFields < tsharkMinFields {
		t.Errorf("compared %d frames (%d fully dissected) and %d fields, measured at least %d (%d) and %d",
			nFrames, classes[tsFull], nFields, tsharkMinFrames, tsharkMinFull, tsharkMinFields)
	}
}

// tsharkEqual compares tshark's values of one field with ours.
func tsharkEqual(w tsField, have []string) bool { return oracle.SameValues(have, w.want, w.num) }

func tsharkBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// tsharkFields lists what tshark must show for a decoded frame.
func tsharkFields(f *roce.Frame, class tsharkClass) []tsField {
	var fs []tsField
	num := func(name string, v ...uint64) {
		w := make([]string, len(v))
		for i, x := range v {
			w[i] = strconv.FormatUint(x, 10)
		}
		fs = append(fs, tsField{name: name, want: w, num: true})
	}
	str := func(name string, v ...string) { fs = append(fs, tsField{name: name, want: v}) }
	absent := func(name string) { fs = append(fs, tsField{name: name}) }

	str("eth.dst", oracle.Hex(f.Dst[:]))
	str("eth.src", oracle.Hex(f.Src[:]))
	netType := map[ib.Encapsulation]uint64{ib.RoCEv1: 0x8915, ib.RoCEv2IPv4: 0x0800, ib.RoCEv2IPv6: 0x86dd}[f.Encap]
	if f.NumVLANs > 0 {
		v := f.VLANs[0]
		num("eth.type", uint64(v.TPID))
		num("vlan.priority", uint64(v.PCP))
		num("vlan.dei", tsharkBit(v.DEI))
		num("vlan.id", uint64(v.ID))
		num("vlan.etype", netType)
	} else {
		num("eth.type", netType)
		absent("vlan.id")
	}

	g := &f.GRH
	switch f.Encap {
	case ib.RoCEv1:
		num("infiniband.grh.ipver", uint64(g.IPVer))
		num("infiniband.grh.tclass", uint64(g.TClass))
		num("infiniband.grh.flowlabel", uint64(g.FlowLabel))
		num("infiniband.grh.paylen", uint64(g.PayLen))
		num("infiniband.grh.nxthdr", uint64(g.NxtHdr))
		num("infiniband.grh.hoplmt", uint64(g.HopLmt))
		str("infiniband.grh.sgid", netip.AddrFrom16(g.SGID).String())
		str("infiniband.grh.dgid", netip.AddrFrom16(g.DGID).String())
	case ib.RoCEv2IPv4:
		num("ip.version", 4)
		num("ip.hdr_len", 20)
		num("ip.dsfield", uint64(g.TClass))
		num("ip.dsfield.dscp", uint64(g.TClass>>2))
		num("ip.dsfield.ecn", uint64(g.TClass&3))
		num("ip.len", 20+8+uint64(g.PayLen))
		num("ip.id", uint64(f.IPv4ID))
		num("ip.flags.df", uint64(f.IPv4Flags>>14&1))
		num("ip.flags.mf", uint64(f.IPv4Flags>>13&1))
		num("ip.frag_offset", uint64(f.IPv4Flags&0x1fff))
		num("ip.ttl", uint64(g.HopLmt))
		num("ip.proto", 17)
		num("ip.checksum", uint64(f.IPv4Checksum))
		num("ip.checksum.status", 1) // good
		str("ip.src", netip.AddrFrom16(g.SGID).Unmap().String())
		str("ip.dst", netip.AddrFrom16(g.DGID).Unmap().String())
	case ib.RoCEv2IPv6:
		num("ipv6.version", 6)
		num("ipv6.tclass", uint64(g.TClass))
		num("ipv6.tclass.dscp", uint64(g.TClass>>2))
		num("ipv6.tclass.ecn", uint64(g.TClass&3))
		num("ipv6.flow", uint64(g.FlowLabel))
		num("ipv6.plen", 8+uint64(g.PayLen))
		num("ipv6.nxt", 17)
		num("ipv6.hlim", uint64(g.HopLmt))
		str("ipv6.src", netip.AddrFrom16(g.SGID).String())
		str("ipv6.dst", netip.AddrFrom16(g.DGID).String())
	}
	if f.Encap != ib.RoCEv1 {
		num("udp.srcport", uint64(f.SrcPort))
		num("udp.dstport", uint64(f.DstPort))
		num("udp.length", 8+uint64(g.PayLen))
		switch {
		case f.UDPChecksum:
			num("udp.checksum.status", 1) // good
		case f.Encap == ib.RoCEv2IPv4:
			num("udp.checksum", 0)
			num("udp.checksum.status", 3) // not present
		default:
			num("udp.checksum", 0)
			num("udp.checksum.status", 4) // illegal on IPv6
		}
	}

	p := &f.Packet
	b := &p.BTH
	num("infiniband.bth.opcode", uint64(b.OpCode))
	num("infiniband.bth.se", tsharkBit(b.SE))
	num("infiniband.bth.m", tsharkBit(b.MigReq))
	num("infiniband.bth.padcnt", uint64(b.PadCnt))
	num("infiniband.bth.tver", uint64(b.TVer))
	num("infiniband.bth.p_key", uint64(b.PKey))
	num("infiniband.bth.destqp", uint64(b.DestQP))
	num("infiniband.bth.a", tsharkBit(b.AckReq))
	num("infiniband.bth.reserved7", uint64(b.Resv7))
	num("infiniband.bth.psn", uint64(b.PSN))
	byte4 := fmt.Sprintf("%02x", tsharkBit(b.FECN)<<7|tsharkBit(b.BECN)<<6|uint64(b.Resv6a))

	bthOff := len(f.Raw) - p.Len()
	afterBTH := f.Raw[bthOff+ib.BTHLen:]
	switch class {
	case tsRD:
		// tshark's 20-byte BTH is asserted by the caller; its RDETH,
		// DETH and the rest (reserved bytes included) are misplaced.
		return fs
	case tsOpaque:
		str("infiniband.reserved", byte4)
		str("infiniband.bth", oracle.Hex(f.Raw[bthOff:bthOff+ib.BTHLen]))
		// tshark shows the first four bytes, then all of them.
		str("infiniband.vendor", oracle.Hex(afterBTH[:4]), oracle.Hex(afterBTH))
		return fs
	}

	str("infiniband.bth", oracle.Hex(f.Raw[bthOff:bthOff+ib.BTHLen]))
	reserved := []string{byte4}
	off := 0
	hs := p.Headers()
	for i := 0; i < hs.Len(); i++ {
		h := hs.At(i)
		raw := oracle.Hex(afterBTH[off : off+h.Len()])
		off += h.Len()
		switch h {
		case ib.HeaderDETH:
			str("infiniband.deth", raw)
			num("infiniband.deth.q_key", uint64(p.DETH.QKey))
			num("infiniband.deth.srcqp", uint64(p.DETH.SrcQP))
			reserved = append(reserved, fmt.Sprintf("%02x", p.DETH.Resv8))
		case ib.HeaderRETH:
			str("infiniband.reth", raw)
			num("infiniband.reth.va", p.RETH.VA)
			num("infiniband.reth.r_key", uint64(p.RETH.RKey))
			num("infiniband.reth.dmalen", uint64(p.RETH.DMALen))
		case ib.HeaderAtomicETH:
			str("infiniband.atomiceth", raw)
			num("infiniband.reth.va", p.AtomicETH.VA) // tshark reuses the RETH fields
			num("infiniband.reth.r_key", uint64(p.AtomicETH.RKey))
			num("infiniband.atomiceth.swapdt", p.AtomicETH.SwapData)
			num("infiniband.atomiceth.cmpdt", p.AtomicETH.CompareData)
		case ib.HeaderAtomicAckETH:
			str("infiniband.atomicacketh", raw)
			num("infiniband.atomicacketh.origremdt", p.AtomicAckETH.OrigRemData)
		case ib.HeaderAETH:
			a := &p.AETH
			str("infiniband.aeth", raw)
			num("infiniband.aeth.syndrome", uint64(a.Syndrome))
			num("infiniband.aeth.syndrome.reserved", uint64(a.Syndrome>>7))
			num("infiniband.aeth.syndrome.opcode", uint64(a.Type()))
			value := map[ib.AckType]string{ib.Ack: "credit_count", ib.RNRNak: "timer",
				ib.ReservedType: "reserved_value", ib.Nak: "error_code"}[a.Type()]
			num("infiniband.aeth.syndrome."+value, uint64(a.Value()))
			num("infiniband.aeth.msn", uint64(a.MSN))
		case ib.HeaderImmDt:
			var d [4]byte
			binary.BigEndian.PutUint32(d[:], p.ImmDt.Data)
			str("infiniband.immdt", oracle.Hex(d[:]), oracle.Hex(d[:]))
		case ib.HeaderIETH:
			var d [4]byte
			binary.BigEndian.PutUint32(d[:], p.IETH.RKey)
			str("infiniband.ieth", oracle.Hex(d[:]), oracle.Hex(d[:]))
		default: // RDETH, XRCETH, FETH: only on opcodes tshark does not dissect
			panic("unexpected header " + h.String())
		}
	}
	str("infiniband.reserved", reserved...)
	num("infiniband.invariant.crc", uint64(binary.BigEndian.Uint32(b.ICRC[:])))
	if n := len(p.Payload) + len(b.Pad); n > 0 {
		num("data.len", uint64(n))
		str("data.data", oracle.Hex(append(append([]byte(nil), p.Payload...), b.Pad...)))
	} else {
		absent("data.len")
	}
	return fs
}
