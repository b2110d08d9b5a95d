package ib

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goSpelling turns an IBTA operation name into the Go spelling the
// constants use: words in capitals become Title case, except RDMA;
// "with" becomes "With"; spaces go.
func goSpelling(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		if w != "RDMA" && w == strings.ToUpper(w) {
			w = w[:1] + strings.ToLower(w[1:])
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// TestOpcodeConstants reads opcodes.go as source: every Known opcode has
// exactly one constant, every constant is Known, and each is named "Op",
// the transport and the Go spelling of the IBTA operation name.
func TestOpcodeConstants(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "opcodes.go", nil, 0)
	require.NoError(t, err)
	// Type-check the file alone, with Opcode declared, to evaluate the
	// constants' values as the compiler does.
	stub, err := parser.ParseFile(fset, "stub.go", "package ib\ntype Opcode uint8\n", 0)
	require.NoError(t, err)
	conf := types.Config{Error: func(error) {}}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	_, _ = conf.Check("ib", fset, []*ast.File{stub, f}, info)

	names := map[Opcode][]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			for _, id := range spec.(*ast.ValueSpec).Names {
				c, ok := info.Defs[id].(*types.Const)
				require.True(t, ok, "%s is not a constant", id.Name)
				v, exact := constant.Uint64Val(c.Val())
				require.True(t, exact && v < 256, "%s = %v", id.Name, c.Val())
				names[Opcode(v)] = append(names[Opcode(v)], id.Name)
			}
		}
	}
	count := 0
	for i := range 256 {
		o := Opcode(i)
		got := names[o]
		if !o.Known() {
			assert.Empty(t, got, "%#02x is not Known but has a constant", i)
			continue
		}
		count++
		want := "Op" + o.Transport().String() + goSpelling(o.Operation().String())
		if o == OpCNP {
			want = "OpCNP"
		}
		assert.Equal(t, []string{want}, got, "constants for %#02x (%v)", i, o)
	}
	assert.Equal(t, 87, count, "Known opcodes")
}

func TestGoSpelling(t *testing.T) {
	for in, want := range map[string]string{
		"RDMA WRITE Only with Immediate": "RDMAWriteOnlyWithImmediate",
		"SEND Last with Invalidate":      "SendLastWithInvalidate",
		"ATOMIC Acknowledge":             "AtomicAcknowledge",
		"CmpSwap":                        "CmpSwap",
		"RESYNC":                         "Resync",
		"RDMA READ Response First":       "RDMAReadResponseFirst",
	} {
		assert.Equal(t, want, goSpelling(in), in)
	}
}

// TestOpcodeClassification checks the classification column against lists
// of operation codes (OpCode bits 4..0) written out from IBTA Vol 1
// Table 38 and the IBTA 1.5 FLUSH and ATOMIC WRITE codes, not from the
// table under test. A class holds an opcode exactly when the transport
// defines the operation and the operation is in the class's list.
func TestOpcodeClassification(t *testing.T) {
	list := func(ops ...int) map[int]bool {
		m := map[int]bool{}
		for _, op := range ops {
			m[op] = true
		}
		return m
	}
	sends := []int{0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x16, 0x17}
	writes := []int{0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b}
	want := map[Class]map[int]bool{
		ClassSend:         list(sends...),
		ClassWrite:        list(writes...),
		ClassReadRequest:  list(0x0c),
		ClassReadResponse: list(0x0d, 0x0e, 0x0f, 0x10),
		ClassAtomic:       list(0x13, 0x14),
		ClassAtomicAck:    list(0x12),
		ClassAck:          list(0x11),
		ClassFlush:        list(0x1c),
		ClassAtomicWrite:  list(0x1d),
		ClassResync:       list(0x15),
		ClassCNP:          list(),
		ClassFirst:        list(0x00, 0x06, 0x0d),
		ClassMiddle:       list(0x01, 0x07, 0x0e),
		ClassLast:         list(0x02, 0x03, 0x08, 0x09, 0x0f, 0x16),
		ClassOnly:         list(0x04, 0x05, 0x0a, 0x0b, 0x10, 0x17),
		ClassImmediate:    list(0x03, 0x05, 0x09, 0x0b),
		ClassInvalidate:   list(0x16, 0x17),
		ClassRequest:      list(append(append(sends, writes...), 0x0c, 0x13, 0x14, 0x15, 0x1c, 0x1d)...),
		ClassResponse:     list(0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12),
		ClassEndsMessage:  list(0x02, 0x03, 0x08, 0x09, 0x0f, 0x16, 0x04, 0x05, 0x0a, 0x0b, 0x10, 0x17),
		ClassFullMTU:      list(0x00, 0x06, 0x0d, 0x01, 0x07, 0x0e),
	}
	for i := range 256 {
		o := Opcode(i)
		switch {
		case o == OpCNP:
			assert.Equal(t, ClassCNP, o.Class(), "CNP")
			continue
		case !o.Known():
			assert.Zero(t, o.Class(), "%v", o)
			continue
		}
		for c, ops := range want {
			assert.Equal(t, ops[int(o.Operation())], o.Is(c), "%v Is(%#x)", o, uint32(c))
		}
		assert.Equal(t, o.Is(ClassRequest), o.IsRequest(), "%v", o)
	}
	// The named constants read as the names say.
	assert.True(t, OpUCRDMAWriteOnlyWithImmediate.Is(ClassWrite|ClassImmediate))
	assert.True(t, OpXRCRDMAReadResponseMiddle.Is(ClassFullMTU))
	assert.False(t, OpRDRDMAReadRequest.Is(ClassEndsMessage))
	assert.Equal(t, OpUDSendOnly, MakeOpcode(UD, SendOnly))
}
