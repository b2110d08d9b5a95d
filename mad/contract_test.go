package mad_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/mad"
)

// TestDispatch checks what the class table makes of each captured MAD:
// the layers the parser walks, by class and attribute.
func TestDispatch(t *testing.T) {
	seen := map[string]int{}
	for _, m := range capturedMADs(t) {
		l, decoded := decodeMAD(t, m.raw)
		var want []gopacket.LayerType
		switch l.MAD.MgmtClass {
		case mad.ClassCM:
			want = []gopacket.LayerType{googlelayers.LayerTypeMAD, googlelayers.LayerTypeCM}
		case mad.ClassSubnAdm:
			want = []gopacket.LayerType{googlelayers.LayerTypeMAD, googlelayers.LayerTypeRMPP, googlelayers.LayerTypeSA}
		case mad.ClassSubnDR:
			want = []gopacket.LayerType{googlelayers.LayerTypeMAD, googlelayers.LayerTypeSMPDirected}
		default:
			t.Errorf("%s frame %d: class %v, none the captures hold", m.file, m.frame, l.MAD.MgmtClass)
		}
		if !slices.Equal(decoded, want) {
			t.Errorf("%s frame %d (%v): decoded %v, want %v", m.file, m.frame, l.MAD.String(), decoded, want)
		}
		seen[l.MAD.String()]++
	}
	// tshark's listing of the captures (Info column): REQ, REP, RTU in
	// all three, DREQ and DREP in the rxe ones, SubnGet(SMInfo) and its
	// response, SubnAdmGet(PathRecord) and its response.
	for s, n := range map[string]int{
		"CM Send ConnectRequest": 5, "CM Send ConnectReply": 5, "CM Send ReadyToUse": 5,
		"CM Send DisconnectRequest": 2, "CM Send DisconnectReply": 2,
		"SA Get PathRecord": 1, "SA GetResp PathRecord": 1,
		"SMP-DR Get SMInfo": 3, "SMP-DR GetResp SMInfo": 3,
	} {
		if seen[s] != n {
			t.Errorf("%q: %d MADs, want %d (all: %v)", s, seen[s], n, seen)
		}
	}
}

// TestUnknownClass: a class or a CM attribute this package does not
// decode is the MAD header and opaque data, never an error.
func TestUnknownClass(t *testing.T) {
	raw := append([]byte(nil), capturedMADs(t)[0].raw...)
	for _, c := range []struct {
		class byte
		attr  uint16
	}{{0x09, 0x10}, {0x30, 0x10}, {0x07, 0x0099}, {0xff, 0}} {
		raw[1], raw[16], raw[17] = c.class, byte(c.attr>>8), byte(c.attr)
		l, decoded := decodeMAD(t, raw)
		last := decoded[len(decoded)-1]
		if last != gopacket.LayerTypePayload || l.MAD.MgmtClass != mad.Class(c.class) {
			t.Errorf("class %#x attribute %#x: decoded %v", c.class, c.attr, decoded)
		}
		if mad.Class(c.class).HasRMPP() != (len(decoded) == 3) {
			t.Errorf("class %#x: RMPP %v, decoded %v", c.class, mad.Class(c.class).HasRMPP(), decoded)
		}
	}
}

// TestRoundTrip re-serializes the layers of every captured MAD with
// gopacket.SerializeLayers: the same 256 bytes.
func TestRoundTrip(t *testing.T) {
	for _, m := range capturedMADs(t) {
		pkt := gopacket.NewPacket(m.raw, googlelayers.LayerTypeMAD, gopacket.Default)
		if el := pkt.ErrorLayer(); el != nil {
			t.Fatalf("%s frame %d: %v", m.file, m.frame, el.Error())
		}
		var sls []gopacket.SerializableLayer
		for _, l := range pkt.Layers() {
			sls = append(sls, l.(gopacket.SerializableLayer))
		}
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, sls...); err != nil {
			t.Fatalf("%s frame %d: %v", m.file, m.frame, err)
		}
		if !bytes.Equal(buf.Bytes(), m.raw) {
			t.Errorf("%s frame %d: serializes to\n%x\nwant\n%x", m.file, m.frame, buf.Bytes(), m.raw)
		}
	}
}

