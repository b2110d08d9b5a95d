package dump

import (
	"encoding/binary"
	"strconv"
	"time"

	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/pfc"
)

// TimeFormat says how a text line gives the capture time. Each value is
// the number of -t flags tcpdump takes for the same format, and the
// format is tcpdump's, to the character.
type TimeFormat uint8

// The time formats.
const (
	TimeOfDay      TimeFormat = iota // "15:04:05.000000" in TextOptions.Location: tcpdump's default
	TimeNone                         // no time (tcpdump -t)
	TimeEpoch                        // "1700000000.000000", seconds since 1970 UTC (tcpdump -tt)
	TimeDelta                        // " 00:00:00.000123", since the previous line, "-" when earlier (tcpdump -ttt)
	TimeDate                         // "2006-01-02 15:04:05.000000" in TextOptions.Location (tcpdump -tttt)
	TimeSinceFirst                   // " 00:00:01.000000", since the first line (tcpdump -ttttt)
)

// delta reports whether lines of format f give the time relative to an
// earlier line's (TextOptions.TimeRef).
func (f TimeFormat) delta() bool { return f == TimeDelta || f == TimeSinceFirst }

// HexMode says whether a text line is followed by the frame's bytes, as
// tcpdump's -x and -X print them: a line per 16 bytes, "\t0x0010:  ",
// then the bytes in groups of two, "4500 0034 ...", and for HexASCII the
// bytes again as ASCII, "." for those that are not printable.
type HexMode uint8

// The hex modes.
const (
	HexNone  HexMode = iota // no bytes
	Hex                     // hex (tcpdump -x; -xx with TextFormat.HexLink)
	HexASCII                // hex and ASCII (tcpdump -X; -XX with TextFormat.HexLink)
)

// TextFormat says how text lines look: tcpdump's output flags. The zero
// TextFormat is the default line.
type TextFormat struct {
	Time TimeFormat // how the capture time is given
	// Nano gives times to the nanosecond, nine digits of fraction
	// instead of six (tcpdump --nano). Times are cut, not rounded, to
	// the microsecond otherwise, as libpcap does.
	Nano bool
	Hex  HexMode // the frame's bytes after the line
	// HexLink starts the bytes at the link-level header (tcpdump -xx,
	// -XX); otherwise they start after it: after the Ethernet header and
	// VLAN tags, the cooked header, the ERF header, the LRH of a native
	// InfiniBand packet.
	HexLink bool
	// Link starts the line with the link-level header as tcpdump -e
	// prints it, in place of the VLAN tags and MAC addresses of the line:
	// "02:00:00:00:00:01 > 02:00:00:00:00:02, ethertype 802.1Q (0x8100),
	// length 1086: vlan 100, p 5, ethertype IPv4 (0x0800), " for
	// Ethernet, " In 02:00:00:00:00:01 ethertype IPv4 (0x0800), length
	// 45: " for a Linux cooked capture (the interface name tcpdump puts
	// first for version 2 is left out: it is the capturing host's),
	// "ip: " for raw IP; nothing for native InfiniBand, whose LIDs the
	// line gives. Ethertype names are tcpdump's, except 0x8915 (RoCE,
	// tcpdump's "Unknown") and 0x8808 (MAC Control, tcpdump's "MPCP").
	// As in tcpdump, an 802.3 frame (a type field of 1500 or less, a
	// length) gives "802.3, length N: " with N its length field (at most
	// the bytes that follow on the wire), and the header stops before a
	// VLAN tag the capture cut. With Hex, an 802.3 frame's bytes start
	// after its 802.2 LLC (and SNAP) header too, as tcpdump's do.
	Link bool
	// Quiet shortens transport lines to the opcode, QP, PSN and payload
	// length: no BTH flags, extended headers or ECN codepoint, and the
	// ICRC status only when it is not good (tcpdump -q). With Link, the
	// link-level header is shortened as tcpdump -q -e does it.
	Quiet bool
	// Number starts the line with the frame's number in its capture
	// (Record.Number), right-aligned in five columns, and two spaces, as
	// tcpdump --number (-#) starts its lines. The number is the frame's
	// position, whichever frames a filter leaves out, as tshark numbers
	// frames.
	Number bool
}

