package mad_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/corpus"
	"github.com/roce-go/roce/mad"
)

// goldenMAD is one MAD of testdata/golden/mad_smp_perf.txt: its bytes and
// the values its notes say the decoder must produce.
type goldenMAD struct {
	name   string
	bytes  []byte
	checks []goldenCheck
}

// goldenCheck is one "Layout.Field = value" note.
type goldenCheck struct {
	key, value string
	line       int
}

// readSMPGolden parses testdata/golden/mad_smp_perf.txt (the format is
// described at the top of the file).
func readSMPGolden(t testing.TB) []goldenMAD {
	t.Helper()
	f, err := os.Open(corpus.Path("golden", "mad_smp_perf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenMAD
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "== "):
			name, _, _ := strings.Cut(line[3:], ":")
			out = append(out, goldenMAD{name: name})
			continue
		}
		if len(out) == 0 {
			t.Fatalf("golden line %d: data before the first block", n)
		}
		g := &out[len(out)-1]
		data, notes, _ := strings.Cut(line, "|")
		for _, tok := range strings.Fields(data) {
			if !isHexWord(tok) {
				t.Fatalf("golden line %d: %q is not one hex byte", n, tok)
			}
			g.bytes = append(g.bytes, hexWord(t, tok)...) // the syntax of golden_test.go's file
		}
		for _, note := range strings.Split(notes, ";") {
			k, v, ok := strings.Cut(note, " = ")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if ok && strings.Contains(k, ".") && !strings.Contains(k, " ") {
				g.checks = append(g.checks, goldenCheck{k, v, n})
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, g := range out {
		if len(g.bytes) != mad.Len {
			t.Fatalf("golden %s: %d bytes, want %d", g.name, len(g.bytes), mad.Len)
		}
	}
	return out
}

// decodedMAD is a MAD decoded by this package: its layout ("SMP" or
// "PerfMgt"), the common header ("MAD") and its attribute (by type name),
// each a pointer to the decoded struct.
type decodedMAD map[string]any

// attrDecoder is what every attribute type has.
type attrDecoder interface {
	Decode(b []byte) error
	AppendTo(b []byte) ([]byte, error)
}

// smpAttrs and perfAttrs make the attribute a test decodes from its ID.
var (
	smpAttrs = map[mad.SMPAttribute]func() attrDecoder{
		mad.SMPAttrNodeDescription: func() attrDecoder { return &mad.NodeDescription{} },
		mad.SMPAttrNodeInfo:        func() attrDecoder { return &mad.NodeInfo{} },
		mad.SMPAttrSwitchInfo:      func() attrDecoder { return &mad.SwitchInfo{} },
		mad.SMPAttrGUIDInfo:        func() attrDecoder { return &mad.GUIDInfo{} },
		mad.SMPAttrPortInfo:        func() attrDecoder { return &mad.PortInfo{} },
		mad.SMPAttrPKeyTable:       func() attrDecoder { return &mad.PKeyTable{} },
		mad.SMPAttrSMInfo:          func() attrDecoder { return &mad.SMInfo{} },
	}
	perfAttrs = map[mad.PerfAttribute]func() attrDecoder{
		mad.PerfAttrPortCounters:         func() attrDecoder { return &mad.PortCounters{} },
		mad.PerfAttrPortCountersExtended: func() attrDecoder { return &mad.PortCountersExtended{} },
	}
)

// decodeGolden decodes b by its class and attribute ID.
func decodeGolden(b []byte) (decodedMAD, error) {
	d := decodedMAD{}
	var data []byte
	var newAttr func() attrDecoder
	id := binary.BigEndian.Uint16(b[16:])
	switch mad.Class(b[1]) {
	case mad.ClassSubnLID:
		s := &mad.SMP{}
		if err := s.Decode(b); err != nil {
			return nil, err
		}
		d["SMP"], d["MAD"], data, newAttr = s, &s.Header, s.Data[:], smpAttrs[mad.SMPAttribute(id)]
	case mad.ClassSubnDR:
		s := &mad.SMPDirected{}
		if err := s.Decode(b); err != nil {
			return nil, err
		}
		d["SMP"], d["MAD"], data, newAttr = s, &s.Header, s.Data[:], smpAttrs[mad.SMPAttribute(id)]
	case mad.ClassPerfMgt:
		m := &mad.PerfMgt{}
		if err := m.Decode(b); err != nil {
			return nil, err
		}
		d["PerfMgt"], d["MAD"], data, newAttr = m, &m.Header, m.Data[:], perfAttrs[mad.PerfAttribute(id)]
	default:
		return nil, fmt.Errorf("class 0x%02x", b[1])
	}
	if newAttr != nil {
		a := newAttr()
		if err := a.Decode(data); err != nil {
			return nil, err
		}
		d[reflect.TypeOf(a).Elem().Name()] = a
	}
	return d, nil
}

// attr returns the decoded attribute, or nil.
func (d decodedMAD) attr() attrDecoder {
	for k, v := range d {
		if a, ok := v.(attrDecoder); ok && k != "SMP" && k != "PerfMgt" && k != "MAD" {
			return a
		}
	}
	return nil
}

// value returns the value a dotted key names ("PortInfo.LID",
// "SMP.HopCount", "GUIDInfo.GUIDs.3"): a field, an element of an array
// field, or the result of a method without arguments.
func (d decodedMAD) value(key string) (reflect.Value, error) {
	parts := strings.Split(key, ".")
	root, ok := d[parts[0]]
	if !ok {
		return reflect.Value{}, fmt.Errorf("%s: no %s decoded", key, parts[0])
	}
	v := reflect.ValueOf(root)
	for _, p := range parts[1:] {
		if i, err := strconv.Atoi(p); err == nil {
			v = reflect.Indirect(v).Index(i)
			continue
		}
		if m := v.MethodByName(p); m.IsValid() && m.Type().NumIn() == 0 {
			v = m.Call(nil)[0]
			continue
		}
		f := reflect.Indirect(v).FieldByName(p)
		if !f.IsValid() {
			return reflect.Value{}, fmt.Errorf("%s: no field or method %s", key, p)
		}
		v = f
	}
	return v, nil
}

// number returns an integer or bool value as a uint64 (true is 1).
func number(v reflect.Value) (uint64, bool) {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return 1, true
		}
		return 0, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint(), true
	}
	return 0, false
}

