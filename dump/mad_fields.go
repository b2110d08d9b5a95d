package dump

import (
	"strings"
	"sync"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/mad"
)

// madRec is the management datagram of a frame, decoded once by
// Record.Decode for the JSON keys and display filters of the MAD header,
// the RMPP and SA headers, the SA records, the CM messages and the SMP
// and PerfMgt attributes, and for its text (appendMAD).
type madRec struct {
	ok bool // a MAD in a UD SEND Only to QP 0 or QP 1, whole or as far as the capture kept it
	// cut says that the capture cut the MAD: of its rows, those set in
	// has are there (decodeCutMAD), and of the MAD protocols those set
	// in proto (by madProtocols' order).
	cut   bool
	has   [(maxMADRows + 63) / 64]uint64
	proto [4]bool
	hdr   mad.Header
	rmpp  bool // the class carries an RMPP header: rmppH holds it
	rmppH mad.RMPP
	cm    bool // a CM message of an attribute CM defines: cmL holds it
	cmL   mad.CM
	ipcm  bool // a REQ with an RDMA-CM service ID and IP-CM private data
	ipcmH mad.IPCM
	sa    bool // an SA header: saL holds it
	saL   mad.SA
	path  bool // the SA data's first record is a PathRecord
	pathR mad.PathRecord
	smp   smpRec   // smp_fields.go: an SMP and its SMInfo
	attr  attrRec  // smp_attr_fields.go: PortInfo, SwitchInfo, PortCounters
	table tableRec // smp_table_fields.go: GUIDInfo, P_KeyTable
	mcm   bool     // the SA data's first record is an MCMemberRecord: mcmR holds it
	mcmR  mad.MCMemberRecord
	node  bool // the SA data's first record is a NodeRecord: nodeR holds it
	nodeR mad.NodeRecord
	pir   bool // the SA data's first record is a PortInfoRecord: pirR holds it
	pirR  mad.PortInfoRecord
	svc   bool // the SA data's first record is a ServiceRecord: svcR holds it
	svcR  mad.ServiceRecord
}

// decodeMAD decodes the MAD a UD SEND Only to QP 0 or QP 1 carries, as
// far as package mad's layers go; of a MAD the capture cut, the fields it
// kept whole (decodeCutMAD).
func (r *Record) decodeMAD() {
	m := &r.madj
	m.ok, m.cut = false, false
	p := &r.RoCE.Packet
	if p.BTH.OpCode != ib.OpUDSendOnly || p.BTH.DestQP > ib.QPGSI {
		return
	}
	switch {
	case len(p.Payload) >= mad.Len:
		m.decode(p.Payload)
	case p.BTH.Truncated && len(p.Payload) > 0:
		r.decodeCutMAD(p.Payload)
	}
}

// maxMADRows bounds the number of MAD rows (madRaw), for the arrays of
// decodeCutMAD; init checks it.
const maxMADRows = 512

// decodeCutMAD decodes a MAD the capture cut after got, its first bytes:
// it decodes the MAD twice, the bytes not captured once all ones and
// once all zeros, and a row is there when it is in both with the same
// value, so that no field shows a byte the capture did not keep. The
// zeros' decode stays in m (its values are those of the rows that are
// there); r.madBuf holds its bytes.
func (r *Record) decodeCutMAD(got []byte) {
	m := &r.madj
	buf := r.madBuf[:]
	n := copy(buf, got)
	for i := n; i < len(buf); i++ {
		buf[i] = 0xff
	}
	m.decode(buf)
	var ones [maxMADRows]uint64 // each row's value hashed, 0 when absent
	rows := madRaw()
	for i := range rows {
		if v, ok := rows[i].Get(r); ok {
			ones[i] = v.hash() | 1
		}
	}
	clear(buf[n:])
	m.decode(buf)
	m.cut, m.has, m.proto = true, [len(m.has)]uint64{}, [len(m.proto)]bool{}
	found := false
	for i := range rows {
		if v, ok := rows[i].Get(r); ok && ones[i] == v.hash()|1 {
			m.has[i/64] |= 1 << (i % 64)
			found = true
			m.proto[0] = true
			if pi := madRowProto()[i]; pi > 0 {
				m.proto[pi] = true
			}
		}
	}
	m.ok = found
}

