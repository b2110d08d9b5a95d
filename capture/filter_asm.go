package capture

import (
	"errors"
	"fmt"
)

// The fields of an instruction's code that the assembler reads, as
// <linux/bpf_common.h> and libpcap's <pcap/bpf.h> define them.
const (
	bpfClass = 0x07 // the class: BPF_LD, BPF_LDX, BPF_ST, BPF_STX, BPF_ALU, BPF_JMP, BPF_RET, BPF_MISC
	bpfJMP   = 0x05 // the jumps' class
	bpfOp    = 0xf0 // a jump's operation: BPF_JA, BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET
	bpfJA    = 0x00 // the unconditional jump, whose offset is K
)

// asm is a classic BPF program being written: its jumps name the
// instructions they go to by labels, which assemble turns into the
// offsets of Instruction.Jt and Instruction.Jf. Those count from the
// next instruction and only forward (a classic BPF program has no loop:
// the kernel checks that every path ends), and they fit in a byte: a
// jump of more than 255 instructions is refused, never cut. The zero
// asm is an empty program.
type asm struct {
	insns  []asmInsn
	labels map[string]int // label: the number of the instruction it names
	err    error          // the first misuse (a label given twice, a jump given as an op ...)
}

// asmInsn is an instruction of an asm and, for a conditional jump, the
// labels of its targets.
type asmInsn struct {
	Instruction
	jt, jf string // where a jump goes when true and when false: a label, or "" for the next instruction
}

// errProgram is what every error of the assembler wraps: a program of
// this package's own (RoCEFilter's) written wrong, which no caller can
// cause, so the sentinel stays unexported.
var errProgram = errors.New("roce: capture: BPF program")

// label names the next instruction added.
func (a *asm) label(name string) {
	if a.labels == nil {
		a.labels = make(map[string]int)
	}
	if name == "" {
		a.fail(fmt.Errorf("%w: instruction %d: an empty label", errProgram, len(a.insns)))
		return
	}
	if _, ok := a.labels[name]; ok {
		a.fail(fmt.Errorf("%w: label %q given twice", errProgram, name))
		return
	}
	a.labels[name] = len(a.insns)
}

// op adds an instruction that does not jump: a load, a store, an
// arithmetic operation, a return.
func (a *asm) op(code uint16, k uint32) {
	if code&bpfClass == bpfJMP {
		a.fail(fmt.Errorf("%w: instruction %d (code %#x) jumps: give it with jump", errProgram, len(a.insns), code))
	}
	a.insns = append(a.insns, asmInsn{Instruction: Instruction{Code: code, K: k}})
}

// jump adds a conditional jump (BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET)
// comparing A with k, that goes to the instruction labelled jt when
// true and to the one labelled jf when false; "" is the next
// instruction.
func (a *asm) jump(code uint16, k uint32, jt, jf string) {
	if code&bpfClass != bpfJMP || code&bpfOp == bpfJA {
		a.fail(fmt.Errorf("%w: instruction %d (code %#x) is not a conditional jump", errProgram, len(a.insns), code))
	}
	a.insns = append(a.insns, asmInsn{Instruction: Instruction{Code: code, K: k}, jt: jt, jf: jf})
}

func (a *asm) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

// assemble returns the program, each jump's labels resolved into its
// offsets, or the first error: a misuse of label, op or jump, a label no
// instruction follows or that is not defined, a jump backward or to
// itself, a jump of more than 255 instructions.
func (a *asm) assemble() ([]Instruction, error) {
	if a.err != nil {
		return nil, a.err
	}
	prog := make([]Instruction, len(a.insns))
	for pc, in := range a.insns {
		prog[pc] = in.Instruction
		var err error
		if prog[pc].Jt, err = a.offset(pc, in.jt); err != nil {
			return nil, err
		}
		if prog[pc].Jf, err = a.offset(pc, in.jf); err != nil {
			return nil, err
		}
	}
	return prog, nil
}

// offset returns the offset of a jump at instruction pc to label, 0 for
// "" (the next instruction).
func (a *asm) offset(pc int, label string) (uint8, error) {
	if label == "" {
		return 0, nil
	}
	to, ok := a.labels[label]
	if !ok || to >= len(a.insns) {
		return 0, fmt.Errorf("%w: instruction %d jumps to %q, which names no instruction", errProgram, pc, label)
	}
	off := to - (pc + 1)
	if off < 0 || off > 255 {
		return 0, fmt.Errorf("%w: instruction %d jumps to %q (instruction %d): an offset of %d, outside 0 to 255", errProgram, pc, label, to, off)
	}
	return uint8(off), nil
}

// mustAssemble returns a's program and panics on an error: for the
// package's own programs, built once, which any test of the package
// builds.
func mustAssemble(a *asm) []Instruction {
	prog, err := a.assemble()
	if err != nil {
		panic(err)
	}
	return prog
}