// TextOptions are the print settings of text lines, and what a run of
// lines keeps from one to the next: a Record is the frame's data alone,
// and TextOptions.AppendText makes its line. The zero TextOptions gives
// the default line, times in UTC. A TextOptions is for one goroutine at
// a time: it keeps the formatted second of the last line, and the text
// of its endpoints, for the next (capture frames come in time order,
// from few hosts).
type TextOptions struct {
	// Location is the time zone of the times of day; nil means UTC.
	Location *time.Location
	// Format says how the line looks (tcpdump's output flags).
	Format TextFormat
	// TimeRef is the time the delta formats (TimeDelta, TimeSinceFirst)
	// count from: the previous or the first line's; zero for the first
	// line, whose delta is 0. Follow sets it for lines in capture order.
	TimeRef time.Time
	// Speed is the link speed at which lines convert pause quanta to
	// time; 0 means 100 Gb/s.
	Speed pfc.Speed

	ref timeRef // Follow's lines so far
	// The formatted "15:04:05." (or the date, or the seconds) of the
	// second clockSec in clockLoc and format clockFmt.
	clock     [32]byte
	clockLen  int
	clockSec  int64
	clockLoc  *time.Location
	clockFmt  TimeFormat
	endpoints [2]endpointsText // text.go: the text of the last two IP endpoints, the latest first
}

// Follow sets TimeRef for the line of a frame at time t, which follows,
// in capture order, the lines Follow was given before: the previous
// line's time for TimeDelta, the first line's for TimeSinceFirst, zero
// for the first line (and for the other formats).
func (o *TextOptions) Follow(t time.Time) { o.TimeRef = o.ref.next(o.Format.Time, t) }

// AppendText appends r as one line of text and a newline to b (see the
// package documentation), formatted as o says, and returns the extended
// slice. For RoCE frames it allocates only when b lacks the capacity.
func (o *TextOptions) AppendText(b []byte, r *Record) []byte {
	if o.Format.Number {
		b = appendNumber(b, r.Number)
	}
	b = r.appendTime(b, o)
	return r.appendLine(b, o)
}

// appendNumber appends frame number n as Number gives it: "%5d  ".
func appendNumber(b []byte, n int) []byte {
	for d := 10000; d > 1 && n < d; d /= 10 {
		b = append(b, ' ')
	}
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, ' ', ' ')
}

// appendTime appends the capture time as o.Format.Time asks and a space,
// or nothing for TimeNone.
func (r *Record) appendTime(b []byte, o *TextOptions) []byte {
	switch f := o.Format.Time; {
	case f == TimeNone:
		return b
	case f.delta():
		b = appendDelta(b, r.Time, o.TimeRef, o.Format.Nano)
	default:
		b = r.appendClock(b, o)
	}
	return append(b, ' ')
}

// appendClock appends the time as "15:04:05.000000", "2006-01-02
// 15:04:05.000000" or "1700000000.000000" (nine digits with Nano).
// Formatting a time.Time costs more than the rest of a line, so the part
// before the fraction is kept per second and only the fraction is
// formatted per frame.
func (r *Record) appendClock(b []byte, o *TextOptions) []byte {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	sec, f := r.Time.Unix(), o.Format.Time
	if f == TimeEpoch && sec < 0 { // before 1970: -0.5 is -1 s + 0.5e9 ns, its integer part that of sec+1
		return appendEpochFraction(b, r.Time, o.Format.Nano)
	}
	if sec != o.clockSec || loc != o.clockLoc || f != o.clockFmt || o.clockLen == 0 {
		var c []byte
		switch f {
		case TimeEpoch:
			c = append(strconv.AppendInt(o.clock[:0], sec, 10), '.')
		case TimeDate:
			c = r.Time.In(loc).AppendFormat(o.clock[:0], "2006-01-02 15:04:05.")
		default:
			c = r.Time.In(loc).AppendFormat(o.clock[:0], "15:04:05.")
		}
		o.clockLen = copy(o.clock[:], c)
		o.clockSec, o.clockLoc, o.clockFmt = sec, loc, f
	}
	b = append(b, o.clock[:o.clockLen]...)
	return appendFraction(b, r.Time, o.Format.Nano)
}

