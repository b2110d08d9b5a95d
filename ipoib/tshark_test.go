package ipoib_test

import (
	"net/netip"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/roce-go/roce/ipoib"
)

// TestTsharkLinkType242 writes a capture of link type 242 (the IPoIB
// bodies of the golden packets behind link headers of varied fields, in
// both forms: received, with a GRH, and sent, with the destination) and
// compares every field tshark 4.0 shows for the link header, the IPoIB
// header, ARP and IP with our decoding of the same bytes.
func TestTsharkLinkType242(t *testing.T) {
	bodies := [][]byte{ibBody(t, goldenUDARP), ibBody(t, goldenUDARPReply), ibBody(t, goldenRCIPv4), ibBody(t, goldenUDIPv6)}
	var frames [][]byte
	for i, body := range bodies {
		lh := ipoib.LinkHeader{IPVer: 6, TClass: uint8(0x11 * i), FlowLabel: uint32(0x12345 * i & 0xfffff),
			SrcQP: uint32(0x405 + 0x10101*i), SGID: [16]byte{0xfe, 0x80, 15: byte(i)}, DGID: [16]byte{0xff, 0x12, 0x40, 0x1b, 15: byte(i)}}
		if i%2 == 1 { // a sent packet: the destination's address
			a, err := ipoib.MakeHWAddr(ipoib.FlagConnected, uint32(0x404+i), [16]byte{0xfe, 0x80, 8: 2, 15: byte(i)})
			require.NoError(t, err)
			lh.SetDstAddr(a)
		}
		fr, err := lh.AppendTo(nil)
		require.NoError(t, err)
		frames = append(frames, append(fr, body...))
	}
	frames = append(frames, goldenLinkReceived, goldenLinkSent)
	path := oracle.WritePcapLinkType(t, t.TempDir(), "ipoib242.pcap", ipoib.LinkType, frames)
	got := oracle.Tshark(t, path)
	require.Len(t, got, len(frames))
	compared := 0
	for i, fr := range frames {
		lh, h := &ipoib.LinkHeader{}, &ipoib.Header{}
		require.NoError(t, lh.Decode(fr), "frame %d", i)
		require.NoError(t, h.Decode(fr[ipoib.LinkHeaderLen:]), "frame %d", i)
		want := map[string]string{
			"ipoib.grh.ipver":     strconv.Itoa(int(lh.IPVer)),
			"ipoib.grh.tclass":    strconv.Itoa(int(lh.TClass)),
			"ipoib.grh.flowlabel": strconv.Itoa(int(lh.FlowLabel)),
			"ipoib.grh.sqpn":      strconv.Itoa(int(lh.SrcQP)),
			"ipoib.grh.sgid":      lh.SrcGID().String(),
			"ipoib.dgid":          lh.DstGID().String(),
			"ipoib.type":          strconv.Itoa(int(h.Type)),
			"ipoib.reserved":      strconv.Itoa(int(h.Reserved)),
		}
		if lh.Sent() {
			for _, k := range []string{"ipoib.grh.ipver", "ipoib.grh.tclass", "ipoib.grh.flowlabel", "ipoib.grh.sqpn", "ipoib.grh.sgid"} {
				delete(want, k)
				_, shown := got[i].First(k)
				assert.False(t, shown, "frame %d: tshark shows %s of a sent packet", i, k)
			}
			want["ipoib.daddr.qpn"] = strconv.Itoa(int(lh.DstAddr().QPN()))
			want["ipoib.dgid"] = lh.DstAddr().GID().String()
		}
		addInner(t, want, h, fr[ipoib.LinkHeaderLen+ipoib.HeaderLen:])
		compared += compareFields(t, i, got[i], want)
	}
	t.Logf("%d fields compared with tshark over %d link type 242 frames", compared, len(frames))
}

