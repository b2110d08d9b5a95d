package dfilter_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/roce-go/roce/dfilter"
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/testkit/testcaps"
)

// handmade decodes the hand-built frames (two VLAN tags, QinQ, PFC,
// PAUSE, a bad ICRC, a malformed frame, UDP and TCP that are not RoCE).
func handmade(t *testing.T) []dump.Record {
	return testcaps.Records(t, testcaps.Generated(t, t.TempDir())[3])
}

func selected(t *testing.T, recs []dump.Record, expr string) []int {
	t.Helper()
	f, err := dfilter.Compile(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	var ns []int
	for i := range recs {
		if f.Match(&recs[i]) {
			ns = append(ns, recs[i].Number)
		}
	}
	return ns
}

// TestOurFields checks the fields tshark lacks (strings, FECN, BECN,
// payload length) and the forms tshark 4.0 refuses but we take (sets
// without commas), on the hand-built frames, whose contents
// internal/testcaps states.
func TestOurFields(t *testing.T) {
	recs := handmade(t)
	for _, tc := range []struct {
		expr string
		want []int
	}{
		{`infiniband.invariant.crc.status == "bad"`, []int{10}},
		{`infiniband.invariant.crc.status == "unchecked"`, []int{14}},
		{`_error contains "truncated"`, []int{11}},
		{`_error`, []int{11}},
		{"infiniband.bth.fecn", []int{1, 2, 3, 4, 5, 10, 14}}, // a flag is present whatever its value
		{"infiniband.bth.fecn == 1 && infiniband.bth.becn == True", []int{4, 10, 14}},
		{"infiniband.payload.len == 3", []int{4, 10, 14}},
		{"vlan.inner.id == 20", []int{1}},
		{"ieee8021ad.inner.id == 40", []int{3}},
		{"infiniband.bth.opcode in {4 10 0x11}", []int{1, 3}},
		{"infiniband.bth.opcode in {4, 10, 0x11}", []int{1, 3}},
		{"infiniband.bth.opcode in {0x10..0x12 0x2b}", []int{1, 3, 4, 10, 14}},
		{"infiniband.immdt contains be:ef", []int{4, 10, 14}},
		{"infiniband.immdt == deadbeef", []int{4, 10, 14}},
		{"frame.time_epoch == 1764400000.000001", []int{2}},
		{"frame.time_epoch > -1.5", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}},
		{"macc.cbfc.enbv.c3 == True && macc.cbfc.enbv.c0 == False", []int{6}},
		{"vlan.id != vlan.id", nil},         // a != b is !(a == b), pair by pair
		{"vlan.id == vlan.id", []int{1, 2}}, // every tagged frame
		{"vlan.id ~= vlan.id", []int{1}},    // two different tags
		{"vlan.id === vlan.priority", nil},  // no tag with ID = PCP
		{"ip.addr == ip.dst", []int{1, 2, 3, 4, 5, 10, 11, 12, 13, 14}},
	} {
		if got := selected(t, recs, tc.expr); !slices.Equal(got, tc.want) {
			t.Errorf("%s: frames %v, want %v", tc.expr, got, tc.want)
		}
	}
}

// TestOurMADFields checks the MAD fields tshark 4.0 lacks or shows
// otherwise (the IBTA 1.3 PortInfo and PerfMgt fields, the SA record
// count, ServiceName as text, a UTF-8 NodeString) on the golden MADs and
// the SA records of internal/testcaps, whose values its notes and
// builders state (frames: 5 PortInfo, 8 SwitchInfo, 9 PortCounters, 10
// PortCountersExtended, 12 NodeRecord, 13 PortInfoRecord, 14
// ServiceRecord, 15 PathRecord table, 16 and 17 the first and second
// segments of a PortInfoRecord table, 18 NodeDescription in UTF-8).
func TestOurMADFields(t *testing.T) {
	recs := testcaps.Records(t, testcaps.WriteGoldenSMP(t, t.TempDir()))
	for _, tc := range []struct {
		expr string
		want []int
	}{
		{"infiniband.portinfo.capabilitymask2 == 0x14", []int{5, 13, 16}},
		{"infiniband.portinfo.linkspeedextenabled == 0x1e && infiniband.portinfo.linkspeedextsupported == 3", []int{5, 13, 16}},
		{"infiniband.portinfo.multicastpkeytrapsuppressionenabled == 2", []int{5, 13, 16}},
		{"infiniband.switchinfo.multicastfdbtop == 0xc010", []int{8}},
		{"infiniband.portcounters.portxmitwait == 0xabcd && infiniband.portcounters.qp1dropped == 0x16", []int{9}},
		{"infiniband.portcounters_ext.qp1dropped == 14 && infiniband.portcounters_ext.counterselect2 == 0x3fff", []int{10}},
		{"infiniband.sa.records == 1", []int{11, 12, 14}},
		{"infiniband.sa.records > 1", []int{13, 15, 16}},
		{"infiniband.sa.records == 2", []int{13, 16}},
		{"infiniband.rmpp.data1 == 2 && !infiniband.sa.records", []int{17}},
		{"infiniband.sa.options == 1", []int{13, 16}},
		{`infiniband.servicerecord.servicename contains "SRP"`, []int{14}},
		{`infiniband.servicerecord.servicename == "SRP.T10:0002C90300001895"`, []int{14}},
		{"infiniband.servicerecord.servicedata8 contains 1f", []int{14}},
		{`infiniband.nodedescription.nodestring contains "café"`, []int{18}},
		{`infiniband.nodedescription.nodestring == "sw-spine-01\x01 \"core\" \\ mlx5_2"`, []int{12}},
		// a text held in the frame beside one held in a string
		{"infiniband.invariant.crc.status < infiniband.nodedescription.nodestring", []int{4, 12}},
		{"infiniband.nodedescription.nodestring > infiniband.invariant.crc.status", []int{4, 12}},
		{"infiniband.nodedescription.nodestring == infiniband.nodedescription.nodestring", []int{4, 12, 18}},
	} {
		if got := selected(t, recs, tc.expr); !slices.Equal(got, tc.want) {
			t.Errorf("%s: frames %v, want %v", tc.expr, got, tc.want)
		}
	}
}