// TestTruncation cuts every captured MAD and every golden attribute at
// every length short of whole, with the capacity equal to the length:
// each decoder fails with ErrTruncated and never panics.
func TestTruncation(t *testing.T) {
	cuts := 0
	for _, m := range capturedMADs(t) {
		var l googlelayers.MADLayers
		p := gopacket.NewDecodingLayerParser(googlelayers.LayerTypeMAD, l.DecodingLayers()...)
		var decoded []gopacket.LayerType
		for n := 0; n < len(m.raw); n++ {
			b := bytes.Clone(m.raw[:n])
			if err := p.DecodeLayers(b, &decoded); !errors.Is(err, ib.ErrTruncated) {
				t.Fatalf("%s frame %d cut at %d: %v", m.file, m.frame, n, err)
			}
			if err := l.MAD.DecodeFromBytes(b, nil); !errors.Is(err, ib.ErrTruncated) {
				t.Fatalf("%s frame %d cut at %d: MAD: %v", m.file, m.frame, n, err)
			}
			cuts++
		}
	}
	for _, a := range readGolden(t) {
		for n := 0; n < len(a.raw); n++ {
			if err := goldenTypes[a.name]().Decode(bytes.Clone(a.raw[:n])); !errors.Is(err, ib.ErrTruncated) {
				t.Fatalf("%s cut at %d: %v", a.name, n, err)
			}
			cuts++
		}
	}
	// The body layers, given less than their bytes after a whole header.
	for _, m := range capturedMADs(t) {
		var l googlelayers.MADLayers
		l.DecodingLayers()
		if err := l.MAD.DecodeFromBytes(m.raw, nil); err != nil {
			t.Fatal(err)
		}
		body := m.raw[mad.HeaderLen:]
		for n := 0; n < len(body); n++ {
			b := bytes.Clone(body[:n])
			var err error
			switch l.MAD.MgmtClass {
			case mad.ClassCM:
				err = l.CM.DecodeFromBytes(b, nil)
			case mad.ClassSubnAdm:
				if err = l.RMPP.DecodeFromBytes(b, nil); err == nil {
					err = l.SA.DecodeFromBytes(b[mad.RMPPLen:], nil)
				}
			default:
				continue
			}
			if !errors.Is(err, ib.ErrTruncated) {
				t.Fatalf("%s frame %d: body cut at %d: %v", m.file, m.frame, n, err)
			}
			cuts++
		}
	}
	var ip mad.IPCM
	for n := 0; n < mad.REQPrivateDataLen; n++ {
		if err := ip.Decode(make([]byte, n)); !errors.Is(err, ib.ErrTruncated) {
			t.Fatalf("IPCM cut at %d: %v", n, err)
		}
		cuts++
	}
	t.Logf("%d cuts", cuts)
}

