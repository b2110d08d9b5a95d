package ipoib_test

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/ipoib"
)

// TestGoldenFromCapture checks that the golden packets are the capture's
// bytes: records 5, 6, 10 and 26 of the ERF capture, after the 16-byte
// ERF header, up to the wire length.
func TestGoldenFromCapture(t *testing.T) {
	pkts := erfPackets(t)
	for n, w := range map[int][]byte{5: goldenUDARP, 6: goldenUDARPReply, 10: goldenRCIPv4, 26: goldenUDIPv6} {
		assert.Equal(t, w, pkts[n-1], "frame %d", n)
	}
}

// TestMatch walks the rule: opcodes, management QPs, reserved bits and
// Types.
func TestMatch(t *testing.T) {
	ip := []byte{0x08, 0x00, 0, 0, 0x45}
	for _, tc := range []struct {
		name string
		op   ib.Opcode
		qp   uint32
		pl   []byte
		want bool
	}{
		{"UD SEND Only", ib.OpUDSendOnly, 0x405, ip, true},
		{"UD SEND Only multicast QP", ib.OpUDSendOnly, 0xffffff, ip, true},
		{"UD SEND Only imm", ib.OpUDSendOnlyWithImmediate, 0x405, ip, true},
		{"RC SEND Only", ib.OpRCSendOnly, 0xfc0407, ip, true},
		{"RC SEND First", ib.OpRCSendFirst, 0x12, ip, true},
		{"UC SEND Only", ib.OpUCSendOnly, 0x12, ip, true},
		{"IPv6", ib.OpUDSendOnly, 2, []byte{0x86, 0xdd, 0, 0}, true},
		{"ARP", ib.OpUDSendOnly, 2, []byte{0x08, 0x06, 0, 0}, true},
		{"QP0", ib.OpUDSendOnly, 0, ip, false},
		{"QP1", ib.OpUDSendOnly, 1, ip, false},
		{"RC SEND Middle", ib.OpRCSendMiddle, 0x12, ip, false},
		{"RC SEND Last", ib.OpRCSendLast, 0x12, ip, false},
		{"RC RDMA WRITE Only", ib.OpRCRDMAWriteOnly, 0x12, ip, false},
		{"reserved set", ib.OpUDSendOnly, 0x405, []byte{0x08, 0x00, 0, 1}, false},
		{"RARP", ib.OpUDSendOnly, 0x405, []byte{0x80, 0x35, 0, 0}, false},
		{"LLDP", ib.OpUDSendOnly, 0x405, []byte{0x88, 0xcc, 0, 0}, false},
		{"short", ib.OpUDSendOnly, 0x405, []byte{0x08, 0x00, 0}, false},
		{"empty", ib.OpUDSendOnly, 0x405, nil, false},
	} {
		assert.Equal(t, tc.want, ipoib.Match(tc.op, tc.qp, tc.pl), tc.name)
	}
}

// TestHeaderRoundTrip decodes and re-encodes the header of each golden
// packet (googlelayers' tests take them through gopacket).
func TestHeaderRoundTrip(t *testing.T) {
	for _, pkt := range [][]byte{goldenUDARP, goldenUDARPReply, goldenRCIPv4, goldenUDIPv6} {
		body := ibBody(t, pkt)
		var h ipoib.Header
		require.NoError(t, h.Decode(body))
		out, err := h.AppendTo([]byte{0xaa})
		require.NoError(t, err)
		assert.Equal(t, append([]byte{0xaa}, body[:4]...), out)
		assert.Equal(t, ipoib.HeaderLen, h.Len())
		assert.Contains(t, []uint16{ipoib.TypeIPv4, ipoib.TypeIPv6, ipoib.TypeARP}, h.Type)
		assert.Equal(t, uint16(body[0])<<8|uint16(body[1]), h.Type)
	}
}

