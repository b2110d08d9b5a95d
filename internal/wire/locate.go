package wire

import (
	"encoding/binary"

	"github.com/roce-go/roce/ib"
)

// ErrNotRoCE is ib.ErrNotRoCE.
var ErrNotRoCE = ib.ErrNotRoCE

// RoCEv2Port is the RoCEv2 UDP destination port.
const RoCEv2Port = 4791

// Layout says where the parts of a RoCE frame are. Offsets count from the
// first byte of the frame.
type Layout struct {
	Tags      int              // VLAN tags
	EtherType int              // offset of the final Ethertype
	Net       int              // first byte of the GRH or IP header
	UDP       int              // first byte of the UDP header; 0 for RoCEv1
	BTH       int              // first byte of the BTH
	End       int              // one past the last byte of the ICRC
	Enc       ib.Encapsulation // which encapsulation
}

// Locate finds the parts of a RoCE frame. The transport packet's length
// comes from GRH PayLen (RoCEv1) or the UDP Length (RoCEv2), never from
// the end of the frame, which may carry padding or an FCS.
func Locate(b []byte, l *Layout) error {
	off, et, tags, err := Skip(b)
	if err != nil {
		return err
	}
	l.Tags, l.EtherType, l.Net = tags, off-2, off
	switch et {
	case TypeRoCE:
		l.Enc = ib.RoCEv1
		if len(b) < off+ib.GRHLen {
			return ib.NewError("GRH", off, off+ib.GRHLen, len(b), ib.ErrTruncated)
		}
		if b[off]>>4 != 6 {
			return ib.NewError("GRH", off, 0, 0, ib.ErrBadVersion)
		}
		if b[off+6] != ib.NxtHdrBTH {
			return ErrNotRoCE
		}
		l.BTH = off + ib.GRHLen
		l.End = l.BTH + int(binary.BigEndian.Uint16(b[off+4:]))
		if l.End > len(b) {
			return ib.NewError("GRH", off+4, l.End, len(b), ib.ErrTruncated)
		}
		return nil
	case TypeIPv4:
		l.Enc = ib.RoCEv2IPv4
		if len(b) < off+20 {
			return ib.NewError("IPv4", off, off+20, len(b), ib.ErrTruncated)
		}
		if b[off]>>4 != 4 {
			return ib.NewError("IPv4", off, 0, 0, ib.ErrBadVersion)
		}
		ihl := int(b[off]&0x0f) * 4
		total := int(binary.BigEndian.Uint16(b[off+2:]))
		if b[off+9] != 17 || binary.BigEndian.Uint16(b[off+6:])&0x3fff != 0 {
			return ErrNotRoCE // not UDP, or a fragment
		}
		if ihl < 20 || total < ihl+8 {
			return ib.NewError("IPv4", off, ihl+8, total, ib.ErrBadLength)
		}
		if off+total > len(b) {
			return ib.NewError("IPv4", off+2, off+total, len(b), ib.ErrTruncated)
		}
		l.UDP = off + ihl
		return l.udp(b, off+total)
	case TypeIPv6:
		l.Enc = ib.RoCEv2IPv6
		if len(b) < off+40 {
			return ib.NewError("IPv6", off, off+40, len(b), ib.ErrTruncated)
		}
		if b[off]>>4 != 6 {
			return ib.NewError("IPv6", off, 0, 0, ib.ErrBadVersion)
		}
		if b[off+6] != 17 {
			return ErrNotRoCE // extension headers are not RoCEv2
		}
		end := off + 40 + int(binary.BigEndian.Uint16(b[off+4:]))
		if end > len(b) {
			return ib.NewError("IPv6", off+4, end, len(b), ib.ErrTruncated)
		}
		l.UDP = off + 40
		return l.udp(b, end)
	}
	return ErrNotRoCE
}

// udp checks the UDP header at l.UDP inside an IP packet ending at ipEnd.
func (l *Layout) udp(b []byte, ipEnd int) error {
	if ipEnd < l.UDP+8 {
		return ib.NewError("UDP", l.UDP, l.UDP+8, ipEnd, ib.ErrTruncated)
	}
	if binary.BigEndian.Uint16(b[l.UDP+2:]) != RoCEv2Port {
		return ErrNotRoCE
	}
	n := int(binary.BigEndian.Uint16(b[l.UDP+4:]))
	if n < 8 || l.UDP+n > ipEnd {
		return ib.NewError("UDP", l.UDP+4, ipEnd-l.UDP, n, ib.ErrBadLength)
	}
	l.BTH, l.End = l.UDP+8, l.UDP+n
	return nil
}
