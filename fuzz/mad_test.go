package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/mad"
)

// fzMADs returns the MADs of the real captures (the two rxe captures'
// RDMA-CM, the ERF capture's CM, SA and SMPs), 256 bytes each.
func fzMADs(tb testing.TB) [][]byte {
	var out [][]byte
	for _, name := range []string{"rocev2_ipv4_rdmacm_write_read_rxe_a.pcap", "rocev2_ipv4_rdmacm_write_read_rxe_b.pcap"} {
		for _, fr := range corpus.Capture(tb, name) {
			var f roce.Frame
			if f.Decode(fr) == nil && f.Packet.BTH.OpCode == ib.OpUDSendOnly && f.Packet.BTH.DestQP <= 1 {
				out = append(out, f.Packet.Payload)
			}
		}
	}
	for _, rec := range corpus.Capture(tb, "ib_native_erf_dag_smp_ipoib_cm.pcap") {
		// ERF: 16-byte header (no extension headers in this file), the
		// wire length at bytes 14-15.
		pkt := gopacket.NewPacket(rec[16:16+int(binary.BigEndian.Uint16(rec[14:]))], googlelayers.LayerTypeLRH, gopacket.Default)
		if m, ok := pkt.Layer(googlelayers.LayerTypeMAD).(*googlelayers.MAD); ok {
			out = append(out, append(append([]byte(nil), m.Contents...), m.Payload...))
		}
	}
	return out
}

// FuzzMAD: arbitrary bytes as a MAD through a DecodingLayerParser over
// googlelayers.MADLayers and through gopacket.NewPacket from LayerTypeMAD. Fewer
// than 256 bytes fail with ErrTruncated, 256 or more decode (an unknown
// class or attribute as opaque data), but for a directed-route SMP with a
// hop count above 63, which fails with ErrBadLength; the parser and NewPacket agree on
// the layers; every layer lies within the input; the layers of a whole
// MAD re-serialize to it byte for byte.
func FuzzMAD(f *testing.F) {
	for _, m := range fzMADs(f) {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data[:min(len(data), mad.Len)])
		var l googlelayers.MADLayers
		var pl gopacket.Payload
		p := gopacket.NewDecodingLayerParser(googlelayers.LayerTypeMAD, append(l.DecodingLayers(), &pl)...)
		var decoded []gopacket.LayerType
		err := p.DecodeLayers(b, &decoded)
		fzCheckErr(t, "parser", err, ib.ErrTruncated, ib.ErrBadLength)
		badHops := len(b) == mad.Len && mad.Class(b[1]) == mad.ClassSubnDR && b[7] > mad.MaxHopCount
		if (err != nil) != (len(b) < mad.Len || badHops) {
			t.Fatalf("%d bytes: %v", len(b), err)
		}
		_ = l.MAD.String()
		pkt := gopacket.NewPacket(b, googlelayers.LayerTypeMAD, gopacket.NoCopy)
		fzNoPanic(t, "NewPacket", pkt)
		if err != nil {
			if pkt.ErrorLayer() == nil {
				t.Fatalf("NewPacket accepts what the parser refuses: %v", err)
			}
			return
		}
		var sls []gopacket.SerializableLayer
		var types []gopacket.LayerType
		for _, ly := range pkt.Layers() {
			fzLayersWithin(t, b, "NewPacket", ly)
			sls = append(sls, ly.(gopacket.SerializableLayer))
			types = append(types, ly.LayerType())
		}
		if !reflect.DeepEqual(types, decoded) {
			t.Fatalf("NewPacket layers %v, parser %v", types, decoded)
		}
		if out := fzSerialize(t, "MAD layers", sls...); !bytes.Equal(out, b) {
			t.Fatalf("MAD layers serialize to\n%x\nwant\n%x", out, b)
		}
	})
}

// fzCodec is an attribute, a record or a header with Decode and AppendTo.
type fzCodec interface {
	Decode(b []byte) error
	AppendTo(b []byte) ([]byte, error)
}

// The codecs of each family: CM (every message, ClassPortInfo, the IP-CM
// private data), SA (the records and, through FuzzMAD, the SA header)
// and the RMPP header.
var (
	fzCMCodecs = []func() fzCodec{
		func() fzCodec { return new(mad.REQ) }, func() fzCodec { return new(mad.MRA) },
		func() fzCodec { return new(mad.REJ) }, func() fzCodec { return new(mad.REP) },
		func() fzCodec { return new(mad.RTU) }, func() fzCodec { return new(mad.DREQ) },
		func() fzCodec { return new(mad.DREP) }, func() fzCodec { return new(mad.SIDRREQ) },
		func() fzCodec { return new(mad.SIDRREP) }, func() fzCodec { return new(mad.LAP) },
		func() fzCodec { return new(mad.APR) }, func() fzCodec { return new(mad.ClassPortInfo) },
		func() fzCodec { return new(mad.IPCM) },
	}
	fzSACodecs = []func() fzCodec{
		func() fzCodec { return new(mad.PathRecord) }, func() fzCodec { return new(mad.NodeRecord) },
		func() fzCodec { return new(mad.PortInfoRecord) }, func() fzCodec { return new(mad.ServiceRecord) },
		func() fzCodec { return new(mad.MCMemberRecord) }, func() fzCodec { return new(mad.RMPP) },
	}
)

