package ib

import (
	"bytes"
	"errors"
	"math/rand"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPacketValidate: each refusal names the field and the value, wraps
// the right sentinel, and AppendTo hands back b as it was.
func TestPacketValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Packet
		msg  string
		want error
	}{
		{"DestQP", Packet{BTH: BTH{OpCode: OpRCSendOnly, DestQP: 0x1000000}},
			"roce: BTH.DestQP 0x1000000 does not fit 24 bits", ErrBadValue},
		{"PSN", Packet{BTH: BTH{OpCode: OpRCSendOnly, PSN: 0x1000001}},
			"roce: BTH.PSN 0x1000001 does not fit 24 bits", ErrBadValue},
		{"TVer", Packet{BTH: BTH{OpCode: OpRCSendOnly, TVer: 16}},
			"roce: BTH.TVer 0x10 does not fit 4 bits", ErrBadValue},
		{"Resv6a", Packet{BTH: BTH{OpCode: OpRCSendOnly, Resv6a: 0x40}},
			"roce: BTH.Resv6a 0x40 does not fit 6 bits", ErrBadValue},
		{"Resv7", Packet{BTH: BTH{OpCode: OpRCSendOnly, Resv7: 0x80}},
			"roce: BTH.Resv7 0x80 does not fit 7 bits", ErrBadValue},
		{"PadCnt of an unknown opcode", Packet{BTH: BTH{OpCode: 0xc0, PadCnt: 4}},
			"roce: BTH.PadCnt 0x4 does not fit 2 bits", ErrBadValue},
		{"DETH.SrcQP", Packet{BTH: BTH{OpCode: OpUDSendOnly}, DETH: DETH{SrcQP: 1 << 24}},
			"roce: DETH.SrcQP 0x1000000 does not fit 24 bits", ErrBadValue},
		{"XRCETH.XRCSRQ", Packet{BTH: BTH{OpCode: OpXRCSendOnly}, XRCETH: XRCETH{XRCSRQ: 1 << 31}},
			"roce: XRCETH.XRCSRQ 0x80000000 does not fit 24 bits", ErrBadValue},
		{"RDETH.EECnxt", Packet{BTH: BTH{OpCode: OpRDSendOnly}, RDETH: RDETH{EECnxt: 1 << 24}},
			"roce: RDETH.EECnxt 0x1000000 does not fit 24 bits", ErrBadValue},
		{"AETH.MSN", Packet{BTH: BTH{OpCode: OpRCAcknowledge}, AETH: AETH{MSN: 1 << 24}},
			"roce: AETH.MSN 0x1000000 does not fit 24 bits", ErrBadValue},
		{"FETH.SEL", Packet{BTH: BTH{OpCode: OpRCFlush}, FETH: FETH{SEL: 4}},
			"roce: FETH.SEL 0x4 does not fit 2 bits", ErrBadValue},
		{"FETH.PLT", Packet{BTH: BTH{OpCode: OpRCFlush}, FETH: FETH{PLT: 0x10}},
			"roce: FETH.PLT 0x10 does not fit 4 bits", ErrBadValue},
		{"FETH.Resv", Packet{BTH: BTH{OpCode: OpRCFlush}, FETH: FETH{Resv: 1 << 26}},
			"roce: FETH.Resv 0x4000000 does not fit 26 bits", ErrBadValue},
		{"payload on an ACK", Packet{BTH: BTH{OpCode: OpRCAcknowledge}, Payload: []byte{1, 2, 3, 4}},
			"roce: Packet.Payload of 4 bytes: RC Acknowledge carries no payload", ErrBadLength},
		{"payload on a READ request", Packet{BTH: BTH{OpCode: OpRCRDMAReadRequest}, Payload: []byte{1}},
			"roce: Packet.Payload of 1 bytes: RC RDMA READ Request carries no payload", ErrBadLength},
		{"ATOMIC WRITE of 9 bytes", Packet{BTH: BTH{OpCode: OpRCAtomicWrite}, Payload: make([]byte, 9)},
			"roce: Packet.Payload of 9 bytes: RC ATOMIC WRITE carries exactly 8 bytes", ErrBadLength},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.p.Validate()
			require.EqualError(t, err, c.msg)
			require.ErrorIs(t, err, c.want)
			var fe *FieldError
			require.ErrorAs(t, err, &fe)
			prefix := []byte{1, 2, 3}
			out, err2 := c.p.AppendTo(prefix)
			require.Equal(t, err, err2)
			require.Equal(t, prefix, out)
		})
	}
	// A field of a header the opcode does not carry is not looked at.
	p := Packet{BTH: BTH{OpCode: OpRCSendOnly}, DETH: DETH{SrcQP: 1 << 30}, AETH: AETH{MSN: 1 << 30}}
	require.NoError(t, p.Validate())
	// PadCnt of a known opcode is AppendTo's to set.
	p = Packet{BTH: BTH{OpCode: OpRCSendOnly, PadCnt: 7}, Payload: []byte{1}}
	out, err := p.AppendTo(nil)
	require.NoError(t, err)
	require.EqualValues(t, 3, p.BTH.PadCnt)
	require.Len(t, out, BTHLen+4+ICRCLen)
}

