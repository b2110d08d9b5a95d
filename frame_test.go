package roce_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/rocev2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Vectors from docs/icrc-vectors.md (V1 RoCEv2/IPv4, V2 RoCEv2/IPv6,
// V3 RoCEv1, V4 CNP, V5 ACK), each checked there by zlib, rxe's algorithm
// and, for IPv4, Scapy.
var vectors = map[string]string{
	"v2ipv4": "02000000000202000000000108004502003c123440004011a527c0a80101c0a80102c00012b7002800000470ffff0000001280000001526f434520746573742076656300000085bca00f",
	"v2ipv6": "02000000000202000000000186dd6021234500281140fd000000000000000000000000000001fd000000000000000000000000000002c00012b70028c6830470ffff0000001280000001526f4345207465737420766563000000038b7b2d",
	"v1":     "02000000000202000000000189156000000000201b40fe800000000000000000000000000001fe8000000000000000000000000000020470ffff0000001280000001526f4345207465737420766563000000b906246b",
	"cnp":    "020000000001020000000002080045c2003c000040004011b69bc0a80102c0a80101c00112b7002800008100ffff4000003400000000000000000000000000000000000000000d07721e",
	"ack":    "020000000001020000000002080045020030000140004011b766c0a80102c0a80101c00012b7001c00001100ffff00000011000000011f000005aea7a67c",
}

func vec(t testing.TB, name string) []byte {
	t.Helper()
	b, err := hex.DecodeString(vectors[name])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFrameVectors(t *testing.T) {
	for name := range vectors {
		t.Run(name, func(t *testing.T) {
			b := vec(t, name)
			var f roce.Frame
			if err := f.Decode(b); err != nil {
				t.Fatal(err)
			}
			if err := f.VerifyICRC(); err != nil {
				t.Fatal(err)
			}
			out, err := f.AppendTo(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, b) {
				t.Fatalf("re-encode\n got %x\nwant %x", out, b)
			}
		})
	}
}

// The ICRC is found from GRH PayLen or the UDP length, not from the end of
// the frame: Ethernet padding or an FCS after it changes nothing.
func TestTrailerIgnored(t *testing.T) {
	for name := range vectors {
		b := append(vec(t, name), 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0)
		var f roce.Frame
		if err := f.Decode(b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := f.VerifyICRC(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
		bth, _ := p.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
		if bth == nil || bth.ICRC != f.Packet.BTH.ICRC {
			t.Fatalf("%s: NewPacket BTH %v", name, p)
		}
		if err := googlelayers.VerifyPacket(p); err != nil {
			t.Fatalf("%s: VerifyPacket: %v", name, err)
		}
	}
}

// Every prefix of every vector (and of the golden RoCEv1 frames, two of
// every opcode) either
// decodes to an error wrapping a sentinel, when the cut falls inside a
// header from Ethernet through the BTH, or decodes as the whole frame cut
// by the capture: Truncated set, WireLen the whole frame's, every header
// through the BTH as in the whole frame, each extended header as in the
// whole frame as far as it was captured, the payload a prefix of its
// payload, the ICRC unchecked. Nothing panics on any path.
func TestTruncationSweep(t *testing.T) {
	frames := map[string][]byte{}
	for name := range vectors {
		frames[name] = vec(t, name)
	}
	for i, b := range corpus.File(t, "golden", "rocev1.pcap") { // every opcode, tagged and not
		frames["golden rocev1 frame "+strconv.Itoa(i+1)] = b
	}
	for name, b := range frames {
		var whole roce.Frame
		require.NoError(t, whole.Decode(b))
		hdrEnd := len(b) - ib.ICRCLen - int(whole.Packet.BTH.PadCnt) - len(whole.Packet.Payload) - whole.Packet.Headers().Size()
		for n := 0; n < len(b); n++ {
			cut := append([]byte(nil), b[:n]...) // exact capacity: reads past n fault
			var f roce.Frame
			err := f.Decode(cut)
			if n < hdrEnd {
				require.Error(t, err, "%s cut at %d decoded", name, n)
				require.True(t, errors.Is(err, ib.ErrTruncated) || errors.Is(err, ib.ErrNotRoCE),
					"%s cut at %d: %v", name, n, err)
				require.Error(t, roce.VerifyFrame(cut), "%s cut at %d verified", name, n)
			} else {
				require.NoError(t, err, "%s cut at %d", name, n)
				checkCutFrame(t, &whole, &f, cut)
				require.ErrorIs(t, roce.VerifyFrame(cut), ib.ErrUnchecked)
			}
			p := gopacket.NewPacket(cut, layers.LayerTypeEthernet, gopacket.Default)
			if n >= hdrEnd {
				bth, _ := p.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
				require.NotNil(t, bth, "%s cut at %d: %v", name, n, p)
				require.True(t, bth.Truncated && p.Metadata().Truncated, "%s cut at %d", name, n)
				require.Equal(t, whole.Packet.BTH.PSN, bth.PSN)
				require.ErrorIs(t, googlelayers.VerifyPacket(p), ib.ErrUnchecked)
			}
			var l googlelayers.Layers
			var decoded []gopacket.LayerType
			perr := l.Parser().DecodeLayers(cut, &decoded)
			if n >= hdrEnd {
				require.Contains(t, decoded, googlelayers.LayerTypeBTH, "%s cut at %d: %v", name, n, perr)
				require.True(t, l.BTH.Truncated, "%s cut at %d", name, n)
			}
		}
	}
}

// checkCutFrame checks a frame decoded from the first bytes of whole's
// frame: the same headers, Truncated, WireLen and Raw as the capture
// kept them, a payload that is a prefix of whole's, the ICRC unchecked.
func checkCutFrame(t *testing.T, whole, f *roce.Frame, cut []byte) {
	t.Helper()
	require.True(t, f.Truncated, "cut at %d not marked Truncated", len(cut))
	require.True(t, f.Packet.BTH.Truncated)
	require.Equal(t, whole.WireLen, f.WireLen)
	require.ErrorIs(t, f.VerifyICRC(), ib.ErrUnchecked)
	require.NotErrorIs(t, f.VerifyICRC(), ib.ErrBadICRC)
	require.Equal(t, cut[len(cut)-len(f.Raw):], f.Raw)
	require.True(t, bytes.HasPrefix(whole.Packet.Payload, f.Packet.Payload), "payload %x not a prefix of %x",
		f.Packet.Payload, whole.Packet.Payload)
	w := *whole
	w.Raw, w.Truncated, w.Packet.Payload = f.Raw, true, f.Packet.Payload
	w.Packet.BTH.Pad, w.Packet.BTH.ICRC, w.Packet.BTH.Truncated = nil, [4]byte{}, true
	// An extended header the capture did not keep whole has each field
	// as in the whole frame or zero (ib's tests check which).
	hs := f.Packet.Headers()
	for i := range hs.Len() {
		h := hs.At(i)
		if f.Packet.Captured(h) == h.Len() {
			continue
		}
		wv := reflect.ValueOf(&w.Packet).Elem().FieldByName(h.String())
		fv := reflect.ValueOf(&f.Packet).Elem().FieldByName(h.String())
		for k := range wv.NumField() {
			if wv.Type().Field(k).IsExported() && !wv.Field(k).Equal(fv.Field(k)) && !fv.Field(k).IsZero() {
				t.Fatalf("cut at %d: %v.%s %v, whole %v", len(cut), h, wv.Type().Field(k).Name, fv.Field(k), wv.Field(k))
			}
		}
		wv.Set(fv)
	}
	if d := cmp.Diff(w, *f, cmpopts.IgnoreUnexported(roce.Frame{}, ib.Packet{}, ib.BTH{}, ib.GRH{}, ib.RDETH{}, ib.DETH{}, ib.XRCETH{}, ib.RETH{},
		ib.AtomicETH{}, ib.AtomicAckETH{}, ib.AETH{}, ib.ImmDt{}, ib.IETH{}, ib.FETH{}),
		cmpopts.IgnoreTypes(layers.BaseLayer{}), cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("cut at %d differs from the whole frame (-whole +cut):\n%s", len(cut), d)
	}
}

func TestMalformed(t *testing.T) {
	mutate := func(name string, f func(b []byte) []byte) []byte { return f(vec(t, name)) }
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"UDP length beyond IP", mutate("v2ipv4", func(b []byte) []byte { b[38], b[39] = 0x01, 0x00; return b }), ib.ErrBadLength},
		{"UDP length beyond IP cut by the capture", mutate("v2ipv4", func(b []byte) []byte { b[16], b[17] = 0x05, 0xdc; b[38], b[39] = 0x05, 0xe0; return b[:60] }), ib.ErrBadLength},
		{"IP total length beyond frame, headers cut", mutate("v2ipv4", func(b []byte) []byte { b[16], b[17] = 0x05, 0xdc; return b[:40] }), ib.ErrTruncated},
		{"GRH PayLen beyond frame, BTH cut", mutate("v1", func(b []byte) []byte { b[18], b[19] = 0x01, 0x00; return b[:60] }), ib.ErrTruncated},
		{"ACK cut with a payload declared", mutate("ack", func(b []byte) []byte {
			b[17], b[39] = 0x34, 0x20 // IP and UDP four bytes longer: a payload an ACK cannot have
			return b[:len(b)-4]
		}), ib.ErrBadLength},
		{"GRH version", mutate("v1", func(b []byte) []byte { b[14] = 0x40; return b }), ib.ErrBadVersion},
		{"pad count larger than payload", mutate("ack", func(b []byte) []byte { b[43] = 0x30; return b }), ib.ErrBadPad},
		{"IPv4 options", mutate("v2ipv4", func(b []byte) []byte {
			// Insert four NOP options: IHL 6, Total Length 64.
			b = append(b[:34:34], append([]byte{1, 1, 1, 1}, b[34:]...)...)
			b[14], b[17] = 0x46, 0x40
			return b
		}), ib.ErrUnsupported},
		{"not UDP", mutate("v2ipv4", func(b []byte) []byte { b[23] = 6; return b }), ib.ErrNotRoCE},
		{"other Ethertype", mutate("v2ipv4", func(b []byte) []byte { b[12], b[13] = 0x08, 0x06; return b }), ib.ErrNotRoCE},
	} {
		var f roce.Frame
		if err := f.Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// A datagram sent from port 4791 to another port is not RoCE, on every
// path, although gopacket's UDP would route it by its source port.
func TestSourcePort4791IsNotRoCE(t *testing.T) {
	b := vec(t, "v2ipv4")
	b[34], b[35], b[36], b[37] = 0x12, 0xb7, 0x30, 0x39 // 4791 -> 12345
	var f roce.Frame
	if err := f.Decode(b); !errors.Is(err, ib.ErrNotRoCE) {
		t.Fatalf("Frame.Decode: %v", err)
	}
	p := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
	if p.Layer(googlelayers.LayerTypeBTH) != nil || p.Layer(gopacket.LayerTypePayload) == nil {
		t.Fatalf("NewPacket decoded RoCE:\n%v", p)
	}
	var l googlelayers.Layers
	var decoded []gopacket.LayerType
	_ = l.Parser().DecodeLayers(b, &decoded)
	for _, lt := range decoded {
		if lt == googlelayers.LayerTypeBTH {
			t.Fatalf("parser decoded RoCE: %v", decoded)
		}
	}
}

func TestConvertV1V2(t *testing.T) {
	for _, name := range []string{"v2ipv4", "v2ipv6", "ack", "cnp"} {
		v2 := vec(t, name)
		v1, err := rocev2.ToRoCEv1(nil, v2)
		if err != nil {
			t.Fatal(err)
		}
		if err := roce.VerifyFrame(v1); err != nil {
			t.Fatalf("%s -> v1: %v", name, err)
		}
		back, err := rocev2.FromRoCEv1(nil, v1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := roce.VerifyFrame(back); err != nil {
			t.Fatalf("%s -> v1 -> v2: %v", name, err)
		}
		var a, b roce.Frame
		if err := a.Decode(v2); err != nil {
			t.Fatal(err)
		}
		if err := b.Decode(back); err != nil {
			t.Fatal(err)
		}
		// Same transport packet, same GIDs, traffic class, hop limit; the
		// ICRC differs only where the network header does.
		if !bytes.Equal(a.Raw[len(a.Raw)-len(a.Packet.Payload)-4-len(a.Packet.BTH.Pad):len(a.Raw)-4], b.Raw[len(b.Raw)-len(b.Packet.Payload)-4-len(b.Packet.BTH.Pad):len(b.Raw)-4]) {
			t.Fatalf("%s: payload changed", name)
		}
		if a.GRH.SGID != b.GRH.SGID || a.GRH.DGID != b.GRH.DGID || a.GRH.TClass != b.GRH.TClass || a.GRH.HopLmt != b.GRH.HopLmt || a.Encap != b.Encap {
			t.Fatalf("%s: network fields changed: %+v vs %+v", name, a.GRH, b.GRH)
		}
		if a.Packet.BTH.DestQP != b.Packet.BTH.DestQP || a.Packet.BTH.PSN != b.Packet.BTH.PSN {
			t.Fatalf("%s: BTH changed", name)
		}
	}
	// RoCEv1 with link-local GIDs becomes RoCEv2 over IPv6 and back, exactly.
	v1 := vec(t, "v1")
	v2, err := rocev2.FromRoCEv1(nil, v1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var f roce.Frame
	if err := f.Decode(v2); err != nil || f.Encap != ib.RoCEv2IPv6 || f.VerifyICRC() != nil || f.SrcPort != rocev2.FlowLabelToUDPSrcPort(0) {
		t.Fatalf("v1 -> v2: %v %v %v", err, f.Encap, f.VerifyICRC())
	}
	again, err := rocev2.ToRoCEv1(nil, v2)
	if err != nil || !bytes.Equal(again, v1) {
		t.Fatalf("v1 -> v2 -> v1 differs: %v\n%x\n%x", err, again, v1)
	}
}

// TestFlowLabel takes its expectations from outside the code under test:
// values worked by hand from the definition of rdma-core's
// ibv_flow_label_to_udp_sport and Linux's rdma_flow_label_to_udp_sport
// (docs/wire-format.md, section 5: the low 14 bits of the label XOR its
// high 6 bits, ORed with 0xC000), and a second computation written bit by
// bit from that definition, over every 20-bit label.
func TestFlowLabel(t *testing.T) {
	for _, c := range []struct {
		fl   uint32
		port uint16
		how  string
	}{
		{0, 0xc000, "nothing to fold"},
		{0x02ca, 0xc2ca, "high 6 bits zero: the label itself"},
		{0x4000, 0xc001, "bit 14 folds onto bit 0"},
		{0x12345, 0xe341, "0x2345 ^ 0x04"},
		{0xabcde, 0xfcf4, "0x3cde ^ 0x2a"},
		{0xfffff, 0xffc0, "0x3fff ^ 0x3f"},
		{0x1fffff, 0xffc0, "bits above 20 ignored"},
	} {
		assert.Equal(t, c.port, rocev2.FlowLabelToUDPSrcPort(c.fl), "label %#x: %s", c.fl, c.how)
	}
	// Bit by bit: port bit i (i < 14) is label bit i XOR label bit 14+i
	// (which exists for i < 6); port bits 14 and 15 are set.
	slow := func(fl uint32) uint16 {
		port := uint16(1<<15 | 1<<14)
		for i := 0; i < 14; i++ {
			bit := fl >> i & 1
			if i < 6 {
				bit ^= fl >> (14 + i) & 1
			}
			port |= uint16(bit) << i
		}
		return port
	}
	for fl := uint32(0); fl < 1<<20; fl++ {
		if got, want := rocev2.FlowLabelToUDPSrcPort(fl), slow(fl); got != want {
			t.Fatalf("FlowLabelToUDPSrcPort(%#x) = %#x, the definition gives %#x", fl, got, want)
		}
	}
	// rdma_calc_flow_label: symmetric and folded to 20 bits. The product
	// 0x123456 * 0x654321 = 0x7336bf94116 and its folds (v ^= v>>20,
	// v ^= v>>40, low 20 bits) were worked outside Go: 0xa77ae.
	assert.Equal(t, rocev2.CalcFlowLabel(0x11, 0x2a), rocev2.CalcFlowLabel(0x2a, 0x11), "not symmetric")
	assert.Equal(t, uint32(0xa77ae), rocev2.CalcFlowLabel(0x123456, 0x654321))
	assert.Equal(t, uint32(0x2ca), rocev2.CalcFlowLabel(0x11, 0x2a), "0x11 * 0x2a = 0x2ca, nothing to fold")
}

// validFrame is a RoCEv2/IPv4 RDMA WRITE that AppendTo accepts, for the
// refusal tests to break one field of.
func validFrame() roce.Frame {
	f := benchWrite()
	f.Packet.Payload = f.Packet.Payload[:64]
	f.Packet.RETH.DMALen = 64
	f.NumVLANs = 1
	f.VLANs[0] = roce.VLAN{PCP: 3, ID: 100}
	return f
}

// TestAppendToRefuses breaks one field at a time: AppendTo refuses, says
// which field and which value, writes nothing, and leaves f as it was.
func TestAppendToRefuses(t *testing.T) {
	linkLocal := [16]byte{0xfe, 0x80, 15: 1}
	for _, tc := range []struct {
		name  string
		set   func(f *roce.Frame)
		field string
		want  string
		is    error
	}{
		{"PCP 9", func(f *roce.Frame) { f.VLANs[0].PCP = 9 }, "VLANs[0].PCP",
			"roce: VLANs[0].PCP 0x9 does not fit 3 bits", ib.ErrBadValue},
		{"VID 5000", func(f *roce.Frame) { f.VLANs[0].ID = 5000 }, "VLANs[0].ID",
			"roce: VLANs[0].ID 0x1388 does not fit 12 bits", ib.ErrBadValue},
		{"second tag VID", func(f *roce.Frame) { f.NumVLANs = 2; f.VLANs[1].ID = 0x1000 }, "VLANs[1].ID",
			"roce: VLANs[1].ID 0x1000 does not fit 12 bits", ib.ErrBadValue},
		{"TPID", func(f *roce.Frame) { f.VLANs[0].TPID = 0x0800 }, "VLANs[0].TPID",
			"roce: VLANs[0].TPID 0x800 is not 0x8100 (802.1Q), 0x88a8 (802.1ad) or 0x9100", ib.ErrBadValue},
		{"nine tags", func(f *roce.Frame) { f.NumVLANs = 9 }, "NumVLANs",
			"roce: NumVLANs 0x9 is not between 0 and 8", ib.ErrBadValue},
		{"encapsulation", func(f *roce.Frame) { f.Encap = 0 }, "Encap",
			"roce: Encap 0x0 is not RoCEv1, RoCEv2/IPv4 or RoCEv2/IPv6", ib.ErrBadValue},
		{"SGID", func(f *roce.Frame) { f.GRH.SGID = linkLocal }, "GRH.SGID",
			"roce: GRH.SGID fe80::1 is not IPv4-mapped (RoCEv2/IPv4 needs ::ffff:a.b.c.d)", ib.ErrBadValue},
		{"DGID", func(f *roce.Frame) { f.GRH.DGID = [16]byte{15: 1} }, "GRH.DGID",
			"roce: GRH.DGID ::1 is not IPv4-mapped (RoCEv2/IPv4 needs ::ffff:a.b.c.d)", ib.ErrBadValue},
		{"flow label", func(f *roce.Frame) { f.GRH.FlowLabel = 1 << 20 }, "GRH.FlowLabel",
			"roce: GRH.FlowLabel 0x100000 does not fit 20 bits", ib.ErrBadValue},
		{"fragment", func(f *roce.Frame) { f.IPv4Flags = 0x2000 }, "IPv4Flags",
			"roce: IPv4Flags 0x2000 makes a fragment (MF or a fragment offset set), which is not RoCEv2", ib.ErrBadValue},
		{"fragment offset", func(f *roce.Frame) { f.IPv4Flags = 0x4001 }, "IPv4Flags", "", ib.ErrBadValue},
		{"port", func(f *roce.Frame) { f.DstPort = 4790 }, "DstPort",
			"roce: DstPort 0x12b6 is not 4791 (0x12b7), the RoCEv2 port (0 writes it)", ib.ErrBadValue},
		{"IPv4 length", func(f *roce.Frame) {
			f.Packet.Payload = make([]byte, 0xffff-28-12-16-4+1)
		}, "Packet length", "roce: Packet length 0xffe4 does not fit the 16-bit length fields of RoCEv2/IPv4 (at most 65507 bytes, BTH through ICRC)", ib.ErrBadLength},
		{"IPv6 length", func(f *roce.Frame) {
			f.Encap = ib.RoCEv2IPv6
			f.Packet.Payload = make([]byte, 0xffff-8-12-16-4+1)
		}, "Packet length", "", ib.ErrBadLength},
		{"RoCEv1 length", func(f *roce.Frame) {
			f.Encap = ib.RoCEv1
			f.Packet.Payload = make([]byte, 0xffff-12-16-4+1)
		}, "Packet length", "", ib.ErrBadLength},
		{"DestQP", func(f *roce.Frame) { f.Packet.BTH.DestQP = 0x1000000 }, "BTH.DestQP", "", ib.ErrBadValue},
		{"PSN", func(f *roce.Frame) { f.Packet.BTH.PSN = 0x1000001 }, "BTH.PSN", "", ib.ErrBadValue},
		{"ACK with payload", func(f *roce.Frame) { f.Packet.BTH.OpCode = ib.OpRCAcknowledge }, "", "", ib.ErrBadLength},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := validFrame()
			_, err := f.AppendTo(nil)
			require.NoError(t, err, "the valid frame")
			tc.set(&f)
			before := f
			dst := []byte("keep")
			out, err := f.AppendTo(dst)
			require.ErrorIs(t, err, tc.is)
			assert.Equal(t, "keep", string(out), "dst changed")
			assert.Equal(t, before, f, "f changed")
			var fe *ib.FieldError
			require.ErrorAs(t, err, &fe)
			if tc.field != "" {
				assert.Equal(t, tc.field, fe.Field)
			}
			assert.Contains(t, err.Error(), fe.Field)
			assert.Equal(t, 1, strings.Count(err.Error(), "roce: "), err.Error())
			if tc.want != "" {
				assert.Equal(t, tc.want, err.Error())
			}
			assert.ErrorIs(t, f.Validate(), tc.is, "Validate agrees")
		})
	}
	// Fields an encapsulation has no room for are not refused: gen and
	// others reuse one Frame across encapsulations.
	f := validFrame()
	f.Encap, f.GRH.SGID, f.GRH.DGID = ib.RoCEv1, linkLocal, linkLocal
	f.IPv4Flags, f.DstPort = 0x2000, 1
	_, err := f.AppendTo(nil)
	assert.NoError(t, err, "RoCEv1 ignores the IPv4 and UDP fields")
}

// TestAppendToProperty builds random frames, valid and not: random fields
// with out-of-range values now and then, random opcodes and payloads, 0-2
// VLAN tags, every encapsulation. Whenever AppendTo accepts, Decode gives
// back what it was given and the ICRC verifies; when it refuses, the error
// is a FieldError wrapping ErrBadValue or ErrBadLength whose message names
// the field, and every frame-level field made invalid is refused.
func TestAppendToProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	opts := cmp.Options{
		cmpopts.IgnoreTypes(layers.BaseLayer{}),
		cmpopts.IgnoreUnexported(roce.Frame{}, ib.Packet{}, ib.BTH{}, ib.RDETH{}, ib.DETH{}, ib.XRCETH{}, ib.RETH{}, ib.AtomicETH{},
			ib.AtomicAckETH{}, ib.AETH{}, ib.ImmDt{}, ib.IETH{}, ib.FETH{}),
		cmpopts.IgnoreFields(roce.Frame{}, "Raw", "WireLen"),
		cmpopts.IgnoreFields(ib.BTH{}, "Pad", "ICRC"),
		cmpopts.EquateEmpty(),
	}
	accepted, refused := map[ib.Encapsulation]int{}, map[string]int{}
	var buf []byte
	for i := range 10000 {
		f, bad := propertyFrame(r)
		in := f
		out, err := f.AppendTo(buf[:0])
		if err != nil {
			require.Truef(t, errors.Is(err, ib.ErrBadValue) || errors.Is(err, ib.ErrBadLength), "frame %d: %v", i, err)
			var fe *ib.FieldError
			require.ErrorAs(t, err, &fe, "frame %d", i)
			require.NotEmpty(t, fe.Field)
			require.Contains(t, err.Error(), fe.Field)
			if frameField(fe.Field) {
				require.Containsf(t, bad, fe.Field, "frame %d refused for a field it did not break: %v", i, err)
			}
			require.Equal(t, in, f, "a refusal changed f")
			refused[fe.Field]++
			continue
		}
		require.Emptyf(t, bad, "frame %d accepted with %v broken: %+v", i, bad, in)
		buf = out
		var got roce.Frame
		require.NoError(t, got.Decode(out), "frame %d: %+v", i, f)
		require.NoError(t, got.VerifyICRC(), "frame %d", i)
		want := normalized(f)
		if d := cmp.Diff(want, got, opts); d != "" {
			t.Fatalf("frame %d: Decode differs from what AppendTo was given (-given +decoded):\n%s", i, d)
		}
		accepted[f.Encap]++
	}
	t.Logf("accepted %v; refused by field %v", accepted, refused)
	for e := ib.RoCEv1; e <= ib.RoCEv2IPv6; e++ {
		assert.Greater(t, accepted[e], 1000, "too few %v frames accepted to mean much", e)
	}
	assert.Greater(t, len(refused), 10, "too few kinds of refusal")
}

// frameField reports whether a FieldError names a field Frame.Validate
// checks itself, rather than one of ib.Packet.Validate.
func frameField(name string) bool {
	switch name {
	case "NumVLANs", "Encap", "GRH.FlowLabel", "GRH.SGID", "GRH.DGID", "IPv4Flags", "DstPort":
		return true
	}
	return strings.HasPrefix(name, "VLANs[")
}

// normalized returns what Decode gives back for a frame AppendTo has
// accepted (and filled in): fields the encapsulation has no room for are
// zero, TPID 0 is 0x8100, unused tags are zero, headers the opcode does
// not list are zero.
func normalized(f roce.Frame) roce.Frame {
	for i := range f.VLANs {
		if i >= f.NumVLANs {
			f.VLANs[i] = roce.VLAN{}
		} else if f.VLANs[i].TPID == 0 {
			f.VLANs[i].TPID = 0x8100
		}
	}
	if f.Encap != ib.RoCEv2IPv4 {
		f.IPv4ID, f.IPv4Flags, f.IPv4Checksum = 0, 0, 0
	} else {
		f.GRH.FlowLabel = 0
	}
	if f.Encap == ib.RoCEv1 {
		f.SrcPort, f.DstPort, f.UDPChecksum = 0, 0, false
	}
	p, hs := &f.Packet, f.Packet.Headers()
	if !hs.Has(ib.HeaderRDETH) {
		p.RDETH = ib.RDETH{}
	}
	if !hs.Has(ib.HeaderDETH) {
		p.DETH = ib.DETH{}
	}
	if !hs.Has(ib.HeaderXRCETH) {
		p.XRCETH = ib.XRCETH{}
	}
	if !hs.Has(ib.HeaderRETH) {
		p.RETH = ib.RETH{}
	}
	if !hs.Has(ib.HeaderAtomicETH) {
		p.AtomicETH = ib.AtomicETH{}
	}
	if !hs.Has(ib.HeaderAtomicAckETH) {
		p.AtomicAckETH = ib.AtomicAckETH{}
	}
	if !hs.Has(ib.HeaderAETH) {
		p.AETH = ib.AETH{}
	}
	if !hs.Has(ib.HeaderImmDt) {
		p.ImmDt = ib.ImmDt{}
	}
	if !hs.Has(ib.HeaderIETH) {
		p.IETH = ib.IETH{}
	}
	if !hs.Has(ib.HeaderFETH) {
		p.FETH = ib.FETH{}
	}
	return f
}

// propertyFrame returns a random frame and the names of the frame-level
// fields it made invalid (Packet fields may be invalid too, unnamed).
func propertyFrame(r *rand.Rand) (f roce.Frame, bad []string) {
	rare := func() bool { return r.IntN(25) == 0 }
	f.Dst, f.Src = [6]byte{2, 0, 0, 0, 0, byte(r.IntN(256))}, [6]byte{2, 0, 0, 0, 1, byte(r.IntN(256))}
	f.NumVLANs = []int{0, 0, 1, 1, 2, 3, roce.MaxVLANs}[r.IntN(7)]
	if rare() {
		f.NumVLANs = []int{-1, roce.MaxVLANs + 1, 100}[r.IntN(3)]
		bad = append(bad, "NumVLANs")
	}
	for i := range min(max(f.NumVLANs, 0), roce.MaxVLANs) {
		v := &f.VLANs[i]
		v.TPID = []uint16{0, 0x8100, 0x88a8, 0x9100}[r.IntN(4)]
		v.PCP, v.DEI, v.ID = uint8(r.IntN(8)), r.IntN(2) == 0, uint16(r.IntN(4096))
		name := "VLANs[" + strconv.Itoa(i) + "]."
		if rare() {
			v.TPID = uint16(r.IntN(0x10000))
			if v.TPID != 0 && v.TPID != 0x8100 && v.TPID != 0x88a8 && v.TPID != 0x9100 {
				bad = append(bad, name+"TPID")
			}
		}
		if rare() {
			v.PCP = uint8(8 + r.IntN(248))
			bad = append(bad, name+"PCP")
		}
		if rare() {
			v.ID = uint16(4096 + r.IntN(0x10000-4096))
			bad = append(bad, name+"ID")
		}
	}
	f.Encap = ib.Encapsulation(1 + r.IntN(3))
	if rare() {
		f.Encap = ib.Encapsulation([]int{0, 4, 255}[r.IntN(3)])
		bad = append(bad, "Encap")
	}
	g := &f.GRH
	g.TClass, g.HopLmt, g.FlowLabel = uint8(r.IntN(256)), uint8(r.IntN(256)), uint32(r.IntN(1<<20))
	if rare() {
		g.FlowLabel |= 1 << (20 + r.IntN(12))
		bad = append(bad, "GRH.FlowLabel")
	}
	for _, gid := range []*[16]byte{&g.SGID, &g.DGID} {
		if f.Encap == ib.RoCEv2IPv4 || r.IntN(4) == 0 {
			*gid = [16]byte{10: 0xff, 11: 0xff, 12: 10, 13: byte(r.IntN(256)), 14: byte(r.IntN(256)), 15: byte(r.IntN(256))}
		} else {
			for i := range gid {
				gid[i] = byte(r.IntN(256))
			}
		}
	}
	if f.Encap == ib.RoCEv2IPv4 && rare() {
		g.SGID[r.IntN(12)] ^= byte(1 + r.IntN(255))
		bad = append(bad, "GRH.SGID")
	}
	if f.Encap == ib.RoCEv2IPv4 && rare() {
		g.DGID[r.IntN(12)] ^= byte(1 + r.IntN(255))
		bad = append(bad, "GRH.DGID")
	}
	f.IPv4ID = uint16(r.IntN(0x10000))
	f.IPv4Flags = []uint16{0, 0x4000, 0x8000, 0xc000}[r.IntN(4)]
	if rare() {
		f.IPv4Flags |= uint16(1 + r.IntN(0x3fff))
		if f.Encap == ib.RoCEv2IPv4 {
			bad = append(bad, "IPv4Flags")
		}
	}
	f.SrcPort = []uint16{0, uint16(r.IntN(0x10000))}[r.IntN(2)]
	f.DstPort = []uint16{0, 4791}[r.IntN(2)]
	if rare() {
		f.DstPort = uint16(1 + r.IntN(4790))
		if f.Encap == ib.RoCEv2IPv4 || f.Encap == ib.RoCEv2IPv6 {
			bad = append(bad, "DstPort")
		}
	}
	f.UDPChecksum = r.IntN(2) == 0
	randomPacket(r, &f.Packet)
	return f, bad
}

// randomPacket fills p with a random opcode, every extended header (the
// ones the opcode does not list are ignored) and a payload; 24-bit and
// narrower fields get a value that does not fit now and then.
func randomPacket(r *rand.Rand, p *ib.Packet) {
	rare := func() bool { return r.IntN(60) == 0 }
	bits := func(n int) uint32 {
		if rare() {
			return uint32(1)<<n | r.Uint32()
		}
		return r.Uint32() & (1<<n - 1)
	}
	p.BTH = ib.BTH{
		OpCode: ib.Opcode(r.IntN(256)), SE: r.IntN(2) == 0, MigReq: r.IntN(2) == 0,
		PKey: uint16(r.Uint32()), FECN: r.IntN(2) == 0, BECN: r.IntN(2) == 0,
		DestQP: bits(24), AckReq: r.IntN(2) == 0, PSN: bits(24),
	}
	if r.IntN(8) == 0 { // reserved fields are kept, byte for byte
		p.BTH.TVer, p.BTH.Resv6a, p.BTH.Resv7 = uint8(bits(4)), uint8(bits(6)), uint8(bits(7))
	}
	if !p.BTH.OpCode.Known() {
		p.BTH.PadCnt = uint8(bits(2))
	}
	p.RDETH = ib.RDETH{Resv8: uint8(r.Uint32()), EECnxt: bits(24)}
	p.DETH = ib.DETH{QKey: r.Uint32(), Resv8: uint8(r.Uint32()), SrcQP: bits(24)}
	p.XRCETH = ib.XRCETH{Resv8: uint8(r.Uint32()), XRCSRQ: bits(24)}
	p.RETH = ib.RETH{VA: r.Uint64(), RKey: r.Uint32(), DMALen: r.Uint32()}
	p.AtomicETH = ib.AtomicETH{VA: r.Uint64(), RKey: r.Uint32(), SwapData: r.Uint64(), CompareData: r.Uint64()}
	p.AtomicAckETH = ib.AtomicAckETH{OrigRemData: r.Uint64()}
	p.AETH = ib.AETH{Syndrome: uint8(r.Uint32()), MSN: bits(24)}
	p.ImmDt = ib.ImmDt{Data: r.Uint32()}
	p.IETH = ib.IETH{RKey: r.Uint32()}
	p.FETH = ib.FETH{Resv: bits(26), SEL: uint8(bits(2)), PLT: uint8(bits(4))}
	n := []int{0, 0, 8, r.IntN(64), r.IntN(300)}[r.IntN(5)]
	if r.IntN(400) == 0 {
		n = 0xffe0 + r.IntN(32) // about where the 16-bit length fields overflow
	}
	p.Payload = make([]byte, n)
	for i := range p.Payload {
		p.Payload[i] = byte(r.Uint32())
	}
}