// appendEpochFraction appends t as seconds since 1970, exactly, with six
// decimals, or nine with nano: t cut to the microsecond (towards the
// past, as every time format cuts it) unless nano.
func appendEpochFraction(b []byte, t time.Time, nano bool) []byte {
	if nano {
		return appendEpochOf(b, t.Unix(), t.Nanosecond())
	}
	b = appendEpochOf(b, t.Unix(), t.Nanosecond()/1000*1000)
	return b[:len(b)-3]
}

// appendFraction appends the fraction of a second of t: six digits, or
// nine with nano.
func appendFraction(b []byte, t time.Time, nano bool) []byte {
	if nano {
		return appendPadded(b, uint64(t.Nanosecond()), 9)
	}
	return appendPadded(b, uint64(t.Nanosecond()/1000), 6)
}

// appendDelta appends t-ref as tcpdump -ttt does: a sign, " " or "-",
// then hours (two digits at least), minutes, seconds and the fraction,
// " 00:00:00.002899". Both times are cut to the microsecond first unless
// nano. A zero ref stands for t: the first line.
func appendDelta(b []byte, t, ref time.Time, nano bool) []byte {
	if ref.IsZero() {
		ref = t
	}
	unit, div := int64(1_000_000), 1000
	if nano {
		unit, div = 1_000_000_000, 1
	}
	// Exact over any two times: the seconds apart are up to 2^64.
	ts, tf := t.Unix(), int64(t.Nanosecond()/div)
	rs, rf := ref.Unix(), int64(ref.Nanosecond()/div)
	sign := byte(' ')
	if ts < rs || ts == rs && tf < rf {
		sign, ts, tf, rs, rf = '-', rs, rf, ts, tf
	}
	sec, frac := uint64(ts)-uint64(rs), tf-rf
	if frac < 0 {
		sec, frac = sec-1, frac+unit
	}
	b = append(b, sign)
	b = appendPadded(b, sec/3600, 2)
	b = append(b, ':')
	b = appendPadded(b, sec/60%60, 2)
	b = append(b, ':')
	b = appendPadded(b, sec%60, 2)
	b = append(b, '.')
	if nano {
		return appendPadded(b, uint64(frac), 9)
	}
	return appendPadded(b, uint64(frac), 6)
}

// timeRef follows, over the lines printed in capture order, the time
// that delta formats count from.
type timeRef struct{ prev, first time.Time }

// next returns the reference of a line at time t in format f (zero for
// the first line) and takes the line into account.
func (tr *timeRef) next(f TimeFormat, t time.Time) time.Time {
	switch f {
	case TimeDelta:
		ref := tr.prev
		tr.prev = t
		return ref
	case TimeSinceFirst:
		if tr.first.IsZero() {
			tr.first = t
			return time.Time{}
		}
		return tr.first
	}
	return time.Time{}
}

// appendLine appends the line after its time: the link-level header
// with Link, the line itself and its newline, and the bytes with Hex.
func (r *Record) appendLine(b []byte, o *TextOptions) []byte {
	if o.Format.Link {
		b = r.appendLinkHeader(b, o)
		start := len(b)
		b = r.appendBody(b, o)
		if len(b) > start && b[start] == ' ' { // a line whose MACs Link left out
			b = append(b[:start], b[start+1:]...)
		}
	} else {
		b = r.appendBody(b, o)
	}
	if o.Format.Hex == HexNone {
		return b
	}
	data := r.Data
	if !o.Format.HexLink {
		data = data[r.netStart():]
	}
	return appendHexDump(b, data, o.Format.Hex == HexASCII)
}