// decode decodes a whole MAD, b (mad.Len bytes).
func (m *madRec) decode(b []byte) {
	m.ok, m.rmpp, m.cm, m.ipcm, m.sa = false, false, false, false, false
	m.path, m.mcm, m.node, m.pir, m.svc = false, false, false, false, false
	if len(b) < mad.Len || m.hdr.Decode(b) != nil {
		return
	}
	m.ok = true
	m.smp.decodeSMP(&m.hdr, b)
	m.decodeAttrs(b)
	m.decodeTables()
	rest, body := b[mad.HeaderLen:], m.hdr.Body()
	if m.hdr.MgmtClass.HasRMPP() {
		if m.rmppH.Decode(rest) != nil {
			return
		}
		m.rmpp, rest = true, rest[mad.RMPPLen:]
		body = mad.BodySA // the one class with RMPP this table decodes
		if m.hdr.MgmtClass != mad.ClassSubnAdm {
			return
		}
	}
	switch body {
	case mad.BodyCM:
		m.cmL.AttributeID = m.hdr.AttributeID
		m.cm = m.cmL.Decode(rest) == nil && m.cmL.Name() != ""
		q := &m.cmL.REQ
		m.ipcm = m.cm && m.hdr.AttributeID == mad.AttrConnectRequest && q.ServiceID.IsIPCM() && q.IPCM(&m.ipcmH)
	case mad.BodySA:
		m.sa = m.saL.Decode(rest) == nil
		if m.sa {
			m.decodeRecord() // sa_record_fields.go
		}
	}
}

// madFields are the rows of the MAD keys, in JSON key order: AppendJSON
// writes them from these rows (appendRowsJSON). Each is its row of
// madRaw, absent when the capture cut the MAD before the end of its
// bytes (cutAware).
var madFields = sync.OnceValue(func() []Field { return cutAware(madRaw()) })

// cutAware returns rows that answer as raw's do, except that the row of
// a MAD the capture cut is absent unless decodeCutMAD found it there.
func cutAware(raw []Field) []Field {
	if len(raw) > maxMADRows {
		panic("dump: more MAD rows than maxMADRows")
	}
	out := make([]Field, len(raw))
	for i, f := range raw {
		word, bit := i/64, uint64(1)<<(i%64)
		there := func(r *Record) bool { return !r.madj.cut || r.madj.has[word]&bit != 0 }
		get := f.Get
		f.Get = func(r *Record) (Value, bool) {
			if !there(r) {
				return none()
			}
			return get(r)
		}
		if get := f.Uint; get != nil {
			f.Uint = func(r *Record) (uint64, bool) {
				if !there(r) {
					return 0, false
				}
				return get(r)
			}
		}
		out[i] = f
	}
	return out
}

// madRowProto is, per row of madRaw, its protocol among madProtocols
// (1 infiniband.rmpp, 2 infiniband.cm, 3 infiniband.smpdirected), or 0
// for none narrower than infiniband.mad.
var madRowProto = sync.OnceValue(func() []int {
	rows := madRaw()
	out := make([]int, len(rows))
	for i := range rows {
		for pi, name := range []string{"", "infiniband.rmpp.", "infiniband.cm.", "infiniband.smpdirected."} {
			if pi > 0 && strings.HasPrefix(rows[i].Name, name) {
				out[i] = pi
			}
		}
	}
	return out
})

