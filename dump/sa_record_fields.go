package dump

import (
	"encoding/binary"

	"github.com/roce-go/roce/mad"
)

// mcMemberFields are the keys of an SA MCMemberRecord, the MAD's first
// record as for PathRecord (a GetTable response holds several; JSON
// shows the first), tshark 4.0's names, in JSON key order.
var mcMemberFields = []Field{
	fGID("infiniband.mcmemberrecord.mgid", func(m *madRec) (*[16]byte, bool) { return &m.mcmR.MGID, m.mcm }),
	fGID("infiniband.mcmemberrecord.portgid", func(m *madRec) (*[16]byte, bool) { return &m.mcmR.PortGID, m.mcm }),
	fMC("infiniband.mcmemberrecord.q_key", 32, func(r *mad.MCMemberRecord) uint64 { return uint64(r.QKey) }),
	fMC("infiniband.mcmemberrecord.mlid", 16, func(r *mad.MCMemberRecord) uint64 { return uint64(r.MLID) }),
	fMC("infiniband.mcmemberrecord.mtuselector", 2, func(r *mad.MCMemberRecord) uint64 { return uint64(r.MTUSelector) }),
	fMC("infiniband.mcmemberrecord.mtu", 6, func(r *mad.MCMemberRecord) uint64 { return uint64(r.MTU) }),
	fMC("infiniband.mcmemberrecord.tclass", 8, func(r *mad.MCMemberRecord) uint64 { return uint64(r.TClass) }),
	fMC("infiniband.mcmemberrecord.p_key", 16, func(r *mad.MCMemberRecord) uint64 { return uint64(r.PKey) }),
	fMC("infiniband.mcmemberrecord.rateselector", 2, func(r *mad.MCMemberRecord) uint64 { return uint64(r.RateSelector) }),
	fMC("infiniband.mcmemberrecord.rate", 6, func(r *mad.MCMemberRecord) uint64 { return uint64(r.Rate) }),
	fMC("infiniband.mcmemberrecord.packetlifetimeselector", 2, func(r *mad.MCMemberRecord) uint64 { return uint64(r.PacketLifeTimeSelector) }),
	fMC("infiniband.mcmemberrecord.packetlifetime", 6, func(r *mad.MCMemberRecord) uint64 { return uint64(r.PacketLifeTime) }),
	fMC("infiniband.mcmemberrecord.sl", 4, func(r *mad.MCMemberRecord) uint64 { return uint64(r.SL) }),
	fMC("infiniband.mcmemberrecord.flowlabel", 20, func(r *mad.MCMemberRecord) uint64 { return uint64(r.FlowLabel) }),
	fMC("infiniband.mcmemberrecord.hoplimit", 8, func(r *mad.MCMemberRecord) uint64 { return uint64(r.HopLimit) }),
	fMC("infiniband.mcmemberrecord.scope", 4, func(r *mad.MCMemberRecord) uint64 { return uint64(r.Scope) }),
	fMC("infiniband.mcmemberrecord.joinstate", 4, func(r *mad.MCMemberRecord) uint64 { return uint64(r.JoinState) }),
	fMC("infiniband.mcmemberrecord.proxyjoin", 1, func(r *mad.MCMemberRecord) uint64 { return b2u(r.ProxyJoin) }),
}

func fMC(name string, bits uint8, get func(r *mad.MCMemberRecord) uint64) Field {
	return fSA(name, bits, func(m *madRec) (uint64, bool) { return get(&m.mcmR), m.mcm })
}

// decodeRecord decodes the first record of the SA data, of an attribute
// this table has keys for.
func (m *madRec) decodeRecord() {
	rec := m.saL.Record(0)
	switch m.hdr.AttributeID {
	case mad.AttrPathRecord:
		m.path = m.pathR.Decode(rec) == nil
	case mad.AttrMCMemberRecord:
		m.mcm = m.mcmR.Decode(rec) == nil
	case mad.AttrNodeRecord:
		m.node = m.nodeR.Decode(rec) == nil
	case mad.AttrPortInfoRecord:
		m.pir = m.pirR.Decode(rec) == nil
	case mad.AttrServiceRecord:
		m.svc = m.svcR.Decode(rec) == nil
	}
}