// netStart returns the offset in r.Data of what follows the link-level
// header, which tcpdump -x leaves out.
func (r *Record) netStart() int {
	n := 0
	switch r.LinkType {
	case capfile.LinkTypeEthernet:
		n = ethLinkLen(r.eth)
	case capfile.LinkTypeLinuxSLL:
		n = 16 + hdr.VLANTagLen*r.net.tags
	case capfile.LinkTypeLinuxSLL2:
		n = 20 + hdr.VLANTagLen*r.net.tags
	case capfile.LinkTypeERF:
		n = r.erfLen
		switch r.ERFType {
		case ERFTypeEthernet:
			n += 2 + ethLinkLen(r.eth)
		case ERFTypeInfiniBand:
			n += ib.LRHLen
		}
	case capfile.LinkTypeInfiniBand:
		n = ib.LRHLen
	}
	return min(n, len(r.Data))
}

// appendHexDump appends data as tcpdump -x (or -X, ascii) does: per 16
// bytes "\t0x0000:  4500 0034 ...", and with ascii the 40 columns of hex
// padded, two spaces and the bytes as ASCII, "." for a byte that is not
// a graphic character.
func appendHexDump(b []byte, data []byte, ascii bool) []byte {
	for off := 0; off < len(data); off += 16 {
		line := data[off:min(off+16, len(data))]
		b = append(b, '\t', '0', 'x')
		if off > 0xffff {
			b = strconv.AppendUint(b, uint64(off), 16)
		} else {
			b = appendHex16(b, uint16(off))
		}
		b = append(b, ':', ' ')
		start := len(b)
		for i, c := range line {
			if i%2 == 0 {
				b = append(b, ' ')
			}
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
		}
		if ascii {
			for len(b) < start+40 {
				b = append(b, ' ')
			}
			b = append(b, ' ', ' ')
			for _, c := range line {
				if c <= ' ' || c > '~' {
					c = '.'
				}
				b = append(b, c)
			}
		}
		b = append(b, '\n')
	}
	return b
}

// appendLinkHeader appends the link-level header as tcpdump -e prints it
// (see TextFormat.Link).
func (r *Record) appendLinkHeader(b []byte, o *TextOptions) []byte {
	switch r.LinkType {
	case capfile.LinkTypeEthernet:
		return r.appendEthernetHeader(b, o)
	case capfile.LinkTypeERF:
		if r.ERFType == ERFTypeEthernet {
			return r.appendEthernetHeader(b, o)
		}
	case capfile.LinkTypeLinuxSLL, capfile.LinkTypeLinuxSLL2:
		return r.appendSLLHeader(b, o)
	case capfile.LinkTypeRaw:
		return append(b, "ip: "...)
	}
	return b
}

// appendEthernetHeader appends "SRC > DST, ethertype NAME (0xTYPE),
// length N: " and for each VLAN tag "vlan ID, p PCP[, DEI], ethertype
// NAME (0xTYPE), ", as tcpdump -e does: for an 802.3 frame, whose type
// field is a length, "802.3, length N: " with N that length (at most the
// bytes after the header on the wire); a frame cut inside a VLAN tag
// stops before the tag, where tcpdump prints " [|vlan]".
func (r *Record) appendEthernetHeader(b []byte, o *TextOptions) []byte {
	e := hdr.Ethernet(r.eth)
	if len(e) < hdr.EthernetLen {
		return b
	}
	src, dst := e.Src(), e.Dst()
	b = appendMAC(b, src[:])
	b = append(b, " > "...)
	b = appendMAC(b, dst[:])
	b = append(b, ", "...)
	t := e.Type()
	if linkTPID(t) && len(e) < hdr.NetOffset(1) {
		return b // cut in the first tag
	}
	n := r.Len
	if t <= maxEthernetLength {
		b = append(b, "802.3"...)
		n = min(int(t), r.Len-hdr.EthernetLen)
	} else {
		b = r.appendLinkEtherType(b, o, t)
	}
	b = append(b, ", length "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ':', ' ')
	return r.appendTagChain(b, o)
}