// serializable is what every header is, for the Serialize tests.
type serializable interface {
	Serialize(Buffer, SerializeOptions) error
}

// TestSerializeRefuses: every Serialize refuses a field that does not
// fit, writing nothing, with the error AppendTo would give.
func TestSerializeRefuses(t *testing.T) {
	for _, c := range []struct {
		l   serializable
		msg string
	}{
		{&BTH{OpCode: OpRCSendOnly, DestQP: 1 << 24}, "roce: BTH.DestQP 0x1000000 does not fit 24 bits"},
		{&BTH{OpCode: OpRCSendOnly, PadCnt: 4}, "roce: BTH.PadCnt 0x4 does not fit 2 bits"},
		{&RDETH{EECnxt: 1 << 24}, "roce: RDETH.EECnxt 0x1000000 does not fit 24 bits"},
		{&DETH{SrcQP: 1 << 24}, "roce: DETH.SrcQP 0x1000000 does not fit 24 bits"},
		{&XRCETH{XRCSRQ: 1 << 24}, "roce: XRCETH.XRCSRQ 0x1000000 does not fit 24 bits"},
		{&AETH{MSN: 1 << 24}, "roce: AETH.MSN 0x1000000 does not fit 24 bits"},
		{&FETH{SEL: 4}, "roce: FETH.SEL 0x4 does not fit 2 bits"},
		{&GRH{IPVer: 6, FlowLabel: 1 << 20}, "roce: GRH.FlowLabel 0x100000 does not fit 20 bits"},
		{&GRH{IPVer: 4}, "roce: GRH.IPVer 0x4 is not 6"},
		{&LRH{VL: 16}, "roce: LRH.VL 0x10 does not fit 4 bits"},
		{&LRH{LVer: 16}, "roce: LRH.LVer 0x10 does not fit 4 bits"},
		{&LRH{SL: 16}, "roce: LRH.SL 0x10 does not fit 4 bits"},
		{&LRH{Resv2: 4}, "roce: LRH.Resv2 0x4 does not fit 2 bits"},
		{&LRH{LNH: 4}, "roce: LRH.LNH 0x4 does not fit 2 bits"},
		{&LRH{Resv5: 32}, "roce: LRH.Resv5 0x20 does not fit 5 bits"},
		{&LRH{PktLen: 1 << 11}, "roce: LRH.PktLen 0x800 does not fit 11 bits"},
	} {
		buf := &frontBuffer{}
		err := c.l.Serialize(buf, SerializeOptions{})
		assert.EqualError(t, err, c.msg, "%T", c.l)
		if v, ok := c.l.(interface{ Validate() error }); ok {
			assert.EqualError(t, v.Validate(), c.msg, "%T: Validate", c.l)
		}
		if a, ok := c.l.(interface{ AppendTo([]byte) ([]byte, error) }); ok {
			out, aerr := a.AppendTo(nil)
			assert.Equal(t, err, aerr, "%T: AppendTo", c.l)
			assert.Empty(t, out, "%T: AppendTo wrote despite the error", c.l)
		}
		assert.Empty(t, buf.Bytes(), "%T wrote despite the error", c.l)
	}

	// The BTH applies the opcode's rules to what the layers before it
	// serialized: the extended headers and the payload.
	for _, c := range []struct {
		op      Opcode
		after   int // bytes already in the buffer
		padCnt  uint8
		fix     bool
		wantErr error
	}{
		{OpRCAcknowledge, AETHLen, 0, true, nil},
		{OpRCAcknowledge, AETHLen + 4, 0, true, ErrBadLength},
		{OpRCAcknowledge, AETHLen, 1, false, ErrBadLength}, // a pad is a payload too
		{OpRCAcknowledge, 2, 0, true, ErrBadLength},        // AETH short
		{OpRCAtomicWrite, RETHLen + 8, 0, true, nil},
		{OpRCAtomicWrite, RETHLen + 9, 0, true, ErrBadLength},
		{OpRCSendOnly, 5, 0, true, nil},
		{OpRCSendOnly, 5, 3, false, nil},
	} {
		buf := &frontBuffer{b: make([]byte, c.after)}
		h := &BTH{OpCode: c.op, PadCnt: c.padCnt}
		err := h.Serialize(buf, SerializeOptions{FixLengths: c.fix})
		if c.wantErr == nil {
			require.NoError(t, err, "%v after %d", c.op, c.after)
			var d BTH
			require.NoError(t, d.Decode(buf.Bytes()), "%v: what Serialize wrote decodes", c.op)
			continue
		}
		require.ErrorIs(t, err, c.wantErr, "%v after %d", c.op, c.after)
		require.Len(t, buf.Bytes(), c.after, "%v wrote despite the error", c.op)
	}
}

