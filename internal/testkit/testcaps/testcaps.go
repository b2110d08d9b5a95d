// Package testcaps writes the generated captures that the tests of dump
// and dfilter run on beside the shipped ones: rocegen's generator over
// RoCEv2/IPv4 with a VLAN tag, CE marks answered by CNPs and PFC frames,
// over RoCEv2/IPv6 and over RoCEv1, and a file of hand-built frames the
// generator does not make (two VLAN tags, QinQ, PAUSE, a MAC Control
// frame of another opcode, a bad ICRC, a frame cut inside its RETH,
// non-RoCE UDP and TCP) with its Linux cooked copies (SLL and SLL2). It
// is for tests only.
package testcaps

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ecn"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/ipoib"
	"github.com/roce-go/roce/pfc"
)

// Shipped returns the paths of the shipped captures: testdata/captures
// and testdata/golden.
func Shipped(t testing.TB) []string {
	t.Helper()
	var paths []string
	for _, dir := range []string{"captures", "golden"} {
		p, err := filepath.Glob(corpus.Path(dir, "*.pcap"))
		if err != nil || len(p) == 0 {
			t.Fatalf("no captures under testdata/%s: %v", dir, err)
		}
		paths = append(paths, p...)
	}
	return paths
}

// Generated writes the generated captures into dir and returns their
// paths.
func Generated(t testing.TB, dir string) []string {
	t.Helper()
	var paths []string
	for _, enc := range []ib.Encapsulation{ib.RoCEv2IPv4, ib.RoCEv2IPv6, ib.RoCEv1} {
		var phases []gen.Config
		for i, op := range []gen.Op{gen.OpWrite, gen.OpRead, gen.OpSendImm, gen.OpSendInv, gen.OpCmpSwap, gen.OpFetchAdd, gen.OpSend} {
			c := gen.DefaultConfig()
			c.Encap, c.Op, c.MTU, c.Size, c.Messages, c.QPs = enc, op, 256, 600, 2, 2
			c.Seed = uint64(i + 1)
			if op == gen.OpCmpSwap || op == gen.OpFetchAdd {
				c.Size = 8
			}
			if op == gen.OpSend {
				c.Transport, c.Size = ib.UD, 200
			}
			if enc == ib.RoCEv2IPv4 {
				c.VLAN, c.PCP = 100+i, 3
				c.ECN, c.CEEvery = ecn.ECT0, 3
				c.PFCEvery, c.PFCPrio, c.PFCQuanta = 5, 3, 0xffff
			}
			phases = append(phases, c)
		}
		g, err := gen.NewScenario(phases)
		if err != nil {
			t.Fatal(err)
		}
		var frames [][]byte
		var cis []gopacket.CaptureInfo
		for g.Next() {
			frames = append(frames, bytes.Clone(g.Frame()))
			cis = append(cis, g.CaptureInfo())
		}
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
		name := map[ib.Encapsulation]string{ib.RoCEv2IPv4: "gen_v4_vlan_cnp_pfc.pcap", ib.RoCEv2IPv6: "gen_v6.pcap", ib.RoCEv1: "gen_v1.pcap"}[enc]
		paths = append(paths, write(t, filepath.Join(dir, name), frames, cis))
	}
	frames := Handmade(t)
	cis := make([]gopacket.CaptureInfo, len(frames))
	for i, f := range frames {
		cis[i] = gopacket.CaptureInfo{Timestamp: time.Unix(1764400000, int64(i)*1000), Length: len(f), CaptureLength: len(f)}
	}
	cis[len(cis)-1].Length += 4 // the last one is cut by the capture before its ICRC
	paths = append(paths, write(t, filepath.Join(dir, "handmade.pcap"), frames, cis))
	// Linux cooked copies (tcpdump -i any) of the hand-built frames.
	for _, lt := range []uint32{capfile.LinkTypeLinuxSLL, capfile.LinkTypeLinuxSLL2} {
		path := filepath.Join(dir, "handmade_sll"+strconv.Itoa(int(lt))+".pcap")
		WriteCooked(t, path, lt, frames, cis)
		paths = append(paths, path)
	}
	return paths
}

