package dump

import (
	"github.com/roce-go/roce/mad"
	"sync"
)

// smpRec is the subnet management packet of a frame (classes 0x01 and
// 0x81) and its SMInfo attribute, decoded by decodeSMP.
type smpRec struct {
	lid      bool // LID routed: lidS holds it
	lidS     mad.SMP
	dr       bool // directed route: drS holds it
	drS      mad.SMPDirected
	smi      bool // the attribute is SMInfo: smInfo holds it
	smInfo   mad.SMInfo
	ni       bool // the attribute is NodeInfo: nodeInfo holds it
	nodeInfo mad.NodeInfo
	nd       bool // the attribute is NodeDescription: data() holds its NodeString
}

// decodeSMP decodes the SMP b holds (a whole MAD of class 0x01 or 0x81).
func (s *smpRec) decodeSMP(h *mad.Header, b []byte) {
	s.lid, s.dr, s.smi, s.ni, s.nd = false, false, false, false, false
	var data []byte
	switch h.MgmtClass {
	case mad.ClassSubnLID:
		s.lid = s.lidS.Decode(b) == nil
		data = s.lidS.Data[:]
	case mad.ClassSubnDR:
		s.dr = s.drS.Decode(b) == nil
		data = s.drS.Data[:]
	default:
		return
	}
	ok := s.lid || s.dr
	s.smi = ok && h.AttributeID == uint16(mad.SMPAttrSMInfo) && s.smInfo.Decode(data) == nil
	s.ni = ok && h.AttributeID == uint16(mad.SMPAttrNodeInfo) && s.nodeInfo.Decode(data) == nil
	s.nd = ok && h.AttributeID == uint16(mad.SMPAttrNodeDescription)
}