// madRaw are the MAD rows as the MAD decodes, cut or not.
var madRaw = sync.OnceValue(func() []Field {
	return cat([]Field{
		fMAD("infiniband.mad.baseversion", 8, func(m *madRec) uint64 { return uint64(m.hdr.BaseVersion) }).doc("MAD header: base version, 1"),
		fMAD("infiniband.mad.mgmtclass", 8, func(m *madRec) uint64 { return uint64(m.hdr.MgmtClass) }).doc("management class (7 CM, 3 SA, 1 and 0x81 SMP, 4 PerfMgt)"),
		fMAD("infiniband.mad.classversion", 8, func(m *madRec) uint64 { return uint64(m.hdr.ClassVersion) }).doc("class version"),
		fMAD("infiniband.mad.method", 8, func(m *madRec) uint64 { return uint64(m.hdr.MethodByte()) }).doc("method, with the response bit (0x81 GetResp)"),
		fMAD("infiniband.mad.status", 16, func(m *madRec) uint64 { return uint64(m.hdr.Status) }).doc("status"),
		fMAD("infiniband.mad.classspecific", 16, func(m *madRec) uint64 { return uint64(m.hdr.ClassSpecific) }).doc("class-specific field"),
		fMAD64("infiniband.mad.transactionid", func(m *madRec) (uint64, bool) { return m.hdr.TransactionID, true }).doc("transaction ID, \"0x\" and 16 hex digits"),
		fMAD("infiniband.mad.attributeid", 16, func(m *madRec) uint64 { return uint64(m.hdr.AttributeID) }).doc("attribute ID (0x10 CM REQ, 0x35 SA PathRecord, ...)"),
		fMAD("infiniband.mad.attributemodifier", 32, func(m *madRec) uint64 { return uint64(m.hdr.AttributeModifier) }).doc("attribute modifier"),
		fRMPP("infiniband.rmpp.rmppversion", func(h *mad.RMPP) uint64 { return uint64(h.RMPPVersion) }).doc("RMPP header (SA): version, 0 when RMPP is not in use"),
		fRMPP("infiniband.rmpp.rmpptype", func(h *mad.RMPP) uint64 { return uint64(h.RMPPType) }).doc("RMPP: type (1 DATA, 2 ACK, 3 STOP, 4 ABORT)"),
		fRMPP("infiniband.rmpp.rresptime", func(h *mad.RMPP) uint64 { return uint64(h.RRespTime) }).doc("RMPP: response time, 5 bits (tshark 4.0 reads 4 bits)"),
		fRMPP("infiniband.rmpp.rmppflags", func(h *mad.RMPP) uint64 { return uint64(h.RMPPFlags) }).doc("RMPP: flags, 3 bits: 1 active, 2 first, 4 last (tshark 4.0 reads 4 bits)"),
		fRMPP("infiniband.rmpp.rmppstatus", func(h *mad.RMPP) uint64 { return uint64(h.RMPPStatus) }).doc("RMPP: status"),
		fRMPP32("infiniband.rmpp.data1", func(h *mad.RMPP) uint64 { return uint64(h.Data1) }).doc("RMPP: segment number (DATA, ACK)"),
		fRMPP32("infiniband.rmpp.data2", func(h *mad.RMPP) uint64 { return uint64(h.Data2) }).doc("RMPP: payload length (DATA), new window last (ACK)"),
		fMAD64("infiniband.sa.smkey", func(m *madRec) (uint64, bool) { return m.saL.SMKey, m.sa }).doc("SA header: SM_Key, \"0x\" and 16 hex digits"),
		fSA("infiniband.sa.attributeoffset", 16, func(m *madRec) (uint64, bool) { return uint64(m.saL.AttributeOffset), m.sa }).doc("SA: record size in 8-byte words (0: one record)"),
		fMAD64("infiniband.sa.componentmask", func(m *madRec) (uint64, bool) { return m.saL.ComponentMask, m.sa }).doc("SA: component mask, \"0x\" and 16 hex digits"),
		fGID("infiniband.pathrecord.dgid", func(m *madRec) (*[16]byte, bool) { return &m.pathR.DGID, m.path }).doc("SA PathRecord (the MAD's first record): destination GID"),
		fGID("infiniband.pathrecord.sgid", func(m *madRec) (*[16]byte, bool) { return &m.pathR.SGID, m.path }).doc("PathRecord: source GID"),
		fPath("infiniband.pathrecord.dlid", 16, func(p *mad.PathRecord) uint64 { return uint64(p.DLID) }).doc("PathRecord: destination LID"),
		fPath("infiniband.pathrecord.slid", 16, func(p *mad.PathRecord) uint64 { return uint64(p.SLID) }).doc("PathRecord: source LID"),
		fPath("infiniband.pathrecord.rawtraffic", 1, func(p *mad.PathRecord) uint64 { return b2u(p.RawTraffic) }).doc("PathRecord: raw traffic, 0 or 1"),
		fPath("infiniband.pathrecord.flowlabel", 20, func(p *mad.PathRecord) uint64 { return uint64(p.FlowLabel) }).doc("PathRecord: flow label"),
		fPath("infiniband.pathrecord.hoplimit", 8, func(p *mad.PathRecord) uint64 { return uint64(p.HopLimit) }).doc("PathRecord: hop limit"),
		fPath("infiniband.pathrecord.tclass", 8, func(p *mad.PathRecord) uint64 { return uint64(p.TClass) }).doc("PathRecord: traffic class"),
		fPath("infiniband.pathrecord.reversible", 1, func(p *mad.PathRecord) uint64 { return b2u(p.Reversible) }).doc("PathRecord: reversible, 0 or 1"),
		fPath("infiniband.pathrecord.numbpath", 7, func(p *mad.PathRecord) uint64 { return uint64(p.NumbPath) }).doc("PathRecord: number of paths"),
		fPath("infiniband.pathrecord.p_key", 16, func(p *mad.PathRecord) uint64 { return uint64(p.PKey) }).doc("PathRecord: partition key"),
		fPath("infiniband.pathrecord.sl", 4, func(p *mad.PathRecord) uint64 { return uint64(p.SL) }).typeWidth(16).doc("PathRecord: service level"),
		fPath("infiniband.pathrecord.mtuselector", 2, func(p *mad.PathRecord) uint64 { return uint64(p.MTUSelector) }).doc("PathRecord: MTU selector"),
		fPath("infiniband.pathrecord.mtu", 6, func(p *mad.PathRecord) uint64 { return uint64(p.MTU) }).doc("PathRecord: MTU code"),
		fPath("infiniband.pathrecord.rateselector", 2, func(p *mad.PathRecord) uint64 { return uint64(p.RateSelector) }).doc("PathRecord: rate selector"),
		fPath("infiniband.pathrecord.rate", 6, func(p *mad.PathRecord) uint64 { return uint64(p.Rate) }).doc("PathRecord: rate code"),
		fPath("infiniband.pathrecord.packetlifetimeselector", 2, func(p *mad.PathRecord) uint64 { return uint64(p.PacketLifeTimeSelector) }).doc("PathRecord: packet lifetime selector"),
		fPath("infiniband.pathrecord.packetlifetime", 6, func(p *mad.PathRecord) uint64 { return uint64(p.PacketLifeTime) }).doc("PathRecord: packet lifetime"),
		fPath("infiniband.pathrecord.preference", 8, func(p *mad.PathRecord) uint64 { return uint64(p.Preference) }).doc("PathRecord: preference"),
	}, cmFields(), smpFields(), attrFields(), tableFields(), mcMemberFields(), saRecordFields())
})

