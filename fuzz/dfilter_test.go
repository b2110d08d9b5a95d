package fuzz

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/dfilter"
	"github.com/roce-go/roce/dump"
)

// dfilterSeeds are expressions of every shape the parser takes, and
// some it refuses.
var dfilterSeeds = []string{
	"infiniband.bth.destqp == 0xa0", "ip.src == 10.0.0.0/24 && !udp", "vlan.id in {10, 20..30 0x40}",
	"infiniband.bth.opcode not in {17}", "(ip or ipv6) and not (tcp || macc)", "eth.src == 02-00-00-00-00-01",
	"infiniband.immdt == de:ad:be:ef", "frame.time_epoch >= 1764400000.5", `_error contains "trunc"`,
	"infiniband.bth.se == True", "udp.srcport == udp.dstport", "ipv6.addr == 2001:db8::/32",
	"infiniband.reth.va > 0x7f0000001000", "vlan.id !== 10", "a ==", "((udp)", `"x`, "ip.src == 1.2.3",
	"infiniband.bth.opcode == 300", "{1..}", "x in {..5}", "!", strings.Repeat("(", 200) + "udp" + strings.Repeat(")", 200),
}

// FuzzDisplayFilter compiles arbitrary expressions. Compile must not
// panic; an error must be a *SyntaxError whose offset and length lie in
// the expression; a compiled filter must match like its negation's
// complement and like itself in parentheses on the seed frames, without
// panicking.
func FuzzDisplayFilter(f *testing.F) {
	for _, s := range dfilterSeeds {
		f.Add(s)
	}
	var recs []dump.Record
	for i, b := range fzSeeds(f) {
		if i%7 != 0 {
			continue
		}
		var r dump.Record
		r.Decode(i+1, gopacket.CaptureInfo{Timestamp: time.Unix(int64(i), 0), Length: len(b), CaptureLength: len(b)}, capfile.LinkTypeEthernet, b)
		recs = append(recs, r)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 4096 {
			return
		}
		flt, err := dfilter.Compile(expr)
		if err != nil {
			var se *dfilter.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %T %v, want a *SyntaxError", expr, err, err)
			}
			if se.Offset < 0 || se.Len < 0 || se.Offset+se.Len > len(expr) || !strings.HasPrefix(err.Error(), "roce: ") {
				t.Fatalf("%q: %v: offset %d length %d", expr, err, se.Offset, se.Len)
			}
			_ = se.Caret()
			return
		}
		neg, err1 := dfilter.Compile("!(" + expr + ")")
		par, err2 := dfilter.Compile("(" + expr + ")")
		if err1 != nil || err2 != nil {
			for _, e := range []error{err1, err2} {
				if e != nil && !strings.Contains(e.Error(), "nest deeper") {
					t.Fatalf("%q compiles, its negation %v, in parentheses %v", expr, err1, err2)
				}
			}
			return // already as deep as the parser goes
		}
		for i := range recs {
			m := flt.Match(&recs[i])
			if neg.Match(&recs[i]) == m || par.Match(&recs[i]) != m {
				t.Fatalf("%q: frame %d: match %v, negation and parenthesized disagree", expr, i, m)
			}
		}
	})
}
