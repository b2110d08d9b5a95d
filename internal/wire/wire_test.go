package wire

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frame joins hex parts, spaces allowed, into a frame.
func frame(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(strings.Join(parts, ""), " ", ""))
	require.NoError(t, err)
	return b
}

// Parts of the golden frames, one field per comment.
const (
	macs = "020000000002 020000000001" // destination, source
	tagQ = "8100 6064"                 // 802.1Q TPID, PCP 3, DEI 0, VID 100
	tagS = "88a8 a007"                 // 802.1ad TPID, PCP 5, DEI 0, VID 7
	tag9 = "9100 2005"                 // 0x9100 TPID (QinQ before 802.1ad), PCP 1, DEI 0, VID 5
	// IPv4: version 4, IHL 5, TOS 0x02, Total Length 0x003c (60), ID
	// 0x1234, DF, TTL 64, protocol 17 (UDP), checksum 0xa527,
	// 192.168.1.1 -> 192.168.1.2.
	ipv4 = "0800" + "45 02 003c 1234 4000 40 11 a527 c0a80101 c0a80102"
	// IPv6: version 6, TC 0x02, flow label 0x12345, Payload Length 40,
	// next header 17 (UDP), hop limit 64, fd00::1 -> fd00::2.
	ipv6 = "86dd" + "60212345 0028 11 40 fd000000000000000000000000000001 fd000000000000000000000000000002"
	// GRH: IPVer 6, TClass 0, flow label 0, PayLen 32, NxtHdr 0x1b
	// (BTH), HopLmt 64, fe80::1 -> fe80::2.
	grh = "8915" + "60000000 0020 1b 40 fe800000000000000000000000000001 fe800000000000000000000000000002"
	// UDP: 49152 -> 4791, Length 40, checksum 0.
	udp = "c000 12b7 0028 0000"
	// Transport: BTH (SEND Only, P_Key 0xffff, QP 0x12, PSN 1), 13
	// bytes of payload, 3 of pad, ICRC (not checked here).
	transport = "0470ffff 00000012 80000001" + "526f4345207465737420766563 000000" + "85bca00f"
	trailer   = "00000000" // Ethernet padding or an FCS: not part of the packet
)

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		want Layout
	}{
		{"IPv4", frame(t, macs, ipv4, udp, transport),
			Layout{Tags: 0, EtherType: 12, Net: 14, UDP: 34, BTH: 42, End: 74, Enc: hdr.RoCEv2IPv4}},
		{"IPv4 trailer", frame(t, macs, ipv4, udp, transport, trailer),
			Layout{Tags: 0, EtherType: 12, Net: 14, UDP: 34, BTH: 42, End: 74, Enc: hdr.RoCEv2IPv4}},
		{"IPv4 802.1Q", frame(t, macs, tagQ, ipv4, udp, transport),
			Layout{Tags: 1, EtherType: 16, Net: 18, UDP: 38, BTH: 46, End: 78, Enc: hdr.RoCEv2IPv4}},
		{"IPv6 QinQ", frame(t, macs, tagS, tagQ, ipv6, udp, transport),
			Layout{Tags: 2, EtherType: 20, Net: 22, UDP: 62, BTH: 70, End: 102, Enc: hdr.RoCEv2IPv6}},
		{"RoCEv1", frame(t, macs, grh, transport, trailer),
			Layout{Tags: 0, EtherType: 12, Net: 14, UDP: 0, BTH: 54, End: 86, Enc: hdr.RoCEv1}},
		{"RoCEv1 802.1Q", frame(t, macs, tagQ, grh, transport),
			Layout{Tags: 1, EtherType: 16, Net: 18, UDP: 0, BTH: 58, End: 90, Enc: hdr.RoCEv1}},
		{"IPv4 0x9100", frame(t, macs, tag9, ipv4, udp, transport),
			Layout{Tags: 1, EtherType: 16, Net: 18, UDP: 38, BTH: 46, End: 78, Enc: hdr.RoCEv2IPv4}},
		{"IPv4 three tags", frame(t, macs, tagS, tagQ, tagQ, ipv4, udp, transport),
			Layout{Tags: 3, EtherType: 24, Net: 26, UDP: 46, BTH: 54, End: 86, Enc: hdr.RoCEv2IPv4}},
		{"IPv6 0x9100 in 802.1ad", frame(t, macs, tagS, tag9, tagQ, ipv6, udp, transport),
			Layout{Tags: 3, EtherType: 24, Net: 26, UDP: 66, BTH: 74, End: 106, Enc: hdr.RoCEv2IPv6}},
		{"RoCEv1 eight tags", frame(t, macs, strings.Repeat(tagS, 3)+strings.Repeat(tag9, 2)+strings.Repeat(tagQ, 3), grh, transport),
			Layout{Tags: 8, EtherType: 44, Net: 46, UDP: 0, BTH: 86, End: 118, Enc: hdr.RoCEv1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Layout{UDP: -1} // stale values must not survive
			require.NoError(t, Locate(tc.b, &l))
			assert.Equal(t, tc.want, l)
		})
	}
}

