package capfile

import (
	"fmt"
	"io"

	"github.com/google/gopacket"
)

// The pcapng format (draft-ietf-opsawg-pcapng): a sequence of blocks,
// each
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+---------------------------------------------------------------+
//	|                          Block Type                           |
//	+---------------------------------------------------------------+
//	|                      Block Total Length                       |
//	+---------------------------------------------------------------+
//	/                          Block Body                           /
//	+---------------------------------------------------------------+
//	|                      Block Total Length                       |
//	+---------------------------------------------------------------+
//
// in the byte order of its section, which a Section Header Block starts
// with its byte-order magic. The total length lets a reader skip a block
// it does not know, or one it cannot read, and go on with the next.
// Blocks other than SHB, IDB, EPB, SPB and PB are skipped; a Custom Block
// (0x00000BAD, 0x40000BAD) still takes a frame number, as in tshark, so
// that the frames after it keep tshark's numbers.
const (
	blockSHB = 0x0a0d0d0a // Section Header Block
	blockIDB = 1          // Interface Description Block
	blockPB  = 2          // Packet Block (obsolete)
	blockSPB = 3          // Simple Packet Block
	blockEPB = 6          // Enhanced Packet Block
	blockCB  = 0x00000bad // Custom Block
	blockCBN = 0x40000bad // Custom Block not to be copied

	bom          = 0x1a2b3c4d // the byte-order magic of a Section Header Block
	blockMin     = 12         // type, total length, total length
	shbMin       = 28
	idbMin       = 20
	epbMin       = 32 // also the obsolete Packet Block's
	spbMin       = 16
	epbData      = 28 // the packet data in an EPB or PB
	spbData      = 12
	optUserAppl  = 4  // shb_userappl
	optIfName    = 2  // if_name
	optTSResol   = 9  // if_tsresol
	optTSOffset  = 14 // if_tsoffset
	maxBlockKept = epbData + MaxSnaplen + 4 + 1<<12
)

var blockNames = map[uint32]string{blockSHB: "Section Header Block", blockIDB: "Interface Description Block",
	blockPB: "Packet Block", blockSPB: "Simple Packet Block", blockEPB: "Enhanced Packet Block"}

func blockName(t uint32) string {
	if n, ok := blockNames[t]; ok {
		return n
	}
	return fmt.Sprintf("block of type %#x", t)
}

// ngIface is what a packet needs of its Interface Description Block.
type ngIface struct {
	linkType uint16
	base2    bool  // if_tsresol: 2^-exp seconds, else 10^-exp
	exp      uint8 // 6 (microseconds) unless if_tsresol says otherwise
	snapLen  uint32
	offset   int64 // if_tsoffset, seconds
}

// cutBlock is cut with what is wrong said: the reason of a block the end
// of the capture cuts.
func (s *Source) cutBlock(off int64, packet bool, block, reason string, err error) error {
	e := s.cut(off, packet, block, err)
	if re, ok := e.(*ReadError); ok && re.Err == io.ErrUnexpectedEOF {
		re.Reason = reason
	}
	return e
}

// startNg checks the first Section Header Block; Next reads it.
func (s *Source) startNg() error {
	h, err := s.in.peek(shbMin)
	if err != nil {
		return fmt.Errorf("%w: pcapng Section Header Block of %d bytes", ErrNotCapture, len(h))
	}
	if m := le.u32(h[8:]); m != bom && m != 0x4d3c2b1a {
		return fmt.Errorf("%w: pcapng byte-order magic %#08x", ErrNotCapture, m)
	}
	return nil
}

