package dump

import (
	"encoding/binary"
	"sync"

	"github.com/roce-go/roce/mad"
)

// mcMemberFields are the keys of an SA MCMemberRecord, the MAD's first
// record as for PathRecord (a GetTable response holds several; JSON
// shows the first), tshark 4.0's names, in JSON key order.
var mcMemberFields = sync.OnceValue(func() []Field {
	return []Field{
		fGID("infiniband.mcmemberrecord.mgid", func(m *madRec) (*[16]byte, bool) { return &m.mcmR.MGID, m.mcm }).doc("SA MCMemberRecord (the MAD's first record): multicast GID"),
		fGID("infiniband.mcmemberrecord.portgid", func(m *madRec) (*[16]byte, bool) { return &m.mcmR.PortGID, m.mcm }).doc("MCMemberRecord: port GID"),
		fMC("infiniband.mcmemberrecord.q_key", 32, func(r *mad.MCMemberRecord) uint64 { return uint64(r.QKey) }).doc("MCMemberRecord: Q_Key"),
		fMC("infiniband.mcmemberrecord.mlid", 16, func(r *mad.MCMemberRecord) uint64 { return uint64(r.MLID) }).doc("MCMemberRecord: multicast LID"),
		fMC("infiniband.mcmemberrecord.mtuselector", 2, func(r *mad.MCMemberRecord) uint64 { return uint64(r.MTUSelector) }).doc("MCMemberRecord: MTU selector"),
		fMC("infiniband.mcmemberrecord.mtu", 6, func(r *mad.MCMemberRecord) uint64 { return uint64(r.MTU) }).doc("MCMemberRecord: MTU"),
		fMC("infiniband.mcmemberrecord.tclass", 8, func(r *mad.MCMemberRecord) uint64 { return uint64(r.TClass) }).doc("MCMemberRecord: traffic class"),
		fMC("infiniband.mcmemberrecord.p_key", 16, func(r *mad.MCMemberRecord) uint64 { return uint64(r.PKey) }).doc("MCMemberRecord: P_Key"),
		fMC("infiniband.mcmemberrecord.rateselector", 2, func(r *mad.MCMemberRecord) uint64 { return uint64(r.RateSelector) }).doc("MCMemberRecord: rate selector"),
		fMC("infiniband.mcmemberrecord.rate", 6, func(r *mad.MCMemberRecord) uint64 { return uint64(r.Rate) }).doc("MCMemberRecord: rate"),
		fMC("infiniband.mcmemberrecord.packetlifetimeselector", 2, func(r *mad.MCMemberRecord) uint64 { return uint64(r.PacketLifeTimeSelector) }).doc("MCMemberRecord: packet lifetime selector"),
		fMC("infiniband.mcmemberrecord.packetlifetime", 6, func(r *mad.MCMemberRecord) uint64 { return uint64(r.PacketLifeTime) }).doc("MCMemberRecord: packet lifetime"),
		fMC("infiniband.mcmemberrecord.sl", 4, func(r *mad.MCMemberRecord) uint64 { return uint64(r.SL) }).doc("MCMemberRecord: service level"),
		fMC("infiniband.mcmemberrecord.flowlabel", 20, func(r *mad.MCMemberRecord) uint64 { return uint64(r.FlowLabel) }).doc("MCMemberRecord: flow label"),
		fMC("infiniband.mcmemberrecord.hoplimit", 8, func(r *mad.MCMemberRecord) uint64 { return uint64(r.HopLimit) }).doc("MCMemberRecord: hop limit"),
		fMC("infiniband.mcmemberrecord.scope", 4, func(r *mad.MCMemberRecord) uint64 { return uint64(r.Scope) }).doc("MCMemberRecord: scope"),
		fMC("infiniband.mcmemberrecord.joinstate", 4, func(r *mad.MCMemberRecord) uint64 { return uint64(r.JoinState) }).doc("MCMemberRecord: JoinState (1 full, 2 non, 4 send-only non-member)"),
		fMC("infiniband.mcmemberrecord.proxyjoin", 1, func(r *mad.MCMemberRecord) uint64 { return b2u(r.ProxyJoin) }).doc("MCMemberRecord: ProxyJoin, 0 or 1"),
	}
})

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
var saRecordFields = sync.OnceValue(func() []Field {
	return []Field{
		fSA("infiniband.sa.records", 16, func(m *madRec) (uint64, bool) { return m.saRecords() }).doc("SA: records the MAD holds: 1 without RMPP; in an RMPP transfer's first segment, the table's (PayloadLength less the 20-byte SA header of each segment) that fit; none in later segments (ours)"),
		fSA("infiniband.sa.lid", 16, func(m *madRec) (uint64, bool) { return uint64(m.nodeR.LID), m.node }).doc("SA NodeRecord (the MAD's first record): LID; its NodeInfo and NodeDescription keys are the SMP's"),
		fSA("infiniband.sa.endportlid", 16, func(m *madRec) (uint64, bool) { return uint64(m.pirR.EndportLID), m.pir }).doc("SA PortInfoRecord (the MAD's first record): EndportLID; its PortInfo keys are the SMP's"),
		fSA("infiniband.sa.portnum", 8, func(m *madRec) (uint64, bool) { return uint64(m.pirR.PortNum), m.pir }).doc("PortInfoRecord: PortNum"),
		fSA("infiniband.sa.options", 8, func(m *madRec) (uint64, bool) { return uint64(m.pirR.Options), m.pir }).doc("PortInfoRecord: Options, IBTA 1.3 (ours; tshark 4.0 shows it reserved)"),
		fMAD64("infiniband.linkrecord.serviceid", func(m *madRec) (uint64, bool) { return m.svcR.ServiceID, m.svc }).doc("SA ServiceRecord (the MAD's first record; tshark 4.0's names): ServiceID, \"0x\" and 16 hex digits"),
		fGID("infiniband.linkrecord.servicegid", func(m *madRec) (*[16]byte, bool) { return &m.svcR.ServiceGID, m.svc }).doc("ServiceRecord: ServiceGID"),
		fSA("infiniband.linkrecord.servicep_key", 16, func(m *madRec) (uint64, bool) { return uint64(m.svcR.ServicePKey), m.svc }).doc("ServiceRecord: ServiceP_Key"),
		fSA("infiniband.linkrecord.servicelease", 32, func(m *madRec) (uint64, bool) { return uint64(m.svcR.ServiceLease), m.svc }).doc("ServiceRecord: ServiceLease, seconds (0xffffffff infinite)"),
		fSvc16("infiniband.linkrecord.servicekey", func(s *mad.ServiceRecord, b *[16]byte) { *b = s.ServiceKey }).doc("ServiceRecord: ServiceKey, 32 lowercase hex digits"),
		Field{Name: "infiniband.servicerecord.servicename", Type: FieldString, Get: func(r *Record) (Value, bool) {
			if m := r.madRec(); m != nil && m.svc {
				return textView(m.svcR.ServiceName)
			}
			return none()
		}}.doc("ServiceRecord: ServiceName up to its first NUL, UTF-8 (ours; tshark 4.0 shows infiniband.linkrecord.servicename, the 64 bytes in hex)"),
		fSvc16("infiniband.servicerecord.servicedata8", func(s *mad.ServiceRecord, b *[16]byte) { *b = s.ServiceData8 }).doc("ServiceRecord: ServiceData8, its 16 bytes in lowercase hex (ours; tshark 4.0 shows the four blocks as four values of infiniband.linkrecord.servicedata)"),
		fSvc16("infiniband.servicerecord.servicedata16", func(s *mad.ServiceRecord, b *[16]byte) {
			for i, v := range s.ServiceData16 {
				binary.BigEndian.PutUint16(b[2*i:], v)
			}
		}).doc("ServiceRecord: ServiceData16, 16 bytes in hex (ours)"),
		fSvc16("infiniband.servicerecord.servicedata32", func(s *mad.ServiceRecord, b *[16]byte) {
			for i, v := range s.ServiceData32 {
				binary.BigEndian.PutUint32(b[4*i:], v)
			}
		}).doc("ServiceRecord: ServiceData32, 16 bytes in hex (ours)"),
		fSvc16("infiniband.servicerecord.servicedata64", func(s *mad.ServiceRecord, b *[16]byte) {
			for i, v := range s.ServiceData64 {
				binary.BigEndian.PutUint64(b[8*i:], v)
			}
		}).doc("ServiceRecord: ServiceData64, 16 bytes in hex (ours)"),
	}
})

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