func TestGRHSerializeFixLengths(t *testing.T) {
	buf := &frontBuffer{b: make([]byte, 20)}
	var h GRH // IPVer and NxtHdr left zero
	require.NoError(t, h.Serialize(buf, SerializeOptions{FixLengths: true}))
	var d GRH
	require.NoError(t, d.Decode(buf.Bytes()))
	assert.EqualValues(t, 6, d.IPVer)
	assert.EqualValues(t, NxtHdrBTH, d.NxtHdr)
	assert.EqualValues(t, 20, d.PayLen)

	buf = &frontBuffer{b: make([]byte, 65536)}
	err := h.Serialize(buf, SerializeOptions{FixLengths: true})
	require.EqualError(t, err, "roce: GRH.PayLen 0x10000 does not fit 16 bits")
	require.Len(t, buf.Bytes(), 65536)

	require.ErrorIs(t, (&GRH{IPVer: 6}).Encode(make([]byte, GRHLen-1)), ErrBadLength)
	require.ErrorIs(t, (&GRH{}).Encode(make([]byte, GRHLen)), ErrBadVersion)
}

func TestLRHSerializeFixLengths(t *testing.T) {
	for _, c := range []struct {
		after int
		msg   string
	}{
		{40, ""},
		{42, "roce: LRH.PktLen 0x32 bytes is not a whole number of 4-byte words"},
		{2048*4 - LRHLen, "roce: LRH.PktLen 0x800 does not fit 11 bits"},
		{2047*4 - LRHLen, ""},
	} {
		buf := &frontBuffer{b: make([]byte, c.after)}
		h := LRH{LNH: LNHIBALocal, VCRC: 0xabcd}
		err := h.Serialize(buf, SerializeOptions{FixLengths: true})
		if c.msg != "" {
			require.EqualError(t, err, c.msg)
			require.Len(t, buf.Bytes(), c.after)
			continue
		}
		require.NoError(t, err)
		var d LRH
		_, _, err = d.Split(buf.Bytes())
		require.NoError(t, err)
		assert.Equal(t, (c.after+LRHLen)/4, int(d.PktLen))
		assert.EqualValues(t, 0xabcd, d.VCRC)
	}
}

// narrow is a field narrower than its Go type, as the property test sees
// it: a name, a width written out from the header diagrams, and where the
// value lives.
type narrow struct {
	name   string
	header Header // NoHeader for the BTH
	bits   uint
	set    func(p *Packet, v uint64)
	typ    uint // width of the Go type
}