func TestLocateErrors(t *testing.T) {
	set := func(b []byte, off int, v ...byte) []byte { copy(b[off:], v); return b }
	v4 := func() []byte { return frame(t, macs, ipv4, udp, transport) }
	v6 := func() []byte { return frame(t, macs, ipv6, udp, transport) }
	v1 := func() []byte { return frame(t, macs, grh, transport) }
	for _, tc := range []struct {
		name string
		b    []byte
		is   error
		msg  string // the whole message, when given
	}{
		{"empty", nil, errs.ErrTruncated, "roce: Ethernet at offset 0: truncated (want 14 bytes, have 0)"},
		{"Ethernet cut", v4()[:13], errs.ErrTruncated, ""},
		{"tag cut", frame(t, macs, "8100 60"), errs.ErrTruncated, "roce: Dot1Q at offset 14: truncated (want 18 bytes, have 15)"},
		{"second tag cut", frame(t, macs, tagS, "8100"), errs.ErrTruncated, "roce: Dot1Q at offset 18: truncated (want 22 bytes, have 18)"},
		{"nine tags", frame(t, macs, strings.Repeat(tagQ, 9), ipv4, udp, transport), errs.ErrUnsupported,
			"roce: VLAN tags (more than 8) at offset 44: unsupported"},
		{"nine tags of each TPID", frame(t, macs, strings.Repeat(tagS+tag9+tagQ, 3), ipv4, udp, transport), errs.ErrUnsupported, ""},
		{"third tag cut", frame(t, macs, tagS, tag9, "8100 20"), errs.ErrTruncated, "roce: Dot1Q at offset 22: truncated (want 26 bytes, have 23)"},
		{"ARP", set(v4(), 12, 0x08, 0x06), errs.ErrNotRoCE, ""},
		{"GRH cut", v1()[:53], errs.ErrTruncated, "roce: GRH at offset 14: truncated (want 54 bytes, have 53)"},
		{"GRH version", set(v1(), 14, 0x40), errs.ErrBadVersion, "roce: GRH at offset 14: bad version"},
		{"GRH NxtHdr", set(v1(), 20, 0x11), errs.ErrNotRoCE, ""},
		{"GRH PayLen", set(v1(), 18, 0x00, 0x21), errs.ErrTruncated, "roce: GRH at offset 18: truncated (want 87 bytes, have 86)"},
		{"IPv4 cut", v4()[:33], errs.ErrTruncated, "roce: IPv4 at offset 14: truncated (want 34 bytes, have 33)"},
		{"IPv4 version", set(v4(), 14, 0x65), errs.ErrBadVersion, "roce: IPv4 at offset 14: bad version"},
		{"IPv4 TCP", set(v4(), 23, 6), errs.ErrNotRoCE, ""},
		{"IPv4 MF", set(v4(), 20, 0x20), errs.ErrNotRoCE, ""},
		{"IPv4 fragment offset", set(v4(), 21, 0x01), errs.ErrNotRoCE, ""},
		{"IPv4 IHL 4", set(v4(), 14, 0x44), errs.ErrBadLength, "roce: IPv4 at offset 14: bad length (want 24 bytes, have 60)"},
		{"IPv4 Total Length short", set(v4(), 16, 0x00, 0x1b), errs.ErrBadLength, ""},
		{"IPv4 Total Length long", set(v4(), 16, 0x00, 0x3d), errs.ErrTruncated, "roce: IPv4 at offset 16: truncated (want 75 bytes, have 74)"},
		{"IPv6 cut", v6()[:53], errs.ErrTruncated, "roce: IPv6 at offset 14: truncated (want 54 bytes, have 53)"},
		{"IPv6 version", set(v6(), 14, 0x40), errs.ErrBadVersion, ""},
		{"IPv6 extension header", set(v6(), 20, 0), errs.ErrNotRoCE, ""},
		{"IPv6 Payload Length long", set(v6(), 18, 0x00, 0x29), errs.ErrTruncated, ""},
		{"IPv6 Payload Length short", set(v6(), 18, 0x00, 0x07), errs.ErrTruncated, "roce: UDP at offset 54: truncated (want 62 bytes, have 61)"},
		{"UDP port", set(v4(), 36, 0x12, 0xb8), errs.ErrNotRoCE, ""},
		{"UDP from 4791", set(v4(), 34, 0x12, 0xb7, 0x30, 0x39), errs.ErrNotRoCE, ""},
		{"UDP Length 7", set(v4(), 38, 0x00, 0x07), errs.ErrBadLength, "roce: UDP at offset 38: bad length (want 40 bytes, have 7)"},
		{"UDP Length beyond IP", set(v4(), 38, 0x00, 0x29), errs.ErrBadLength, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l Layout
			err := Locate(tc.b, &l)
			require.ErrorIs(t, err, tc.is)
			if tc.msg != "" {
				assert.Equal(t, tc.msg, err.Error())
			}
			assert.Equal(t, 1, strings.Count(err.Error(), "roce: "), err.Error())
			if !errors.Is(err, errs.ErrNotRoCE) {
				var e *errs.Error
				assert.ErrorAs(t, err, &e)
			}
		})
	}
}

