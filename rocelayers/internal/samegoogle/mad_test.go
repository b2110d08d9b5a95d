package samegoogle_test

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	ggopacket "github.com/google/gopacket"

	"github.com/roce-go/roce/googlelayers"
	"github.com/roce-go/roce/mad"
	"github.com/roce-go/roce/rocelayers"
)

// The MADs of the golden files ../../../testdata/golden/mad_*.txt, as captures
// the comparison tests read beside the pcap files: every whole MAD of
// mad_smp_perf.txt, from the MAD layer (the SMP, SMPDirected and
// PerfMgt bodies follow it), and every attribute of mad_attributes.txt
// inside a MAD of its class (a CM message, an SA record in an SA MAD, the
// RMPP header in an SA MAD of a PathRecord table).

// goldenMADs returns the captures of the golden MADs.
func goldenMADs(t testing.TB) []capture {
	all := capture{name: "golden MADs", gfirst: googlelayers.LayerTypeMAD, ffirst: rocelayers.LayerTypeMAD}
	for _, b := range readGoldenBlocks(t, "mad_smp_perf.txt") {
		all.frames = append(all.frames, b.raw)
	}
	for _, b := range readGoldenBlocks(t, "mad_attributes.txt") {
		all.frames = append(all.frames, wrapAttribute(t, b.name, b.raw))
	}
	return []capture{all}
}

// The CM attribute IDs of the golden attributes.
var goldenCMAttrs = map[string]uint16{
	"CM.MRA": mad.AttrMsgRcptAck, "CM.REJ": mad.AttrConnectReject, "CM.SIDR_REQ": mad.AttrServiceIDResReq,
	"CM.SIDR_REP": mad.AttrServiceIDResReqResp, "CM.LAP": mad.AttrLoadAlternatePath,
	"CM.APR": mad.AttrAlternatePathResponse, "CM.ClassPortInfo": mad.AttrClassPortInfo,
}

// The SA attribute IDs of the golden records.
var goldenSAAttrs = map[string]uint16{
	"SA.NodeRecord": mad.AttrNodeRecord, "SA.PortInfoRecord": mad.AttrPortInfoRecord,
	"SA.ServiceRecord": mad.AttrServiceRecord, "SA.MCMemberRecord": mad.AttrMCMemberRecord,
}

// wrapAttribute returns a 256-byte MAD carrying the golden attribute
// raw named name: the common header (base version 1, the class and its
// class version, a response method, transaction ID 0x1234, the
// attribute ID), then for SA the RMPP header (raw itself for "RMPP", an
// inactive one otherwise) and the SA header (AttributeOffset the
// record's size in 8-byte words), then the attribute, zeros after it.
func wrapAttribute(t testing.TB, name string, raw []byte) []byte {
	m := make([]byte, mad.Len)
	binary.BigEndian.PutUint64(m[8:], 0x1234)
	body := m[mad.HeaderLen:]
	if id, ok := goldenCMAttrs[name]; ok {
		m[0], m[1], m[2], m[3] = 1, byte(mad.ClassCM), 2, byte(mad.MethodSend)
		binary.BigEndian.PutUint16(m[16:], id)
		copy(body, raw)
		return m
	}
	id, ok := goldenSAAttrs[name]
	if name == "RMPP" {
		id, ok = mad.AttrPathRecord, true
		copy(body, raw)
	}
	if !ok {
		t.Fatalf("golden attribute %s has no MAD here", name)
	}
	m[0], m[1], m[2], m[3] = 1, byte(mad.ClassSubnAdm), 2, 0x80|byte(mad.MethodGetTable)
	binary.BigEndian.PutUint16(m[16:], id)
	sa := body[mad.RMPPLen:]
	if name != "RMPP" {
		binary.BigEndian.PutUint16(sa[8:], uint16(len(raw)/8))
		copy(sa[mad.SAHeaderLen:], raw)
	}
	return m
}

// goldenBlock is one "== name" block of a golden file: its bytes.
type goldenBlock struct {
	name string
	raw  []byte
}

// hexToken is a byte of a golden file's data line: "xx" or "xx*N".
var hexToken = regexp.MustCompile(`^([0-9a-f]{2})(\*([0-9]+))?$`)

// readGoldenBlocks reads the blocks of ../../../testdata/golden/name: a data
// line holds hex bytes ("xx", "xx*N" for N copies), then its notes, after
// a "|" or after the first word that is not a byte.
func readGoldenBlocks(t testing.TB, name string) []goldenBlock {
	f, err := os.Open("../../../testdata/golden/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenBlock
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "== "):
			out = append(out, goldenBlock{name: strings.Fields(line[3:])[0]})
		case len(out) == 0:
			t.Fatalf("%s: data before the first block: %q", name, line)
		default:
			line, _, _ = strings.Cut(line, "|")
			b := &out[len(out)-1]
			for _, tok := range strings.Fields(line) {
				m := hexToken.FindStringSubmatch(tok)
				if m == nil {
					break
				}
				v, _ := hex.DecodeString(m[1])
				n := 1
				if m[3] != "" {
					n, _ = strconv.Atoi(m[3])
				}
				for range n {
					b.raw = append(b.raw, v[0])
				}
			}
		}
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("%s: %d blocks, %v", name, len(out), err)
	}
	return out
}

// TestGoldenMADsWhole checks the golden reader: every MAD of
// mad_smp_perf.txt is 256 bytes, and Google's MAD layer decodes every
// golden MAD.
func TestGoldenMADsWhole(t *testing.T) {
	for _, c := range goldenMADs(t) {
		for i, m := range c.frames {
			if len(m) != mad.Len {
				t.Fatalf("%s %d: %d bytes", c.name, i+1, len(m))
			}
			if p := ggopacket.NewPacket(m, googlelayers.LayerTypeMAD, ggopacket.Default); p.ErrorLayer() != nil {
				t.Fatalf("%s %d: %v", c.name, i+1, p.ErrorLayer().Error())
			}
		}
	}
}
