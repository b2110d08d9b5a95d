package dump

import (
	"encoding/binary"
	"sync"
)

// arpInfo is an ARP packet (RFC 826) as peekARP reads it: the 8-byte
// header, and the four addresses when they were all captured.
type arpInfo struct {
	has      bool // the header was read
	addrs    bool // the addresses were read too
	hrd, pro uint16
	hln, pln uint8
	op       uint16
	sha, spa []byte // sender's hardware and protocol addresses, views of the frame
	tha, tpa []byte // target's
}

// ARP hardware types whose packets tshark 4.0 reads otherwise.
const (
	arpHWEther   = 1  // Ethernet: a 6-byte address is a MAC
	arpHWIEEE802 = 6  // IEEE 802: likewise
	arpHWAX25    = 3  // AX.25: a 7-byte address is an AX.25 callsign (tshark's arp.src.hw_ax25; we give none)
	arpHWATM     = 19 // ATM ARP (RFC 2225): another layout, not decoded
	arpProtoAX25 = 0xcc
)

// peekARP reads an ARP packet, as far as it was captured.
func (n *netInfo) peekARP(b []byte) {
	a := &n.arp
	if len(b) < 8 {
		return
	}
	a.has = true
	a.hrd, a.pro = binary.BigEndian.Uint16(b), binary.BigEndian.Uint16(b[2:])
	a.hln, a.pln, a.op = b[4], b[5], binary.BigEndian.Uint16(b[6:])
	hl, pl := int(a.hln), int(a.pln)
	if len(b) < 8+2*hl+2*pl {
		return // tshark shows the header of a cut packet, and no address
	}
	o := 8
	a.sha, o = b[o:o+hl], o+hl
	a.spa, o = b[o:o+pl], o+pl
	a.tha, o = b[o:o+hl], o+hl
	a.tpa = b[o : o+pl]
	a.addrs = true
}

// The forms of an ARP address, as tshark 4.0 names them.
const (
	arpNone  = iota // not shown: the size is 0, or an AX.25 callsign
	arpMAC          // arp.src.hw_mac: a 6-byte Ethernet or IEEE 802 address
	arpIPv4         // arp.src.proto_ipv4: a 4-byte IPv4 (or AX.25 IP) address
	arpBytes        // arp.src.hw, arp.src.proto: any other
)

// hwForm and protoForm say how tshark shows the addresses.
func (a *arpInfo) hwForm() int {
	switch {
	case a.hln == 0 || a.hrd == arpHWAX25 && a.hln == 7:
		return arpNone
	case (a.hrd == arpHWEther || a.hrd == arpHWIEEE802) && a.hln == 6:
		return arpMAC
	}
	return arpBytes
}

func (a *arpInfo) protoForm() int {
	switch {
	case a.pln == 0:
		return arpNone
	case (a.pro == 0x0800 || a.pro == arpProtoAX25) && a.pln == 4:
		return arpIPv4
	}
	return arpBytes
}

// arp returns the frame's ARP packet: of an Ethernet frame (or one a
// cooked or IPoIB link header stands for), or carried by IPoIB in a
// native InfiniBand packet.
func (r *Record) arp() *arpInfo {
	if r.hasL3() && r.net.arp.has {
		return &r.net.arp
	}
	return nil
}

// arpFields are the keys of an ARP packet, tshark 4.0's names: of each
// address pair only the one of its form (hwForm, protoForm).
// ATM ARP (RFC 2225), whose layout differs after the protocol type,
// has the hardware type, protocol type and opcode alone.
var arpFields = sync.OnceValue(func() []Field {
	return []Field{
		fARP("arp.hw.type", 16, false, true, func(a *arpInfo) uint64 { return uint64(a.hrd) }).doc("ARP: hardware type (1 Ethernet, 32 InfiniBand); of an Ethernet frame or carried by IPoIB"),
		fARP("arp.proto.type", 16, true, true, func(a *arpInfo) uint64 { return uint64(a.pro) }).doc("ARP: protocol type, an Ethertype (0x0800)"),
		fARP("arp.hw.size", 8, false, false, func(a *arpInfo) uint64 { return uint64(a.hln) }).doc("ARP: hardware address size (6, 20 for IPoIB; absent for ATM ARP, as the addresses)"),
		fARP("arp.proto.size", 8, false, false, func(a *arpInfo) uint64 { return uint64(a.pln) }).doc("ARP: protocol address size"),
		fARP("arp.opcode", 16, false, true, func(a *arpInfo) uint64 { return uint64(a.op) }).doc("ARP: operation (1 request, 2 reply)"),
		fARPAddr("arp.src.hw_mac", FieldMAC, false, true).doc("ARP: sender's MAC, for hardware type 1 or 6 and size 6"),
		fARPAddr("arp.src.hw", FieldBytes, false, true).doc("ARP: sender's hardware address of any other form, lowercase hex digits (IPoIB: 20 bytes, flags, QPN, GID)"),
		fARPAddr("arp.src.proto_ipv4", FieldIPv4, true, true).doc("ARP: sender's IPv4 address, for protocol 0x0800 and size 4"),
		fARPAddr("arp.src.proto", FieldBytes, true, true).doc("ARP: sender's protocol address of any other form, lowercase hex digits"),
		fARPAddr("arp.dst.hw_mac", FieldMAC, false, false).doc("ARP: target's MAC (as arp.src.hw_mac)"),
		fARPAddr("arp.dst.hw", FieldBytes, false, false).doc("ARP: target's hardware address"),
		fARPAddr("arp.dst.proto_ipv4", FieldIPv4, true, false).doc("ARP: target's IPv4 address"),
		fARPAddr("arp.dst.proto", FieldBytes, true, false).doc("ARP: target's protocol address"),
	}
})

// fARP is a field of the ARP header; atm says whether ATM ARP has it.
func fARP(name string, bits uint8, hex, atm bool, get func(a *arpInfo) uint64) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if a := r.arp(); a != nil && (atm || a.hrd != arpHWATM) {
			return get(a), true
		}
		return 0, false
	})
}

// fARPAddr is the sender's (src) or target's address, hardware or
// protocol (proto), when it has the form of typ.
func fARPAddr(name string, typ FieldType, proto, src bool) Field {
	form := map[FieldType]int{FieldMAC: arpMAC, FieldIPv4: arpIPv4, FieldBytes: arpBytes}[typ]
	return Field{Name: name, Type: typ, Get: func(r *Record) (Value, bool) {
		a := r.arp()
		if a == nil || !a.addrs || a.hrd == arpHWATM {
			return none()
		}
		f, b := a.hwForm(), a.tha
		switch {
		case proto && src:
			f, b = a.protoForm(), a.spa
		case proto:
			f, b = a.protoForm(), a.tpa
		case src:
			b = a.sha
		}
		if f != form {
			return none()
		}
		var v Value
		if typ == FieldBytes {
			v.B = b
		} else {
			copy(v.Addr[:], b)
		}
		return v, true
	}}
}