func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		name      string
		b         []byte
		off, tags int
		et        uint16
	}{
		{"untagged", frame(t, macs, ipv4), 14, 0, 0x0800},
		{"802.1Q", frame(t, macs, tagQ, ipv6), 18, 1, 0x86dd},
		{"QinQ", frame(t, macs, tagS, tagQ, grh), 22, 2, 0x8915},
		{"two C-tags", frame(t, macs, tagQ, tagQ, "8808 0101"), 22, 2, 0x8808},
		{"three tags", frame(t, macs, tagS, tagQ, tagQ, ipv4), 26, 3, 0x0800},
		{"0x9100", frame(t, macs, tag9, ipv6), 18, 1, 0x86dd},
		{"eight tags", frame(t, macs, strings.Repeat(tag9+tagQ, 4), "8808 0101"), 46, 8, 0x8808},
		{"tag and nothing after it", frame(t, macs, "8100 6064 0800"), 18, 1, 0x0800},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off, et, tags, err := Skip(tc.b)
			require.NoError(t, err)
			assert.Equal(t, []int{tc.off, tc.tags}, []int{off, tags})
			assert.Equal(t, tc.et, et)
		})
	}
}

// Every prefix of every golden frame: an error wrapping a sentinel or a
// layout inside the prefix, never a panic.
func TestLocatePrefixes(t *testing.T) {
	for _, full := range [][]byte{
		frame(t, macs, ipv4, udp, transport), frame(t, macs, tagS, tagQ, ipv6, udp, transport),
		frame(t, macs, tagQ, grh, transport), frame(t, macs, tag9, tagS, tagQ, ipv4, udp, transport),
	} {
		for n := range len(full) {
			b := append([]byte(nil), full[:n]...)
			var l Layout
			err := Locate(b, &l)
			require.Error(t, err, "%d bytes", n)
			assert.True(t, errors.Is(err, errs.ErrTruncated) || errors.Is(err, errs.ErrNotRoCE) || errors.Is(err, errs.ErrBadLength), "%d bytes: %v", n, err)
		}
	}
}

// LocateCut takes a frame cut anywhere after the headers in front of the
// BTH: the layout is the whole frame's, End beyond the bytes. A cut in
// those headers is ErrTruncated.
func TestLocateCut(t *testing.T) {
	for _, full := range [][]byte{
		frame(t, macs, ipv4, udp, transport), frame(t, macs, tagS, tagQ, ipv6, udp, transport),
		frame(t, macs, tagQ, grh, transport),
	} {
		var want Layout
		require.NoError(t, Locate(full, &want))
		hdrs := want.BTH
		for n := range len(full) {
			var l Layout
			err := LocateCut(full[:n:n], &l)
			if n < hdrs {
				require.ErrorIs(t, err, errs.ErrTruncated, "%d bytes", n)
				continue
			}
			require.NoError(t, err, "%d bytes", n)
			assert.Equal(t, want, l, "%d bytes", n)
			assert.Error(t, Locate(full[:n:n], &Layout{}), "%d bytes", n)
		}
	}
}
