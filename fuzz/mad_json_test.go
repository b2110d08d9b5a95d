package fuzz

import (
	"encoding/json"
	"net/netip"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/gopacket"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/testcaps"
	"github.com/roce-go/roce/mad"
)

// FuzzMADJSON: arbitrary bytes as a MAD in a RoCEv2 UD SEND Only (to QP
// 0 for an SMP class, QP 1 otherwise), decoded by dump.Record: the JSON
// is valid, the -v text is UTF-8, every field of the table answers
// (text values as valid UTF-8) and a NodeString or ServiceName row hands
// out no more than its 64 bytes. Seeds: the captures' MADs and
// testcaps.MADs (golden SMP and PerfMgt attributes, SA records).
func FuzzMADJSON(f *testing.F) {
	for _, m := range append(fzMADs(f), testcaps.MADs(f)...) {
		f.Add(m)
	}
	var rec dump.Record
	mapped := netip.MustParseAddr("::ffff:10.0.0.1").As16()
	f.Fuzz(func(t *testing.T, data []byte) {
		m := make([]byte, mad.Len)
		copy(m, data)
		qp := uint32(ib.QPGSI)
		if c := mad.Class(m[1]); c == mad.ClassSubnLID || c == mad.ClassSubnDR {
			qp = ib.QPSMI
		}
		fr := roce.Frame{Encap: ib.RoCEv2IPv4, GRH: ib.GRH{HopLmt: 64, SGID: mapped, DGID: mapped}}
		fr.Packet.BTH = ib.BTH{OpCode: ib.OpUDSendOnly, PKey: 0xffff, DestQP: qp}
		fr.Packet.DETH = ib.DETH{QKey: ib.GSIQKey, SrcQP: qp}
		fr.Packet.Payload = m
		b, err := fr.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		ci := gopacket.CaptureInfo{Timestamp: time.Unix(1, 0), Length: len(b), CaptureLength: len(b)}
		rec.Decode(1, ci, capfile.LinkTypeEthernet, b)
		if out := rec.AppendJSON(nil); !json.Valid(out) {
			t.Fatalf("JSON %q", out)
		}
		if out := rec.AppendVerbose(nil); !utf8.Valid(out) {
			t.Fatalf("-v text not UTF-8: %q", out)
		}
		for i := range dump.Fields() {
			fd := &dump.Fields()[i]
			v, ok := fd.Get(&rec)
			if !ok || fd.Type != dump.FieldString {
				continue
			}
			if len(v.B) > mad.SMPDataLen {
				t.Fatalf("%s: %d bytes", fd.Name, len(v.B))
			}
			if s := fd.AppendValue(nil, v); !utf8.Valid(s) {
				t.Fatalf("%s: %q not UTF-8", fd.Name, s)
			}
		}
	})
}
