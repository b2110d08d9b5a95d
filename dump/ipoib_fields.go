package dump

import (
	"sync"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ipoib"
)

// ipoibFields are the keys of IPoIB, tshark 4.0's names: the link header
// of a link type 242 record (a received packet's GRH and sender QP, or a
// sent packet's destination), then the IPoIB header of that record or of
// a native InfiniBand packet's payload. AppendJSON writes them from these
// rows (appendRowsJSON).
var ipoibFields = sync.OnceValue(func() []Field {
	return []Field{
		fIPoIBRecv("ipoib.grh.ipver", 4, func(l *ipoib.LinkHeader) uint64 { return uint64(l.IPVer) }).doc("link type 242, a received packet's GRH: IP version"),
		fIPoIBRecv("ipoib.grh.tclass", 8, func(l *ipoib.LinkHeader) uint64 { return uint64(l.TClass) }).typeWidth(16).doc("received: traffic class"),
		fIPoIBRecv("ipoib.grh.flowlabel", 20, func(l *ipoib.LinkHeader) uint64 { return uint64(l.FlowLabel) }).typeWidth(32).doc("received: flow label"),
		fIPoIBRecv("ipoib.grh.sqpn", 24, func(l *ipoib.LinkHeader) uint64 { return uint64(l.SrcQP) }).doc("received: the sender's QP"),
		Field{Name: "ipoib.grh.sgid", Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
			if l := r.ipoibLink(); l != nil && !l.Sent() {
				return addr(l.SGID)
			}
			return none()
		}}.doc("received: source GID"),
		numeric("ipoib.daddr.qpn", FieldUint, 24, true, func(r *Record) (uint64, bool) {
			if l := r.ipoibLink(); l != nil && l.Sent() {
				return uint64(l.DstAddr().QPN()), true
			}
			return 0, false
		}).doc("link type 242, a sent packet: the destination's QP"),
		Field{Name: "ipoib.dgid", Type: FieldIPv6, Get: func(r *Record) (Value, bool) {
			if l := r.ipoibLink(); l != nil { // bytes 24-39 in both forms
				return addr(l.DGID)
			}
			return none()
		}}.doc("link type 242: destination GID (received or sent)"),
		numeric("ipoib.type", FieldUint, 16, true, func(r *Record) (uint64, bool) {
			return uint64(r.IPoIB.Type), r.HasIPoIB
		}).doc("IPoIB header: the Ethertype of what follows (tshark 4.0 shows no IPoIB header in native packets, but what it carries)"),
		numeric("ipoib.reserved", FieldUint, 16, true, func(r *Record) (uint64, bool) {
			return uint64(r.IPoIB.Reserved), r.HasIPoIB
		}).doc("IPoIB header: reserved, 0"),
	}
})

// ipoibLink returns the link header of a link type 242 record.
func (r *Record) ipoibLink() *ipoib.LinkHeader {
	if r.HasIPoIB && r.LinkType == capfile.LinkTypeIPoIB {
		return &r.IPoIBLink
	}
	return nil
}

// fIPoIBRecv is a field of a received packet's link header.
func fIPoIBRecv(name string, bits uint8, get func(l *ipoib.LinkHeader) uint64) Field {
	return numeric(name, FieldUint, bits, false, func(r *Record) (uint64, bool) {
		if l := r.ipoibLink(); l != nil && !l.Sent() {
			return get(l), true
		}
		return 0, false
	})
}
