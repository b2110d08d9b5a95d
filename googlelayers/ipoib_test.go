package googlelayers_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/ipoib"
	_ "github.com/roce-go/roce/rocev1" // Ethertype 0x8915
)

// erfPackets returns the native InfiniBand packets of the ERF capture
// (frame numbers as tshark counts them, from 1): each record without its
// 16-byte ERF header, up to the wire length.
func erfPackets(t testing.TB) [][]byte {
	var out [][]byte
	for _, rec := range corpus.Capture(t, "ib_native_erf_dag_smp_ipoib_cm.pcap") {
		wlen := int(rec[14])<<8 | int(rec[15])
		out = append(out, rec[16:16+wlen])
	}
	return out
}

// ibBody returns what follows the transport headers of a SEND Only
// packet: LRH, GRH when LNH is 3, BTH, DETH for UD, up to the ICRC and
// VCRC.
func ibBody(pkt []byte) []byte {
	off := 8
	if pkt[1]&3 == 3 {
		off += 40
	}
	op := pkt[off]
	off += 12
	if op >= 0x60 {
		off += 8
	}
	return pkt[off : len(pkt)-6]
}

func layerNames(p gopacket.Packet) string {
	var names []string
	for _, l := range p.Layers() {
		names = append(names, l.LayerType().String())
	}
	return strings.Join(names, " ")
}

// TestIPoIB decodes IPoIB packets of the ERF capture (frames 5, 6, 10
// and 26, which package ipoib's golden packets are) with
// gopacket.NewPacket from the LRH: the IPoIB header hands the packet to
// gopacket's own layers.
func TestIPoIB(t *testing.T) {
	pkts := erfPackets(t)
	for _, tc := range []struct {
		frame  int
		layers string
		typ    uint16
	}{
		{5, "LRH GRH BTH DETH IPoIB ARP", ipoib.TypeARP},
		{6, "LRH BTH DETH IPoIB ARP", ipoib.TypeARP},
		{10, "LRH BTH IPoIB IPv4 ICMPv4 Payload", ipoib.TypeIPv4},
		{26, "LRH GRH BTH DETH IPoIB IPv6 ICMPv6 ICMPv6NeighborSolicitation", ipoib.TypeIPv6},
	} {
		t.Run(fmt.Sprint("frame ", tc.frame), func(t *testing.T) {
			pkt := pkts[tc.frame-1]
			p := gopacket.NewPacket(pkt, googlelayers.LayerTypeLRH, gopacket.Default)
			require.Nil(t, p.ErrorLayer())
			assert.Equal(t, tc.layers, layerNames(p))
			h := p.Layer(googlelayers.LayerTypeIPoIB).(*googlelayers.IPoIB)
			assert.Equal(t, tc.typ, h.Type)
			assert.Zero(t, h.Reserved)
			body := ibBody(pkt)
			assert.Equal(t, body[:ipoib.HeaderLen], h.Contents)
			assert.Equal(t, body[ipoib.HeaderLen:], h.Payload)
			sb := gopacket.NewSerializeBuffer()
			require.NoError(t, gopacket.SerializeLayers(sb, gopacket.SerializeOptions{}, h, gopacket.Payload(h.Payload)))
			assert.Equal(t, body, sb.Bytes())
		})
	}
	p := gopacket.NewPacket(pkts[4], googlelayers.LayerTypeLRH, gopacket.Default)
	a := p.Layer(layers.LayerTypeARP).(*layers.ARP)
	assert.Equal(t, 20, int(a.HwAddressSize))
	assert.Equal(t, []byte{10, 0, 0, 58}, a.DstProtAddress)
}

// TestIPoIBSameAsMatch checks, over every frame of the ERF capture, that
// gopacket.NewPacket decodes IPoIB exactly where ipoib.Match, on the
// transport packet ib.Packet decodes, takes the payload for IPoIB (17
// frames, which package ipoib's tests compare with tshark).
func TestIPoIBSameAsMatch(t *testing.T) {
	n := 0
	for i, pkt := range erfPackets(t) {
		var ip ib.Packet
		off := ib.LRHLen
		if pkt[1]&3 == ib.LNHIBAGlobal {
			off += ib.GRHLen
		}
		want := pkt[1]&3 >= ib.LNHIBALocal && ip.Decode(pkt[off:len(pkt)-2]) == nil &&
			ipoib.Match(ip.BTH.OpCode, ip.BTH.DestQP, ip.Payload)
		p := gopacket.NewPacket(pkt, googlelayers.LayerTypeLRH, gopacket.Default)
		l, got := p.Layer(googlelayers.LayerTypeIPoIB).(*googlelayers.IPoIB)
		require.Equal(t, want, got, "frame %d: %v", i+1, p)
		if got {
			n++
			assert.Equal(t, ip.Payload, append(bytes.Clone(l.Contents), l.Payload...), "frame %d", i+1)
		}
	}
	assert.Equal(t, 17, n)
}

