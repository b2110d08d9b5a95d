package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/roce-go/roce/gen"
)

// TestOutputFlagsJobs: with the output flags, the delta times included,
// the output is the same byte for byte whatever -j, over captures longer
// than a batch of the pipeline, with filters and counts.
func TestOutputFlagsJobs(t *testing.T) {
	paths := []string{
		filepath.Join(capDir, "rocev2_ipv4_rc_write_only_ack_ect0_4k.pcap"),
		filepath.Join(capDir, "ecn_ipv4_udp_all_ce_p4switch.pcap"),
		filepath.Join(capDir, "rocev2_ipv4_rc_send_imm_tcp_bootstrap.pcap"), // a frame earlier than the one before
		filepath.Join(capDir, "ib_native_erf_dag_smp_ipoib_cm.pcap"),
	}
	cfg := gen.DefaultConfig()
	cfg.Size, cfg.MTU, cfg.Messages, cfg.QPs, cfg.CEEvery, cfg.VLAN = 4096, 1024, 300, 4, 3, 7
	cfg.PFCEvery, cfg.PFCPrio, cfg.PFCQuanta = 50, 3, 65535
	g, _ := genCapture(t, cfg)
	paths = append(paths, g)
	for _, path := range paths {
		for _, args := range [][]string{{"-ttt"}, {"-ttttt"}, {"-ttt", "-qp", "0xa0"}, {"-ttt", "-opcode", "ack", "-c", "700"},
			{"-ttttt", "-nano", "-opcode", "write"}, {"-e", "-X", "-tttt"}, {"-q", "-tt", "-nano", "-xx"}, {"-t", "-e", "-q"}} {
			st1, out1, err1 := runCmd(t, nil, append(append([]string{"-j", "1", "-utc"}, args...), path)...)
			if st1 != 0 {
				t.Fatalf("%s %q: status %d: %s", filepath.Base(path), args, st1, err1)
			}
			for _, j := range []string{"2", "4"} {
				st, out, errs := runCmd(t, nil, append(append([]string{"-j", j, "-utc"}, args...), path)...)
				if st != st1 || out != out1 || errs != err1 {
					t.Errorf("%s %v: -j %s differs from -j 1: status %d, %d bytes, stderr %q; want %d, %d bytes, %q",
						filepath.Base(path), args, j, st, len(out), errs, st1, len(out1), err1)
				}
			}
		}
	}
}

// TestQuiet: -q lines, written out by hand from the frames' fields (the
// default lines of the same frames in the comments).
func TestQuiet(t *testing.T) {
	rxe := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	_, out, _ := runCmd(t, nil, "-q", "-utc", "-c", "5", rxe)
	want := []string{
		// UD SEND Only qp 0x000001 psn 65 [A] deth qkey 0x80010000 srcqp 0x000001 payload 256 icrc good
		"09:39:11.554171 192.168.65.5:55410 > 192.168.65.4:4791 RoCEv2 UD SEND Only qp 0x000001 psn 65 payload 256",
		"09:39:11.557070 192.168.65.4:55410 > 192.168.65.5:4791 RoCEv2 UD SEND Only qp 0x000001 psn 55 payload 256",
		"09:39:11.558283 192.168.65.5:55410 > 192.168.65.4:4791 RoCEv2 UD SEND Only qp 0x000001 psn 66 payload 256",
		// RC RDMA WRITE Only qp 0x000011 psn 9209053 [A] reth va 0x0000aaab09dd5000 rkey 0x000002d5 dmalen 18 payload 18 icrc good
		"09:39:11.558857 192.168.65.5:57236 > 192.168.65.4:4791 RoCEv2 RC RDMA WRITE Only qp 0x000011 psn 9209053 payload 18",
		// RC Acknowledge qp 0x000011 psn 9209053 aeth ACK msn 1 payload 0 icrc good
		"09:39:11.558877 192.168.65.4:57236 > 192.168.65.5:4791 RoCEv2 RC Acknowledge qp 0x000011 psn 9209053 payload 0",
	}
	if got := lines(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("-q:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A bad ICRC still shows; a good one does not.
	cfg := gen.DefaultConfig()
	cfg.BadICRC = 0.5
	g, gs := genCapture(t, cfg)
	_, out, _ = runCmd(t, nil, "-q", g)
	if n := strings.Count(out, " icrc bad\n"); n != gs.BadICRC || n == 0 || strings.Contains(out, "icrc good") || strings.Contains(out, "[") {
		t.Errorf("-q: %d bad ICRCs shown, %d generated:\n%s", n, gs.BadICRC, out)
	}
}

// TestOutputFlagErrors: contradictory output flags are refused, naming
// the flags, with exit status 2, as tcpdump refuses -t six times; -h
// lists them.
func TestOutputFlagErrors(t *testing.T) {
	path := filepath.Join(capDir, "rocev2_ipv4_rdmacm_write_read_rxe_a.pcap")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-t", "-ttttt"}, "only -t, -tt, -ttt, -tttt and -ttttt"},
		{[]string{"-ttt", "-ttt"}, "only -t, -tt"},
		{[]string{"-x", "-json"}, "-x shapes the text lines, which -json does not print"},
		{[]string{"-e", "-stats"}, "-e shapes the text lines, which -stats does not print"},
		{[]string{"-ttt", "-w", filepath.Join(t.TempDir(), "x.pcap")}, "-w"},
		{[]string{"-nano", "-json"}, "-nano"},
		{[]string{"-t=false"}, "takes no value"},
	} {
		st, out, errs := runCmd(t, nil, append(tc.args, path)...)
		if st != 2 || out != "" || !strings.Contains(errs, tc.msg) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and %q", tc.args, st, out, errs, tc.msg)
		}
	}
	_, errs, _ := runCmd(t, nil, "-h") // on standard output
	for _, f := range []string{"-ttttt", "-XX", "-xx", "-e", "-q", "-nano", "-number", "-#", "-n", "-nn"} {
		if !strings.Contains(errs, "\n  "+f+"\t") && !strings.Contains(errs, "\n  "+f+"\n") {
			t.Errorf("-h does not list %s:\n%s", f, errs)
		}
	}
	// tcpdump's letters add up: -t -t is -tt, -x -x is -xx.
	for _, pair := range [][2][]string{{{"-t", "-t"}, {"-tt"}}, {{"-t", "-tt"}, {"-ttt"}}, {{"-x", "-x"}, {"-xx"}}, {{"-x", "-XX"}, {"-XX"}}, {{"--nano", "--ttt"}, {"-nano", "-ttt"}}} {
		_, a, _ := runCmd(t, nil, append(pair[0], path)...)
		_, b, _ := runCmd(t, nil, append(pair[1], path)...)
		if a != b || a == "" {
			t.Errorf("%q prints otherwise than %q", pair[0], pair[1])
		}
	}
}
