package roce_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
)

// captureDir holds the real captures described in testdata/captures/README.md.
const captureDir = "testdata/captures"

// capture is what we know about one Ethernet capture. Every number here
// comes from the table "Facts the tests check" of
// testdata/captures/README.md (counted with tshark 4.0.17 and a separate
// scanner when the files were collected); none comes from this module's
// output.
type capture struct {
	file   string
	frames int // all frames
	roce   int // RoCEv2 frames (UDP destination port 4791)
	// opcodes counts the RoCE frames per BTH opcode.
	opcodes map[ib.Opcode]int
	// destQPs counts the RoCE frames per BTH DestQP.
	destQPs map[uint32]int
	// srcPorts counts the RoCE frames per UDP source port; nil: not checked.
	srcPorts map[uint16]int
	// ecn counts the frames per ECN codepoint (TOS & 3): over the RoCE
	// frames when roce > 0, over every IPv4 frame otherwise.
	ecn map[uint8]int
	// lens lists the frame lengths each opcode may have; nil: not checked.
	lens map[ib.Opcode][]int
}

var captures = []capture{
	{
		file: "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap", frames: 123, roce: 105,
		opcodes: map[ib.Opcode]int{
			ib.OpRCSendFirst: 33, ib.OpRCSendLastWithImmediate: 33,
			ib.OpRCSendOnlyWithImmediate: 2, ib.OpRCAcknowledge: 37,
		},
		// 37 frames, those from port 69, go to QP 0x48, not 0x45 (the
		// README's "Where the collection notes were wrong").
		destQPs:  map[uint32]int{0x45: 68, 0x48: 37},
		srcPorts: map[uint16]int{72: 68, 69: 37},
		ecn:      map[uint8]int{2: 105},
		lens: map[ib.Opcode][]int{
			ib.OpRCSendFirst: {1082}, ib.OpRCSendLastWithImmediate: {1086, 538},
			ib.OpRCSendOnlyWithImmediate: {206, 66}, ib.OpRCAcknowledge: {62},
		},
	},
	{
		file: "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", frames: 4004, roce: 4000,
		opcodes:  map[ib.Opcode]int{ib.OpRCRDMAWriteOnly: 2000, ib.OpRCAcknowledge: 2000},
		destQPs:  map[uint32]int{0xa0: 2000, 0xcf: 2000},
		srcPorts: map[uint16]int{49506: 4000},
		ecn:      map[uint8]int{2: 4000},
		lens:     map[ib.Opcode][]int{ib.OpRCRDMAWriteOnly: {78}, ib.OpRCAcknowledge: {62}},
	},
	{
		file: "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", frames: 12, roce: 12,
		opcodes: rxeOpcodes,
		destQPs: map[uint32]int{0x01: 5, 0x11: 7},
		ecn:     map[uint8]int{0: 12},
		lens:    map[ib.Opcode][]int{ib.OpUDSendOnly: {322}},
	},
	{
		file: "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap", frames: 16, roce: 12,
		opcodes: rxeOpcodes,
		destQPs: map[uint32]int{0x01: 5, 0x11: 2, 0x17: 5},
		ecn:     map[uint8]int{0: 12},
		lens:    map[ib.Opcode][]int{ib.OpUDSendOnly: {322}},
	},
	{
		file: "ecn_ipv4_udp_all_ce_p4switch.pcap", frames: 3616, roce: 0,
		ecn: map[uint8]int{3: 3616},
	},
	{
		file: "ecn_tcp_accecn_handshake_ect0_ect1.pcap", frames: 6, roce: 0,
		ecn: map[uint8]int{0: 3, 1: 2, 2: 1},
	},
}

// rxeOpcodes is the opcode count of each of the two rxe captures.
var rxeOpcodes = map[ib.Opcode]int{
	ib.OpUDSendOnly: 5, ib.OpRCRDMAWriteOnly: 1, ib.OpRCRDMAReadRequest: 1,
	ib.OpRCRDMAReadResponseFirst: 1, ib.OpRCRDMAReadResponseMiddle: 2,
	ib.OpRCRDMAReadResponseLast: 1, ib.OpRCAcknowledge: 1,
}