// TestIPoIBRoCE checks that a RoCE payload that looks like IPoIB stays
// data: IPoIB exists on InfiniBand links only.
func TestIPoIBRoCE(t *testing.T) {
	// The GRH, BTH and IPoIB payload of frame 5, preceded by an Ethernet
	// header of Ethertype 0x8915: the same packet as RoCEv1.
	arp := erfPackets(t)[4]
	pkt := arp[8 : len(arp)-2]
	frame := append([]byte{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6, 0x89, 0x15}, pkt...)
	p := gopacket.NewPacket(frame, layers.LayerTypeEthernet, gopacket.Default)
	require.NotNil(t, p.Layer(googlelayers.LayerTypeDETH))
	assert.Nil(t, p.Layer(googlelayers.LayerTypeIPoIB))
	assert.NotNil(t, p.Layer(gopacket.LayerTypePayload))
}

// linkRecords returns link type 242 records in both forms: received (a
// GRH) carrying frame 5's ARP request, sent (the destination's address)
// carrying frame 10's IPv4 packet.
func linkRecords(t testing.TB) (received, sent []byte) {
	pkts := erfPackets(t)
	r := ipoib.LinkHeader{IPVer: 6, SrcQP: 0x405,
		SGID: netip.MustParseAddr("fe80::2:c902:24:f636").As16(), DGID: netip.MustParseAddr("ff12:401b:ffff::ffff:ffff").As16()}
	received, err := r.AppendTo(nil)
	require.NoError(t, err)
	var s ipoib.LinkHeader
	a, err := ipoib.MakeHWAddr(ipoib.FlagConnected, 0xfc0407, netip.MustParseAddr("fe80::2:c902:20:b4dd").As16())
	require.NoError(t, err)
	s.SetDstAddr(a)
	sent, err = s.AppendTo(nil)
	require.NoError(t, err)
	return append(received, ibBody(pkts[4])...), append(sent, ibBody(pkts[9])...)
}

// TestIPoIBLinkHeader decodes link type 242 records with gopacket, which
// this package taught link type 242, and re-encodes their link headers.
func TestIPoIBLinkHeader(t *testing.T) {
	received, sent := linkRecords(t)
	for _, tc := range []struct {
		name   string
		rec    []byte
		layers string
		sent   bool
	}{
		{"received", received, "IPoIBLinkHeader IPoIB ARP", false},
		{"sent", sent, "IPoIBLinkHeader IPoIB IPv4 ICMPv4 Payload", true},
	} {
		p := gopacket.NewPacket(tc.rec, layers.LinkType(ipoib.LinkType), gopacket.Default)
		require.Nil(t, p.ErrorLayer(), tc.name)
		assert.Equal(t, tc.layers, layerNames(p), tc.name)
		lh := p.Layer(googlelayers.LayerTypeIPoIBLinkHeader).(*googlelayers.IPoIBLinkHeader)
		assert.Equal(t, tc.sent, lh.Sent(), tc.name)
		assert.Equal(t, tc.rec[:ipoib.LinkHeaderLen], lh.Contents, tc.name)
		assert.Equal(t, tc.rec[ipoib.LinkHeaderLen:], lh.Payload, tc.name)
		assert.Equal(t, googlelayers.LayerTypeIPoIB, lh.NextLayerType(), tc.name)
		sb := gopacket.NewSerializeBuffer()
		h := p.Layer(googlelayers.LayerTypeIPoIB).(*googlelayers.IPoIB)
		require.NoError(t, gopacket.SerializeLayers(sb, gopacket.SerializeOptions{}, lh, h, gopacket.Payload(h.Payload)))
		assert.Equal(t, tc.rec, sb.Bytes(), tc.name)
	}
	bad := googlelayers.IPoIBLinkHeader{LinkHeader: ipoib.LinkHeader{SrcQP: 1 << 24}}
	assert.ErrorIs(t, bad.SerializeTo(gopacket.NewSerializeBuffer(), gopacket.SerializeOptions{}), ipoib.ErrBadValue)
	var empty googlelayers.IPoIBLinkHeader
	require.NoError(t, empty.DecodeFromBytes(received[:ipoib.LinkHeaderLen], nil))
	assert.Equal(t, gopacket.LayerTypeZero, empty.NextLayerType())
}