// TestARP decodes the ARP request and reply of the capture.
func TestARP(t *testing.T) {
	var a ipoib.ARP
	require.NoError(t, a.Decode(ibBody(t, goldenUDARP)[4:]))
	assert.Equal(t, uint16(ipoib.ARPHardwareType), a.HWType)
	assert.Equal(t, uint16(ipoib.ARPRequest), a.Op)
	s, ok := a.Sender()
	require.True(t, ok)
	assert.Equal(t, uint8(ipoib.FlagConnected), s.Flags())
	assert.Equal(t, uint32(0x405), s.QPN())
	assert.Equal(t, netip.MustParseAddr("fe80::2:c902:24:f636"), s.GID())
	sip, _ := a.SenderAddr()
	tip, _ := a.TargetAddr()
	assert.Equal(t, "10.0.1.34 10.0.0.58", sip.String()+" "+tip.String())
	assert.Empty(t, a.Remainder)

	var r ipoib.ARP
	body := ibBody(t, goldenUDARPReply)[4:]
	require.NoError(t, r.Decode(body))
	snd, _ := r.Sender()
	tgt, _ := r.Target()
	assert.Equal(t, uint32(0x404), snd.QPN())
	rip, _ := r.SenderAddr()
	out, err := ipoib.AppendARP(nil, ipoib.ARPReply, snd, rip, tgt, netip.MustParseAddr("10.0.1.34"))
	require.NoError(t, err)
	assert.Equal(t, body, out)
	_, err = ipoib.AppendARP(nil, ipoib.ARPReply, snd, netip.MustParseAddr("::1"), tgt, rip)
	assert.ErrorIs(t, err, ib.ErrBadValue)
	assert.EqualError(t, err, "roce: ARP.SenderIP ::1 is not an IPv4 address")
	_, err = ipoib.AppendARP(nil, ipoib.ARPReply, snd, rip, tgt, netip.Addr{})
	assert.EqualError(t, err, "roce: ARP.TargetIP invalid IP is not an IPv4 address")
}

// TestLinkHeaderGolden decodes the golden link type 242 records and
// re-encodes their link headers (googlelayers' tests take them through
// gopacket).
func TestLinkHeaderGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		rec  []byte
		typ  uint16
		sent bool
	}{
		{"received", goldenLinkReceived, ipoib.TypeARP, false},
		{"sent", goldenLinkSent, ipoib.TypeIPv4, true},
	} {
		lh := &ipoib.LinkHeader{}
		require.NoError(t, lh.Decode(tc.rec), tc.name)
		var h ipoib.Header
		require.NoError(t, h.Decode(tc.rec[ipoib.LinkHeaderLen:]), tc.name)
		assert.Equal(t, tc.typ, h.Type, tc.name)
		assert.Equal(t, tc.sent, lh.Sent(), tc.name)
		out, err := lh.AppendTo(nil)
		require.NoError(t, err)
		assert.Equal(t, tc.rec[:ipoib.LinkHeaderLen], out, tc.name)
		var rebuilt ipoib.LinkHeader
		if tc.sent {
			rebuilt.SetDstAddr(lh.DstAddr())
		} else {
			rebuilt = ipoib.LinkHeader{IPVer: lh.IPVer, SrcQP: lh.SrcQP, SGID: lh.SGID, DGID: lh.DGID}
		}
		again, err := rebuilt.AppendTo(nil)
		require.NoError(t, err)
		assert.Equal(t, out, again, tc.name)
	}
	// What follows the link headers is frame 5's and frame 10's IPoIB packet.
	assert.Equal(t, ibBody(t, goldenUDARP), goldenLinkReceived[ipoib.LinkHeaderLen:])
	assert.Equal(t, ibBody(t, goldenRCIPv4), goldenLinkSent[ipoib.LinkHeaderLen:])
	var lh ipoib.LinkHeader
	require.NoError(t, lh.Decode(goldenLinkReceived))
	assert.Equal(t, uint32(0x405), lh.SrcQP)
	assert.Equal(t, "fe80::2:c902:24:f636 > ff12:401b:ffff::ffff:ffff", lh.SrcGID().String()+" > "+lh.DstGID().String())
	require.NoError(t, lh.Decode(goldenLinkSent))
	a := lh.DstAddr()
	assert.Equal(t, "0x80 0xfc0407 fe80::2:c902:20:b4dd", fmt.Sprintf("%#x %#x %v", a.Flags(), a.QPN(), a.GID()))
}