var narrowFields = []narrow{
	{"BTH.TVer", NoHeader, 4, func(p *Packet, v uint64) { p.BTH.TVer = uint8(v) }, 8},
	{"BTH.Resv6a", NoHeader, 6, func(p *Packet, v uint64) { p.BTH.Resv6a = uint8(v) }, 8},
	{"BTH.DestQP", NoHeader, 24, func(p *Packet, v uint64) { p.BTH.DestQP = uint32(v) }, 32},
	{"BTH.Resv7", NoHeader, 7, func(p *Packet, v uint64) { p.BTH.Resv7 = uint8(v) }, 8},
	{"BTH.PSN", NoHeader, 24, func(p *Packet, v uint64) { p.BTH.PSN = uint32(v) }, 32},
	{"RDETH.EECnxt", HeaderRDETH, 24, func(p *Packet, v uint64) { p.RDETH.EECnxt = uint32(v) }, 32},
	{"DETH.SrcQP", HeaderDETH, 24, func(p *Packet, v uint64) { p.DETH.SrcQP = uint32(v) }, 32},
	{"XRCETH.XRCSRQ", HeaderXRCETH, 24, func(p *Packet, v uint64) { p.XRCETH.XRCSRQ = uint32(v) }, 32},
	{"AETH.MSN", HeaderAETH, 24, func(p *Packet, v uint64) { p.AETH.MSN = uint32(v) }, 32},
	{"FETH.Resv", HeaderFETH, 26, func(p *Packet, v uint64) { p.FETH.Resv = uint32(v) }, 32},
	{"FETH.SEL", HeaderFETH, 2, func(p *Packet, v uint64) { p.FETH.SEL = uint8(v) }, 8},
	{"FETH.PLT", HeaderFETH, 4, func(p *Packet, v uint64) { p.FETH.PLT = uint8(v) }, 8},
}

// randomPacket fills every field of a Packet at random: full-width fields
// with any value, narrow ones in range most of the time and out of range
// sometimes, a random opcode (mostly a defined one) and payload length.
// It returns the fields set out of range that the opcode carries.
func randomPacket(r *rand.Rand) (p Packet, bad map[string]bool) {
	op := Opcode(r.Intn(256))
	for r.Intn(4) != 0 && !op.Known() {
		op = Opcode(r.Intn(256))
	}
	// Full-width fields, by reflection: every exported integer field of
	// every header, and the booleans.
	v := reflect.ValueOf(&p).Elem()
	for i := 0; i < v.NumField(); i++ {
		h := v.Field(i)
		if h.Kind() != reflect.Struct {
			continue
		}
		for j := 0; j < h.NumField(); j++ {
			f := h.Field(j)
			if !f.CanSet() {
				continue
			}
			switch f.Kind() {
			case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				f.SetUint(r.Uint64())
			case reflect.Bool:
				f.SetBool(r.Intn(2) == 1)
			}
		}
	}
	p.BTH.OpCode = op
	p.BTH.PadCnt = uint8(r.Intn(4))
	bad = map[string]bool{}
	if !op.Known() && r.Intn(8) == 0 {
		p.BTH.PadCnt = uint8(4 + r.Intn(252))
		bad["BTH.PadCnt"] = true
	}
	hs := op.Headers()
	for _, f := range narrowFields {
		x := r.Uint64() & (1<<f.bits - 1)
		if r.Intn(12) == 0 {
			x |= 1 << (f.bits + uint(r.Intn(int(f.typ-f.bits))))
			if f.header == NoHeader || hs.Has(f.header) {
				bad[f.name] = true
			}
		}
		f.set(&p, x)
	}
	n := r.Intn(24)
	if r.Intn(4) == 0 {
		n = 8
	}
	if r.Intn(3) == 0 {
		n = 0
	}
	p.Payload = make([]byte, n)
	r.Read(p.Payload)
	if r.Intn(2) == 0 {
		p.BTH.Pad = make([]byte, r.Intn(4))
		r.Read(p.BTH.Pad)
	}
	return p, bad
}

// payloadFits says whether n payload bytes suit the opcode, from the
// operation codes of IBTA Vol 1 Table 38 that carry none (READ Request,
// Acknowledge, ATOMIC Acknowledge, CmpSwap, FetchAdd, RESYNC, FLUSH) and
// the 8 bytes of ATOMIC WRITE.
func payloadFits(op Opcode, n int) bool {
	if !op.Known() || op == OpCNP {
		return true
	}
	switch op.Operation() {
	case 0x0c, 0x11, 0x12, 0x13, 0x14, 0x15, 0x1c:
		return n == 0
	case 0x1d:
		return n == 8
	}
	return true
}

