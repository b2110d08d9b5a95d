package wire

import (
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// ErrNotRoCE is ib.ErrNotRoCE.
var ErrNotRoCE error = errs.ErrNotRoCE

// Layout says where the parts of a RoCE frame are. Offsets count from the
// first byte of the frame.
type Layout struct {
	Tags      int               // VLAN tags
	EtherType int               // offset of the final Ethertype
	Net       int               // first byte of the GRH or IP header
	UDP       int               // first byte of the UDP header; 0 for RoCEv1
	BTH       int               // first byte of the BTH
	End       int               // one past the last byte of the ICRC
	Enc       hdr.Encapsulation // which encapsulation
}

// Locate finds the parts of a RoCE frame. The transport packet's length
// comes from GRH PayLen (RoCEv1) or the UDP Length (RoCEv2), never from
// the end of the frame, which may carry padding or an FCS.
//
// Errors are *errs.Error values whose offsets count from the first byte
// of the frame; a well-formed frame that carries no RoCE gives
// ErrNotRoCE itself.
func Locate(b []byte, l *Layout) error { return locate(b, l, false, nil) }

// LocateTo is Locate with its errors held in s (errs.Slot), so that a
// malformed frame costs no allocation.
func LocateTo(b []byte, l *Layout, s *errs.Slot) error { return locate(b, l, false, s) }

// LocateCut is Locate for a frame the capture may have cut short: a
// transport packet that runs past the end of b is not an error as long
// as every header in front of the BTH was captured (the GRH, or the IP and
// UDP headers). l.End is then where the headers say the ICRC ends, beyond
// len(b); BTH may equal len(b) or lie beyond it too.
func LocateCut(b []byte, l *Layout) error { return locate(b, l, true, nil) }

// LocateCutTo is LocateCut with its errors held in s.
func LocateCutTo(b []byte, l *Layout, s *errs.Slot) error { return locate(b, l, true, s) }

func locate(b []byte, l *Layout, cut bool, s *errs.Slot) error {
	var off int
	var et uint16
	if len(b) >= hdr.EthernetLen && !hdr.IsTPID(hdr.Ethernet(b).Type()) {
		off, et, l.Tags = hdr.EthernetLen, hdr.Ethernet(b).Type(), 0 // untagged: the common case
	} else {
		var err error
		if off, et, l.Tags, err = Skip(b); err != nil {
			return err
		}
	}
	l.EtherType, l.Net = off-2, off
	var ipEnd int
	switch et {
	case hdr.EtherTypeRoCE:
		return locateGRH(b, off, l, cut, s)
	case hdr.EtherTypeIPv4:
		l.Enc = hdr.RoCEv2IPv4
		if len(b) < off+hdr.IPv4MinLen {
			return s.Truncated("IPv4", off, off+hdr.IPv4MinLen, len(b))
		}
		ip := hdr.IPv4(b[off:])
		if ip.Version() != 4 {
			return s.New("IPv4", off, 0, 0, errs.ErrBadVersion)
		}
		ihl, total := ip.HeaderLen(), int(ip.TotalLen())
		if ip.Protocol() != hdr.IPProtocolUDP || ip.IsFragment() {
			return ErrNotRoCE // not UDP, or a fragment
		}
		if ihl < hdr.IPv4MinLen || total < ihl+hdr.UDPLen {
			return s.New("IPv4", off, ihl+hdr.UDPLen, total, errs.ErrBadLength)
		}
		ipEnd = off + total
		if ipEnd > len(b) && !cut {
			return s.Truncated("IPv4", off+hdr.IPv4TotalLen, ipEnd, len(b))
		}
		l.UDP = off + ihl
	case hdr.EtherTypeIPv6:
		l.Enc = hdr.RoCEv2IPv6
		if len(b) < off+hdr.IPv6Len {
			return s.Truncated("IPv6", off, off+hdr.IPv6Len, len(b))
		}
		ip := hdr.IPv6(b[off:])
		if ip.Version() != 6 {
			return s.New("IPv6", off, 0, 0, errs.ErrBadVersion)
		}
		if ip.NextHeader() != hdr.IPProtocolUDP {
			return ErrNotRoCE // extension headers are not RoCEv2
		}
		ipEnd = off + hdr.IPv6Len + int(ip.PayloadLen())
		if ipEnd > len(b) && !cut {
			return s.Truncated("IPv6", off+hdr.IPv6PayLen, ipEnd, len(b))
		}
		l.UDP = off + hdr.IPv6Len
	default:
		return ErrNotRoCE
	}
	if ipEnd < l.UDP+hdr.UDPLen {
		return s.Truncated("UDP", l.UDP, l.UDP+hdr.UDPLen, ipEnd)
	}
	if len(b) < l.UDP+hdr.UDPLen { // only when cut: ipEnd lies beyond b
		return s.Truncated("UDP", l.UDP, l.UDP+hdr.UDPLen, len(b))
	}
	u := hdr.UDP(b[l.UDP : l.UDP+hdr.UDPLen])
	if u.DstPort() != hdr.RoCEv2Port {
		return ErrNotRoCE
	}
	n := int(u.Length())
	if n < hdr.UDPLen || l.UDP+n > ipEnd {
		return s.New("UDP", l.UDP+hdr.UDPLength, ipEnd-l.UDP, n, errs.ErrBadLength)
	}
	l.BTH, l.End = l.UDP+hdr.UDPLen, l.UDP+n
	return nil
}

// locateGRH is Locate for RoCEv1, whose GRH starts at off.
func locateGRH(b []byte, off int, l *Layout, cut bool, s *errs.Slot) error {
	l.Enc, l.UDP = hdr.RoCEv1, 0
	if len(b) < off+hdr.GRHLen {
		return s.Truncated("GRH", off, off+hdr.GRHLen, len(b))
	}
	// The GRH is laid out as an IPv6 header (IBTA Vol 1, 8.3).
	g := hdr.IPv6(b[off:])
	if g.Version() != 6 {
		return s.New("GRH", off, 0, 0, errs.ErrBadVersion)
	}
	if g.NextHeader() != hdr.NxtHdrBTH {
		return ErrNotRoCE
	}
	l.BTH = off + hdr.GRHLen
	l.End = l.BTH + int(g.PayloadLen())
	if l.End > len(b) && !cut {
		return s.Truncated("GRH", off+hdr.IPv6PayLen, l.End, len(b))
	}
	return nil
}
