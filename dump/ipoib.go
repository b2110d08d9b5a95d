package dump

import (
	"net/netip"
	"strconv"

	"github.com/roce-go/roce/ipoib"
)

// decodeIPoIB looks at the payload of a native InfiniBand packet: when
// ipoib.Match takes it for IPoIB, it decodes the IPoIB header and peeks at
// the IP packet it carries.
func (r *Record) decodeIPoIB() {
	p := &r.RoCE.Packet
	if !ipoib.Match(p.BTH.OpCode, p.BTH.DestQP, p.Payload) {
		return
	}
	if r.IPoIB.Decode(p.Payload) != nil {
		return // Match saw four bytes: cannot fail
	}
	r.HasIPoIB = true
	r.net.peekL3(r.IPoIB.Type, p.Payload[ipoib.HeaderLen:])
}

// decodeLinkIPoIB decodes a frame of LINKTYPE_IPOIB (242): the 40-byte
// link header and the IPoIB header, then, as for raw IP, the packet they
// carry as the Ethernet frame it stands for, both MAC addresses unknown
// (zero) and the Ethertype of the IPoIB header.
func (r *Record) decodeLinkIPoIB(data []byte) {
	if err := r.IPoIBLink.Decode(data); err != nil {
		r.Kind, r.Err = KindMalformed, err
		return
	}
	if err := r.IPoIB.Decode(data[ipoib.LinkHeaderLen:]); err != nil {
		r.Kind, r.Err = KindMalformed, r.err.Truncated("IPoIB", ipoib.LinkHeaderLen, ipoib.LinkHeaderLen+ipoib.HeaderLen, len(data))
		return
	}
	et := r.IPoIB.Type
	b := append(r.scratch[:0], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(et>>8), byte(et))
	b = append(b, data[ipoib.LinkHeaderLen+ipoib.HeaderLen:]...)
	r.scratch = b
	r.decodeEthernet(b)
	r.HasIPoIB = r.Kind == KindNotRoCE
}

// appendIPoIBLinkText appends the line of a LINKTYPE_IPOIB record: for a
// received packet the GIDs of its GRH when it has one (IP version 6) and
// the sender's QP, "SGID > DGID sqpn 0x000405"; for a sent one the
// destination, "to qpn 0x000404 gid fe80::2:c902:20:b4dd"; then "IPoIB"
// and what it carries, and the length.
func (r *Record) appendIPoIBLinkText(b []byte, o *TextOptions) []byte {
	l := &r.IPoIBLink
	switch {
	case l.Sent():
		a := l.DstAddr()
		b = append(b, "to qpn 0x"...)
		b = appendHex24(b, a.QPN())
		b = append(b, " gid "...)
		b = a.GID().AppendTo(b)
	default:
		if l.IPVer == 6 {
			b = l.SrcGID().AppendTo(b)
			b = append(b, " > "...)
			b = l.DstGID().AppendTo(b)
			b = append(b, ' ')
		}
		b = append(b, "sqpn 0x"...)
		b = appendHex24(b, l.SrcQP)
	}
	b = r.appendIPoIB(b, o)
	b = append(b, " len "...)
	b = strconv.AppendInt(b, int64(r.Len), 10)
	return append(b, '\n')
}

// appendIPoIB appends " IPoIB " and what the IPoIB packet carries: the IP
// version, protocol and addresses (ports for UDP and TCP), ARP's question
// or answer, or the Ethertype.
func (r *Record) appendIPoIB(b []byte, o *TextOptions) []byte {
	b = append(b, " IPoIB "...)
	if r.IPoIB.Type == ipoib.TypeARP {
		return appendIPoIBARP(b, &r.net.arp)
	}
	if r.net.ipVer != 0 {
		return r.appendIPEndpoints(b, o, true)
	}
	return appendEtherType(b, uint16(r.IPoIB.Type))
}

// appendIPoIBARP appends "ARP who-has 10.0.0.58 tell 10.0.1.34" for a
// request, "ARP 10.0.0.58 is-at qpn 0x000404 gid fe80::2:c902:20:b4dd"
// for a reply, "ARP op N" for another operation, plain "ARP" when the
// packet is cut short.
func appendIPoIBARP(b []byte, a *arpInfo) []byte {
	b = append(b, "ARP"...)
	if !a.addrs {
		return b
	}
	sip, sok := netip.AddrFromSlice(a.spa)
	tip, tok := netip.AddrFromSlice(a.tpa)
	switch {
	case a.op == ipoib.ARPRequest && sok && tok:
		b = append(b, " who-has "...)
		b = tip.AppendTo(b)
		b = append(b, " tell "...)
		return sip.AppendTo(b)
	case a.op == ipoib.ARPReply && sok:
		b = append(b, ' ')
		b = sip.AppendTo(b)
		b = append(b, " is-at"...)
		if len(a.sha) == ipoib.HWAddrLen {
			hw := ipoib.HWAddr(a.sha)
			b = append(b, " qpn 0x"...)
			b = appendHex24(b, hw.QPN())
			b = append(b, " gid "...)
			b = hw.GID().AppendTo(b)
		}
		return b
	}
	b = append(b, " op "...)
	return strconv.AppendUint(b, uint64(a.op), 10)
}