// maxEthernetLength is the largest value of the Ethernet type field that
// is a length (an 802.3 frame) rather than an Ethertype.
const maxEthernetLength = 1500

// linkTPID reports whether tcpdump 4.99 -e takes an Ethertype for a VLAN
// tag: the three the decoder takes (hdr.IsTPID) and 0x9200, which
// tshark, and so the decoder, does not.
func linkTPID(t uint16) bool { return hdr.IsTPID(t) || t == 0x9200 }

// appendTagChain appends each VLAN tag of r.eth (the frame, or the one a
// cooked header stands for), from the type field at offset 12, and the
// type after it, as tcpdump -e walks them: "vlan ID, p PCP[, DEI], " then
// "ethertype NAME (0xTYPE), ", or "802.3, " for a length. Like tcpdump it
// goes through every tag captured, and stops before a tag whose four
// bytes (TCI and the next type) were not all captured.
func (r *Record) appendTagChain(b []byte, o *TextOptions) []byte {
	e := r.eth
	if len(e) < hdr.EthernetLen {
		return b
	}
	t := hdr.Ethernet(e).Type()
	for off := hdr.EthernetLen; linkTPID(t) && off+hdr.VLANTagLen <= len(e); off += hdr.VLANTagLen {
		v := hdr.VLANTag(e[off-2:])
		b = append(b, "vlan "...)
		b = strconv.AppendUint(b, uint64(v.VID()), 10)
		b = append(b, ", p "...)
		b = strconv.AppendUint(b, uint64(v.PCP()), 10)
		if v.DEI() {
			b = append(b, ", DEI"...)
		}
		b = append(b, ", "...)
		t = binary.BigEndian.Uint16(e[off+2:])
		if linkTPID(t) && off+2*hdr.VLANTagLen > len(e) {
			return b // the next tag is cut
		}
		if t <= maxEthernetLength {
			b = append(b, "802.3"...)
		} else {
			b = r.appendLinkEtherType(b, o, t)
		}
		b = append(b, ", "...)
	}
	return b
}

// ethLinkLen returns where tcpdump -x starts the bytes of the Ethernet
// frame e: after the header and the VLAN tags it walks (tcpdump's TPIDs,
// linkTPID), and, for an 802.3 frame, the LLC header (llcLen); the whole
// frame when it ends inside a tag, of which tcpdump prints no byte.
func ethLinkLen(e []byte) int {
	if len(e) < hdr.EthernetLen {
		return len(e)
	}
	t, n := hdr.Ethernet(e).Type(), hdr.EthernetLen
	for linkTPID(t) {
		if n+hdr.VLANTagLen > len(e) {
			return len(e)
		}
		t = binary.BigEndian.Uint16(e[n+2:])
		n += hdr.VLANTagLen
	}
	if t <= maxEthernetLength {
		n += llcLen(e[n:], int(t))
	}
	return n
}

// llcLen returns the bytes of an 802.2 LLC header tcpdump's LLC printer
// takes from p, the payload of an 802.3 frame whose length field is
// length: 3 for an unnumbered (U) frame, 4 for an I or S frame (a 2-byte
// control field), 5 more for a SNAP header (DSAP and SSAP 0xaa, UI).
// tcpdump limits the bytes to length, and takes what there is of a header
// cut short.
func llcLen(p []byte, length int) int {
	n := min(len(p), length)
	if n < 3 {
		return n
	}
	hl := 3
	if p[2]&3 != 3 { // not U format
		if n < 4 {
			return n
		}
		hl = 4
	}
	if hl == 3 && p[0] == 0xaa && p[1] == 0xaa && p[2] == 0x03 {
		return min(n, hl+5)
	}
	return hl
}

// sllPacketTypes are tcpdump's names of the cooked header's packet
// types.
var sllPacketTypes = [...]string{"In", "B", "M", "P", "Out"}