// TestPacketProperty builds random packets, valid and not. What AppendTo
// accepts decodes back to equal values (and the gopacket layers serialize
// it to the same bytes); what it refuses it refuses with a *FieldError
// naming one of the fields that do not fit, or the payload.
func TestPacketProperty(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	accepted, refused := 0, 0
	for i := range 20000 {
		in, bad := randomPacket(r)
		payloadOK := payloadFits(in.BTH.OpCode, len(in.Payload))
		p := in
		out, err := p.AppendTo(nil)
		if len(bad) > 0 || !payloadOK {
			refused++
			var fe *FieldError
			require.ErrorAs(t, err, &fe, "#%d %v: bad %v, payload ok %v", i, in.BTH.OpCode, bad, payloadOK)
			require.Nil(t, out)
			if fe.Field == "Packet.Payload" {
				require.False(t, payloadOK, "#%d: %v", i, err)
				require.ErrorIs(t, err, ErrBadLength)
			} else {
				require.True(t, bad[fe.Field], "#%d: %v, bad fields %v", i, err, bad)
				require.ErrorIs(t, err, ErrBadValue)
			}
			checkLayersRefuse(t, &in)
			continue
		}
		accepted++
		require.NoError(t, err, "#%d %v", i, in.BTH.OpCode)
		var d Packet
		require.NoError(t, d.Decode(out), "#%d %v: %x", i, in.BTH.OpCode, out)
		want := expectedDecode(&in)
		if diff := cmp.Diff(want, d, cmpopts.IgnoreUnexported(Packet{}, BTH{}, RDETH{}, DETH{}, XRCETH{}, RETH{}, AtomicETH{},
			AtomicAckETH{}, AETH{}, ImmDt{}, IETH{}, FETH{}), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("#%d %v: decode (-want +got):\n%s", i, in.BTH.OpCode, diff)
		}
		checkLayersAgree(t, &in, out)
	}
	t.Logf("%d accepted, %d refused", accepted, refused)
	require.Greater(t, accepted, 5000)
	require.Greater(t, refused, 5000)
}

// expectedDecode is what decoding the encoding of in gives: the BTH with
// PadCnt set by AppendTo for a defined opcode, the headers the opcode
// lists (copied by name), the payload, the pad as written.
func expectedDecode(in *Packet) Packet {
	want := Packet{BTH: in.BTH, Payload: in.Payload}
	want.BTH.Pad = nil
	want.BTH.Truncated = false // AppendTo writes the whole packet
	if in.BTH.OpCode.Known() {
		n := -len(in.Payload) & 3
		want.BTH.PadCnt = uint8(n)
		want.BTH.Pad = make([]byte, n)
		if len(in.BTH.Pad) == n {
			want.BTH.Pad = in.BTH.Pad
		}
	}
	hs := in.BTH.OpCode.Headers()
	src, dst := reflect.ValueOf(in).Elem(), reflect.ValueOf(&want).Elem()
	for i := 0; i < hs.Len(); i++ {
		name := hs.At(i).String()
		dst.FieldByName(name).Set(src.FieldByName(name))
	}
	return want
}

// headersOf returns the headers of p, BTH first.
func headersOf(p *Packet) []serializable {
	ls := []serializable{&p.BTH}
	hs := p.BTH.OpCode.Headers()
	v := reflect.ValueOf(p).Elem()
	for i := 0; i < hs.Len(); i++ {
		ls = append(ls, v.FieldByName(hs.At(i).String()).Addr().Interface().(serializable))
	}
	return ls
}

// serializeHeaders serializes p as a gopacket.SerializeLayers would, last
// header first, behind its payload.
func serializeHeaders(p *Packet) ([]byte, error) {
	buf := &frontBuffer{b: append([]byte(nil), p.Payload...)}
	ls := headersOf(p)
	for i := len(ls) - 1; i >= 0; i-- {
		if err := ls[i].Serialize(buf, SerializeOptions{FixLengths: true}); err != nil {
			return nil, err
		}
	}
	return buf.b, nil
}

func checkLayersAgree(t *testing.T, in *Packet, want []byte) {
	t.Helper()
	p := *in
	got, err := serializeHeaders(&p)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "%v: Serialize\n%x\nAppendTo\n%x", in.BTH.OpCode, got, want)
}

func checkLayersRefuse(t *testing.T, in *Packet) {
	t.Helper()
	p := *in
	_, err := serializeHeaders(&p)
	require.True(t, errors.Is(err, ErrBadValue) || errors.Is(err, ErrBadLength), "%v: Serialize: %v", in.BTH.OpCode, err)
}
