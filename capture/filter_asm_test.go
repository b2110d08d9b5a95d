package capture

import (
	"errors"
	"os/exec"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/roce-go/roce/internal/testkit/oracle"
)

// The codes of the assembler's tests, spelled as tcpdump -d spells them.
const (
	tLdh  = 0x28 // ldh [k]
	tJeq  = 0x15 // jeq #k
	tJset = 0x45 // jset #k
	tJa   = 0x05 // ja k
	tRet  = 0x06 // ret #k
	tTax  = 0x07 // tax
)

// TestAsmLabels: labels resolve to the offsets, counted by hand, of a
// small program: forward jumps over several instructions, "" and a
// label on the next instruction (both 0), two labels on one
// instruction, a label jumped to from both sides of several jumps.
func TestAsmLabels(t *testing.T) {
	var a asm
	a.op(tLdh, 12)                     // 0
	a.jump(tJeq, 0x8100, "tagged", "") // 1: jt 4 (2), jf 2 (0)
	a.jump(tJeq, 0x0800, "ip", "no")   // 2: jt 3 (0), jf 9 (6)
	a.label("ip")
	a.jump(tJset, 1, "yes", "tagged") // 3: jt 8 (4), jf 4 (0)
	a.label("tagged")
	a.label("vlan")
	a.op(tLdh, 16)                    // 4
	a.op(tTax, 0)                     // 5
	a.jump(tJeq, 0x86dd, "yes", "")   // 6: jt 8 (1), jf 7 (0)
	a.jump(tJeq, 0x0800, "yes", "no") // 7: jt 8 (0), jf 9 (1)
	a.label("yes")
	a.op(tRet, 0xffff) // 8
	a.label("no")
	a.op(tRet, 0) // 9
	got, err := a.assemble()
	if err != nil {
		t.Fatal(err)
	}
	want := []Instruction{
		{tLdh, 0, 0, 12},
		{tJeq, 2, 0, 0x8100},
		{tJeq, 0, 6, 0x0800},
		{tJset, 4, 0, 1},
		{tLdh, 0, 0, 16},
		{tTax, 0, 0, 0},
		{tJeq, 1, 0, 0x86dd},
		{tJeq, 0, 1, 0x0800},
		{tRet, 0, 0, 0xffff},
		{tRet, 0, 0, 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("assembled\n%v\nwant\n%v", got, want)
	}
}

// TestAsmRefused: a jump of 255 instructions is taken and one of 256
// refused, never cut to a byte; so are jumps backward, to themselves,
// to a label given to no instruction or after the last, a label given
// twice, a jump given as an op and an op as a jump.
func TestAsmRefused(t *testing.T) {
	// far returns a program whose instruction 0 jumps over n
	// instructions to "far".
	far := func(n int) *asm {
		var a asm
		a.jump(tJeq, 1, "far", "")
		for range n {
			a.op(tLdh, 12)
		}
		a.label("far")
		a.op(tRet, 0)
		return &a
	}
	if prog, err := far(255).assemble(); err != nil || len(prog) != 257 || prog[0].Jt != 255 {
		t.Errorf("a jump of 255: %d instructions, %v", len(prog), err)
	} else if prog[0] != (Instruction{tJeq, 255, 0, 1}) {
		t.Errorf("a jump of 255: %v", prog[0])
	}
	if _, err := far(256).assemble(); err == nil || !strings.Contains(err.Error(), "offset of 256") {
		t.Errorf("a jump of 256: %v, want an offset of 256 refused", err)
	}
	for _, c := range []struct {
		name string
		prog func(a *asm)
		want string
	}{
		{"backward", func(a *asm) {
			a.label("top")
			a.op(tLdh, 12)
			a.jump(tJeq, 1, "", "top")
			a.op(tRet, 0)
		}, `instruction 1 jumps to "top" (instruction 0): an offset of -2`},
		{"to itself", func(a *asm) {
			a.label("self")
			a.jump(tJeq, 1, "self", "")
			a.op(tRet, 0)
		}, `offset of -1`},
		{"undefined", func(a *asm) {
			a.jump(tJeq, 1, "nowhere", "")
			a.op(tRet, 0)
		}, `jumps to "nowhere", which names no instruction`},
		{"past the end", func(a *asm) {
			a.jump(tJeq, 1, "", "end")
			a.op(tRet, 0)
			a.label("end")
		}, `jumps to "end", which names no instruction`},
		{"twice", func(a *asm) {
			a.label("x")
			a.op(tRet, 0)
			a.label("x")
			a.op(tRet, 0)
		}, `label "x" given twice`},
		{"empty", func(a *asm) {
			a.label("")
			a.op(tRet, 0)
		}, `instruction 0: an empty label`},
		{"a jump as an op", func(a *asm) {
			a.op(tJeq, 1)
			a.op(tRet, 0)
		}, `instruction 0 (code 0x15) jumps`},
		{"ja as a jump", func(a *asm) {
			a.jump(tJa, 0, "x", "")
			a.label("x")
			a.op(tRet, 0)
		}, `instruction 0 (code 0x5) is not a conditional jump`},
		{"an op as a jump", func(a *asm) {
			a.jump(tRet, 0, "x", "")
			a.label("x")
			a.op(tRet, 0)
		}, `(code 0x6) is not a conditional jump`},
	} {
		var a asm
		c.prog(&a)
		prog, err := a.assemble()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "roce: capture: BPF program: ") || !errors.Is(err, errProgram) {
			t.Errorf("%s: %v, %v; want an error with %q", c.name, prog, err, c.want)
		}
	}
}

