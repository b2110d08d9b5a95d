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
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/oracle"
)

// captureDir holds the real captures described in testdata/captures/README.md.
const captureDir = "testdata/captures"

// capture is what we know about one Ethernet capture. Every number here
// comes from /work/shared/captures/MANIFEST.md, or from tshark 4.0.17 where
// the manifest is silent (marked so); none comes from this module's output.
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
		opcodes: map[ib.Opcode]int{0x00: 33, 0x03: 33, 0x05: 2, 0x11: 37},
		// The manifest says "Destination QP 0x000045" for all of them;
		// tshark (and the bytes) say 37 frames, those from port 69, go
		// to QP 0x48. See testdata/captures/README.md.
		destQPs:  map[uint32]int{0x45: 68, 0x48: 37},
		srcPorts: map[uint16]int{72: 68, 69: 37}, // tshark; the manifest names 69 and 72
		ecn:      map[uint8]int{2: 105},
		// The manifest says 1082 or 1086 bytes, or 62 for ACKs; tshark
		// shows three shorter messages (538, 206 and 66 bytes).
		lens: map[ib.Opcode][]int{0x00: {1082}, 0x03: {1086, 538}, 0x05: {206, 66}, 0x11: {62}},
	},
	{
		file: "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap", frames: 4004, roce: 4000,
		opcodes: map[ib.Opcode]int{0x0a: 2000, 0x11: 2000},
		// The manifest names the two QPs; the split is tshark's.
		destQPs:  map[uint32]int{0xa0: 2000, 0xcf: 2000},
		srcPorts: map[uint16]int{49506: 4000},
		ecn:      map[uint8]int{2: 4000},
		lens:     map[ib.Opcode][]int{0x0a: {78}, 0x11: {62}},
	},
	{
		file: "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", frames: 12, roce: 12,
		opcodes: map[ib.Opcode]int{0x64: 5, 0x0a: 1, 0x0c: 1, 0x0d: 1, 0x0e: 2, 0x0f: 1, 0x11: 1},
		destQPs: map[uint32]int{0x01: 5, 0x11: 7}, // tshark
		ecn:     map[uint8]int{0: 12},
		lens:    map[ib.Opcode][]int{0x64: {322}},
	},
	{
		file: "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap", frames: 16, roce: 12,
		opcodes: map[ib.Opcode]int{0x64: 5, 0x0a: 1, 0x0c: 1, 0x0d: 1, 0x0e: 2, 0x0f: 1, 0x11: 1},
		destQPs: map[uint32]int{0x01: 5, 0x11: 2, 0x17: 5}, // tshark
		ecn:     map[uint8]int{0: 12},
		lens:    map[ib.Opcode][]int{0x64: {322}},
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
		ls       roce.Layers
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
		gBTH, _ := pkt.Layer(ib.LayerTypeBTH).(*ib.BTH)
		pHasBTH := slices.Contains(decoded, ib.LayerTypeBTH)

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
		}
		cv := view{ls.IB.BTH.OpCode, ls.IB.BTH.DestQP, ls.IB.BTH.PSN, 0, ls.IB.BTH.ICRC}
		if slices.Contains(decoded, gopacket.LayerTypePayload) {
			cv.payLen = len(ls.IB.Payload)
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
			t.Errorf("frame %d: %v frame of %d bytes, manifest says %v", n, a.op, len(data), allowed)
		}

		// ICRC: our engine three ways, and an independent zlib computation.
		bad := false
		if err := fr.VerifyICRC(); err != nil {
			t.Errorf("frame %d: Frame.VerifyICRC: %v", n, err)
			bad = true
		}
		if err := roce.VerifyPacket(pkt); err != nil {
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

// TestCaptureNativeIB decodes the ERF InfiniBand capture with the ib
// layers: LRH, an optional GRH, BTH and the extended headers. The native
// IB ICRC and VCRC are not checked: native IB masks the LRH VL, not a
// stand-in of eight 0xFF bytes, and the VCRC is a CRC-16 over the whole
// packet; package ib implements the RoCE variant only.
func TestCaptureNativeIB(t *testing.T) {
	lt, frames := readCapture(t, "ib_native_erf_dag_smp_ipoib_cm.pcap")
	if lt != linkTypeERF {
		t.Fatalf("link type %d, want %d (ERF)", lt, linkTypeERF)
	}
	// The manifest: 43 frames, 6 with a GRH, opcodes UD SEND Only ×24,
	// RC SEND Only ×10, RC ACK ×9; two ports.
	if len(frames) != 43 {
		t.Errorf("%d frames, want 43", len(frames))
	}
	want := map[ib.Opcode]int{0x64: 24, 0x04: 10, 0x11: 9}
	opcodes := map[ib.Opcode]int{}
	ifaces := map[int]int{}
	nGRH := 0
	var ibl ib.Layers
	parser := gopacket.NewDecodingLayerParser(ib.LayerTypeLRH, ibl.DecodingLayers()...)
	var decoded []gopacket.LayerType
	for i, rec := range frames {
		n := i + 1
		data, iface, err := erfPayload(rec)
		if err != nil {
			t.Errorf("frame %d: %v", n, err)
			continue
		}
		ifaces[iface]++
		pkt := gopacket.NewPacket(data, ib.LayerTypeLRH, gopacket.Default)
		if el := pkt.ErrorLayer(); el != nil {
			t.Errorf("frame %d: %v", n, el.Error())
			continue
		}
		lrh, _ := pkt.Layer(ib.LayerTypeLRH).(*ib.LRH)
		bth, _ := pkt.Layer(ib.LayerTypeBTH).(*ib.BTH)
		if lrh == nil || bth == nil {
			t.Errorf("frame %d: layers %v, want LRH and BTH", n, pkt.Layers())
			continue
		}
		if got := int(lrh.PktLen)*4 + 2; got != len(data) {
			t.Errorf("frame %d: LRH PktLen %d words + VCRC = %d bytes, ERF wlen %d", n, lrh.PktLen, got, len(data))
		}
		if vcrc := binary.BigEndian.Uint16(data[len(data)-2:]); lrh.VCRC != vcrc {
			t.Errorf("frame %d: VCRC %#04x, last two bytes %#04x", n, lrh.VCRC, vcrc)
		}
		if pkt.Layer(ib.LayerTypeGRH) != nil {
			nGRH++
			if lrh.LNH != ib.LNHIBAGlobal {
				t.Errorf("frame %d: GRH with LNH %d", n, lrh.LNH)
			}
		} else if lrh.LNH != ib.LNHIBALocal {
			t.Errorf("frame %d: no GRH, LNH %d", n, lrh.LNH)
		}
		if bth.OpCode.Transport() == ib.UD {
			if d, _ := pkt.Layer(ib.LayerTypeDETH).(*ib.DETH); d == nil {
				t.Errorf("frame %d: %v without DETH", n, bth.OpCode)
			}
		}
		if bth.OpCode == 0x11 && pkt.Layer(ib.LayerTypeAETH) == nil {
			t.Errorf("frame %d: ACK without AETH", n)
		}
		opcodes[bth.OpCode]++

		// The DecodingLayerParser over the same bytes must agree.
		if err := parser.DecodeLayers(data, &decoded); err != nil {
			t.Errorf("frame %d: DecodingLayerParser: %v (decoded %v)", n, err, decoded)
		} else if ibl.BTH.OpCode != bth.OpCode || ibl.BTH.DestQP != bth.DestQP || ibl.BTH.PSN != bth.PSN || ibl.BTH.ICRC != bth.ICRC {
			t.Errorf("frame %d: parser BTH %v/%#x/%d, NewPacket %v/%#x/%d", n,
				ibl.BTH.OpCode, ibl.BTH.DestQP, ibl.BTH.PSN, bth.OpCode, bth.DestQP, bth.PSN)
		}
	}
	wantMap(t, "frames per opcode", opcodes, want)
	if nGRH != 6 {
		t.Errorf("%d frames with a GRH, want 6", nGRH)
	}
	if len(ifaces) != 2 {
		t.Errorf("capture interfaces %v, want two ports", ifaces)
	}
	t.Logf("%d frames, %d with GRH, opcodes %v, per port %v", len(frames), nGRH, opcodes, ifaces)
}

// TestCapturesTshark compares, frame by frame, what Frame.Decode (or the
// ib layers for the ERF capture) reads with what tshark dissects: opcode,
// DestQP, PSN, PadCnt and the ICRC bytes.
func TestCapturesTshark(t *testing.T) {
	oracle.Need(t, "tshark")
	files := []string{"ib_native_erf_dag_smp_ipoib_cm.pcap"}
	for _, c := range captures {
		if c.roce > 0 {
			files = append(files, c.file)
		}
	}
	total, fields := 0, 0
	for _, name := range files {
		// Port 69 (TFTP) would hide 37 RoCE frames of the bootstrap
		// capture, and tshark's PPPMux and CRTP heuristics claim the
		// payload of 24 RDMA WRITEs, then stop before the ICRC.
		ts := oracle.Tshark(t, filepath.Join(captureDir, name),
			"--disable-protocol", "tftp", "--disable-protocol", "pppmux", "--disable-protocol", "crtp")
		lt, frames := readCapture(t, name)
		if len(ts) != len(frames) {
			t.Fatalf("%s: tshark %d frames, pcapgo %d", name, len(ts), len(frames))
		}
		var fr roce.Frame
		for i, data := range frames {
			var bth *ib.BTH
			if lt == linkTypeERF {
				d, _, err := erfPayload(data)
				if err != nil {
					t.Fatalf("%s frame %d: %v", name, i+1, err)
				}
				pkt := gopacket.NewPacket(d, ib.LayerTypeLRH, gopacket.Default)
				bth, _ = pkt.Layer(ib.LayerTypeBTH).(*ib.BTH)
			} else if fr.Decode(data) == nil {
				bth = &fr.Packet.BTH
			}
			op, tsHas := ts[i].First("infiniband.bth.opcode")
			if (bth != nil) != tsHas {
				t.Errorf("%s frame %d: BTH for us %v, for tshark %v", name, i+1, bth != nil, tsHas)
				continue
			}
			if bth == nil {
				continue
			}
			total++
			want := map[string]string{
				"infiniband.bth.opcode": op,
				"infiniband.bth.destqp": fmt.Sprintf("0x%06x", bth.DestQP),
				"infiniband.bth.psn":    strconv.Itoa(int(bth.PSN)),
				"infiniband.bth.padcnt": strconv.Itoa(int(bth.PadCnt)),
				"infiniband.invariant.crc": fmt.Sprintf("0x%02x%02x%02x%02x",
					bth.ICRC[0], bth.ICRC[1], bth.ICRC[2], bth.ICRC[3]),
			}
			if got := strconv.Itoa(int(bth.OpCode)); got != op {
				t.Errorf("%s frame %d: opcode %s, tshark %s", name, i+1, got, op)
			}
			for k, v := range want {
				tv, ok := ts[i].First(k)
				if !ok {
					t.Errorf("%s frame %d: tshark has no %s", name, i+1, k)
					continue
				}
				fields++
				if tv != v {
					t.Errorf("%s frame %d: %s: ours %s, tshark %s", name, i+1, k, v, tv)
				}
			}
		}
	}
	t.Logf("compared %d fields of %d frames with tshark", fields, total)
	if total != 4129+43 {
		t.Errorf("compared %d frames, want %d", total, 4129+43)
	}
}