// same reports whether v is the value a golden note spells.
func same(v reflect.Value, want string) bool {
	if v.Kind() == reflect.String {
		s, err := strconv.Unquote(want)
		return err == nil && v.String() == s
	}
	n, ok := number(v)
	if !ok {
		return false
	}
	switch want {
	case "true":
		return v.Kind() == reflect.Bool && n == 1
	case "false":
		return v.Kind() == reflect.Bool && n == 0
	}
	w, err := strconv.ParseUint(want, 0, 64)
	return err == nil && v.Kind() != reflect.Bool && n == w
}

// TestGoldenMADs decodes every golden MAD and checks every value its
// notes give, then re-encodes the layout and the attribute and compares
// byte for byte (the golden MADs have zero reserved bits).
func TestGoldenMADs(t *testing.T) {
	checks := 0
	for _, g := range readSMPGolden(t) {
		d, err := decodeGolden(g.bytes)
		if err != nil {
			t.Errorf("%s: %v", g.name, err)
			continue
		}
		if d.attr() == nil {
			t.Errorf("%s: no attribute decoded", g.name)
		}
		for _, c := range g.checks {
			v, err := d.value(c.key)
			if err != nil {
				t.Errorf("%s line %d: %v", g.name, c.line, err)
				continue
			}
			checks++
			if !same(v, c.value) {
				t.Errorf("%s line %d: %s = %v, the golden note says %s", g.name, c.line, c.key, v, c.value)
			}
		}
		reencode(t, g, d)
	}
	if checks < 250 {
		t.Errorf("only %d golden values checked", checks)
	}
	t.Logf("%d values checked against the golden notes", checks)
}

// reencode appends the decoded layout and attribute again and compares
// with the golden bytes.
func reencode(t *testing.T, g goldenMAD, d decodedMAD) {
	t.Helper()
	var layout interface {
		AppendTo([]byte) ([]byte, error)
	}
	var data []byte
	switch l := d["SMP"].(type) {
	case *mad.SMP:
		layout, data = l, l.Data[:0]
	case *mad.SMPDirected:
		layout, data = l, l.Data[:0]
	}
	if l, ok := d["PerfMgt"].(*mad.PerfMgt); ok {
		layout, data = l, l.Data[:0]
	}
	// Re-encode the attribute into the layout's data field, in place.
	if _, err := d.attr().AppendTo(data); err != nil {
		t.Errorf("%s: attribute AppendTo: %v", g.name, err)
		return
	}
	got, err := layout.AppendTo([]byte{0xee})
	if err != nil {
		t.Errorf("%s: AppendTo: %v", g.name, err)
		return
	}
	if got[0] != 0xee || !bytes.Equal(got[1:], g.bytes) {
		t.Errorf("%s: re-encoded\n%x\nwant\n%x", g.name, got[1:], g.bytes)
	}
}

