package dump

import (
	"strconv"
	"sync"
)

// AppendVerbose appends the frame's headers to b, one line per header
// with every field the frame has, as a compact `tshark -V`:
//
//	infiniband.bth: opcode 10 (RC RDMA WRITE Only) se false m false padcnt 0 tver 0 p_key 0xffff fecn false becn false destqp 0x0000a0 a true psn 6189606
//
// Each line is indented four spaces and names the protocol (Protocols, in
// their order); the fields (Fields, grouped by FieldProtocol) follow with
// their names less the protocol's, their values as in JSON, hex for the
// fields Wireshark shows in hex, quoted for strings, and the name of an
// opcode. rocedump -v prints these lines after each text line.
func (r *Record) AppendVerbose(b []byte) []byte {
	table, byProto := fieldTable(), protocolFields()
	for pi := range protocolTable {
		p := &protocolTable[pi]
		if !p.Present(r) {
			continue
		}
		start := len(b)
		b = append(b, "    "...)
		b = append(b, p.Name...)
		b = append(b, ':')
		n := 0
		for _, fi := range byProto[pi] {
			f := &table[fi]
			v, ok := f.Get(r)
			if !ok {
				continue
			}
			n++
			b = append(b, ' ')
			b = append(b, f.Name[len(p.Name)+1:]...)
			b = append(b, ' ')
			b = f.appendVerboseValue(b, v)
		}
		if n == 0 {
			b = b[:start]
			continue
		}
		b = append(b, '\n')
	}
	return b
}

func (f *Field) appendVerboseValue(b []byte, v Value) []byte {
	switch {
	case f.Type == FieldString && v.B != nil: // text the frame holds: quoted as JSON quotes it, with no copy
		return appendJSONValue(b, &v)
	case f.Type == FieldString:
		return strconv.AppendQuote(b, v.S)
	case f.Type == FieldUint && f.Hex:
		b = append(b, '0', 'x')
		for s := int(f.Bits+3)/4*4 - 4; s >= 0; s -= 4 {
			b = append(b, hexDigits[v.U>>uint(s)&0xf])
		}
	default:
		b = f.AppendValue(b, v)
	}
	if f.Meaning != nil {
		b = append(b, " ("...)
		b = append(b, f.Meaning(v.U)...)
		b = append(b, ')')
	}
	return b
}

// protocolFields lists, per protocol of protocolTable, the indexes of
// its fields in fieldTable; the fields starting with "_" go with frame.
var protocolFields = sync.OnceValue(func() [][]int {
	byProto := make([][]int, len(protocolTable))
	for i, f := range fieldTable() {
		name := FieldProtocol(f.Name)
		for pi := range protocolTable {
			if protocolTable[pi].Name == name {
				byProto[pi] = append(byProto[pi], i)
			}
		}
	}
	return byProto
})
