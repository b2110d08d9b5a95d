package dump

import (
	"strconv"
	"sync"

	"github.com/roce-go/roce/dcbx"
	"github.com/roce-go/roce/internal/hdr"
)

// dcbxFields are the keys of the IEEE 802.1Qaz TLVs of an LLDP frame
// (Record.HasDCBX), in JSON key order: AppendJSON writes them from these
// rows (appendRowsJSON). tshark 4.0's names where a TLV has one field of
// that name; where tshark names two TLVs' fields alike (willing in PFC
// and ETS Configuration, the ETS tables of Configuration and
// Recommendation), the second gets a name of ours that answers to
// tshark's as its second name (Field.Also). Application Priority entries
// repeat within a TLV, so JSON has only their count.
var dcbxFields = sync.OnceValue(func() []Field {
	return cat([]Field{
		also(fPFC("lldp.dcbx.ieee.pfc.willing", FieldBool, 0, func(p *dcbx.PFCConfig) uint64 { return b2u(p.Willing) }), "lldp.dcbx.ieee.willing").doc("PFC Configuration: willing (not a Wireshark name; filters: lldp.dcbx.ieee.willing too)"),
		fPFC("lldp.dcbx.ieee.pfc.mbc", FieldBool, 0, func(p *dcbx.PFCConfig) uint64 { return b2u(p.MBC) }).doc("PFC: MACsec bypass capability"),
		fPFC("lldp.dcbx.ieee.pfc.numtcs", FieldUint, 4, func(p *dcbx.PFCConfig) uint64 { return uint64(p.Cap) }).doc("PFC: PFC cap, traffic classes that may have PFC at once"),
		fPFC("lldp.dcbx.ieee.pfc.enable", FieldUint, 8, func(p *dcbx.PFCConfig) uint64 { return uint64(p.Enable) }).doc("PFC: the enable vector, bit n priority n (not a Wireshark field)"),
	}, pfcPrioFields(), []Field{
		also(fETSConf("lldp.dcbx.ieee.ets.willing", FieldBool, 0, func(e *dcbx.ETSConfig) uint64 { return b2u(e.Willing) }), "lldp.dcbx.ieee.willing").doc("ETS Configuration: willing (not a Wireshark name; filters: lldp.dcbx.ieee.willing too)"),
		fETSConf("lldp.dcbx.ieee.ets.cbs", FieldBool, 0, func(e *dcbx.ETSConfig) uint64 { return b2u(e.CBS) }).doc("ETS Configuration: credit-based shaper supported"),
		fETSConf("lldp.dcbx.ieee.ets.maxtcs", FieldUint, 3, func(e *dcbx.ETSConfig) uint64 { return uint64(e.MaxTCs) }).doc("ETS Configuration: traffic classes supported, 0 meaning 8"),
	}, etsTableFields(false), etsTableFields(true), []Field{
		numeric("lldp.dcbx.ieee.app.entries", FieldUint, 16, false, func(r *Record) (uint64, bool) {
			if d := r.dcbx(); d != nil && d.HasAppPriority {
				return uint64(d.AppPriority.Entries()), true
			}
			return 0, false
		}).doc("Application Priority: entries in the TLV (not a Wireshark field)"),
		Field{Name: "_dcbx_error", Type: FieldString, Get: func(r *Record) (Value, bool) {
			if d := r.dcbx(); d != nil && r.DCBXErr != nil {
				return str(r.DCBXErr.Error())
			}
			return none()
		}}.doc("a DCBX TLV that does not decode: the decoder's error"),
	})
})

// dcbx returns the frame's DCBX TLVs, or nil.
func (r *Record) dcbx() *dcbx.TLVs {
	if r.HasDCBX && r.Kind == KindNotRoCE {
		return &r.DCBX
	}
	return nil
}

// lldp reports whether the frame is LLDP.
func (r *Record) lldp() bool {
	return r.Kind == KindNotRoCE && r.eth != nil && r.net.innerType == hdr.EtherTypeLLDP
}

func fPFC(name string, typ FieldType, bits uint8, get func(p *dcbx.PFCConfig) uint64) Field {
	hex := name == "lldp.dcbx.ieee.pfc.enable" // a bit vector; the rest BASE_DEC, as in tshark
	return numeric(name, typ, bits, hex, func(r *Record) (uint64, bool) {
		if d := r.dcbx(); d != nil && d.HasPFCConfig {
			return get(&d.PFCConfig), true
		}
		return 0, false
	})
}

