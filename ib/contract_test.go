package ib

import (
	"io"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decoder is what every header of the package is.
type decoder interface {
	Decode([]byte) error
	Len() int
}

// contractCase is a header and a whole input it decodes; every shorter
// input is truncated.
type contractCase struct {
	name string
	l    decoder
	full []byte
}

// headerSet holds one of each header.
type headerSet struct {
	LRH          LRH
	GRH          GRH
	BTH          BTH
	RDETH        RDETH
	DETH         DETH
	XRCETH       XRCETH
	RETH         RETH
	AtomicETH    AtomicETH
	AtomicAckETH AtomicAckETH
	AETH         AETH
	ImmDt        ImmDt
	IETH         IETH
	FETH         FETH
}

// contractCases gives each header of l and a whole input it decodes.
func contractCases(l *headerSet) []contractCase {
	ack := []byte{
		0x11, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, // BTH: RC Acknowledge
		0x1f, 0, 0, 1, // AETH
		9, 9, 9, 9, // ICRC
	}
	grh := append([]byte{
		0x60, 0, 0, 0, // IPVer 6
		0, 20, NxtHdrBTH, 64, // PayLen 20
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, // SGID
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, // DGID
	}, ack...)
	lrh := append([]byte{
		0x20, LNHIBALocal, 0, 5, // VL 2, LNH 2, DLID 5
		0, 7, 0, 1, // PktLen 7 words (28 bytes), SLID 1
	}, ack...)
	lrh = append(lrh, 0xab, 0xcd) // VCRC
	bytesOf := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(0xa0 + i)
		}
		return b
	}
	return []contractCase{
		{"BTH", &l.BTH, ack},
		{"GRH", &l.GRH, grh},
		{"LRH", &l.LRH, lrh},
		{"RDETH", &l.RDETH, bytesOf(RDETHLen)},
		{"DETH", &l.DETH, bytesOf(DETHLen)},
		{"XRCETH", &l.XRCETH, bytesOf(XRCETHLen)},
		{"RETH", &l.RETH, bytesOf(RETHLen)},
		{"AtomicETH", &l.AtomicETH, bytesOf(AtomicETHLen)},
		{"AtomicAckETH", &l.AtomicAckETH, bytesOf(AtomicAckETHLen)},
		{"AETH", &l.AETH, bytesOf(AETHLen)},
		{"ImmDt", &l.ImmDt, bytesOf(ImmDtLen)},
		{"IETH", &l.IETH, bytesOf(IETHLen)},
		{"FETH", &l.FETH, bytesOf(FETHLen)},
	}
}

// exportedZero reports the first exported field of the struct v points
// to (promoted fields of embedded structs included) that is not zero.
func exportedZero(v reflect.Value) (string, bool) {
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		f, sf := v.Field(i), v.Type().Field(i)
		if sf.Anonymous && f.Kind() == reflect.Struct {
			if name, ok := exportedZero(f.Addr()); !ok {
				return name, false
			}
			continue
		}
		if sf.IsExported() && !f.IsZero() {
			return sf.Name, false
		}
	}
	return "", true
}

// TestDecodeResets: every Decode fails on every input shorter than a
// whole one with an error matching ErrTruncated and io.ErrUnexpectedEOF,
// without a panic, and leaves the receiver zeroed after a successful
// decode of another packet (LRH its VCRC, which follows the packet).
func TestDecodeResets(t *testing.T) {
	var l headerSet
	for _, c := range contractCases(&l) {
		t.Run(c.name, func(t *testing.T) {
			whole := len(c.full)
			switch c.name {
			case "GRH":
				whole = GRHLen
			case "LRH":
				whole = LRHLen
			}
			for n := range whole {
				require.NoError(t, c.l.Decode(c.full))
				var err error
				require.NotPanics(t, func() { err = c.l.Decode(c.full[:n]) }, "%d bytes", n)
				require.ErrorIs(t, err, ErrTruncated, "%d bytes", n)
				require.ErrorIs(t, err, io.ErrUnexpectedEOF, "%d bytes", n)
				field, zero := exportedZero(reflect.ValueOf(c.l))
				require.True(t, zero || field == "VCRC", "%d bytes: %s kept from the previous decode", n, field)
			}
		})
	}
}

// TestSplitCut: GRH.Split and LRH.Split take a packet the capture cut
// after the header, returning what was captured and reporting the cut.
func TestSplitCut(t *testing.T) {
	var l headerSet
	cases := contractCases(&l)
	grh, lrh := cases[1].full, cases[2].full
	rest, cut, err := l.GRH.Split(grh[:len(grh)-3])
	require.NoError(t, err)
	assert.True(t, cut)
	assert.Equal(t, grh[GRHLen:len(grh)-3], rest)
	rest, cut, err = l.GRH.Split(grh)
	require.NoError(t, err)
	assert.False(t, cut)
	assert.Equal(t, grh[GRHLen:], rest)
	rest, cut, err = l.LRH.Split(lrh[:len(lrh)-5])
	require.NoError(t, err)
	assert.True(t, cut)
	assert.Equal(t, lrh[LRHLen:len(lrh)-5], rest)
	rest, cut, err = l.LRH.Split(lrh)
	require.NoError(t, err)
	assert.False(t, cut)
	assert.Equal(t, lrh[LRHLen:len(lrh)-2], rest, "the VCRC is not part of the packet")
	assert.Equal(t, uint16(0xabcd), l.LRH.VCRC)
}

// TestPacketDecodeResets: a failed Packet.Decode leaves nothing of the
// packet decoded before it.
func TestPacketDecodeResets(t *testing.T) {
	var p Packet
	good := []byte{0x0a, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 7, 0, 0, 0, 2, 0xaa, 0xbb, 0, 0, 9, 9, 9, 9}
	bad := []byte{0x11, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0, 0, 1, 0x1f, 0, 0, 1, 1, 2, 3, 4, 9, 9, 9, 9} // payload on an ACK
	require.NoError(t, p.Decode(good))
	require.ErrorIs(t, p.Decode(bad), ErrBadLength)
	assert.Zero(t, p.RETH.DMALen)
	assert.Empty(t, p.Payload)
	assert.Zero(t, p.BTH.OpCode)
}

// TestLRHDecodeEncode: the plain decode and encode of the LRH.
func TestLRHDecodeEncode(t *testing.T) {
	b := []byte{
		0x21,       // VL 2, LVer 1
		0x5b,       // SL 5, Resv2 2, LNH 3
		0x12, 0x34, // DLID
		0x18, 0x0c, // Resv5 3, PktLen 12
		0xab, 0xcd, // SLID
	}
	want := LRH{VL: 2, LVer: 1, SL: 5, Resv2: 2, LNH: 3, DLID: 0x1234, Resv5: 3, PktLen: 12, SLID: 0xabcd}
	var h LRH
	require.NoError(t, h.Decode(b))
	assert.Equal(t, want, h)
	out := make([]byte, LRHLen)
	require.NoError(t, want.Encode(out))
	assert.Equal(t, b, out)
	for n := range LRHLen {
		require.ErrorIs(t, h.Decode(b[:n]), ErrTruncated)
		require.ErrorIs(t, want.Encode(out[:n]), ErrBadLength)
	}
	bad := want
	bad.SL = 16
	clear(out)
	require.EqualError(t, bad.Encode(out), "roce: LRH.SL 0x10 does not fit 4 bits")
	assert.Equal(t, make([]byte, LRHLen), out, "Encode wrote despite the error")
}
