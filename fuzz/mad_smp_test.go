package fuzz

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// FuzzSMP (subnet and performance management MADs, package mad): the
// input is a MAD. It goes to the three layouts (mad.SMP, mad.SMPDirected,
// mad.PerfMgt) through Decode and gopacket.NewPacket (the MAD layer, then
// the class layer's DecodeFromBytes on the MAD data),
// and its bytes from 64 on to every SMP and PerfMgt attribute decoder.
// Properties: no panic in package mad; errors wrap ib.ErrTruncated,
// ErrUnsupported or ErrBadLength (a directed route of more than 63
// hops); the three decode paths agree; a decoded layout's contents lie in
// the input and it re-encodes (AppendTo and SerializeTo) to the input's
// 256 bytes, byte for byte; an attribute decodes exactly when its data
// field is whole, and its AppendTo re-encodes to bytes that decode back to
// the same struct (reserved bits are not kept).
//
// Seeds: the six SMPs to QP 0 of the native capture in testdata/captures
// and MADs built with this package's builders.
func FuzzSMP(f *testing.F) {
	for _, b := range fzMADSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fzExact(data)
		fzMADLayoutCheck(t, b, &googlelayers.SMP{}, mad.ClassSubnLID)
		fzMADLayoutCheck(t, b, &googlelayers.SMPDirected{}, mad.ClassSubnDR)
		fzMADLayoutCheck(t, b, &googlelayers.PerfMgt{}, mad.ClassPerfMgt)
		if len(b) >= 64 {
			for _, a := range fzMADAttrs() {
				fzMADAttrCheck(t, b[64:], a.attr, a.size)
			}
		}
	})
}

// fzMADLayout is what the MAD layouts of package mad have.
type fzMADLayout interface {
	gopacket.DecodingLayer
	gopacket.SerializableLayer
	gopacket.Layer
	Decode(b []byte) error
	AppendTo(b []byte) ([]byte, error)
}

// fzMADAttr is what the attributes of package mad have.
type fzMADAttr interface {
	Decode(b []byte) error
	AppendTo(b []byte) ([]byte, error)
}

// fzMADAttrs returns a fresh value of every attribute with the size of
// the data field it decodes from.
func fzMADAttrs() []struct {
	attr fzMADAttr
	size int
} {
	return []struct {
		attr fzMADAttr
		size int
	}{
		{&mad.NodeInfo{}, mad.SMPDataLen}, {&mad.NodeDescription{}, mad.SMPDataLen},
		{&mad.PortInfo{}, mad.SMPDataLen}, {&mad.SMInfo{}, mad.SMPDataLen},
		{&mad.GUIDInfo{}, mad.SMPDataLen}, {&mad.PKeyTable{}, mad.SMPDataLen},
		{&mad.SwitchInfo{}, mad.SMPDataLen},
		{&mad.PortCounters{}, mad.PerfDataLen}, {&mad.PortCountersExtended{}, mad.PerfDataLen},
	}
}

var fzMADErrs = []error{ib.ErrTruncated, ib.ErrUnsupported, ib.ErrBadLength}

// fzMADLayoutCheck decodes b with l, on its own (Decode, the whole MAD)
// and as gopacket does it (the MAD layer, then l on the MAD data after
// the header): both agree, and a decoded MAD encodes back to its bytes.
func fzMADLayoutCheck(t *testing.T, b []byte, l fzMADLayout, class mad.Class) {
	name := reflect.TypeOf(l).Elem().Name()
	err := l.Decode(b)
	fzCheckErr(t, name+".Decode", err, fzMADErrs...)
	pk := gopacket.NewPacket(b, l.LayerType(), fzDecodeOptions)
	if df, ok := pk.ErrorLayer().(*gopacket.DecodeFailure); ok && strings.Contains(df.Dump(), "github.com/roce-go/roce/mad.") {
		t.Fatalf("%s: panic in package mad: %v\n%s", name, df.Error(), df.Dump())
	}
	if len(b) < mad.HeaderLen || mad.Class(b[1]) != class {
		if err == nil {
			t.Fatalf("%s: decoded a MAD of class %#x", name, b[1])
		}
		return
	}
	if (pk.ErrorLayer() == nil) != (err == nil) {
		t.Fatalf("%s: Decode %v, NewPacket error layer %v", name, err, pk.ErrorLayer())
	}
	if err != nil {
		if len(l.LayerContents()) != 0 {
			t.Fatalf("%s: contents left after an error", name)
		}
		return
	}
	ml, _ := pk.Layer(googlelayers.LayerTypeMAD).(*googlelayers.MAD)
	got, _ := pk.Layer(l.LayerType()).(fzMADLayout)
	if ml == nil || got == nil {
		t.Fatalf("%s: NewPacket gave %v", name, pk.Layers())
	}
	fzWithin(t, b, got.LayerContents(), name+".Contents")
	fzWithin(t, b, got.LayerPayload(), name+".Payload")
	if !bytes.Equal(got.LayerContents(), b[mad.HeaderLen:mad.Len]) || len(got.LayerPayload()) != len(b)-mad.Len {
		t.Fatalf("%s: contents and payload are not the MAD data and the rest", name)
	}
	if ferr := l.DecodeFromBytes(b[mad.HeaderLen:], nil); ferr != nil { // Header as Decode set it
		t.Fatalf("%s: DecodeFromBytes of the data of a MAD Decode takes: %v", name, ferr)
	}
	for _, d := range []fzMADLayout{l, got} {
		out, err := d.AppendTo([]byte{0x5a})
		if err != nil {
			t.Fatalf("%s: AppendTo of a decoded MAD: %v", name, err)
		}
		if out[0] != 0x5a || !bytes.Equal(out[1:], b[:mad.Len]) {
			t.Fatalf("%s: AppendTo\n%x\nwant\n%x", name, out[1:], b[:mad.Len])
		}
	}
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, ml, got); err != nil || !bytes.Equal(buf.Bytes(), b[:mad.Len]) {
		t.Fatalf("%s: SerializeTo %v\n%x", name, err, buf.Bytes())
	}
}