func fETSConf(name string, typ FieldType, bits uint8, get func(e *dcbx.ETSConfig) uint64) Field {
	return numeric(name, typ, bits, false, func(r *Record) (uint64, bool) {
		if d := r.dcbx(); d != nil && d.HasETSConfig {
			return get(&d.ETSConfig), true
		}
		return 0, false
	})
}

// pfcPrioFields are lldp.dcbx.feature.pfc.prio0 ... prio7: PFC enabled
// on priority n (tshark 4.0 shows the IEEE TLV's bits under these names).
func pfcPrioFields() []Field {
	var fs []Field
	for p := 0; p < 8; p++ {
		fs = append(fs, fPFC("lldp.dcbx.feature.pfc.prio"+strconv.Itoa(p), FieldBool, 0,
			func(c *dcbx.PFCConfig) uint64 { return uint64(c.Enable>>p) & 1 }).numbered().doc("PFC: priority "+strconv.Itoa(p)+" enabled"))
	}
	return fs
}

// etsTableFields are the ETS tables of ETS Configuration (tshark 4.0's
// lldp.dcbx.feature.pg.pgid_prioN, .pg.perN and lldp.dcbx.ieee.ets.tsaN)
// or of ETS Recommendation (lldp.dcbx.ieee.etsrec.pgid_prioN, .perN,
// .tsaN, ours, answering to tshark's names too): each priority's traffic
// class, each class's bandwidth share in percent, each class's TSA.
func etsTableFields(rec bool) []Field {
	tables := func(r *Record) *dcbx.ETSTables {
		switch d := r.dcbx(); {
		case d == nil:
		case rec && d.HasETSRecommendation:
			return &d.ETSRecommendation.ETSTables
		case !rec && d.HasETSConfig:
			return &d.ETSConfig.ETSTables
		}
		return nil
	}
	row := func(name, tshark string, bits uint8, get func(t *dcbx.ETSTables) uint64) Field {
		f := numeric(name, FieldUint, bits, false, func(r *Record) (uint64, bool) {
			if t := tables(r); t != nil {
				return get(t), true
			}
			return 0, false
		})
		if rec {
			f.Also = tshark
		}
		return f
	}
	pg, bw, tsa := "lldp.dcbx.feature.pg.pgid_prio", "lldp.dcbx.feature.pg.per", "lldp.dcbx.ieee.ets.tsa"
	npg, nbw, ntsa := pg, bw, tsa
	if rec {
		npg, nbw, ntsa = "lldp.dcbx.ieee.etsrec.pgid_prio", "lldp.dcbx.ieee.etsrec.per", "lldp.dcbx.ieee.etsrec.tsa"
	}
	tlv := "ETS Configuration: "
	if rec {
		tlv = "ETS Recommendation: "
	}
	var fs []Field
	for _, k := range []struct {
		name, tshark string
		bits, wide   uint8
		doc1, doc2   string // before and after the index
		get          func(t *dcbx.ETSTables, i int) uint64
	}{
		{npg, pg, 4, 16, "priority ", "'s traffic class", func(t *dcbx.ETSTables, i int) uint64 { return uint64(t.PriorityTC[i]) }},
		{nbw, bw, 8, 0, "class ", "'s bandwidth share in percent", func(t *dcbx.ETSTables, i int) uint64 { return uint64(t.Bandwidth[i]) }},
		{ntsa, tsa, 8, 0, "class ", "'s TSA (0 strict, 1 CBS, 2 ETS, 255 vendor)", func(t *dcbx.ETSTables, i int) uint64 { return uint64(t.TSA[i]) }},
	} {
		for i := 0; i < 8; i++ {
			n := strconv.Itoa(i)
			f := row(k.name+n, k.tshark+n, k.bits, func(t *dcbx.ETSTables) uint64 { return k.get(t, i) })
			if k.wide != 0 {
				f = f.typeWidth(k.wide)
			}
			doc := tlv + k.doc1 + n + k.doc2
			if rec {
				doc += " (not a Wireshark name; filters: " + k.tshark + n + " too)"
			}
			fs = append(fs, f.numbered().doc(doc))
		}
	}
	return fs
}