// TestErrors checks that bad expressions name the column (from 1, where
// tshark puts its caret) and the problem.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		expr string
		col  int
		msg  string
	}{
		{"", 1, "the filter expression is empty"},
		{"infiniband.bth.opcode in {4 10", 31, "unexpected end of filter expression"},
		{"foo.bar == 1", 1, "foo.bar is neither a field nor a protocol name"},
		{"udp )", 5, `")" was unexpected in this context`},
		{"udp.port == 4791x", 13, `"4791x" is not a valid number`},
		{"infiniband.bth.opcode == 300", 26, "300 is too large for infiniband.bth.opcode (at most 255)"},
		// Bounded by the Wireshark type that holds the field, not its bits.
		{"ip.dsfield.ecn == 256", 19, "256 is too large for ip.dsfield.ecn (at most 255)"},
		{"ipv6.flow < 0x1000000", 13, "0x1000000 is too large for ipv6.flow (at most 16777215)"},
		{"vlan.id in {1..65536}", 16, "65536 is too large for vlan.id (at most 65535)"},
		{"ip.src == 1.2.3", 11, `"1.2.3" is not a valid IPv4 address`},
		{"ip.src == 10.0.0.1/33", 11, `"10.0.0.1/33" is not a valid IPv4 address`},
		{`ip.src == "10.0.0.1"`, 11, "cannot be compared with a string"},
		{"udp.port = 4791", 10, `"=" was unexpected in this context`},
		{"udp AND tcp", 5, `"AND" was unexpected in this context`},
		{"vlan == 1", 1, "vlan is a protocol: only its fields can be compared"},
		{"infiniband.bth.opcode in {}", 27, `"}" was unexpected in this context`},
		{`_error == "x`, 11, "the string is not closed"},
		{"ip.src == udp.port", 11, "cannot be compared"},
		{"eth.src == 1:2:3", 12, "not a valid Ethernet address"},
		{"infiniband.bth.se == maybe", 22, "not a valid boolean"},
		{strings.Repeat("(", 300) + "udp" + strings.Repeat(")", 300), 201, "nest deeper than 200"},
		{strings.Repeat("!", 201) + "udp", 201, "nest deeper than 200"},
	} {
		_, err := dfilter.Compile(tc.expr)
		var se *dfilter.SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ib.ErrBadValue) {
			t.Errorf("%q: error %v, want a *SyntaxError", tc.expr, err)
			continue
		}
		if se.Column() != tc.col || !contains(se.Msg, tc.msg) {
			t.Errorf("%q: column %d %q, want column %d %q", tc.expr, se.Column(), se.Msg, tc.col, tc.msg)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestMatchAllocs checks that Match allocates nothing, for every kind of
// node, and that it did its work.
func TestMatchAllocs(t *testing.T) {
	recs := handmade(t)
	f := dfilter.MustCompile(`(vlan.id in {10, 20..30} || ip.addr == 10.0.0.0/8) && !tcp && eth.src == 02:00:00:00:00:01 ` +
		`&& infiniband.bth.destqp != 0xffffff && frame.time_epoch > 0 && udp.srcport != udp.dstport && infiniband.aeth`)
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		n = 0
		for i := range recs {
			if recs[i].Kind != dump.KindMalformed && f.Match(&recs[i]) {
				n++
			}
		}
	})
	if allocs != 0 || n != 2 { // frames 1 (VLAN 10, 20) and 3 (10.0.0.1)
		t.Errorf("%v allocations per run, %d frames matched (want 0 and 2)", allocs, n)
	}
}

// TestMatchTextAllocs checks that Match allocates nothing when it
// compares and searches a text the frame holds (dump.Value.B).
func TestMatchTextAllocs(t *testing.T) {
	recs := testcaps.Records(t, testcaps.WriteGoldenSMP(t, t.TempDir()))
	f := dfilter.MustCompile(`infiniband.nodedescription.nodestring contains "mlx" && infiniband.nodedescription.nodestring > "a" ` +
		`&& infiniband.nodedescription.nodestring != infiniband.invariant.crc.status`)
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		n = 0
		for i := range recs {
			if f.Match(&recs[i]) {
				n++
			}
		}
	})
	if allocs != 0 || n != 2 { // the SMP NodeDescription and the SA NodeRecord
		t.Errorf("%v allocations per run, %d frames matched (want 0 and 2)", allocs, n)
	}
}
