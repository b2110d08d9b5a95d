package dump

import (
	"strconv"

	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/pfc"
)

// decodeDCBX decodes the DCBX TLVs of an LLDPDU.
func (r *Record) decodeDCBX(pdu []byte) {
	r.DCBXErr = r.DCBX.Decode(pdu)
	r.HasDCBX = r.DCBXErr != nil || r.DCBX.Any()
}

// appendDCBXText appends the line of an LLDP frame with DCBX TLVs: the
// VLAN tags and MAC addresses, "LLDP DCBX", then each TLV met, separated
// by semicolons:
//
//	PFC enabled [3 4] cap 8 willing mbc
//	ETS maxtcs 8 willing cbs prio-tc [0 0 0 3 0 0 0 0] bw [50 0 0 50 0 0 0 0] tsa [ets ets ets ets ets ets ets ets]
//	ETS-REC prio-tc [...] bw [...] tsa [...]
//	APP [udp 4791 prio 3, dscp 26 prio 3]
//
// or "malformed:" and the error of a TLV that does not decode.
func (r *Record) appendDCBXText(b []byte, o *TextOptions) []byte {
	b = r.appendVLANs(b, o)
	b = r.appendEndpoints(b, o, false)
	b = append(b, " LLDP DCBX"...)
	d := &r.DCBX
	sep := " "
	if d.HasPFCConfig {
		b = appendDCBXPFC(append(b, sep...), &d.PFCConfig)
		sep = "; "
	}
	if d.HasETSConfig {
		e := &d.ETSConfig
		b = append(b, sep+"ETS maxtcs "...)
		b = strconv.AppendInt(b, int64(e.TrafficClasses()), 10)
		b = appendFlag(b, e.Willing, " willing")
		b = appendFlag(b, e.CBS, " cbs")
		b = appendETSTables(b, &e.ETSTables)
		sep = "; "
	}
	if d.HasETSRecommendation {
		b = appendETSTables(append(b, sep+"ETS-REC"...), &d.ETSRecommendation.ETSTables)
		sep = "; "
	}
	if d.HasAppPriority {
		b = appendDCBXApp(append(b, sep...), &d.AppPriority)
		sep = "; "
	}
	if r.DCBXErr != nil {
		b = append(b, sep+"malformed: "...)
		b = append(b, r.DCBXErr.Error()...)
	}
	return append(b, '\n')
}

// appendDCBXPFC appends "PFC enabled [3 4] cap 8 willing mbc".
func appendDCBXPFC(b []byte, p *dcbx.PFCConfig) []byte {
	b = append(b, "PFC enabled "...)
	b = appendPrios(b, pfc.Priorities(p.Enable))
	b = append(b, " cap "...)
	b = strconv.AppendUint(b, uint64(p.Cap), 10)
	b = appendFlag(b, p.Willing, " willing")
	return appendFlag(b, p.MBC, " mbc")
}

// appendETSTables appends " prio-tc [...] bw [...] tsa [...]".
func appendETSTables(b []byte, t *dcbx.ETSTables) []byte {
	b = append(b, " prio-tc ["...)
	for i, tc := range t.PriorityTC {
		b = appendSep(b, i)
		b = strconv.AppendUint(b, uint64(tc), 10)
	}
	b = append(b, "] bw ["...)
	for i, bw := range t.Bandwidth {
		b = appendSep(b, i)
		b = strconv.AppendUint(b, uint64(bw), 10)
	}
	b = append(b, "] tsa ["...)
	for i, a := range t.TSA {
		b = appendSep(b, i)
		b = append(b, a.String()...)
	}
	return append(b, ']')
}

// appendDCBXApp appends "APP [udp 4791 prio 3, ethertype 0x8915 prio 3]":
// Ethertypes in hex, ports and DSCPs in decimal.
func appendDCBXApp(b []byte, a *dcbx.AppPriority) []byte {
	b = append(b, "APP ["...)
	for i := 0; i < a.Entries(); i++ {
		if i > 0 {
			b = append(b, ", "...)
		}
		e := a.Entry(i)
		b = append(b, e.Sel.String()...)
		if e.Sel == dcbx.SelEthertype {
			b = append(b, " 0x"...)
			b = appendHex16(b, e.Protocol)
		} else {
			b = append(b, ' ')
			b = strconv.AppendUint(b, uint64(e.Protocol), 10)
		}
		b = append(b, " prio "...)
		b = strconv.AppendUint(b, uint64(e.Priority), 10)
	}
	return append(b, ']')
}

func appendFlag(b []byte, on bool, s string) []byte {
	if on {
		return append(b, s...)
	}
	return b
}

func appendSep(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ' ')
	}
	return b
}
