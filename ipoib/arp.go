package ipoib

import (
	"encoding/binary"
	"net/netip"

	"github.com/roce-go/roce/internal/errs"
)

// HWAddrLen is the size of an IPoIB hardware address.
const HWAddrLen = 20

// HWAddr is an IPoIB hardware address (RFC 4391 section 9.1.1): a byte
// of flags, the 24-bit queue pair number and the port's 16-byte GID.
//
//	+---------------+-----------------------------------------------+
//	|     Flags     |                      QPN                      |
//	+---------------+-----------------------------------------------+
//	|                         GID (16 bytes)                        |
//	+---------------------------------------------------------------+
type HWAddr [HWAddrLen]byte

// Flags returns the first byte. RFC 4755 (IPoIB-CM) gives its top bit,
// FlagConnected, to a port that accepts connected mode; the rest are
// reserved.
func (a HWAddr) Flags() uint8 { return a[0] }

// FlagConnected is the flag of an address whose port accepts IPoIB
// connected mode (RFC 4755 section 4.1).
const FlagConnected = 0x80

// QPN returns the queue pair number.
func (a HWAddr) QPN() uint32 { return binary.BigEndian.Uint32(a[:4]) & 0xffffff }

// GID returns the GID.
func (a HWAddr) GID() netip.Addr { return netip.AddrFrom16([16]byte(a[4:])) }

// MakeHWAddr returns the address of flags, qpn and gid. It refuses a qpn
// above 24 bits with an *ib.FieldError.
func MakeHWAddr(flags uint8, qpn uint32, gid [16]byte) (HWAddr, error) {
	var a HWAddr
	if err := errs.Fit("HWAddr.QPN", uint64(qpn), 24); err != nil {
		return a, err
	}
	binary.BigEndian.PutUint32(a[:], uint32(flags)<<24|qpn)
	copy(a[4:], gid[:])
	return a, nil
}

// ARPHardwareType is the ARP hardware type of InfiniBand (IANA, RFC 4391
// section 9.2).
const ARPHardwareType = 32

// ARPLen is the size of an IPoIB ARP packet for IPv4: 8 bytes of header,
// two hardware addresses and two IPv4 addresses.
const ARPLen = 8 + 2*HWAddrLen + 2*4

// ARP is an ARP packet as IPoIB sends it (RFC 4391 section 9.2; the
// packet layout of RFC 826): hardware type 32, 20-byte hardware
// addresses. ARP.Decode reads any hardware and protocol sizes, as
// gopacket's layers.ARP does; Sender and Target give the IPoIB addresses
// when the hardware size is 20.
type ARP struct {
	HWType    uint16 // 32 for InfiniBand
	Proto     uint16 // an Ethertype: 0x0800 for IPv4
	HWLen     uint8  // 20 for InfiniBand
	ProtoLen  uint8  // 4 for IPv4
	Op        uint16 // 1 request, 2 reply
	SenderHW  []byte
	SenderIP  []byte
	TargetHW  []byte
	TargetIP  []byte
	Remainder []byte // what follows the target address
}

// The ARP operations.
const (
	ARPRequest = 1
	ARPReply   = 2
)

// Decode decodes an ARP packet from the start of b, resetting a first.
func (a *ARP) Decode(b []byte) error {
	*a = ARP{}
	if len(b) < 8 {
		return errs.Truncated("ARP", 0, 8, len(b))
	}
	hl, pl := int(b[4]), int(b[5])
	if n := 8 + 2*hl + 2*pl; len(b) < n {
		return errs.Truncated("ARP", 0, n, len(b))
	}
	a.HWType = binary.BigEndian.Uint16(b)
	a.Proto = binary.BigEndian.Uint16(b[2:])
	a.HWLen, a.ProtoLen = b[4], b[5]
	a.Op = binary.BigEndian.Uint16(b[6:])
	o := 8
	a.SenderHW, o = b[o:o+hl], o+hl
	a.SenderIP, o = b[o:o+pl], o+pl
	a.TargetHW, o = b[o:o+hl], o+hl
	a.TargetIP, o = b[o:o+pl], o+pl
	a.Remainder = b[o:]
	return nil
}

// Sender returns the sender's hardware address, and false when the
// hardware size is not 20.
func (a *ARP) Sender() (HWAddr, bool) { return hwAddr(a.SenderHW) }

// Target returns the target's hardware address, and false when the
// hardware size is not 20.
func (a *ARP) Target() (HWAddr, bool) { return hwAddr(a.TargetHW) }

func hwAddr(b []byte) (HWAddr, bool) {
	if len(b) != HWAddrLen {
		return HWAddr{}, false
	}
	return HWAddr(b), true
}

// SenderAddr returns the sender's protocol address (IPv4 when ProtoLen
// is 4, IPv6 when 16), and false otherwise.
func (a *ARP) SenderAddr() (netip.Addr, bool) { return netip.AddrFromSlice(a.SenderIP) }

// TargetAddr returns the target's protocol address, like SenderAddr.
func (a *ARP) TargetAddr() (netip.Addr, bool) { return netip.AddrFromSlice(a.TargetIP) }

// AppendARP appends an IPoIB ARP packet for IPv4 (ARPLen bytes) to b.
func AppendARP(b []byte, op uint16, sender HWAddr, senderIP netip.Addr, target HWAddr, targetIP netip.Addr) ([]byte, error) {
	for _, a := range [...]struct {
		field string
		ip    netip.Addr
	}{{"ARP.SenderIP", senderIP}, {"ARP.TargetIP", targetIP}} {
		if !a.ip.Is4() {
			return b, &errs.FieldError{Field: a.field, Text: a.ip.String(), Reason: "is not an IPv4 address", Err: errs.ErrBadValue}
		}
	}
	b = append(b, 0, ARPHardwareType, byte(TypeIPv4>>8), byte(TypeIPv4&0xff), HWAddrLen, 4, byte(op>>8), byte(op))
	s4, t4 := senderIP.As4(), targetIP.As4()
	b = append(append(b, sender[:]...), s4[:]...)
	return append(append(b, target[:]...), t4[:]...), nil
}