// TestFieldErrors: the builders refuse a value that does not fit,
// naming the field, and append nothing.
func TestFieldErrors(t *testing.T) {
	prefix := []byte("prefix")
	for _, c := range []struct {
		field string
		build func() ([]byte, error)
		want  error
	}{
		{"CM.REQ.LocalQPN", func() ([]byte, error) { return (&mad.REQ{LocalQPN: 1 << 24}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.REQ.Primary.FlowLabel", func() ([]byte, error) {
			return (&mad.REQ{Primary: mad.CMPath{FlowLabel: 1 << 20}}).AppendTo(prefix)
		}, ib.ErrBadValue},
		{"CM.REQ.Alternate.SL", func() ([]byte, error) { return (&mad.REQ{Alternate: mad.CMPath{SL: 16}}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.REQ.PrivateData", func() ([]byte, error) { return (&mad.REQ{PrivateData: make([]byte, 93)}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.REJ.RejectedInfoLength", func() ([]byte, error) { return (&mad.REJ{RejectedInfoLength: 128}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.LAP.AlternateFlowLabel", func() ([]byte, error) { return (&mad.LAP{AlternateFlowLabel: 1 << 20}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.SIDR_REP.QPN", func() ([]byte, error) { return (&mad.SIDRREP{QPN: 1 << 24}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.DREQ.RemoteQPN", func() ([]byte, error) { return (&mad.DREQ{RemoteQPN: 1 << 24}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.REP.TargetACKDelay", func() ([]byte, error) { return (&mad.REP{TargetACKDelay: 32}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.MRA.MessageMRAed", func() ([]byte, error) { return (&mad.MRA{MessageMRAed: 4}).AppendTo(prefix) }, ib.ErrBadValue},
		{"RMPP.RRespTime", func() ([]byte, error) { return (&mad.RMPP{RRespTime: 32}).AppendTo(prefix) }, ib.ErrBadValue},
		{"SA.PathRecord.FlowLabel", func() ([]byte, error) { return (&mad.PathRecord{FlowLabel: 1 << 20}).AppendTo(prefix) }, ib.ErrBadValue},
		{"SA.MCMemberRecord.JoinState", func() ([]byte, error) { return (&mad.MCMemberRecord{JoinState: 16}).AppendTo(prefix) }, ib.ErrBadValue},
		{"CM.REQ.IPCM.IPV", func() ([]byte, error) { return (&mad.IPCM{IPV: 16}).AppendTo(prefix) }, ib.ErrBadValue},
		{"ClassPortInfo.RedirectQP", func() ([]byte, error) { return (&mad.ClassPortInfo{RedirectQP: 1 << 24}).AppendTo(prefix) }, ib.ErrBadValue},
	} {
		out, err := c.build()
		var fe *ib.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, c.want) {
			t.Errorf("%s: %v", c.field, err)
		}
		if !bytes.Equal(out, prefix) {
			t.Errorf("%s: refused but returned %q", c.field, out)
		}
	}
	var cm googlelayers.CM
	cm.AttributeID = 0x99
	if _, err := cm.AppendTo(nil); !errors.Is(err, ib.ErrBadValue) {
		t.Errorf("CM attribute 0x99: AppendTo %v", err)
	}
	if err := cm.SerializeTo(gopacket.NewSerializeBuffer(), gopacket.SerializeOptions{}); !errors.Is(err, ib.ErrBadValue) {
		t.Errorf("CM attribute 0x99: %v", err)
	}
}

// TestNoAllocs: decoding (the parser over a whole frame, each message
// and record) and encoding into a buffer with room allocate nothing.
func TestNoAllocs(t *testing.T) {
	frames := corpus.Capture(t, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	var l googlelayers.Layers
	p := l.Parser()
	decoded := make([]gopacket.LayerType, 0, 16)
	for _, i := range []int{0, 1, 2, 10, 11} { // REQ, REP, RTU, DREQ, DREP
		if a := testing.AllocsPerRun(100, func() {
			if err := p.DecodeLayers(frames[i], &decoded); err != nil || decoded[len(decoded)-1] != googlelayers.LayerTypeCM {
				t.Fatalf("frame %d: %v %v", i+1, err, decoded)
			}
		}); a != 0 {
			t.Errorf("parser on frame %d: %v allocs", i+1, a)
		}
	}
	if err := p.DecodeLayers(frames[0], &decoded); err != nil {
		t.Fatal(err)
	}
	req := l.CM.REQ
	var ip mad.IPCM
	buf := make([]byte, 0, mad.Len)
	var sa googlelayers.MADLayers
	var path mad.PathRecord
	saRaw := findMAD(t, mad.ClassSubnAdm)
	saParser := gopacket.NewDecodingLayerParser(googlelayers.LayerTypeMAD, sa.DecodingLayers()...)
	var node mad.NodeRecord
	var port mad.PortInfoRecord
	var nodeRaw, portRaw []byte
	for _, a := range readGolden(t) {
		switch a.name {
		case "SA.NodeRecord":
			nodeRaw = a.raw
		case "SA.PortInfoRecord":
			portRaw = a.raw
		}
	}
	smpFrame := bytes.Clone(frames[0]) // the REQ's frame carrying an SMP-DR instead
	copy(smpFrame[len(smpFrame)-4-mad.Len:], readSMPGolden(t)[1].bytes)
	if err := saParser.DecodeLayers(saRaw, &decoded); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"REQ.Decode", func() error { return req.Decode(l.MAD.Payload) }},
		{"REQ.AppendTo", func() error { _, err := req.AppendTo(buf[:0]); return err }},
		{"REQ.IPCM", func() error {
			if !req.IPCM(&ip) || !ip.Src().IsValid() || !ip.Dst().IsValid() {
				return errors.New("no IP-CM")
			}
			return nil
		}},
		{"Header.AppendTo", func() error { _, err := l.MAD.Header.AppendTo(buf[:0]); return err }},
		{"SA parser", func() error { return saParser.DecodeLayers(saRaw, &decoded) }},
		{"PathRecord.Decode", func() error { return path.Decode(sa.SA.Record(0)) }},
		{"PathRecord.AppendTo", func() error { _, err := path.AppendTo(buf[:0]); return err }},
		{"NodeRecord.Decode", func() error { return node.Decode(nodeRaw) }},
		{"NodeRecord.AppendTo", func() error { _, err := node.AppendTo(buf[:0]); return err }},
		{"PortInfoRecord.Decode", func() error { return port.Decode(portRaw) }},
		{"PortInfoRecord.AppendTo", func() error { _, err := port.AppendTo(buf[:0]); return err }},
		{"parser on an SMP-DR", func() error {
			if err := p.DecodeLayers(smpFrame, &decoded); err != nil || decoded[len(decoded)-1] != googlelayers.LayerTypeSMPDirected {
				return fmt.Errorf("%v %v", err, decoded)
			}
			return nil
		}},
	} {
		if a := testing.AllocsPerRun(100, func() {
			if err := c.f(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}); a != 0 {
			t.Errorf("%s: %v allocs", c.name, a)
		}
	}
}

func findMAD(t *testing.T, c mad.Class) []byte {
	for _, m := range capturedMADs(t) {
		if mad.Class(m.raw[1]) == c {
			return m.raw
		}
	}
	t.Fatalf("no MAD of class %v", c)
	return nil
}

// TestMADSerializeLengths: the MAD layer refuses MAD data shorter than
// 232 bytes unless FixLengths pads it, and an SA attribute the SA table
// does not decode a record of still has its SA header.
func TestMADSerializeLengths(t *testing.T) {
	m := googlelayers.MAD{Header: mad.Header{BaseVersion: 1, MgmtClass: mad.ClassSubnAdm, ClassVersion: 2,
		Method: mad.MethodGet, AttributeID: mad.AttrInformInfo}}
	short := gopacket.Payload(make([]byte, 10))
	buf := gopacket.NewSerializeBuffer()
	var fe *ib.FieldError
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, &m, short); !errors.As(err, &fe) || fe.Field != "MAD.Data" || !errors.Is(err, ib.ErrBadLength) {
		t.Fatalf("short MAD data: %v", err)
	}
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true}, &m, short); err != nil || len(buf.Bytes()) != mad.Len {
		t.Fatalf("FixLengths: %v, %d bytes", err, len(buf.Bytes()))
	}
	l, decoded := decodeMAD(t, buf.Bytes())
	if !slices.Equal(decoded, []gopacket.LayerType{googlelayers.LayerTypeMAD, googlelayers.LayerTypeRMPP, googlelayers.LayerTypeSA}) ||
		l.MAD.AttributeName() != "InformInfo" || len(l.SA.Data) != mad.SADataLen {
		t.Errorf("decoded %v, %s, %d bytes of SA data", decoded, l.MAD.AttributeName(), len(l.SA.Data))
	}
	if _, err := (&mad.Header{Method: 0x80}).AppendTo(nil); !errors.As(err, &fe) || fe.Field != "MAD.Method" {
		t.Errorf("method 0x80: %v", err)
	}
}
