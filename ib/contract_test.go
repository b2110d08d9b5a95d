package ib

import (
	"io"
	"reflect"
	"testing"

	"github.com/google/gopacket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contractCases gives each DecodingLayer of the package, from a Layers
// set (so that the extended headers keep their link to its BTH), and a
// whole input it decodes; every shorter input is truncated.
func contractCases(l *Layers) []struct {
	name string
	l    gopacket.DecodingLayer
	full []byte
} {
	l.DecodingLayers()
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
	return []struct {
		name string
		l    gopacket.DecodingLayer
		full []byte
	}{
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

// TestDecodeNilFeedback: every DecodeFromBytes takes a nil DecodeFeedback;
// every input shorter than a whole one is an error matching ErrTruncated
// and io.ErrUnexpectedEOF, without a panic, and leaves the receiver
// zeroed after a successful decode of another packet, its link to the
// BTH of its Layers kept.
func TestDecodeNilFeedback(t *testing.T) {
	var l Layers
	for _, c := range contractCases(&l) {
		t.Run(c.name, func(t *testing.T) {
			whole := len(c.full)
			switch c.name {
			case "GRH", "LRH":
				// A cut after the header is a capture's snap length,
				// not an error: the payload is what was captured.
				whole = GRHLen
				if c.name == "LRH" {
					whole = LRHLen
				}
				var df truncatedFeedback
				require.NoError(t, c.l.DecodeFromBytes(c.full[:len(c.full)-3], &df))
				assert.True(t, bool(df), "SetTruncated not called on a cut payload")
				assert.Equal(t, c.full[whole:len(c.full)-3], c.l.(gopacket.Layer).LayerPayload())
			}
			for n := range whole {
				require.NoError(t, c.l.DecodeFromBytes(c.full, nil))
				require.NotEmpty(t, c.l.(gopacket.Layer).LayerContents())
				var err error
				require.NotPanics(t, func() { err = c.l.DecodeFromBytes(c.full[:n], nil) }, "%d bytes", n)
				require.ErrorIs(t, err, ErrTruncated, "%d bytes", n)
				require.ErrorIs(t, err, io.ErrUnexpectedEOF, "%d bytes", n)
				field, zero := exportedZero(reflect.ValueOf(c.l))
				require.True(t, zero, "%d bytes: %s kept from the previous decode", n, field)
			}
			// The feedback is told, when there is one.
			var df truncatedFeedback
			require.Error(t, c.l.DecodeFromBytes(c.full[:whole-1], &df))
			assert.True(t, bool(df), "SetTruncated not called")
		})
	}
	for _, e := range []*eth{&l.RDETH.eth, &l.DETH.eth, &l.XRCETH.eth, &l.RETH.eth, &l.AtomicETH.eth,
		&l.AtomicAckETH.eth, &l.AETH.eth, &l.ImmDt.eth, &l.IETH.eth, &l.FETH.eth} {
		assert.Same(t, &l.BTH, e.bth, "a failed decode dropped the link to the BTH")
	}
}

type truncatedFeedback bool

func (f *truncatedFeedback) SetTruncated() { *f = true }

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

// TestLRHDecodeEncode: the plain decode and encode of the LRH, without
// gopacket.
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
