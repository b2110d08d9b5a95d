package flow

import (
	"github.com/roce-go/roce/dump"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
)

// AddRecord accounts for one frame decoded by package dump: RoCE and
// native InfiniBand packets go to Add (RoCE flows keyed by IP addresses
// or RoCEv1 GIDs, native ones by LIDs), MAC Control frames to
// AddMACControl; other frames are ignored. It reuses one Packet held by
// the Analyzer and allocates nothing in steady state.
func (a *Analyzer) AddRecord(r *dump.Record) {
	switch r.Kind {
	case dump.KindRoCE, dump.KindInfiniBand:
		packetOf(r, &a.pkt)
		a.Add(&a.pkt)
	case dump.KindMACControl:
		a.AddMACControl(r.Time, macSource(r), &r.MACControl)
	}
}

// packetOf sets *p to the transport packet of r, a RoCE or native
// InfiniBand frame; p.IB points into r.
func packetOf(r *dump.Record, p *Packet) {
	if r.Kind == dump.KindInfiniBand {
		*p = Packet{Time: r.Time, Len: r.Len, Src: LIDAddr(r.LRH.SLID), Dst: LIDAddr(r.LRH.DLID),
			IB: &r.RoCE.Packet, ICRCGood: r.ICRCGood, ICRCUnchecked: r.ICRCUnchecked}
		return
	}
	f := &r.RoCE
	*p = Packet{Time: r.Time, Len: r.Len, Src: IPAddr(f.GRH.SGID), Dst: IPAddr(f.GRH.DGID),
		IB: &f.Packet, ICRCGood: r.ICRCGood, ICRCUnchecked: r.ICRCUnchecked}
	if r.ICRCUnchecked {
		p.PayloadLen = f.PayloadLen()
	}
	if f.Encap != ib.RoCEv1 {
		p.ECN, p.HasECN, p.SrcPort, p.DstPort = f.GRH.TClass&3, true, f.SrcPort, f.DstPort
		if f.Encap == ib.RoCEv2IPv6 {
			p.FlowLabel = f.GRH.FlowLabel
		}
	}
}

// macSource returns the source MAC address of a MAC Control frame.
func macSource(r *dump.Record) (src [6]byte) {
	if e := r.Frame(); len(e) >= hdr.EthernetLen {
		src = hdr.Ethernet(e).Src()
	}
	return src
}

// KeyOf returns the key of the flow AddRecord puts r in, and false for
// a frame that is in no flow (not RoCE nor InfiniBand).
func KeyOf(r *dump.Record) (Key, bool) {
	switch r.Kind {
	case dump.KindRoCE:
		return Key{Src: IPAddr(r.RoCE.GRH.SGID), Dst: IPAddr(r.RoCE.GRH.DGID), QP: r.RoCE.Packet.BTH.DestQP}, true
	case dump.KindInfiniBand:
		return Key{Src: LIDAddr(r.LRH.SLID), Dst: LIDAddr(r.LRH.DLID), QP: r.RoCE.Packet.BTH.DestQP}, true
	}
	return Key{}, false
}

// String returns the key as the text report names a flow: "SRC > DST
// qp 0x000012".
func (k Key) String() string { return keyString(k) }