// TestAsmTcpdump: the assembler resolves the labels of a long program as
// libpcap does. tcpdump -d lists the program of an expression with its
// jumps' targets as instruction numbers, tcpdump -dd the same program
// with its offsets: given -d's targets as labels (and -dd's codes and
// operands), the assembler must give -dd's offsets. The expression is
// RoCEFilter's, whose compiled program (200 instructions, from a pcap
// file: no ancillary load) has jumps of up to about 200.
func TestAsmTcpdump(t *testing.T) {
	r := "(ether proto 0x8915 or ether proto 0x8808 or ether proto 0x88cc or " +
		"(ip and ip[6:2] & 0x3fff = 0 and udp dst port 4791) or (ip6 and udp dst port 4791))"
	expr := r + " or vlan"
	for range MaxVLANs {
		expr = r + " or (vlan and (" + expr + "))"
	}
	bin := oracle.Need(t, "tcpdump")
	pcap := oracle.WritePcap(t, t.TempDir(), "empty.pcap", nil)
	run := func(flag string) []string {
		out, err := exec.Command(bin, "-r", pcap, flag, expr).Output()
		if err != nil {
			t.Fatalf("tcpdump %s: %v", flag, err)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	listing, dd := run("-d"), run("-dd")
	if len(listing) != len(dd) || len(dd) < 100 {
		t.Fatalf("tcpdump -d: %d lines, -dd: %d", len(listing), len(dd))
	}
	ddLine := regexp.MustCompile(`^\{ (0x[0-9a-f]+), (\d+), (\d+), (0x[0-9a-f]+) \},$`)
	dLine := regexp.MustCompile(`^\((\d+)\) (\w+)\s.*?(?:jt (\d+)\s+jf (\d+))?$`)
	num := func(s string) uint32 { // decimal, or hex after 0x
		base := 10
		if h, ok := strings.CutPrefix(s, "0x"); ok {
			s, base = h, 16
		}
		n, err := strconv.ParseUint(s, base, 32)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(n)
	}
	var want []Instruction
	var a asm
	farthest := 0
	for pc := range dd {
		m := ddLine.FindStringSubmatch(dd[pc])
		d := dLine.FindStringSubmatch(listing[pc])
		if m == nil || d == nil || num(d[1]) != uint32(pc) {
			t.Fatalf("instruction %d: %q, %q", pc, dd[pc], listing[pc])
		}
		in := Instruction{uint16(num(m[1])), uint8(num(m[2])), uint8(num(m[3])), num(m[4])}
		want = append(want, in)
		a.label("L" + strconv.Itoa(pc))
		switch {
		case d[3] != "":
			a.jump(in.Code, in.K, "L"+d[3], "L"+d[4])
			farthest = max(farthest, int(in.Jt), int(in.Jf))
		case d[2] == "ja":
			t.Fatalf("instruction %d: ja, which the assembler does not write", pc)
		default:
			a.op(in.Code, in.K)
		}
	}
	got, err := a.assemble()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		for pc := range want {
			if pc >= len(got) || got[pc] != want[pc] {
				t.Fatalf("instruction %d: assembled %v, tcpdump -dd %v (%s)", pc, got[pc:min(pc+1, len(got))], want[pc], listing[pc])
			}
		}
	}
	if farthest < 150 {
		t.Errorf("the farthest jump of tcpdump's program is %d: not the long program expected", farthest)
	}
	t.Logf("%d instructions, jumps of up to %d", len(got), farthest)
}