// nativeMADPacket wraps a MAD into a native InfiniBand UD SEND Only to QP
// 0 (SMPs, on VL 15) or QP 1 (the rest, Q_Key 0x80010000), from the LRH
// through the VCRC, with a valid ICRC and VCRC.
func nativeMADPacket(t testing.TB, m []byte, psn uint32) []byte {
	t.Helper()
	smp := mad.Class(m[1]) == mad.ClassSubnLID || mad.Class(m[1]) == mad.ClassSubnDR
	var p ib.Packet
	p.BTH = ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, PSN: psn}
	p.DETH = ib.DETH{}
	lrh := ib.LRH{VL: 15, LNH: ib.LNHIBALocal, DLID: 0xffff, SLID: 0xffff}
	if !smp {
		p.BTH.DestQP, p.DETH.QKey, p.DETH.SrcQP = 1, 0x80010000, 1
		lrh = ib.LRH{VL: 0, LNH: ib.LNHIBALocal, DLID: 4, SLID: 1}
	}
	p.Payload = m
	lrh.PktLen = uint16((ib.LRHLen + p.Len()) / 4)
	pkt := make([]byte, ib.LRHLen)
	if err := lrh.Encode(pkt); err != nil {
		t.Fatal(err)
	}
	pkt, err := p.AppendTo(pkt)
	if err != nil {
		t.Fatal(err)
	}
	icrc, err := ib.ComputeNativeICRC(pkt)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(pkt[len(pkt)-ib.ICRCLen:], icrc)
	return binary.LittleEndian.AppendUint16(pkt, vcrc(pkt))
}

// vcrc is the variant CRC of a native InfiniBand packet (IBTA Vol 1,
// 7.8.2): CRC-16, polynomial 0x100B, bit-reflected, initial value and
// final XOR 0xFFFF, over the LRH through the ICRC, sent least significant
// byte first. TestVCRC checks it against every packet of the real capture.
func vcrc(b []byte) uint16 {
	c := uint16(0xffff)
	for _, x := range b {
		c ^= uint16(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0xd008
			} else {
				c >>= 1
			}
		}
	}
	return ^c
}

// erfLinkType is LINKTYPE_ERF; erfTypeInfiniBand is ERF record type 21.
const (
	erfLinkType       = 197
	erfTypeInfiniBand = 21
	erfHeaderLen      = 16
)

// writeERF writes native InfiniBand packets as ERF type 21 records in a
// pcap file of link type 197 (the form of the real capture), each record
// padded to a multiple of 8 bytes.
func writeERF(t testing.TB, pkts [][]byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mads.pcap")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := pcapgo.NewWriter(f)
	if err := w.WriteFileHeader(65535, layers.LinkType(erfLinkType)); err != nil {
		t.Fatal(err)
	}
	ts := time.Unix(1764400000, 0)
	for i, p := range pkts {
		rlen := (erfHeaderLen + len(p) + 7) &^ 7
		rec := make([]byte, rlen)
		binary.LittleEndian.PutUint64(rec, uint64(1764400000+i)<<32)
		rec[8], rec[9] = erfTypeInfiniBand, 0x04 // varying record length
		binary.BigEndian.PutUint16(rec[10:], uint16(rlen))
		binary.BigEndian.PutUint16(rec[14:], uint16(len(p)))
		copy(rec[erfHeaderLen:], p)
		ci := gopacketCI(ts.Add(time.Duration(i)*time.Millisecond), len(rec))
		if err := w.WritePacket(ci, rec); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestVCRC checks the test's VCRC against every packet of the real native
// capture, so that the packets built for tshark carry a VCRC computed as
// real hardware does.
func TestVCRC(t *testing.T) {
	recs := corpus.Capture(t, "ib_native_erf_dag_smp_ipoib_cm.pcap")
	for i, rec := range recs {
		wlen := int(binary.BigEndian.Uint16(rec[14:]))
		pkt := rec[erfHeaderLen : erfHeaderLen+wlen]
		n := len(pkt) - 2
		if got, want := vcrc(pkt[:n]), binary.LittleEndian.Uint16(pkt[n:]); got != want {
			t.Errorf("frame %d: VCRC 0x%04x, the capture has 0x%04x", i+1, got, want)
		}
	}
	if len(recs) != 43 {
		t.Errorf("%d records, want 43", len(recs))
	}
}