// madProtocols are the presence names of the MAD layers, as tshark 4.0
// names the subtrees (infiniband.mad, infiniband.rmpp, infiniband.sa
// are its fields of the whole header; ours answer true where tshark's
// are present).
// A MAD the capture cut has a protocol when it has one of its fields.
var madProtocols = []Protocol{
	{"infiniband.mad", func(r *Record) bool { return r.madRec() != nil }},
	{"infiniband.rmpp", func(r *Record) bool { m := r.madRec(); return m != nil && m.rmpp && (!m.cut || m.proto[1]) }},
	{"infiniband.cm", func(r *Record) bool { m := r.madRec(); return m != nil && m.cm && (!m.cut || m.proto[2]) }},
	{"infiniband.smpdirected", func(r *Record) bool { m := r.madRec(); return m != nil && m.smp.dr && (!m.cut || m.proto[3]) }},
}

// madRec returns the frame's MAD, or nil.
func (r *Record) madRec() *madRec {
	if r.isIB() && r.madj.ok {
		return &r.madj
	}
	return nil
}

// appendRowsJSON appends the keys of rows the frame has, as the field
// table gives them.
func (r *Record) appendRowsJSON(b []byte, rows []Field) []byte {
	for i := range rows {
		f := &rows[i]
		v, ok := f.Get(r)
		if !ok {
			continue
		}
		b = append(b, ',', '"')
		b = append(b, f.Name...)
		b = append(b, '"', ':')
		switch f.Type {
		case FieldUint, FieldBool:
			b = f.AppendValue(b, v)
		case FieldString:
			b = appendJSONValue(b, &v)
		default:
			b = append(b, '"')
			b = f.AppendValue(b, v)
			b = append(b, '"')
		}
	}
	return b
}