// smpFields are the keys of the SMP headers, of SMInfo and of NodeInfo,
// tshark 4.0's names, in JSON key order.
var smpFields = sync.OnceValue(func() []Field {
	return []Field{
		// tshark 4.0 shows the M_Key of both kinds under smplid.
		fMAD64("infiniband.smplid.mkey", func(m *madRec) (uint64, bool) {
			if m.smp.dr {
				return m.smp.drS.MKey, true
			}
			return m.smp.lidS.MKey, m.smp.lid
		}).doc("SMP (LID routed or directed route): M_Key, \"0x\" and 16 hex digits"),
		fDR("infiniband.smpdirected.smpstatus", 16, func(s *mad.SMPDirected) uint64 { return uint64(s.Status) }).doc("directed-route SMP: status, D bit (0x8000) included, as tshark 4.0 shows it"),
		fDR("infiniband.smpdirected.hoppointer", 8, func(s *mad.SMPDirected) uint64 { return uint64(s.HopPointer()) }).doc("directed route: hop pointer"),
		fDR("infiniband.smpdirected.hopcount", 8, func(s *mad.SMPDirected) uint64 { return uint64(s.HopCount()) }).doc("directed route: hop count"),
		fDR("infiniband.smpdirected.drslid", 16, func(s *mad.SMPDirected) uint64 { return uint64(s.DrSLID) }).doc("directed route: DrSLID (0xffff permissive)"),
		fDR("infiniband.smpdirected.drdlid", 16, func(s *mad.SMPDirected) uint64 { return uint64(s.DrDLID) }).doc("directed route: DrDLID"),
		fDR("infiniband.smpdirected.d", 1, func(s *mad.SMPDirected) uint64 { return b2u(s.Direction()) }).typeWidth(64).doc("directed route: D bit, 1 on the way back (tshark 4.0 shows 0)"),
		fMAD64("infiniband.sminfo.guid", func(m *madRec) (uint64, bool) { return m.smp.smInfo.GUID, m.smp.smi }).doc("SMP SMInfo: the SM's port GUID, \"0x\" and 16 hex digits"),
		fMAD64("infiniband.sminfo.sm_key", func(m *madRec) (uint64, bool) { return m.smp.smInfo.SMKey, m.smp.smi }).doc("SMInfo: SM_Key, \"0x\" and 16 hex digits"),
		fSA("infiniband.sminfo.actcount", 32, func(m *madRec) (uint64, bool) { return uint64(m.smp.smInfo.ActCount), m.smp.smi }).doc("SMInfo: activity count"),
		fSA("infiniband.sminfo.priority", 4, func(m *madRec) (uint64, bool) { return uint64(m.smp.smInfo.Priority), m.smp.smi }).doc("SMInfo: priority"),
		fSA("infiniband.sminfo.smstate", 4, func(m *madRec) (uint64, bool) { return uint64(m.smp.smInfo.SMState), m.smp.smi }).doc("SMInfo: SM state (3 master)"),
		fNI("infiniband.nodeinfo.baseversion", 8, func(n *mad.NodeInfo) uint64 { return uint64(n.BaseVersion) }).doc("SMP NodeInfo, or an SA NodeRecord's: base version"),
		fNI("infiniband.nodeinfo.classversion", 8, func(n *mad.NodeInfo) uint64 { return uint64(n.ClassVersion) }).doc("NodeInfo: class version"),
		fNI("infiniband.nodeinfo.nodetype", 8, func(n *mad.NodeInfo) uint64 { return uint64(n.NodeType) }).doc("NodeInfo: node type (1 CA, 2 switch, 3 router)"),
		fNI("infiniband.nodeinfo.numports", 8, func(n *mad.NodeInfo) uint64 { return uint64(n.NumPorts) }).doc("NodeInfo: number of ports"),
		fNI64("infiniband.nodeinfo.systemimageguid", func(n *mad.NodeInfo) uint64 { return n.SystemImageGUID }).doc("NodeInfo: system image GUID, \"0x\" and 16 hex digits"),
		fNI64("infiniband.nodeinfo.nodeguid", func(n *mad.NodeInfo) uint64 { return n.NodeGUID }).doc("NodeInfo: node GUID"),
		fNI64("infiniband.nodeinfo.portguid", func(n *mad.NodeInfo) uint64 { return n.PortGUID }).doc("NodeInfo: port GUID"),
		fNI("infiniband.nodeinfo.partitioncap", 16, func(n *mad.NodeInfo) uint64 { return uint64(n.PartitionCap) }).doc("NodeInfo: partition cap"),
		fNI("infiniband.nodeinfo.deviceid", 16, func(n *mad.NodeInfo) uint64 { return uint64(n.DeviceID) }).doc("NodeInfo: device ID"),
		fNI("infiniband.nodeinfo.revision", 32, func(n *mad.NodeInfo) uint64 { return uint64(n.Revision) }).doc("NodeInfo: revision"),
		fNI("infiniband.nodeinfo.localportnum", 8, func(n *mad.NodeInfo) uint64 { return uint64(n.LocalPortNum) }).doc("NodeInfo: local port number"),
		fNI("infiniband.nodeinfo.vendorid", 24, func(n *mad.NodeInfo) uint64 { return uint64(n.VendorID) }).doc("NodeInfo: vendor ID (IEEE OUI)"),
		Field{Name: "infiniband.nodedescription.nodestring", Type: FieldString, Get: func(r *Record) (Value, bool) {
			if m := r.madRec(); m != nil {
				if b := m.nodeString(); b != nil {
					return textView(b)
				}
			}
			return none()
		}}.doc("SMP NodeDescription, or an SA NodeRecord's: the NodeString up to its first NUL, UTF-8, a stray byte as U+FFFD (tshark 4.0 reads it as ASCII)"),
	}
})

// nodeInfo returns the NodeInfo of an SMP NodeInfo or of an SA
// NodeRecord (whose NodeInfo keys are the SMP's, as in tshark 4.0), or
// nil.
func (m *madRec) nodeInfo() *mad.NodeInfo {
	switch {
	case m.smp.ni:
		return &m.smp.nodeInfo
	case m.node:
		return &m.nodeR.NodeInfo
	}
	return nil
}

// nodeString returns the 64-byte NodeString of an SMP NodeDescription or
// of an SA NodeRecord, or nil.
func (m *madRec) nodeString() []byte {
	switch {
	case m.smp.nd:
		return m.smp.data()
	case m.node:
		return m.nodeR.NodeDescription.NodeString[:]
	}
	return nil
}

func fNI(name string, bits uint8, get func(n *mad.NodeInfo) uint64) Field {
	return fPart(name, bits, (*madRec).nodeInfo, get)
}

func fNI64(name string, get func(n *mad.NodeInfo) uint64) Field {
	return fPart64(name, (*madRec).nodeInfo, get)
}

func fDR(name string, bits uint8, get func(s *mad.SMPDirected) uint64) Field {
	return fSA(name, bits, func(m *madRec) (uint64, bool) { return get(&m.smp.drS), m.smp.dr })
}