// nextNg reads blocks until a packet, the end, or an error. A block that
// cannot be read but whose total length is sound is reported with a
// ReadError and skipped; a bad total length or a bad section header is
// fatal: the next block cannot be found. (tshark stops at the first bad
// block of any kind.)
func (s *Source) nextNg() (data []byte, ci gopacket.CaptureInfo, lt uint16, err error) {
	for {
		off := s.in.off
		h, err := s.in.peek(blockMin)
		if len(h) < blockMin {
			if len(h) == 0 && err == io.EOF {
				return nil, ci, 0, io.EOF
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, ci, 0, s.cutBlock(off, false, "block", fmt.Sprintf("cut short: the capture ends %d bytes into the %d bytes of a block's type and length", len(h), blockMin), err)
		}
		typ := le.u32(h)
		if typ == blockSHB {
			switch le.u32(h[8:]) {
			case bom:
				s.be = false
			case 0x4d3c2b1a:
				s.be = true
			default:
				e := s.unreadable(off, false, blockName(typ), fmt.Sprintf("byte-order magic %#08x", le.u32(h[8:])))
				e.Fatal = true
				return nil, ci, 0, e
			}
		}
		o := order(s.be)
		typ = o.u32(h)
		total := o.u32(h[4:])
		packet := typ == blockEPB || typ == blockSPB || typ == blockPB
		if packet {
			s.n++
		}
		if total < blockMin || total%4 != 0 {
			e := s.unreadable(off, packet, blockName(typ), fmt.Sprintf("total length %d: cannot find the next block", total))
			e.Fatal = true
			return nil, ci, 0, e
		}
		keep := int(min(total, maxBlockKept))
		b, err := s.in.next(keep)
		if err == nil && keep < int(total) {
			err = s.in.skip(int64(total) - int64(keep))
		}
		if err != nil {
			return nil, ci, 0, s.cutBlock(off, packet, blockName(typ), fmt.Sprintf("total length %d runs past the end of the capture, %d bytes into the block (cut short, or a wrong length)", total, s.in.off-off), err)
		}
		if keep == int(total) {
			if t := o.u32(b[total-4:]); t != total {
				return nil, ci, 0, s.unreadable(off, packet, blockName(typ), fmt.Sprintf("total length %d at the end, %d at the start", t, total))
			}
			b = b[:total-4] // the body, without the trailing length
		}
		var reason string
		switch typ {
		case blockSHB:
			reason = s.sectionHeader(b, total)
		case blockIDB:
			reason = s.iface(b, total)
		case blockEPB, blockPB:
			data, ci, lt, reason = s.packet(b, typ, total)
		case blockSPB:
			data, ci, lt, reason = s.simplePacket(b, total)
		case blockCB, blockCBN:
			s.n++ // tshark numbers a Custom Block as a frame: keep the numbers alike
			continue
		default:
			continue
		}
		if reason != "" {
			return nil, ci, 0, s.unreadable(off, packet, blockName(typ), reason)
		}
		if packet {
			return data, ci, lt, nil
		}
	}
}

// sectionHeader starts a new section: its interfaces start afresh.
func (s *Source) sectionHeader(b []byte, total uint32) string {
	s.ifs = s.ifs[:0]
	if total < shbMin {
		return fmt.Sprintf("%d bytes, under the %d of a Section Header Block", total, shbMin)
	}
	if major := order(s.be).u16(b[12:]); major != 1 {
		return fmt.Sprintf("major version %d: its interfaces and packets are not read", major)
	}
	return ""
}

// iface reads an Interface Description Block: link type, snapshot length
// and the options if_tsresol and if_tsoffset. An IDB too short to read
// still takes its index (link type 0, not decoded), so that the packets
// of the interfaces after it keep theirs.
func (s *Source) iface(b []byte, total uint32) string {
	f := ngIface{exp: 6}
	defer func() { s.ifs = append(s.ifs, f) }()
	if total < idbMin {
		return fmt.Sprintf("%d bytes, under the %d of an Interface Description Block", total, idbMin)
	}
	o := order(s.be)
	f.linkType, f.snapLen = o.u16(b[8:]), o.u32(b[12:])
	opts := b[16:]
	for len(opts) >= 4 {
		code, n := o.u16(opts), int(o.u16(opts[2:]))
		if code == 0 || 4+n > len(opts) {
			break
		}
		v := opts[4 : 4+n]
		switch {
		case code == optTSResol && n >= 1:
			f.base2, f.exp = v[0]&0x80 != 0, v[0]&0x7f
		case code == optTSOffset && n >= 8:
			f.offset = int64(o.u64(v))
		}
		opts = opts[min(len(opts), 4+(n+3)&^3):]
	}
	return ""
}

// packet reads an Enhanced Packet Block or an obsolete Packet Block
// (whose interface ID is 16 bits, followed by a drops count).
func (s *Source) packet(b []byte, typ, total uint32) (data []byte, ci gopacket.CaptureInfo, lt uint16, reason string) {
	if total < epbMin {
		return nil, ci, 0, fmt.Sprintf("%d bytes, under the %d of a packet block", total, epbMin)
	}
	o := order(s.be)
	id := o.u32(b[8:])
	if typ == blockPB {
		id = uint32(o.u16(b[8:]))
	}
	if int64(id) >= int64(len(s.ifs)) {
		return nil, ci, 0, fmt.Sprintf("interface %d, which the section has not described (it describes %d)", id, len(s.ifs))
	}
	f := &s.ifs[id]
	capLen, origLen := o.u32(b[20:]), o.u32(b[24:])
	if capLen > total-epbMin {
		return nil, ci, 0, fmt.Sprintf("%d captured bytes in a block of %d", capLen, total)
	}
	if capLen > MaxSnaplen {
		return nil, ci, 0, fmt.Sprintf("captured length %d over the limit of %d", capLen, MaxSnaplen)
	}
	units := uint64(o.u32(b[12:]))<<32 | uint64(o.u32(b[16:]))
	var ok bool
	if ci.Timestamp, ok = timeOf(units, f.base2, f.exp, f.offset); !ok {
		return nil, ci, 0, fmt.Sprintf("timestamp of %d units of %s s, if_tsoffset %d s: outside the span read exactly (years -292277020688 to 292277024627)",
			units, resolutionText(f.base2, f.exp), f.offset)
	}
	ci.CaptureLength, ci.Length, ci.InterfaceIndex = int(capLen), int(origLen), int(id)
	return b[epbData : epbData+capLen], ci, f.linkType, ""
}

// simplePacket reads a Simple Packet Block: interface 0, no timestamp,
// the original length; the captured length is the original length, or
// the interface's snapshot length when that is smaller and not 0. A
// block too short for it is reported, as tshark does ("total block
// length N of an SPB is too small for M bytes of packet data"), and
// skipped.
func (s *Source) simplePacket(b []byte, total uint32) (data []byte, ci gopacket.CaptureInfo, lt uint16, reason string) {
	if total < spbMin {
		return nil, ci, 0, fmt.Sprintf("%d bytes, under the %d of a Simple Packet Block", total, spbMin)
	}
	if len(s.ifs) == 0 {
		return nil, ci, 0, "no interface described before it"
	}
	f := &s.ifs[0]
	origLen := order(s.be).u32(b[8:])
	capLen := origLen
	if f.snapLen != 0 && capLen > f.snapLen {
		capLen = f.snapLen
	}
	if capLen > total-spbMin {
		return nil, ci, 0, fmt.Sprintf("%d bytes of packet data in a block of %d", capLen, total)
	}
	if capLen > MaxSnaplen {
		return nil, ci, 0, fmt.Sprintf("captured length %d over the limit of %d", capLen, MaxSnaplen)
	}
	ci.CaptureLength, ci.Length = int(capLen), int(origLen)
	return b[spbData : spbData+capLen], ci, f.linkType, ""
}
