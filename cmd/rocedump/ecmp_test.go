package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/roce-go/roce/flow"
	"github.com/roce-go/roce/gen"
	"github.com/roce-go/roce/ib"
)

// TestStatsECMP: -stats -ecmp on a capture of UC WRITEs from four QPs
// that all send from port 0xc000 (rocegen -src-port): one host pair, one
// port shared by the 4 QPs, entropy 0, narrow; one 5-tuple, its 12
// frames of 138 bytes (1656) on one path of 4, path 2 for the XOR fold
// (worked by hand in package ecmp's TestXORFold); the same report with
// -j 1 and -j 2, text and JSON; -ecmp refused without -stats and out of
// range.
func TestStatsECMP(t *testing.T) {
	cfg := gen.DefaultConfig()
	cfg.Transport, cfg.Size, cfg.Messages, cfg.QPs, cfg.SrcPort = ib.UC, 64, 3, 4, 0xc000
	path, _ := genCapture(t, cfg)
	st, js, errs := runCmd(t, nil, "-stats", "-json", "-ecmp", "4", path)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	var rep flow.Report
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.HostPorts) != 1 {
		t.Fatalf("host pairs %+v", rep.HostPorts)
	}
	h := rep.HostPorts[0]
	if h.QPs != 4 || h.DistinctPorts != 1 || h.Ports[0].Port != 0xc000 || h.Ports[0].QPs != 4 || h.Ports[0].Bytes != 1656 ||
		h.Entropy != 0 || h.SharedPorts != 1 || !h.Narrow {
		t.Errorf("host pair %+v", h)
	}
	e := rep.ECMP
	if e == nil || e.Paths != 4 || e.Tuples != 1 || e.Bytes != 1656 || len(e.Hashes) != 3 {
		t.Fatalf("ecmp %+v", e)
	}
	for _, s := range e.Hashes {
		if s.MaxBytes != 1656 || s.Imbalance != 4 || (s.Hash == "xor-fold" && s.Bytes[2] != 1656) {
			t.Errorf("%+v", s)
		}
	}
	for _, args := range [][]string{{"-stats", "-ecmp", "4"}, {"-stats", "-json", "-ecmp", "4"}} {
		_, one, _ := runCmd(t, nil, append(append([]string{"-j", "1"}, args...), path)...)
		_, two, _ := runCmd(t, nil, append(append([]string{"-j", "2"}, args...), path)...)
		if one != two || one == "" {
			t.Errorf("%q: -j 1 and -j 2 differ:\n%s\n%s", args, one, two)
		}
	}
	_, text, _ := runCmd(t, nil, "-stats", "-ecmp", "4", path)
	for _, want := range []string{
		"udp 192.0.2.1 > 192.0.2.2: qps 4 src-ports 1 (49152) entropy 0.00 bits of 2.00\n  shared src-ports 1: [49152 qps 4]\n",
		"ecmp 4 paths: tuples 1 bytes 1656\n", "  xor-fold max/mean 4.00 bytes 0 0 1656 0\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if _, text, _ := runCmd(t, nil, "-stats", path); strings.Contains(text, "ecmp") {
		t.Errorf("-stats without -ecmp:\n%s", text)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-ecmp", "4", path}, "-ecmp is a what-if of the -stats summary: give -stats"},
		{[]string{"-json", "-ecmp", "4", path}, "give -stats"},
		{[]string{"-stats", "-ecmp", "1", path}, "-ecmp: 1 paths: want 2 to 1024"},
		{[]string{"-stats", "-ecmp", "1025", path}, "want 2 to 1024"},
	} {
		if st, out, errs := runCmd(t, nil, c.args...); st != 2 || out != "" || !strings.Contains(errs, c.msg) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", c.args, st, out, errs, c.msg)
		}
	}
}