// saRecordFields are the keys of the SA records NodeRecord,
// PortInfoRecord and ServiceRecord (the MAD's first record) and the
// number of records the MAD holds. The NodeInfo and NodeDescription of a
// NodeRecord and the PortInfo of a PortInfoRecord have the SMP
// attributes' keys (smp_fields.go, smp_attr_fields.go), as in tshark 4.0.
// tshark 4.0's names where it has the field: infiniband.sa.lid,
// .sa.endportlid, .sa.portnum, and ServiceRecord's fields under
// infiniband.linkrecord. (tshark's names for them). Ours:
// infiniband.sa.records, infiniband.sa.options (PortInfoRecord's
// Options, which tshark shows as reserved), and
// infiniband.servicerecord.servicename (the text; tshark 4.0 shows
// infiniband.linkrecord.servicename as 64 bytes) and servicedata8, 16,
// 32, 64 (the four 16-byte blocks tshark 4.0 shows as four values of
// infiniband.linkrecord.servicedata).
var saRecordFields = []Field{
	fSA("infiniband.sa.records", 16, func(m *madRec) (uint64, bool) { return m.saRecords() }),
	fSA("infiniband.sa.lid", 16, func(m *madRec) (uint64, bool) { return uint64(m.nodeR.LID), m.node }),
	fSA("infiniband.sa.endportlid", 16, func(m *madRec) (uint64, bool) { return uint64(m.pirR.EndportLID), m.pir }),
	fSA("infiniband.sa.portnum", 8, func(m *madRec) (uint64, bool) { return uint64(m.pirR.PortNum), m.pir }),
	fSA("infiniband.sa.options", 8, func(m *madRec) (uint64, bool) { return uint64(m.pirR.Options), m.pir }),
	fMAD64("infiniband.linkrecord.serviceid", func(m *madRec) (uint64, bool) { return m.svcR.ServiceID, m.svc }),
	fGID("infiniband.linkrecord.servicegid", func(m *madRec) (*[16]byte, bool) { return &m.svcR.ServiceGID, m.svc }),
	fSA("infiniband.linkrecord.servicep_key", 16, func(m *madRec) (uint64, bool) { return uint64(m.svcR.ServicePKey), m.svc }),
	fSA("infiniband.linkrecord.servicelease", 32, func(m *madRec) (uint64, bool) { return uint64(m.svcR.ServiceLease), m.svc }),
	fSvc16("infiniband.linkrecord.servicekey", func(s *mad.ServiceRecord, b *[16]byte) { *b = s.ServiceKey }),
	{Name: "infiniband.servicerecord.servicename", Type: FieldString, Get: func(r *Record) (Value, bool) {
		if m := r.madRec(); m != nil && m.svc {
			return textView(m.svcR.ServiceName)
		}
		return none()
	}},
	fSvc16("infiniband.servicerecord.servicedata8", func(s *mad.ServiceRecord, b *[16]byte) { *b = s.ServiceData8 }),
	fSvc16("infiniband.servicerecord.servicedata16", func(s *mad.ServiceRecord, b *[16]byte) {
		for i, v := range s.ServiceData16 {
			binary.BigEndian.PutUint16(b[2*i:], v)
		}
	}),
	fSvc16("infiniband.servicerecord.servicedata32", func(s *mad.ServiceRecord, b *[16]byte) {
		for i, v := range s.ServiceData32 {
			binary.BigEndian.PutUint32(b[4*i:], v)
		}
	}),
	fSvc16("infiniband.servicerecord.servicedata64", func(s *mad.ServiceRecord, b *[16]byte) {
		for i, v := range s.ServiceData64 {
			binary.BigEndian.PutUint64(b[8*i:], v)
		}
	}),
}

// fSvc16 is 16 bytes of a ServiceRecord, which get writes in wire order.
func fSvc16(name string, get func(s *mad.ServiceRecord, b *[16]byte)) Field {
	return Field{Name: name, Type: FieldBytes, Get: func(r *Record) (Value, bool) {
		m := r.madRec()
		if m == nil || !m.svc {
			return none()
		}
		v := Value{Len: 16}
		get(&m.svcR, &v.Addr)
		return v, true
	}}
}

// saSegment is what one RMPP segment of an SA transfer carries after its
// RMPP header: the 20-byte SA header and 200 bytes of SA data (IBTA Vol
// 1, 15.2.1.1).
const saSegment = mad.SAHeaderLen + mad.SADataLen

// saRecords returns the number of records the MAD holds whole: 1 without
// RMPP (a single record: Get, GetResp, Set, a request's template); in
// the first DATA segment of an RMPP transfer, the records of the table,
// as many as this MAD holds. The first segment's PayloadLength counts
// the SA header of every segment, as OpenSM and Linux's MAD layer write
// it (84 for one 64-byte PathRecord): the table is PayloadLength less 20
// bytes per 220-byte segment. Later segments continue records begun
// before: no count.
func (m *madRec) saRecords() (uint64, bool) {
	h, s := &m.rmppH, &m.saL
	switch {
	case !m.sa:
		return 0, false
	case !m.rmpp || !h.Active():
		return 1, true
	case h.RMPPType != mad.RMPPTypeData || h.RMPPFlags&mad.RMPPFirst == 0:
		return 0, false
	case s.RecordLen() == 0:
		return 1, true
	}
	pl := int(h.PayloadLength())
	table := pl - mad.SAHeaderLen*((pl+saSegment-1)/saSegment)
	return uint64(min(max(table, 0)/s.RecordLen(), s.NumRecords())), true
}