// readCapture returns the link type and the frames of a pcap file.
func readCapture(t *testing.T, name string) (layers.LinkType, [][]byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(captureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var frames [][]byte
	for {
		data, ci, err := r.ReadPacketData()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s frame %d: %v", name, len(frames)+1, err)
		}
		if ci.CaptureLength != ci.Length {
			t.Errorf("%s frame %d: truncated capture (%d of %d bytes)", name, len(frames)+1, ci.CaptureLength, ci.Length)
		}
		frames = append(frames, data)
	}
	return r.LinkType(), frames
}

// view is what one decode path saw of a RoCE frame.
type view struct {
	op     ib.Opcode
	destQP uint32
	psn    uint32
	payLen int
	icrc   [4]byte
}

func (v view) String() string {
	return fmt.Sprintf("%v QP %#06x PSN %d payload %d ICRC % x", v.op, v.destQP, v.psn, v.payLen, v.icrc)
}

// decodeFrame runs Frame.Decode, turning a panic into an error.
func decodeFrame(f *roce.Frame, b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f.Decode(b)
}

// zlibICRC computes a RoCEv2/IPv4 ICRC the plain way, independently of
// package ib: copy the packet, set the variant fields to ones, put eight
// 0xFF bytes in front and run the standard CRC-32 over it. ip runs from
// the IPv4 header through the ICRC; the header must be 20 bytes.
func zlibICRC(ip []byte) uint32 {
	m := slices.Concat([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, ip[:len(ip)-4])
	h := m[8:]
	h[1] = 0xff                   // TOS
	h[8] = 0xff                   // TTL
	h[10], h[11] = 0xff, 0xff     // header checksum
	h[20+6], h[20+7] = 0xff, 0xff // UDP checksum
	h[28+4] = 0xff                // BTH FECN, BECN, Resv6a
	return crc32.ChecksumIEEE(m)
}

func TestCaptures(t *testing.T) {
	for _, c := range captures {
		t.Run(strings.TrimSuffix(c.file, ".pcap"), func(t *testing.T) { checkCapture(t, c) })
	}
}

func checkCapture(t *testing.T, c capture) {
	lt, frames := readCapture(t, c.file)
	if lt != layers.LinkTypeEthernet {
		t.Fatalf("link type %v, want Ethernet", lt)
	}
	if len(frames) != c.frames {
		t.Errorf("%d frames, want %d", len(frames), c.frames)
	}

	var (
		fr       roce.Frame
		ls       googlelayers.Layers
		parser   = ls.Parser()
		decoded  []gopacket.LayerType
		nRoCE    int
		badICRC  int
		opcodes  = map[ib.Opcode]int{}
		destQPs  = map[uint32]int{}
		srcPorts = map[uint16]int{}
		ecn      = map[uint8]int{}
	)
	for i, data := range frames {
		n := i + 1
		err := decodeFrame(&fr, data)
		pkt := gopacket.NewPacket(data, layers.LayerTypeEthernet, gopacket.Default)
		if el := pkt.ErrorLayer(); el != nil {
			t.Errorf("frame %d: gopacket: %v", n, el.Error())
		}
		perr := parser.DecodeLayers(data, &decoded)
		gBTH, _ := pkt.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
		pHasBTH := slices.Contains(decoded, googlelayers.LayerTypeBTH)

		if err != nil {
			if !errors.Is(err, ib.ErrNotRoCE) {
				t.Errorf("frame %d: Frame.Decode: %v, want nil or ErrNotRoCE", n, err)
			}
			if gBTH != nil || pHasBTH {
				t.Errorf("frame %d: Frame.Decode says not RoCE, gopacket BTH %v, parser BTH %v", n, gBTH != nil, pHasBTH)
			}
			var unsup gopacket.UnsupportedLayerType
			if perr != nil && !errors.As(perr, &unsup) {
				t.Errorf("frame %d: DecodingLayerParser on a non-RoCE frame: %v", n, perr)
			}
			if c.roce == 0 {
				if ip, ok := pkt.Layer(layers.LayerTypeIPv4).(*layers.IPv4); ok {
					ecn[ip.TOS&3]++
				}
			}
			continue
		}

		// A RoCE frame.
		nRoCE++
		if perr != nil {
			t.Errorf("frame %d: DecodingLayerParser: %v (decoded %v)", n, perr, decoded)
		}
		if gBTH == nil || !pHasBTH {
			t.Errorf("frame %d: RoCE for Frame.Decode, but gopacket BTH %v, parser BTH %v", n, gBTH != nil, pHasBTH)
			continue
		}
		p := &fr.Packet
		a := view{p.BTH.OpCode, p.BTH.DestQP, p.BTH.PSN, len(p.Payload), p.BTH.ICRC}
		b := view{gBTH.OpCode, gBTH.DestQP, gBTH.PSN, 0, gBTH.ICRC}
		if app := pkt.ApplicationLayer(); app != nil {
			b.payLen = len(app.Payload())
		} else if m := pkt.Layer(googlelayers.LayerTypeMAD); m != nil { // a MAD is the payload
			b.payLen = len(m.LayerContents()) + len(m.LayerPayload())
		}
		cv := view{ls.BTH.OpCode, ls.BTH.DestQP, ls.BTH.PSN, 0, ls.BTH.ICRC}
		if slices.Contains(decoded, gopacket.LayerTypePayload) {
			cv.payLen = len(ls.Payload)
		}
		if slices.Contains(decoded, googlelayers.LayerTypeMAD) {
			cv.payLen = len(ls.MAD.Contents) + len(ls.MAD.Payload)
		}
		if a != b || a != cv {
			t.Errorf("frame %d: decode paths disagree:\n Frame.Decode %v\n NewPacket    %v\n parser       %v", n, a, b, cv)
		}
		var wire [4]byte
		copy(wire[:], data[len(data)-4:]) // no FCS, no padding in these captures
		if a.icrc != wire {
			t.Errorf("frame %d: ICRC field % x, last frame bytes % x", n, a.icrc, wire)
		}

		opcodes[a.op]++
		destQPs[a.destQP]++
		srcPorts[fr.SrcPort]++
		ecn[fr.GRH.TClass&3]++
		if ip, ok := pkt.Layer(layers.LayerTypeIPv4).(*layers.IPv4); !ok || ip.TOS != fr.GRH.TClass {
			t.Errorf("frame %d: GRH.TClass %#x, gopacket IPv4 %v", n, fr.GRH.TClass, pkt.Layer(layers.LayerTypeIPv4))
		}
		if fr.DstPort != 4791 {
			t.Errorf("frame %d: RoCE with UDP destination port %d", n, fr.DstPort)
		}
		if allowed, ok := c.lens[a.op]; ok && !slices.Contains(allowed, len(data)) {
			t.Errorf("frame %d: %v frame of %d bytes, README says %v", n, a.op, len(data), allowed)
		}

		// ICRC: our engine three ways, and an independent zlib computation.
		bad := false
		if err := fr.VerifyICRC(); err != nil {
			t.Errorf("frame %d: Frame.VerifyICRC: %v", n, err)
			bad = true
		}
		if err := googlelayers.VerifyPacket(pkt); err != nil {
			t.Errorf("frame %d: VerifyPacket: %v", n, err)
			bad = true
		}
		if fr.Encap != ib.RoCEv2IPv4 {
			t.Errorf("frame %d: encapsulation %v, all RoCE here is RoCEv2/IPv4", n, fr.Encap)
		} else if z, r := zlibICRC(fr.Raw), ib.ReceivedICRC(fr.Raw); z != r {
			t.Errorf("frame %d: zlib ICRC %#08x, frame carries %#08x", n, z, r)
			bad = true
		}
		if bad {
			badICRC++
		}
	}

	if nRoCE != c.roce {
		t.Errorf("%d RoCE frames, want %d", nRoCE, c.roce)
	}
	if badICRC != 0 {
		t.Errorf("%d RoCE frames with a bad ICRC, want 0", badICRC)
	}
	wantMap(t, "frames per opcode", opcodes, c.opcodes)
	wantMap(t, "frames per DestQP", destQPs, c.destQPs)
	if c.srcPorts != nil {
		wantMap(t, "RoCE frames per UDP source port", srcPorts, c.srcPorts)
	}
	wantMap(t, "frames per ECN codepoint", ecn, c.ecn)
	t.Logf("%d frames, %d RoCE, %d bad ICRC, opcodes %v", len(frames), nRoCE, badICRC, opcodes)
}

// wantMap fails unless got and want hold the same counts (a nil want is
// an empty one).
func wantMap[K comparable, M ~map[K]int](t *testing.T, what string, got, want M) {
	t.Helper()
	if !maps.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// ERF (Extensible Record Format) record header, as Endace documents it:
// 8-byte little-endian timestamp, type (bit 7: an extension header
// follows), flags (bits 0-1: capture interface), rlen, lctr, wlen (all
// big-endian 16-bit).
const (
	erfHeaderLen      = 16
	erfTypeInfiniBand = 21
	erfTypeExt        = 0x80
	linkTypeERF       = 197
)

// erfPayload returns the InfiniBand packet of one ERF record and its
// capture interface.
func erfPayload(rec []byte) (pkt []byte, iface int, err error) {
	if len(rec) < erfHeaderLen {
		return nil, 0, fmt.Errorf("ERF record of %d bytes", len(rec))
	}
	typ, flags := rec[8], rec[9]
	if typ&0x7f != erfTypeInfiniBand {
		return nil, 0, fmt.Errorf("ERF type %d, want %d (InfiniBand)", typ&0x7f, erfTypeInfiniBand)
	}
	off := erfHeaderLen
	for more := typ&erfTypeExt != 0; more; {
		if len(rec) < off+8 {
			return nil, 0, fmt.Errorf("ERF extension header truncated")
		}
		more = rec[off]&0x80 != 0
		off += 8
	}
	wlen := int(binary.BigEndian.Uint16(rec[14:]))
	pkt = rec[off:]
	if len(pkt) > wlen {
		pkt = pkt[:wlen] // ERF pads records to 8 bytes
	}
	return pkt, int(flags & 3), nil
}

// TestCapturesTshark compares, frame by frame, what Frame.Decode (or
// ib.Packet.Decode for the ERF capture) reads with what tshark dissects:
// every BTH field tshark shows, the ICRC bytes, and the fields of the
// AETH, RETH, DETH and ImmDt where the opcode carries them. Each
// comparison is our value against tshark's.
func TestCapturesTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	files := []string{"ib_native_erf_dag_smp_ipoib_cm.pcap"}
	for _, c := range captures {
		if c.roce > 0 {
			files = append(files, c.file)
		}
	}
	total, fields := 0, 0
	perField := map[string]int{}
	for _, name := range files {
		// Port 69 (TFTP) would hide 37 RoCE frames of the bootstrap
		// capture, and tshark's PPPMux and CRTP heuristics claim the
		// payload of 24 RDMA WRITEs, then stop before the ICRC.
		ts := oracle.Tshark(t, filepath.Join(captureDir, name),
			"--disable-protocol", "tftp", "--disable-protocol", "pppmux", "--disable-protocol", "crtp")
		lt, frames := readCapture(t, name)
		require.Len(t, ts, len(frames), "%s: tshark and pcapgo frame counts", name)
		var fr roce.Frame
		var native ib.Packet
		for i, data := range frames {
			var p *ib.Packet
			if lt == linkTypeERF {
				d, _, err := erfPayload(data)
				require.NoError(t, err, "%s frame %d", name, i+1)
				if err := native.Decode(erfTransport(d)); err != nil {
					t.Errorf("%s frame %d: ib.Packet.Decode: %v", name, i+1, err)
					continue
				}
				p = &native
			} else if fr.Decode(data) == nil {
				p = &fr.Packet
			}
			_, tsHas := ts[i].First("infiniband.bth.opcode")
			if (p != nil) != tsHas {
				t.Errorf("%s frame %d: BTH for us %v, for tshark %v", name, i+1, p != nil, tsHas)
				continue
			}
			if p == nil {
				continue
			}
			total++
			for _, f := range captureTsharkFields(p) {
				tv, ok := ts[i].First(f.name)
				if !ok {
					t.Errorf("%s frame %d (%v): tshark has no %s", name, i+1, p.BTH.OpCode, f.name)
					continue
				}
				fields++
				perField[f.name]++
				if !oracle.SameValue(tv, f.ours, f.num) {
					t.Errorf("%s frame %d (%v): %s: ours %s, tshark %s", name, i+1, p.BTH.OpCode, f.name, f.ours, tv)
				}
			}
		}
	}
	t.Logf("compared %d fields of %d frames with tshark: %v", fields, total, perField)
	if total != 4129+43 {
		t.Errorf("compared %d frames, want %d (testdata/captures/README.md)", total, 4129+43)
	}
}

// captureField is one field of a decoded packet under its tshark name,
// with our value; num compares as numbers in any base.
type captureField struct {
	name, ours string
	num        bool
}

// captureTsharkFields lists the fields of p that tshark 4.0 shows for it.
func captureTsharkFields(p *ib.Packet) []captureField {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	h := &p.BTH
	fs := []captureField{
		{"infiniband.bth.opcode", u(uint64(h.OpCode)), true},
		{"infiniband.bth.se", b(h.SE), true},
		{"infiniband.bth.m", b(h.MigReq), true},
		{"infiniband.bth.padcnt", u(uint64(h.PadCnt)), true},
		{"infiniband.bth.tver", u(uint64(h.TVer)), true},
		{"infiniband.bth.p_key", u(uint64(h.PKey)), true},
		{"infiniband.bth.destqp", u(uint64(h.DestQP)), true},
		{"infiniband.bth.a", b(h.AckReq), true},
		{"infiniband.bth.psn", u(uint64(h.PSN)), true},
		// tshark prints the four ICRC bytes as one big-endian number.
		{"infiniband.invariant.crc", u(uint64(binary.BigEndian.Uint32(h.ICRC[:]))), true},
	}
	hs := p.Headers()
	if hs.Has(ib.HeaderAETH) {
		fs = append(fs,
			captureField{"infiniband.aeth.syndrome", u(uint64(p.AETH.Syndrome)), true},
			captureField{"infiniband.aeth.msn", u(uint64(p.AETH.MSN)), true})
	}
	if hs.Has(ib.HeaderRETH) {
		fs = append(fs,
			captureField{"infiniband.reth.va", u(p.RETH.VA), true},
			captureField{"infiniband.reth.r_key", u(uint64(p.RETH.RKey)), true},
			captureField{"infiniband.reth.dmalen", u(uint64(p.RETH.DMALen)), true})
	}
	if hs.Has(ib.HeaderDETH) {
		fs = append(fs,
			captureField{"infiniband.deth.q_key", u(uint64(p.DETH.QKey)), true},
			captureField{"infiniband.deth.srcqp", u(uint64(p.DETH.SrcQP)), true})
	}
	if hs.Has(ib.HeaderImmDt) {
		var imm [4]byte
		binary.BigEndian.PutUint32(imm[:], p.ImmDt.Data)
		fs = append(fs, captureField{"infiniband.immdt", oracle.Hex(imm[:]), false})
	}
	return fs
}

// erfTransport returns the transport packet (BTH through ICRC) of a native
// InfiniBand packet: after the LRH, and the GRH when LRH.LNH says one
// follows (docs/wire-format.md, section 4); before the 2-byte VCRC.
func erfTransport(d []byte) []byte {
	const lrhLen, grhLen, vcrcLen = 8, 40, 2
	if len(d) < lrhLen+vcrcLen {
		return nil
	}
	b := d[lrhLen : len(d)-vcrcLen]
	if d[1]&3 == 3 && len(b) >= grhLen { // LNH: IBA global, a GRH follows
		b = b[grhLen:]
	}
	return b
}