// TestIPoIBTruncated: a header cut short tells the feedback and leaves
// the layer empty, and an ARP packet whose sizes run past its bytes
// stops gopacket's decoding with an error rather than a panic in
// layers.ARP.
func TestIPoIBTruncated(t *testing.T) {
	received, _ := linkRecords(t)
	for n := 0; n < ipoib.LinkHeaderLen; n++ {
		var df truncFeedback
		lh := googlelayers.IPoIBLinkHeader{BaseLayer: layers.BaseLayer{Contents: []byte{1}}}
		err := lh.DecodeFromBytes(received[:n], &df)
		assert.ErrorIs(t, err, ipoib.ErrTruncated, "link header cut at %d", n)
		assert.True(t, bool(df) && lh.Contents == nil, "link header cut at %d", n)
		if n < ipoib.HeaderLen {
			var df truncFeedback
			h := googlelayers.IPoIB{BaseLayer: layers.BaseLayer{Payload: []byte{1}}}
			err := h.DecodeFromBytes(received[ipoib.LinkHeaderLen:][:n], &df)
			assert.ErrorIs(t, err, ipoib.ErrTruncated, "header cut at %d", n)
			assert.True(t, bool(df) && h.Payload == nil, "header cut at %d", n)
		}
	}
	// ARP with hardware and protocol sizes of 255: layers.ARP would sum
	// them in a byte.
	rec := append(bytes.Clone(received[:ipoib.LinkHeaderLen+ipoib.HeaderLen]), 0, 32, 8, 0, 255, 255, 0, 1, 0, 0)
	p := gopacket.NewPacket(rec, layers.LinkType(ipoib.LinkType), gopacket.Default)
	require.NotNil(t, p.ErrorLayer())
	assert.ErrorIs(t, p.ErrorLayer().Error(), ipoib.ErrTruncated)
	assert.True(t, p.Metadata().Truncated)
}

// TestIPoIBNoAllocs: the layers decode and serialize without allocating.
func TestIPoIBNoAllocs(t *testing.T) {
	received, _ := linkRecords(t)
	var (
		h  googlelayers.IPoIB
		lh googlelayers.IPoIBLinkHeader
		sb = gopacket.NewSerializeBuffer()
	)
	// SerializeTo writes what the two layers hold: decode them first,
	// whatever order the map gives the rows.
	require.NoError(t, h.DecodeFromBytes(received[ipoib.LinkHeaderLen:], nil))
	require.NoError(t, lh.DecodeFromBytes(received, nil))
	for name, f := range map[string]func() error{
		"IPoIB.DecodeFromBytes": func() error { return h.DecodeFromBytes(received[ipoib.LinkHeaderLen:], nil) },
		"IPoIBLinkHeader.DecodeFromBytes": func() error {
			return lh.DecodeFromBytes(received, gopacket.NilDecodeFeedback)
		},
		"SerializeTo": func() error {
			if err := sb.Clear(); err != nil {
				return err
			}
			if err := h.SerializeTo(sb, gopacket.SerializeOptions{}); err != nil {
				return err
			}
			if err := lh.SerializeTo(sb, gopacket.SerializeOptions{}); err != nil {
				return err
			}
			if !bytes.Equal(sb.Bytes(), received[:ipoib.LinkHeaderLen+ipoib.HeaderLen]) {
				return errors.New("wrong bytes")
			}
			return nil
		},
	} {
		require.NoError(t, f(), name)
		assert.Zero(t, testing.AllocsPerRun(100, func() {
			if err := f(); err != nil {
				t.Fatal(name, err)
			}
		}), name)
	}
}

// Decode a link type 242 record holding an IPoIB ARP request with
// gopacket, which importing googlelayers teaches link type 242.
func ExampleIPoIBLinkHeader() {
	gid := netip.MustParseAddr("fe80::2:c902:24:f636").As16()
	lh := ipoib.LinkHeader{IPVer: 6, SrcQP: 0x405, SGID: gid, DGID: netip.MustParseAddr("ff12:401b:ffff::ffff:ffff").As16()}
	rec, err := lh.AppendTo(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rec, _ = (&ipoib.Header{Type: ipoib.TypeARP}).AppendTo(rec)
	me, _ := ipoib.MakeHWAddr(ipoib.FlagConnected, 0x405, gid)
	rec, _ = ipoib.AppendARP(rec, ipoib.ARPRequest, me, netip.MustParseAddr("10.0.1.34"), ipoib.HWAddr{}, netip.MustParseAddr("10.0.0.58"))

	p := gopacket.NewPacket(rec, layers.LinkType(ipoib.LinkType), gopacket.Default)
	fmt.Println(layerNames(p))
	arp := p.Layer(layers.LayerTypeARP).(*layers.ARP)
	fmt.Println("hardware type", uint8(arp.AddrType), "size", arp.HwAddressSize, netip.AddrFrom4([4]byte(arp.DstProtAddress)))

	var a ipoib.ARP
	if err := a.Decode(p.Layer(googlelayers.LayerTypeIPoIB).LayerPayload()); err != nil {
		fmt.Println(err)
		return
	}
	sender, _ := a.Sender()
	fmt.Printf("qpn %#x gid %v\n", sender.QPN(), sender.GID())
	// Output:
	// IPoIBLinkHeader IPoIB ARP
	// hardware type 32 size 20 10.0.0.58
	// qpn 0x405 gid fe80::2:c902:24:f636
}
