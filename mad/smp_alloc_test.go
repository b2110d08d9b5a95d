package mad_test

import (
	"testing"

	"github.com/google/gopacket"

	"github.com/roce-go/roce/mad"
)

// TestAllocs: decoding and encoding a MAD layout and its attribute, with
// and without gopacket, allocate nothing; each closure checks that the
// call succeeded.
func TestAllocs(t *testing.T) {
	for _, g := range readSMPGolden(t) {
		l := layoutFor(t, g.bytes)
		a, n := attrFor(t, g.bytes)
		buf := make([]byte, 0, mad.Len)
		sb := gopacket.NewSerializeBuffer()
		data := g.bytes[64 : 64+n]
		if l.Decode(g.bytes) != nil || a.Decode(data) != nil {
			t.Fatalf("%s: does not decode", g.name)
		}
		ok := true
		cases := map[string]func(){
			"Decode":          func() { ok = ok && l.Decode(g.bytes) == nil },
			"DecodeFromBytes": func() { ok = ok && l.DecodeFromBytes(g.bytes[mad.HeaderLen:], gopacket.NilDecodeFeedback) == nil },
			"AppendTo": func() {
				out, err := l.AppendTo(buf[:0])
				ok = ok && err == nil && len(out) == mad.Len
			},
			"SerializeTo": func() {
				ok = ok && sb.Clear() == nil && l.SerializeTo(sb, gopacket.SerializeOptions{}) == nil && len(sb.Bytes()) == mad.DataLen
			},
			"attribute Decode": func() { ok = ok && a.Decode(data) == nil },
			"attribute AppendTo": func() {
				out, err := a.AppendTo(buf[:0])
				ok = ok && err == nil && len(out) == n
			},
		}
		for name, f := range cases {
			f() // warm the serialize buffer
			if allocs := testing.AllocsPerRun(100, f); allocs != 0 {
				t.Errorf("%s: %s: %.1f allocations", g.name, name, allocs)
			}
			if !ok {
				t.Fatalf("%s: %s failed", g.name, name)
			}
		}
	}
}