// TestLinkHeader round-trips a link type 242 header and checks that the
// builder refuses what does not fit.
func TestLinkHeader(t *testing.T) {
	h := ipoib.LinkHeader{IPVer: 6, TClass: 0x12, FlowLabel: 0x34567, SrcQP: 0xabcdef,
		SGID: [16]byte{0xfe, 0x80, 15: 1}, DGID: [16]byte{0xff, 0x12, 15: 2}}
	b, err := h.AppendTo(nil)
	require.NoError(t, err)
	assert.Equal(t, "61234567", strings.ToLower(hexs(b[:4])))
	assert.Equal(t, "00abcdef", hexs(b[4:8]))
	var d ipoib.LinkHeader
	require.NoError(t, d.Decode(append(b, 8, 0, 0, 0)))
	assert.Equal(t, h, d)
	assert.Equal(t, ipoib.LinkHeaderLen, d.Len())
	assert.NoError(t, d.Validate())
	for _, bad := range []struct {
		field string
		h     ipoib.LinkHeader
	}{
		{"LinkHeader.IPVer", ipoib.LinkHeader{IPVer: 16}},
		{"LinkHeader.FlowLabel", ipoib.LinkHeader{FlowLabel: 1 << 20}},
		{"LinkHeader.SrcQP", ipoib.LinkHeader{SrcQP: 1 << 24}},
	} {
		out, err := bad.h.AppendTo(nil)
		var fe *ib.FieldError
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, bad.field, fe.Field)
		assert.Empty(t, out)
		assert.Equal(t, err, bad.h.Validate())
		assert.ErrorIs(t, err, ipoib.ErrBadValue)
	}
	_, err = ipoib.MakeHWAddr(0, 1<<24, [16]byte{})
	assert.ErrorIs(t, err, ib.ErrBadValue)
}

func hexs(b []byte) string {
	const digits = "0123456789abcdef"
	var s []byte
	for _, x := range b {
		s = append(s, digits[x>>4], digits[x&15])
	}
	return string(s)
}

// TestTruncation cuts every valid input at every length: each prefix
// shorter than the header errors with ErrTruncated (and
// io.ErrUnexpectedEOF), never panics, and leaves the receiver zeroed.
func TestTruncation(t *testing.T) {
	arp := ibBody(t, goldenUDARP)[4:]
	lh := make([]byte, ipoib.LinkHeaderLen)
	for n := 0; n < ipoib.ARPLen; n++ {
		if n < ipoib.HeaderLen {
			h := ipoib.Header{Type: 1}
			err := h.Decode(arp[:n])
			assert.ErrorIs(t, err, ib.ErrTruncated, "Header %d", n)
			assert.Equal(t, ipoib.Header{}, h)
		}
		if n < ipoib.LinkHeaderLen {
			h := ipoib.LinkHeader{SrcQP: 1}
			err := h.Decode(lh[:n])
			assert.ErrorIs(t, err, ib.ErrTruncated, "LinkHeader %d", n)
			assert.Equal(t, ipoib.LinkHeader{}, h)
		}
		a := ipoib.ARP{Op: 1}
		err := a.Decode(arp[:n])
		assert.ErrorIs(t, err, ib.ErrTruncated, "ARP %d", n)
		assert.True(t, strings.HasPrefix(err.Error(), "roce: "), err)
		assert.Equal(t, ipoib.ARP{}, a)
	}
	// Big sizes in the ARP header are lengths to check, not to trust.
	var a ipoib.ARP
	assert.ErrorIs(t, a.Decode([]byte{0, 32, 8, 0, 255, 255, 0, 1, 0, 0}), ib.ErrTruncated)
}

// TestNoAllocs enforces the allocation contract of the package doc.
func TestNoAllocs(t *testing.T) {
	body := ibBody(t, goldenRCIPv4)
	arp := ibBody(t, goldenUDARP)[4:]
	var (
		h   ipoib.Header
		lh  ipoib.LinkHeader
		a   ipoib.ARP
		buf = make([]byte, 0, 128)
		lhb = make([]byte, ipoib.LinkHeaderLen)
	)
	src, _ := ipoib.MakeHWAddr(0x80, 0x405, [16]byte{0xfe, 0x80})
	for name, f := range map[string]func() error{
		"Header.Decode":     func() error { return h.Decode(body) },
		"LinkHeader.Decode": func() error { return lh.Decode(lhb) },
		"ARP.Decode":        func() error { return a.Decode(arp) },
		"Match": func() error {
			if !ipoib.Match(ib.OpRCSendOnly, 0xfc0407, body) {
				return errors.New("no match")
			}
			return nil
		},
		"Header.AppendTo": func() error {
			var err error
			if buf, err = h.AppendTo(buf[:0]); err == nil && len(buf) != ipoib.HeaderLen {
				return errors.New("short")
			}
			return err
		},
		"LinkHeader.AppendTo": func() error {
			var err error
			buf, err = lh.AppendTo(buf[:0])
			return err
		},
		"AppendARP": func() error {
			var err error
			buf, err = ipoib.AppendARP(buf[:0], ipoib.ARPRequest, src, netip.AddrFrom4([4]byte{10, 0, 1, 34}), ipoib.HWAddr{}, netip.AddrFrom4([4]byte{10, 0, 0, 58}))
			if err == nil && len(buf) != ipoib.ARPLen {
				return errors.New("short")
			}
			return err
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
