package dump

import (
	"strconv"

	"github.com/roce-go/roce/pfc"
)

// speed returns the link speed text lines use.
func (o *TextOptions) speed() pfc.Speed {
	if o.Speed == 0 {
		return pfc.Speed100G
	}
	return o.Speed
}

// appendMACCText appends the line of a MAC Control frame:
//
//	SRC > DST PFC pause [3 7] c3 65535q=335.54us c7 4660q=23.86us resume [1]
//	SRC > DST PAUSE 65535q=335.54us
//	SRC > DST MAC Control GATE len 60
func (r *Record) appendMACCText(b []byte, o *TextOptions) []byte {
	m := &r.MACControl
	b = r.appendVLANs(b, o)
	b = r.appendEndpoints(b, o, false)
	sp := o.speed()
	switch m.Opcode {
	case pfc.OpcodePFC:
		b = append(b, " PFC"...)
		if x := m.XOFF(); x != 0 {
			b = append(b, " pause "...)
			b = appendPrios(b, x)
			for p := 0; p < pfc.NumPriorities; p++ {
				if x.Has(p) {
					b = append(b, " c"...)
					b = strconv.AppendInt(b, int64(p), 10)
					b = append(b, ' ')
					b = appendQuanta(b, sp, m.Time[p])
				}
			}
		}
		if x := m.XON(); x != 0 {
			b = append(b, " resume "...)
			b = appendPrios(b, x)
		}
		if m.Enabled() == 0 {
			b = append(b, " no priority enabled"...)
		}
		if rsv := m.PriorityEnableVector >> 8; rsv != 0 {
			b = append(b, " reserved enbv bits 0x"...)
			b = append(b, hexDigits[rsv>>4], hexDigits[rsv&0xf])
		}
	case pfc.OpcodePause:
		if m.PauseTime == 0 {
			b = append(b, " PAUSE resume 0q"...)
		} else {
			b = append(b, " PAUSE "...)
			b = appendQuanta(b, sp, m.PauseTime)
		}
	default:
		b = append(b, " MAC Control "...)
		b = append(b, m.Opcode.String()...)
		b = append(b, " len "...)
		b = strconv.AppendInt(b, int64(r.Len), 10)
	}
	return append(b, '\n')
}

// appendPrios appends a set of priorities as "[3 7]".
func appendPrios(b []byte, p pfc.Priorities) []byte {
	b = append(b, '[')
	first := true
	for i := 0; i < pfc.NumPriorities; i++ {
		if p.Has(i) {
			if !first {
				b = append(b, ' ')
			}
			first = false
			b = append(b, byte('0'+i))
		}
	}
	return append(b, ']')
}

// appendQuanta appends "65535q=335.54us": the quanta and their length at
// speed sp, in microseconds with two decimals (milliseconds with three
// from 10 ms on).
func appendQuanta(b []byte, sp pfc.Speed, q uint16) []byte {
	b = strconv.AppendUint(b, uint64(q), 10)
	b = append(b, "q="...)
	return AppendPicoseconds(b, sp.Picoseconds(q))
}

// AppendPicoseconds appends a duration given in picoseconds as
// microseconds with two decimals ("335.54us"), or as milliseconds with
// three decimals from 10 ms on ("33.554ms"), rounding halves up.
func AppendPicoseconds(b []byte, ps uint64) []byte {
	if ps >= 10_000_000_000 {
		v := (ps + 500_000) / 1_000_000 // microseconds
		b = strconv.AppendUint(b, v/1000, 10)
		b = append(b, '.')
		b = appendPadded(b, v%1000, 3)
		return append(b, "ms"...)
	}
	v := (ps + 5_000) / 10_000 // hundredths of a microsecond
	b = strconv.AppendUint(b, v/100, 10)
	b = append(b, '.')
	b = appendPadded(b, v%100, 2)
	return append(b, "us"...)
}

// appendCNPText appends the rest of a CNP's line:
// "CNP qp 0x000034 becn" and, if the CNP breaks a rule, "nonconforming:"
// and cnp.Check's reason; then the ECN codepoint and the ICRC status.
func (r *Record) appendCNPText(b []byte) []byte {
	h := &r.RoCE.Packet.BTH
	b = append(b, "CNP qp 0x"...)
	b = appendHex24(b, h.DestQP)
	if h.BECN {
		b = append(b, " becn"...)
	} else {
		b = append(b, " no-becn"...)
	}
	if h.FECN {
		b = append(b, " fecn"...)
	}
	if r.CNPErr != nil {
		b = append(b, " nonconforming: "...)
		b = append(b, r.CNPErr.Error()...)
	}
	return r.appendTail(b)
}

// appendMACCJSON appends the macc.* keys of a MAC Control frame.
func (r *Record) appendMACCJSON(b []byte) []byte {
	m := &r.MACControl
	b = jUint(b, &kMaccOpcode, uint64(m.Opcode))
	switch m.Opcode {
	case pfc.OpcodePause:
		b = jUint(b, &kMaccPauseTime, uint64(m.PauseTime))
	case pfc.OpcodePFC:
		b = jUint(b, &kMaccCbfcEnbv, uint64(m.PriorityEnableVector))
		for p := 0; p < pfc.NumPriorities; p++ {
			b = jBool(b, &kMaccCbfcEnbvC[p], m.PriorityEnableVector&(1<<p) != 0)
		}
		for p := 0; p < pfc.NumPriorities; p++ {
			b = jUint(b, &kMaccCbfcPauseTimeC[p], uint64(m.Time[p]))
		}
	}
	return b
}

// appendHex16 appends v as four lowercase hex digits.
func appendHex16(b []byte, v uint16) []byte {
	return append(b, hexDigits[v>>12], hexDigits[v>>8&0xf], hexDigits[v>>4&0xf], hexDigits[v&0xf])
}