func fzMADAttrCheck(t *testing.T, b []byte, a fzMADAttr, size int) {
	name := reflect.TypeOf(a).Elem().Name()
	err := a.Decode(b)
	fzCheckErr(t, name+".Decode", err, ib.ErrTruncated)
	if (err == nil) != (len(b) >= size) {
		t.Fatalf("%s: Decode of %d bytes: %v", name, len(b), err)
	}
	if err != nil {
		return
	}
	out, err := a.AppendTo(nil)
	if err != nil || len(out) != size {
		t.Fatalf("%s: AppendTo of a decoded attribute: %d bytes, %v", name, len(out), err)
	}
	back := reflect.New(reflect.TypeOf(a).Elem()).Interface().(fzMADAttr)
	if err := back.Decode(out); err != nil {
		t.Fatalf("%s: decode of its encoding: %v", name, err)
	}
	if !reflect.DeepEqual(a, back) {
		t.Fatalf("%s: %+v encodes to a different %+v", name, a, back)
	}
}

// fzMADSeeds returns the SMPs of the native capture (the payload of UD
// SEND Only to QP 0) and MADs built by package mad.
func fzMADSeeds(tb testing.TB) [][]byte {
	frames, _ := fzLoad(tb)
	var out [][]byte
	for _, c := range frames {
		if c.linkType != 197 || len(c.data) < 16 {
			continue
		}
		pkt := c.data[16:] // the ERF header
		var lrh ib.LRH
		var p ib.Packet
		if lrh.Decode(pkt) != nil || lrh.LNH != ib.LNHIBALocal || int(lrh.PktLen)*4 > len(pkt) ||
			p.Decode(pkt[ib.LRHLen:int(lrh.PktLen)*4]) != nil {
			continue
		}
		if p.BTH.OpCode == ib.OpUDSendOnly && p.BTH.DestQP == 0 && len(p.Payload) == mad.Len {
			out = append(out, p.Payload)
		}
	}
	if len(out) != 6 {
		tb.Fatalf("%d SMPs in the native capture, want 6", len(out))
	}
	return append(out, fzMADBuilt(tb)...)
}

// fzMADBuilt returns a LID-routed PortInfo, a directed-route NodeInfo and
// PerfMgt PortCounters and PortCountersExtended, built by package mad.
func fzMADBuilt(tb testing.TB) [][]byte {
	h := func(c mad.Class, attr uint16) mad.Header {
		return mad.Header{BaseVersion: 1, MgmtClass: c, ClassVersion: 1, Response: true, Method: mad.MethodGet, TransactionID: 7, AttributeID: attr}
	}
	pi := mad.PortInfo{LID: 42, PortState: 4, LMC: 3, HOQLife: 0x13, ClientReregister: true, LinkRoundTripLatency: 0x10203}
	lid := mad.SMP{Header: h(mad.ClassSubnLID, uint16(mad.SMPAttrPortInfo)), MKey: 1}
	ni := mad.NodeInfo{BaseVersion: 1, NodeType: mad.NodeTypeSwitch, NumPorts: 36, VendorID: 0x2c9}
	dr := mad.SMPDirected{Header: h(mad.ClassSubnDR, uint16(mad.SMPAttrNodeInfo)), DrSLID: 0xffff, DrDLID: 0xffff}
	dr.SetDirection(true)
	pc := mad.PortCounters{PortSelect: 1, LocalLinkIntegrityErrors: 9, PortXmitData: 1 << 31}
	perf := mad.PerfMgt{Header: h(mad.ClassPerfMgt, uint16(mad.PerfAttrPortCounters))}
	pce := mad.PortCountersExtended{PortSelect: 2, PortXmitData: 1 << 40, QP1Dropped: 3}
	perfExt := mad.PerfMgt{Header: h(mad.ClassPerfMgt, uint16(mad.PerfAttrPortCountersExtended))}
	var out [][]byte
	for _, step := range []func() ([]byte, error){
		func() ([]byte, error) { _, _ = pi.AppendTo(lid.Data[:0]); return lid.AppendTo(nil) },
		func() ([]byte, error) {
			_ = dr.SetHops(1, 2)
			_, _ = ni.AppendTo(dr.Data[:0])
			return dr.AppendTo(nil)
		},
		func() ([]byte, error) { _, _ = pc.AppendTo(perf.Data[:0]); return perf.AppendTo(nil) },
		func() ([]byte, error) { _, _ = pce.AppendTo(perfExt.Data[:0]); return perfExt.AppendTo(nil) },
	} {
		b, err := step()
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}