// addInner adds what tshark shows of the packet the IPoIB header carries:
// ARP's fields, or IP's addresses; payload is that packet.
func addInner(t *testing.T, want map[string]string, h *ipoib.Header, payload []byte) {
	switch h.Type {
	case ipoib.TypeARP:
		var a ipoib.ARP
		require.NoError(t, a.Decode(payload))
		sip, _ := a.SenderAddr()
		tip, _ := a.TargetAddr()
		want["arp.hw.type"] = strconv.Itoa(int(a.HWType))
		want["arp.proto.type"] = strconv.Itoa(int(a.Proto))
		want["arp.hw.size"] = strconv.Itoa(int(a.HWLen))
		want["arp.proto.size"] = strconv.Itoa(int(a.ProtoLen))
		want["arp.opcode"] = strconv.Itoa(int(a.Op))
		want["arp.src.hw"] = oracle.Hex(a.SenderHW)
		want["arp.dst.hw"] = oracle.Hex(a.TargetHW)
		want["arp.src.proto_ipv4"] = sip.String()
		want["arp.dst.proto_ipv4"] = tip.String()
	case ipoib.TypeIPv4:
		want["ip.src"] = netip.AddrFrom4([4]byte(payload[12:16])).String()
		want["ip.dst"] = netip.AddrFrom4([4]byte(payload[16:20])).String()
	case ipoib.TypeIPv6:
		want["ipv6.src"] = netip.AddrFrom16([16]byte(payload[8:24])).String()
		want["ipv6.dst"] = netip.AddrFrom16([16]byte(payload[24:40])).String()
	}
}

// compareFields compares each wanted field with tshark's first value and
// returns how many it compared.
func compareFields(t *testing.T, frame int, got oracle.Fields, want map[string]string) int {
	t.Helper()
	for k, v := range want {
		have, ok := got.First(k)
		if !assert.True(t, ok, "frame %d: tshark shows no %s", frame, k) {
			continue
		}
		_, err := strconv.ParseUint(v, 10, 64)
		assert.True(t, oracle.SameValue(have, v, err == nil), "frame %d %s: tshark %s, we %s", frame, k, have, v)
	}
	return len(want)
}

// TestTsharkNativeIPoIB compares, over every frame of the ERF capture,
// which payloads tshark 4.0 takes for Ethertype-encapsulated (IPoIB) and
// with which Type, with our rule (Match, on the transport packet
// ib.Packet decodes after the LRH and any GRH), and the fields of what
// they carry. googlelayers' tests check gopacket.NewPacket finds the
// same IPoIB packets.
func TestTsharkNativeIPoIB(t *testing.T) {
	got := oracle.Tshark(t, corpus.Path("captures", "ib_native_erf_dag_smp_ipoib_cm.pcap"))
	pkts := erfPackets(t)
	require.Len(t, got, len(pkts))
	n, matched, compared := 0, 0, 0
	for _, pkt := range pkts {
		_, tsharkIPoIB := got[n].First("infiniband.rwh.etype")
		n++
		var p ib.Packet
		off := ib.LRHLen
		if pkt[1]&3 == ib.LNHIBAGlobal {
			off += ib.GRHLen
		}
		isIPoIB := pkt[1]&3 >= ib.LNHIBALocal && p.Decode(pkt[off:len(pkt)-2]) == nil && // the VCRC after the ICRC
			ipoib.Match(p.BTH.OpCode, p.BTH.DestQP, p.Payload)
		if !assert.Equal(t, tsharkIPoIB, isIPoIB, "frame %d: tshark IPoIB %v", n, tsharkIPoIB) || !isIPoIB {
			continue
		}
		h := &ipoib.Header{}
		require.NoError(t, h.Decode(p.Payload))
		matched++
		want := map[string]string{"infiniband.rwh.etype": strconv.Itoa(int(h.Type)), "infiniband.reserved": oracle.Hex(p.Payload[2:4])}
		addInner(t, want, h, p.Payload[ipoib.HeaderLen:])
		// infiniband.reserved repeats for the BTH's reserved bytes; the
		// IPoIB header's is the last.
		r := got[n-1]["infiniband.reserved"]
		got[n-1]["infiniband.reserved"] = r[len(r)-1:]
		compared += compareFields(t, n, got[n-1], want)
	}
	assert.Equal(t, 17, matched, "IPoIB frames: ARP, IPv4 (UDP, ICMP), IPv6")
	t.Logf("%d fields compared with tshark over %d IPoIB frames of %d", compared, matched, n)
}