// FuzzCM: the first byte selects a CM message (or ClassPortInfo, or the
// IP-CM private data); the rest goes to its Decode and, read as field
// values, to its AppendTo (see fzCodecCheck).
func FuzzCM(f *testing.F) {
	for _, m := range fzMADs(f) {
		if mad.Class(m[1]) == mad.ClassCM {
			for i := range fzCMCodecs {
				f.Add(append([]byte{byte(i)}, m[mad.HeaderLen:]...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { fzCodecCheck(t, fzCMCodecs, data) })
}

// FuzzSA: the first byte selects an SA record (or the RMPP header), as
// FuzzCM.
func FuzzSA(f *testing.F) {
	for _, m := range fzMADs(f) {
		if mad.Class(m[1]) == mad.ClassSubnAdm {
			for i := range fzSACodecs {
				f.Add(append([]byte{byte(i)}, m[mad.HeaderLen+mad.RMPPLen+mad.SAHeaderLen:]...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { fzCodecCheck(t, fzSACodecs, data) })
}

// fzCodecCheck runs one codec over data[1:]: Decode either fails with
// ErrTruncated (and then every longer input of the codec's size decodes)
// or decodes, and AppendTo of the decoded value writes the input's bytes
// back, byte for byte (for PortInfoRecord, whose PortInfo drops reserved
// bits, bytes that decode to the same record). Then the bytes set every field of a fresh value
// (integers at their Go width, so past their bit width; byte slices of a
// fuzzed length): AppendTo either refuses with a *ib.FieldError wrapping
// ErrBadValue and appends nothing, or writes bytes that decode back to
// every field it was given.
func fzCodecCheck(t *testing.T, codecs []func() fzCodec, data []byte) {
	if len(data) == 0 {
		return
	}
	newC := codecs[int(data[0])%len(codecs)]
	in := fzExact(data[1:])
	v := newC()
	size := len(fzMustAppend(t, newC()))
	err := v.Decode(in)
	fzCheckErr(t, "Decode", err, ib.ErrTruncated)
	if (err != nil) != (len(in) < size) {
		t.Fatalf("%T: %d bytes of %d: %v", v, len(in), size, err)
	}
	if err == nil {
		out := fzMustAppend(t, v)
		if _, normalizes := v.(*mad.PortInfoRecord); normalizes && !bytes.Equal(out, in[:size]) {
			// The SMP PortInfo type it embeds encodes its reserved bits
			// as zero: the re-encoding decodes to the same record.
			back := newC()
			if back.Decode(out) != nil || !reflect.DeepEqual(back, v) {
				t.Fatalf("%T re-encodes to\n%x\nwhich decodes to %+v, not %+v", v, out, back, v)
			}
		} else if !bytes.Equal(out, in[:size]) {
			t.Fatalf("%T re-encodes to\n%x\nwant\n%x", v, out, in[:size])
		}
	}

	// The builder.
	w := newC()
	r := fzFieldReader{b: in}
	fzMADFill(reflect.ValueOf(w).Elem(), &r)
	prefix := []byte("prefix")
	out, err := w.AppendTo(prefix[:len(prefix):len(prefix)])
	if err != nil {
		var fe *ib.FieldError
		if !errors.As(err, &fe) || !errors.Is(err, ib.ErrBadValue) || !bytes.Equal(out, prefix) {
			t.Fatalf("%T AppendTo refused with %v (%T), returned %q", w, err, err, out)
		}
		return
	}
	g := newC()
	if err := g.Decode(out[len(prefix):]); err != nil {
		t.Fatalf("%T: AppendTo wrote what Decode refuses: %v", w, err)
	}
	if d := fzFieldDiff(reflect.ValueOf(w).Elem(), reflect.ValueOf(g).Elem()); d != "" {
		t.Fatalf("%T: %s", w, d)
	}
}

func fzMustAppend(t *testing.T, c fzCodec) []byte {
	out, err := c.AppendTo(nil)
	if err != nil {
		t.Fatalf("%T: %v", c, err)
	}
	return out
}

// fzFieldDiff compares what a builder was given with what was decoded
// from its bytes: integers, bools and arrays equal, a byte slice the
// prefix of the decoded field, the rest of the field zero.
func fzFieldDiff(want, got reflect.Value) string {
	for i := 0; i < want.NumField(); i++ {
		f := want.Type().Field(i)
		if !f.IsExported() || f.Name == "BaseLayer" {
			continue
		}
		a, b := want.Field(i), got.Field(i)
		switch {
		case a.Kind() == reflect.Struct:
			if d := fzFieldDiff(a, b); d != "" {
				return f.Name + "." + d
			}
		case a.Kind() == reflect.Slice:
			x, y := a.Bytes(), b.Bytes()
			if !bytes.Equal(x, y[:len(x)]) || len(bytes.Trim(y[len(x):], "\x00")) != 0 {
				return f.Name + ": gave " + string(x) + ", decoded " + string(y)
			}
		case !reflect.DeepEqual(a.Interface(), b.Interface()):
			return f.Name + " differs"
		}
	}
	return ""
}

// fzMADFill sets every exported field of v from r: as fzFields does, and
// a byte slice to a length taken from one byte (so longer than its field
// at times) and the bytes after it.
func fzMADFill(v reflect.Value, r *fzFieldReader) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && f.Name != "BaseLayer" {
				fzMADFill(v.Field(i), r)
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fzMADFill(v.Index(i), r)
		}
	case reflect.Slice:
		if len(r.b) == 0 {
			return
		}
		n := int(r.b[0])
		r.skip(1)
		v.SetBytes(bytes.Clone(r.b[:min(n, len(r.b))]))
		r.skip(n)
	default:
		r.set(v)
	}
}
