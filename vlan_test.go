package roce_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/oracle"
	"github.com/stretchr/testify/require"
)

// tagFrames builds a WRITE over each encapsulation behind VLAN tags of
// every TPID in several orders and nestings, up to roce.MaxVLANs of them.
func tagFrames(t *testing.T) (frames []roce.Frame, wire [][]byte) {
	t.Helper()
	stacks := [][]uint16{
		{0x9100},
		{0x9100, 0x8100},
		{0x88a8, 0x8100, 0x8100},
		{0x8100, 0x8100, 0x8100},
		{0x88a8, 0x9100, 0x8100},
		{0x8100, 0x88a8, 0x8100, 0x88a8},
		{0x88a8, 0x88a8, 0x88a8, 0x9100, 0x9100, 0x8100, 0x8100, 0x8100},
		{0x8100, 0x8100, 0x8100, 0x8100, 0x8100, 0x8100, 0x8100, 0x8100},
	}
	for i, st := range stacks {
		for _, enc := range []ib.Encapsulation{ib.RoCEv2IPv4, ib.RoCEv2IPv6, ib.RoCEv1} {
			f := benchWrite()
			f.Encap = enc
			if enc != ib.RoCEv2IPv4 {
				f.GRH.SGID, f.GRH.DGID = [16]byte{0xfe, 0x80, 15: 1}, [16]byte{0xfe, 0x80, 15: 2}
			}
			f.Packet.Payload = f.Packet.Payload[:64]
			f.Packet.BTH.PSN = uint32(i)
			f.NumVLANs = len(st)
			for j, tpid := range st {
				f.VLANs[j] = roce.VLAN{TPID: tpid, PCP: uint8(j % 8), DEI: j%3 == 1, ID: uint16(100*i + j + 1)}
			}
			b, err := f.AppendTo(nil)
			require.NoError(t, err, "tags %x", st)
			frames, wire = append(frames, f), append(wire, b)
		}
	}
	return frames, wire
}

// TestDecodeTags checks that Frame.Decode, VerifyFrame, the Layers parser
// and gopacket.NewPacket all go through VLAN tags of TPID 0x8100, 0x88a8
// and 0x9100 in any order, up to MaxVLANs, to the same BTH, and that a
// frame of more tags is refused with ErrUnsupported rather than
// decoded as something else.
func TestDecodeTags(t *testing.T) {
	frames, wire := tagFrames(t)
	var ls googlelayers.Layers
	parser := ls.Parser()
	var decoded []gopacket.LayerType
	for i, b := range wire {
		want := frames[i]
		var f roce.Frame
		require.NoError(t, f.Decode(b), "frame %d", i)
		require.Equal(t, want.NumVLANs, f.NumVLANs, "frame %d", i)
		require.Equal(t, want.VLANs, f.VLANs, "frame %d", i)
		require.Equal(t, want.Packet.BTH.PSN, f.Packet.BTH.PSN)
		require.NoError(t, roce.VerifyFrame(b), "frame %d", i)
		require.NoError(t, f.VerifyICRC())

		require.NoError(t, parser.DecodeLayers(b, &decoded), "frame %d: parser", i)
		dots := 0
		for _, lt := range decoded {
			if lt == layers.LayerTypeDot1Q {
				dots++
			}
		}
		require.Equal(t, want.NumVLANs, dots, "frame %d: parser's tags %v", i, decoded)
		require.Contains(t, decoded, googlelayers.LayerTypeBTH, "frame %d", i)
		require.Equal(t, want.Packet.BTH.PSN, ls.BTH.PSN)

		pk := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
		bth, ok := pk.Layer(googlelayers.LayerTypeBTH).(*googlelayers.BTH)
		require.True(t, ok, "frame %d: NewPacket has no BTH: %v", i, pk)
		require.Equal(t, want.Packet.BTH.PSN, bth.PSN)
		var ids []uint16
		for _, l := range pk.Layers() {
			if d, ok := l.(*layers.Dot1Q); ok {
				ids = append(ids, d.VLANIdentifier)
			}
		}
		var wantIDs []uint16
		for _, v := range want.VLANs[:want.NumVLANs] {
			wantIDs = append(wantIDs, v.ID)
		}
		require.Equal(t, wantIDs, ids, "frame %d: NewPacket's tags", i)
	}

	// One tag more than MaxVLANs, of each TPID.
	for _, tpid := range []uint16{0x8100, 0x88a8, 0x9100} {
		b := slices.Clone(wire[len(wire)-1])
		b = slices.Insert(b, 12, byte(tpid>>8), byte(tpid), 0x20, 0x05)
		var f roce.Frame
		err := f.Decode(b)
		require.ErrorIs(t, err, ib.ErrUnsupported, "TPID %#x", tpid)
		require.Equal(t, "roce: VLAN tags (more than 8) at offset 44: unsupported", err.Error())
		require.ErrorIs(t, roce.VerifyFrame(b), ib.ErrUnsupported)
		require.False(t, errors.Is(err, ib.ErrNotRoCE))
	}
}

// TestTsharkTags compares the tags and BTH fields of the frames of
// TestDecodeTags with tshark 4.0's reading: vlan.id and ieee8021ad.id in
// order (0x9100 is a vlan tag for tshark too; two S-tags in a row are an
// svid and a cvid), the BTH's PSN and QP.
func TestTsharkTags(t *testing.T) {
	frames, wire := tagFrames(t)
	path := oracle.WritePcap(t, t.TempDir(), "tags.pcap", wire)
	got := oracle.Tshark(t, path, tsharkArgs...)
	require.Len(t, got, len(frames))
	for i, f := range frames {
		// tshark names the IDs of two S-tags in a row svid and cvid (the
		// second an 802.1ad C-VID), as one header; others vlan.id and
		// ieee8021ad.id.
		var vlan, ad, svid, cvid []string
		tags := f.VLANs[:f.NumVLANs]
		for j := 0; j < len(tags); j++ {
			id := strconv.Itoa(int(tags[j].ID))
			switch {
			case tags[j].TPID == 0x88a8 && j+1 < len(tags) && tags[j+1].TPID == 0x88a8:
				svid, cvid = append(svid, id), append(cvid, strconv.Itoa(int(tags[j+1].ID)))
				j++
			case tags[j].TPID == 0x88a8:
				ad = append(ad, id)
			default:
				vlan = append(vlan, id)
			}
		}
		require.Equal(t, vlan, got[i]["vlan.id"], "frame %d: vlan.id", i+1)
		require.Equal(t, ad, got[i]["ieee8021ad.id"], "frame %d: ieee8021ad.id", i+1)
		require.Equal(t, svid, got[i]["ieee8021ad.svid"], "frame %d: ieee8021ad.svid", i+1)
		require.Equal(t, cvid, got[i]["ieee8021ad.cvid"], "frame %d: ieee8021ad.cvid", i+1)
		psn, _ := got[i].First("infiniband.bth.psn")
		qp, _ := got[i].First("infiniband.bth.destqp")
		require.Equal(t, fmt.Sprint(f.Packet.BTH.PSN), psn, "frame %d", i+1)
		require.True(t, oracle.SameValue(qp, fmt.Sprint(f.Packet.BTH.DestQP), true), "frame %d: QP %s", i+1, qp)
	}
}