func fMAD(name string, bits uint8, get func(m *madRec) uint64) Field {
	return numeric(name, FieldUint, bits, true, func(r *Record) (uint64, bool) {
		if m := r.madRec(); m != nil {
			return get(m), true
		}
		return 0, false
	})
}

// fSA is a field present when get says so.
func fSA(name string, bits uint8, get func(m *madRec) (uint64, bool)) Field {
	return numeric(name, FieldUint, bits, true, func(r *Record) (uint64, bool) {
		if m := r.madRec(); m != nil {
			return get(m)
		}
		return 0, false
	})
}

// fMAD64 is a 64-bit field, "0x" and 16 hex digits as tshark writes
// its BASE_HEX 64-bit fields.
func fMAD64(name string, get func(m *madRec) (uint64, bool)) Field {
	return Field{Name: name, Type: FieldHex64, Hex: true, Get: func(r *Record) (Value, bool) {
		if m := r.madRec(); m != nil {
			if v, ok := get(m); ok {
				return u(v)
			}
		}
		return none()
	}}
}

func fGID(name string, get func(m *madRec) (*[16]byte, bool)) Field {
	return Field{Name: name, Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
		if m := r.madRec(); m != nil {
			if g, ok := get(m); ok {
				return addr(*g)
			}
		}
		return none()
	}}
}

// fPart is a field of the attribute part returns, present when part
// finds one (a NodeInfo of an SMP or of an SA NodeRecord, ...).
func fPart[P any](name string, bits uint8, part func(m *madRec) *P, get func(p *P) uint64) Field {
	return fSA(name, bits, func(m *madRec) (uint64, bool) {
		if p := part(m); p != nil {
			return get(p), true
		}
		return 0, false
	})
}

// fPart64 is fPart for a 64-bit field written as fMAD64 writes it.
func fPart64[P any](name string, part func(m *madRec) *P, get func(p *P) uint64) Field {
	return fMAD64(name, func(m *madRec) (uint64, bool) {
		if p := part(m); p != nil {
			return get(p), true
		}
		return 0, false
	})
}

func fRMPP(name string, get func(h *mad.RMPP) uint64) Field {
	return fSA(name, 8, func(m *madRec) (uint64, bool) { return get(&m.rmppH), m.rmpp })
}

func fRMPP32(name string, get func(h *mad.RMPP) uint64) Field {
	return fSA(name, 32, func(m *madRec) (uint64, bool) { return get(&m.rmppH), m.rmpp })
}

func fPath(name string, bits uint8, get func(p *mad.PathRecord) uint64) Field {
	return fSA(name, bits, func(m *madRec) (uint64, bool) { return get(&m.pathR), m.path })
}
