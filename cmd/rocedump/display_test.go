package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDisplayFilter checks that -Y selects what -qp selects, printing,
// counting, writing and summarizing, with one decoder and several, and
// that a bad filter is refused with its column and exit status 2.
func TestDisplayFilter(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap")
	const y = "infiniband.bth.destqp == 0xa0"
	for _, j := range []string{"1", "4"} {
		for _, mode := range [][]string{{}, {"-json"}, {"-c", "7"}, {"-stats"}, {"-stats", "-json"}} {
			args := append([]string{"-j", j}, mode...)
			stQ, want, _ := runCmd(t, nil, append(args, "-qp", "0xa0", path)...)
			stY, got, errs := runCmd(t, nil, append(args, "-Y", y, path)...)
			if stQ != 0 || stY != 0 || got != want || len(want) == 0 {
				t.Errorf("-j %s %q: -Y status %d, -qp status %d, same output %v (%d bytes); stderr %s", j, mode, stY, stQ, got == want, len(want), errs)
			}
		}
	}
	_, all, _ := runCmd(t, nil, "-Y", y, path)
	if n := len(lines(all)); n != 2000 { // the capture's 2,000 WRITEs to QP 0xa0 (testdata/captures/README.md)
		t.Errorf("-Y %s: %d lines, want 2000", y, n)
	}
	// Together with -qp and -opcode: all must pass.
	_, both, _ := runCmd(t, nil, "-Y", "infiniband.bth.psn < 6189700", "-qp", "0xa0", path)
	_, yOnly, _ := runCmd(t, nil, "-Y", "infiniband.bth.psn < 6189700 && infiniband.bth.destqp == 0xa0", path)
	if both != yOnly || both == "" {
		t.Errorf("-Y with -qp: %d lines, -Y alone %d", len(lines(both)), len(lines(yOnly)))
	}
	// -w writes the frames -Y selects.
	out := filepath.Join(t.TempDir(), "sel.pcapng")
	if st, _, errs := runCmd(t, nil, "-Y", y, "-w", out, path); st != 0 {
		t.Fatalf("-w: status %d: %s", st, errs)
	}
	if _, again, _ := runCmd(t, nil, out); again != all {
		t.Errorf("-w then read back: %d lines, -Y printed %d", len(lines(again)), len(lines(all)))
	}
	st, o, errs := runCmd(t, nil, "-Y", "infiniband.bth.opcode in {4 10 foo}", path)
	if st != 2 || o != "" || !strings.Contains(errs, `-Y: column 32: "foo" is not a valid number`) ||
		!strings.Contains(errs, "\n                                   ^~~\n") {
		t.Errorf("bad filter: status %d, stderr %q", st, errs)
	}
	if st, _, errs := runCmd(t, nil, "-Y", "infiniband.bth.nosuch", path); st != 2 || !strings.Contains(errs, "neither a field nor a protocol") {
		t.Errorf("unknown field: status %d, stderr %q", st, errs)
	}
}

// TestVerbose checks -v: after each text line, one indented line per
// header, each field named once.
func TestVerbose(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	_, plain, _ := runCmd(t, nil, path)
	_, v, _ := runCmd(t, nil, "-v", path)
	var heads []string
	for _, l := range lines(v) {
		if !strings.HasPrefix(l, "    ") {
			heads = append(heads, l)
		}
	}
	if strings.Join(heads, "\n")+"\n" != plain {
		t.Errorf("-v changed the summary lines")
	}
	for _, want := range []string{
		"    infiniband.bth: opcode 10 (RC RDMA WRITE Only) se false m false padcnt 2 tver 0 p_key 0xffff fecn false becn false destqp 0x000011 a true psn 9209053\n",
		"    infiniband.deth: q_key 0x80010000 srcqp 0x000001\n",
		"    udp: srcport 57236 dstport 4791\n",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("-v lacks %q", want)
		}
	}
}