// appendSLLHeader appends a cooked header as tcpdump -e does: the packet
// type, for version 2 "ifindex N", the source MAC, the protocol and the
// length.
func (r *Record) appendSLLHeader(b []byte, o *TextOptions) []byte {
	s := &r.SLL
	if s.Version == 0 {
		return b
	}
	typ := "?"
	if int(s.PktType) < len(sllPacketTypes) {
		typ = sllPacketTypes[s.PktType]
	}
	if s.Version == 1 {
		for i := len(typ); i < 3; i++ {
			b = append(b, ' ')
		}
		b = append(b, typ...)
		b = append(b, ' ')
	} else {
		b = append(b, typ...)
		for i := len(typ); i < 3; i++ {
			b = append(b, ' ')
		}
		b = append(b, " ifindex "...)
		b = strconv.AppendUint(b, uint64(s.IfIndex), 10)
		b = append(b, ' ')
	}
	if s.HALen == 6 {
		b = appendMAC(b, s.Addr[:6])
		b = append(b, ' ')
	}
	if o.Format.Quiet {
		return b
	}
	b = r.appendLinkEtherType(b, o, s.Protocol)
	b = append(b, ", length "...)
	b = strconv.AppendInt(b, int64(r.Len), 10)
	b = append(b, ':', ' ')
	return r.appendTagChain(b, o)
}

// linkEtherTypes are tcpdump's names of Ethertypes, but for RoCE and MAC
// Control, which tcpdump 4.99 calls "Unknown" and "MPCP". (The line's own
// names, appendEtherType's, are another set.)
var linkEtherTypes = [...]struct {
	t    uint16
	name string
}{
	{hdr.EtherTypeIPv4, "IPv4"}, {hdr.EtherTypeIPv6, "IPv6"}, {hdr.EtherTypeARP, "ARP"},
	{hdr.EtherTypeDot1Q, "802.1Q"}, {hdr.EtherTypeQinQ, "802.1Q-QinQ"}, {0x9100, "802.1Q-9100"},
	{hdr.EtherTypeLLDP, "LLDP"}, {hdr.EtherTypeRoCE, "RoCE"}, {hdr.EtherTypeMACControl, "MAC Control"},
	{0x8035, "Reverse ARP"}, {0x8847, "MPLS unicast"}, {0x8848, "MPLS multicast"},
	{0x8809, "Slow Protocols"}, {0x88f7, "PTP"}, {0x8863, "PPPoE D"}, {0x8864, "PPPoE S"}, {0x0600, "NS"},
	{0x9200, "802.1Q-9200"},
}

// appendLinkEtherType appends "NAME (0xTYPE)" as tcpdump -e does, or
// with Quiet "NAME", "Unknown Ethertype (0xTYPE)" for one it has no name
// for.
func (r *Record) appendLinkEtherType(b []byte, o *TextOptions, t uint16) []byte {
	name := ""
	for _, e := range linkEtherTypes {
		if e.t == t {
			name = e.name
			break
		}
	}
	switch {
	case o.Format.Quiet && name != "":
		return append(b, name...)
	case o.Format.Quiet:
		b = append(b, "Unknown Ethertype"...)
	case name == "":
		b = append(b, "ethertype Unknown"...)
	default:
		b = append(b, "ethertype "...)
		b = append(b, name...)
	}
	b = append(b, " (0x"...)
	b = appendHex16(b, t)
	return append(b, ')')
}

// appendQuietTransport is appendTransport for Quiet: the opcode, QP,
// PSN, payload length and an ICRC that is not good.
func (r *Record) appendQuietTransport(b []byte) []byte {
	b = appendOpcodeQPPSN(b, &r.RoCE.Packet.BTH)
	b = append(b, " payload "...)
	b = strconv.AppendInt(b, int64(r.payloadLen()), 10)
	switch {
	case r.ICRCUnchecked:
		b = append(b, " icrc unchecked"...)
	case !r.ICRCGood:
		b = append(b, " icrc bad"...)
	}
	return append(b, '\n')
}
