package wire

import (
	"encoding/binary"
	"github.com/roce-go/roce/internal/errs"

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
	var off int
	var et uint16
	if len(b) >= HeaderLen && b[12] != 0x81 && b[12] != 0x88 {
		off, et = HeaderLen, uint16(b[12])<<8|uint16(b[13]) // untagged: the common case
		l.Tags = 0
	} else {
		var err error
		if off, et, l.Tags, err = Skip(b); err != nil {
			return err
		}
	}
	l.EtherType, l.Net = off-2, off
	var ipEnd int
	switch et {
	case TypeRoCE:
		l.Enc, l.UDP = ib.RoCEv1, 0
		if len(b) < off+ib.GRHLen {
			return errs.New("GRH", off, off+ib.GRHLen, len(b), ib.ErrTruncated)
		}
		if b[off]>>4 != 6 {
			return errs.New("GRH", off, 0, 0, ib.ErrBadVersion)
		}
		if b[off+6] != ib.NxtHdrBTH {
			return ErrNotRoCE
		}
		l.BTH = off + ib.GRHLen
		l.End = l.BTH + int(binary.BigEndian.Uint16(b[off+4:]))
		if l.End > len(b) {
			return errs.New("GRH", off+4, l.End, len(b), ib.ErrTruncated)
		}
		return nil
	case TypeIPv4:
		l.Enc = ib.RoCEv2IPv4
		if len(b) < off+20 {
			return errs.New("IPv4", off, off+20, len(b), ib.ErrTruncated)
		}
		ip := b[off : off+20]
		if ip[0]>>4 != 4 {
			return errs.New("IPv4", off, 0, 0, ib.ErrBadVersion)
		}
		ihl := int(ip[0]&0x0f) * 4
		total := int(binary.BigEndian.Uint16(ip[2:]))
		if ip[9] != 17 || binary.BigEndian.Uint16(ip[6:])&0x3fff != 0 {
			return ErrNotRoCE // not UDP, or a fragment
		}
		if ihl < 20 || total < ihl+8 {
			return errs.New("IPv4", off, ihl+8, total, ib.ErrBadLength)
		}
		ipEnd = off + total
		if ipEnd > len(b) {
			return errs.New("IPv4", off+2, ipEnd, len(b), ib.ErrTruncated)
		}
		l.UDP = off + ihl
	case TypeIPv6:
		l.Enc = ib.RoCEv2IPv6
		if len(b) < off+40 {
			return errs.New("IPv6", off, off+40, len(b), ib.ErrTruncated)
		}
		if b[off]>>4 != 6 {
			return errs.New("IPv6", off, 0, 0, ib.ErrBadVersion)
		}
		if b[off+6] != 17 {
			return ErrNotRoCE // extension headers are not RoCEv2
		}
		ipEnd = off + 40 + int(binary.BigEndian.Uint16(b[off+4:]))
		if ipEnd > len(b) {
			return errs.New("IPv6", off+4, ipEnd, len(b), ib.ErrTruncated)
		}
		l.UDP = off + 40
	default:
		return ErrNotRoCE
	}
	if ipEnd < l.UDP+8 {
		return errs.New("UDP", l.UDP, l.UDP+8, ipEnd, ib.ErrTruncated)
	}
	u := b[l.UDP : l.UDP+8]
	if binary.BigEndian.Uint16(u[2:]) != RoCEv2Port {
		return ErrNotRoCE
	}
	n := int(binary.BigEndian.Uint16(u[4:]))
	if n < 8 || l.UDP+n > ipEnd {
		return errs.New("UDP", l.UDP+4, ipEnd-l.UDP, n, ib.ErrBadLength)
	}
	l.BTH, l.End = l.UDP+8, l.UDP+n
	return nil
}