func write(t testing.TB, path string, frames [][]byte, cis []gopacket.CaptureInfo) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := pcapgo.NewWriter(f)
	if err := w.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		t.Fatal(err)
	}
	for i, fr := range frames {
		if err := w.WritePacket(cis[i], fr); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// Build builds f, from MAC 02:00:00:00:00:01 to 02:00:00:00:00:02,
// with roce.Frame.AppendTo, failing the test on an error.
func Build(t testing.TB, f *roce.Frame) []byte {
	t.Helper()
	f.Dst = [6]byte{0x02, 0, 0, 0, 0, 2}
	f.Src = [6]byte{0x02, 0, 0, 0, 0, 1}
	b, err := f.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gid(s string) [16]byte { return netip.MustParseAddr(s).As16() }

// Handmade returns the hand-built frames, the last one cut by the
// capture before its ICRC (its wire length is 4 bytes more).
func Handmade(t testing.TB) [][]byte {
	t.Helper()
	build := func(f *roce.Frame) []byte { return Build(t, f) }
	v4 := ib.GRH{HopLmt: 64, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}
	var out [][]byte

	f := roce.Frame{Encap: ib.RoCEv2IPv4, NumVLANs: 2, GRH: v4} // two C-tags: vlan.id twice in tshark
	f.VLANs[0] = roce.VLAN{TPID: 0x8100, PCP: 1, ID: 10}
	f.VLANs[1] = roce.VLAN{TPID: 0x8100, PCP: 6, DEI: true, ID: 20}
	f.Packet.BTH = ib.BTH{OpCode: ib.OpRCAcknowledge, PKey: 0xffff, DestQP: 9, PSN: 5}
	f.Packet.AETH = ib.AETH{Syndrome: 0x61, MSN: 0x010203}
	out = append(out, build(&f))

	f = roce.Frame{Encap: ib.RoCEv2IPv4, NumVLANs: 2} // QinQ
	f.VLANs[0] = roce.VLAN{TPID: 0x88a8, PCP: 5, DEI: true, ID: 7}
	f.VLANs[1] = roce.VLAN{TPID: 0x8100, PCP: 4, ID: 10}
	f.GRH = ib.GRH{TClass: 0x02, HopLmt: 63, SGID: gid("::ffff:10.1.2.3"), DGID: gid("::ffff:10.0.0.1")}
	f.Packet.BTH = ib.BTH{OpCode: 0x17, MigReq: true, PKey: 0xffff, DestQP: 3, PSN: 1}
	f.Packet.IETH.RKey = 0x0badcafe
	f.Packet.Payload = make([]byte, 8)
	out = append(out, build(&f))

	f = roce.Frame{Encap: ib.RoCEv2IPv4, NumVLANs: 2, GRH: v4} // two S-tags
	f.VLANs[0] = roce.VLAN{TPID: 0x88a8, PCP: 2, ID: 30}
	f.VLANs[1] = roce.VLAN{TPID: 0x88a8, PCP: 0, DEI: true, ID: 40}
	f.Packet.BTH = ib.BTH{OpCode: ib.OpRCAcknowledge, PKey: 0xffff, DestQP: 0xa0, PSN: 9}
	out = append(out, build(&f))

	f = roce.Frame{Encap: ib.RoCEv2IPv4, GRH: v4}
	f.Packet.BTH = ib.BTH{OpCode: 0x2b, SE: true, FECN: true, BECN: true, PKey: 0xffff, DestQP: 0xa0, PSN: 6}
	f.Packet.RETH = ib.RETH{VA: 0x7f0000001000, RKey: 0x1234, DMALen: 3}
	f.Packet.ImmDt.Data = 0xdeadbeef
	f.Packet.Payload = []byte{1, 2, 3}
	rethImm := build(&f)
	out = append(out, rethImm)

	f = roce.Frame{Encap: ib.RoCEv2IPv4, GRH: v4}
	f.Packet.BTH = ib.BTH{OpCode: 0x44, PKey: 0xffff, DestQP: 9, PSN: 7}
	f.Packet.RDETH.EECnxt = 0x00beef
	f.Packet.DETH = ib.DETH{QKey: 0x80010000, SrcQP: 0x123456}
	f.Packet.Payload = make([]byte, 4)
	out = append(out, build(&f))

	src := [6]byte{0x02, 0x11, 0x22, 0x33, 0x44, 0x55}
	gate := pfc.AppendPause(nil, src, 0)
	gate[15] = 2 // opcode 0x0002, EPON GATE
	out = append(out,
		pfc.AppendPFC(nil, src, 1<<3|1<<7|1<<1, [8]uint16{3: 65535, 7: 4660}),
		pfc.AppendPause(nil, src, 65535),
		pfc.AppendPause(nil, src, 0),
		gate)

	bad := bytes.Clone(rethImm)
	bad[len(bad)-1] ^= 1 // bad ICRC
	out = append(out, bad, rethImm[:len(rethImm)-10])

	// A UDP datagram to another port and a TCP segment: not RoCE.
	udp := bytes.Clone(rethImm)
	udp[14+20+2], udp[14+20+3] = 0x12, 0x34 // destination port 4660
	tcp := bytes.Clone(rethImm[:14+20+20])
	tcp[14+9] = 6 // TCP; the IPv4 checksum goes stale, which nobody checks here
	out = append(out, udp, tcp)

	cut := bytes.Clone(rethImm[:len(rethImm)-4]) // cut by the capture: ICRC not captured
	return append(out, cut)
}

// Records decodes every frame of the capture at path, each into its own
// dump.Record with its own copy of the bytes.
func Records(tb testing.TB, path string) []dump.Record {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	src, err := capfile.NewSource(f)
	if err != nil {
		tb.Fatal(err)
	}
	var recs []dump.Record
	for {
		data, ci, lt, err := src.Next()
		if err != nil {
			return recs
		}
		var r dump.Record
		r.Decode(src.Number(), ci, lt, bytes.Clone(data))
		recs = append(recs, r)
	}
}

// WriteCooked writes frames as a pcap of link type lt (113 or 276),
// replacing each Ethernet header with a cooked header.
func WriteCooked(t testing.TB, path string, lt uint32, frames [][]byte, cis []gopacket.CaptureInfo) {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, 0xa1b2c3d4)
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint16(b, 4)
	b = append(b, make([]byte, 8)...)
	b = binary.LittleEndian.AppendUint32(b, 65535)
	b = binary.LittleEndian.AppendUint32(b, lt)
	for i, fr := range frames {
		var h []byte
		proto := fr[12:14]
		if lt == capfile.LinkTypeLinuxSLL {
			h = append(h, 0, 4, 0, 1, 0, 6) // sent by us, Ethernet, 6-byte address
			h = append(h, fr[6:12]...)
			h = append(h, 0, 0)
			h = append(h, proto...)
		} else {
			h = append(h, proto...)
			h = append(h, 0, 0, 0, 0, 0, 7, 0, 1, 4, 6) // reserved, ifindex 7, Ethernet, sent by us, 6
			h = append(h, fr[6:12]...)
			h = append(h, 0, 0)
		}
		body := append(h, fr[14:]...)
		ts := cis[i].Timestamp
		b = binary.LittleEndian.AppendUint32(b, uint32(ts.Unix()))
		b = binary.LittleEndian.AppendUint32(b, uint32(ts.Nanosecond()/1000))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
		b = append(b, body...)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// IPoIBLink builds link type 242 records from the IPoIB packets of the
// shipped ERF capture (header and payload of each native packet that
// carries IPoIB) behind link headers of both forms (received packets
// with the GRH and sender of UD packets, sent ones with the destination
// of RC packets), and one record cut inside its link header.
func IPoIBLink(t testing.TB) [][]byte {
	t.Helper()
	frames := corpus.ReadPcap(t, corpus.Path("captures", "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	return append(IPoIBLinkOf(t, frames), make([]byte, 30))
}

// IPoIBLinkOf builds a link type 242 record of each ERF record of frames
// that carries IPoIB, as IPoIBLink does.
func IPoIBLinkOf(t testing.TB, frames [][]byte) [][]byte {
	t.Helper()
	var rec dump.Record
	var out [][]byte
	for i, fr := range frames {
		rec.Decode(i+1, gopacket.CaptureInfo{}, capfile.LinkTypeERF, fr)
		if !rec.HasIPoIB {
			continue
		}
		p := &rec.RoCE.Packet
		var lh ipoib.LinkHeader
		switch {
		case rec.HasGRH:
			lh = ipoib.LinkHeader{IPVer: 6, SrcQP: p.DETH.SrcQP, SGID: rec.RoCE.GRH.SGID, DGID: rec.RoCE.GRH.DGID}
		case p.BTH.OpCode == ib.OpUDSendOnly:
			lh = ipoib.LinkHeader{IPVer: 6, SrcQP: p.DETH.SrcQP}
		default:
			a, err := ipoib.MakeHWAddr(0, p.BTH.DestQP, [16]byte{0xfe, 0x80, 15: byte(rec.LRH.DLID)})
			if err != nil {
				t.Fatal(err)
			}
			lh.SetDstAddr(a)
		}
		b, err := lh.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append(b, p.Payload...))
	}
	return out
}

// TagStacks are the VLAN tag stacks of Tagged, outermost first: 0x9100
// alone and before 802.1Q, three tags, 802.1ad between 802.1Q tags, and
// eight (roce.MaxVLANs) of one TPID and of all three.
var TagStacks = [][]uint16{
	{0x9100},
	{0x9100, 0x8100},
	{0x88a8, 0x8100, 0x8100},
	{0x8100, 0x8100, 0x8100},
	{0x8100, 0x88a8, 0x8100},
	{0x88a8, 0x9100, 0x88a8, 0x8100},
	{0x8100, 0x8100, 0x8100, 0x8100, 0x8100, 0x8100, 0x8100, 0x8100},
	{0x88a8, 0x88a8, 0x88a8, 0x88a8, 0x88a8, 0x88a8, 0x88a8, 0x88a8},
	{0x9100, 0x88a8, 0x8100, 0x88a8, 0x9100, 0x8100, 0x88a8, 0x8100},
}

// Tagged returns Ethernet frames behind the tags of each of TagStacks: a
// RoCEv2/IPv4 RDMA WRITE Only, then, behind the same tags, a UDP datagram
// that is not RoCE and an ARP request; and last a RoCE frame behind nine
// tags, one more than roce.MaxVLANs (malformed: unsupported). Tag k of
// stack i has VLAN ID 100*i+k+1, PCP k%8 and DEI set when k%3 is 1.
func Tagged(t testing.TB) [][]byte {
	t.Helper()
	tags := func(st []uint16, i int) []byte {
		var b []byte
		for k, tpid := range st {
			tci := uint16(k%8)<<13 | uint16(100*i+k+1)
			if k%3 == 1 {
				tci |= 0x1000
			}
			b = binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(b, tpid), tci)
		}
		return b
	}
	v4 := ib.GRH{HopLmt: 64, TClass: 0x6a, SGID: gid("::ffff:10.0.0.1"), DGID: gid("::ffff:10.0.0.2")}
	var out [][]byte
	for i, st := range TagStacks {
		f := roce.Frame{Encap: ib.RoCEv2IPv4, GRH: v4, NumVLANs: len(st)}
		for k, tpid := range st {
			f.VLANs[k] = roce.VLAN{TPID: tpid, PCP: uint8(k % 8), DEI: k%3 == 1, ID: uint16(100*i + k + 1)}
		}
		f.Packet.BTH = ib.BTH{OpCode: ib.OpRCRDMAWriteOnly, PKey: 0xffff, DestQP: 0x12, PSN: uint32(i)}
		f.Packet.RETH = ib.RETH{VA: 0x1000, RKey: 7, DMALen: 4}
		f.Packet.Payload = []byte{1, 2, 3, 4}
		roceFrame := Build(t, &f)
		out = append(out, roceFrame)
		// Behind the same tags: UDP to port 5000 (not RoCE) and ARP.
		macs := roceFrame[:12]
		udp := []byte{0x08, 0x00, 0x45, 0x00, 0x00, 0x20, 0, 1, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
			0x30, 0x39, 0x13, 0x88, 0x00, 0x0c, 0, 0, 'a', 'b', 'c', 'd'}
		binary.BigEndian.PutUint16(udp[12:], ipv4Checksum(udp[2:22]))
		arp := []byte{0x08, 0x06, 0, 1, 8, 0, 6, 4, 0, 1, 2, 0, 0, 0, 0, 1, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 0, 0, 2}
		for _, body := range [][]byte{udp, arp} {
			b := append(append(append([]byte(nil), macs...), tags(st, i)...), body...)
			out = append(out, b)
		}
	}
	nine := append([]uint16{0x8100}, TagStacks[len(TagStacks)-1]...)
	f := roce.Frame{Encap: ib.RoCEv2IPv4, GRH: v4}
	f.Packet.BTH = ib.BTH{OpCode: ib.OpRCRDMAWriteOnly, PKey: 0xffff, DestQP: 0x12, PSN: 99}
	f.Packet.RETH = ib.RETH{VA: 0x1000, RKey: 7, DMALen: 4}
	f.Packet.Payload = []byte{1, 2, 3, 4}
	b := Build(t, &f)
	return append(out, append(append(append([]byte(nil), b[:12]...), tags(nine, 99)...), b[12:]...))
}

// ipv4Checksum is the header checksum of h, whose checksum field is zero.
func ipv4Checksum(h []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(h); i += 2 {
		s += uint32(h[i])<<8 | uint32(h[i+1])
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}
