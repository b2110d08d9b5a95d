package dump

import "github.com/roce-go/roce/mad"

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
