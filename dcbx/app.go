package dcbx

import (
	"encoding/binary"

	"github.com/roce-go/roce/internal/errs"
)

// appEntryLen is the size of one entry of the Application Priority table.
const appEntryLen = 3

// MaxAppEntries is the most entries an Application Priority TLV holds:
// its LLDP length (9 bits, at most 511) covers the OUI, the subtype, a
// reserved byte and the table.
const MaxAppEntries = (maxTLVLen - orgHeaderLen - 1) / appEntryLen

// Selector says what an application entry's Protocol is (IEEE 802.1Qaz
// D.2.12; 5, DSCP, from IEEE 802.1Q-2014).
type Selector uint8

// The selectors; 0, 6 and 7 are reserved.
const (
	SelEthertype Selector = 1 // an Ethertype (RoCEv1: 0x8915)
	SelTCP       Selector = 2 // a TCP or SCTP well-known port
	SelUDP       Selector = 3 // a UDP or DCCP well-known port (RoCEv2: 4791)
	SelPort      Selector = 4 // a TCP, SCTP, UDP or DCCP well-known port
	SelDSCP      Selector = 5 // a DSCP value (IEEE 802.1Q-2014)
)

// selNames names the eight selector values.
var selNames = [8]string{"sel0", "ethertype", "tcp", "udp", "port", "dscp", "sel6", "sel7"}

// String returns "ethertype", "tcp", "udp", "port", "dscp", or "selN"
// for a reserved value N.
func (s Selector) String() string {
	if int(s) < len(selNames) {
		return selNames[s]
	}
	return "sel" + itoa(uint(s))
}

// AppEntry is one entry of the Application Priority table:
//
//	+-----+---+-----+---------------------------------+
//	|Prio |Rsv| Sel |      Protocol ID (16 bits)      |
//	+-----+---+-----+---------------------------------+
type AppEntry struct {
	Priority uint8 // 3 bits: the priority the application's frames use
	Reserved uint8 // 2 bits
	Sel      Selector
	Protocol uint16 // an Ethertype, a port or a DSCP, as Sel says
}

// AppPriority is the Application Priority TLV (subtype 12, IEEE
// 802.1Qaz D.2.12): a reserved byte, then a table of 3-byte entries
// mapping applications to priorities. Table holds the entries as sent;
// Entries and Entry read them.
type AppPriority struct {
	Reserved uint8
	Table    []byte // the entries; aliases the input
}

// Entries returns the number of entries.
func (a *AppPriority) Entries() int { return len(a.Table) / appEntryLen }

// Entry returns entry i (0 <= i < Entries()).
func (a *AppPriority) Entry(i int) AppEntry {
	e := a.Table[i*appEntryLen:]
	return AppEntry{Priority: e[0] >> 5, Reserved: e[0] >> 3 & 3, Sel: Selector(e[0] & 7), Protocol: binary.BigEndian.Uint16(e[1:])}
}

// Decode decodes the TLV's information string, info being the bytes
// after the subtype, resetting a first. The table must be a whole number
// of entries.
func (a *AppPriority) Decode(info []byte) error { return a.decode(info, nil) }

// decode is Decode with its errors held in s.
func (a *AppPriority) decode(info []byte, s *errs.Slot) error {
	*a = AppPriority{}
	if len(info) < 1 {
		return s.Truncated("Application Priority TLV", orgHeaderLen, 1, 0)
	}
	if (len(info)-1)%appEntryLen != 0 {
		return s.New("Application Priority TLV", orgHeaderLen+1, len(info)-1+appEntryLen-(len(info)-1)%appEntryLen, len(info)-1, errs.ErrBadLength)
	}
	a.Reserved, a.Table = info[0], info[1:]
	return nil
}

// Len returns the number of bytes AppendTo writes: the whole TLV, its
// headers, the reserved byte and the table.
func (a *AppPriority) Len() int { return tlvHeaderLen + orgHeaderLen + 1 + len(a.Table) }

// Validate reports whether AppendTo can encode a: a *FieldError wrapping
// ErrBadLength names a table that is not a whole number of entries or
// holds more than MaxAppEntries.
func (a *AppPriority) Validate() error {
	if len(a.Table)%appEntryLen != 0 {
		return errs.Length("AppPriority.Table", len(a.Table), "is not a whole number of 3-byte entries", errs.ErrBadLength)
	}
	if a.Entries() > MaxAppEntries {
		return errs.Length("AppPriority.Table", len(a.Table), "holds more entries than a TLV can (168)", errs.ErrBadLength)
	}
	return nil
}

// AppendTo appends the whole TLV to b, its table as a.Table holds it. It
// refuses, appending nothing, what Validate refuses.
func (a *AppPriority) AppendTo(b []byte) ([]byte, error) {
	if err := a.Validate(); err != nil {
		return b, err
	}
	b = appendHeader(b, SubtypeAppPriority, 1+len(a.Table))
	return append(append(b, a.Reserved), a.Table...), nil
}

// AppendAppPriority appends an Application Priority TLV of the entries
// to b. It refuses, appending nothing, an entry field wider than its
// field and more than MaxAppEntries entries.
func AppendAppPriority(b []byte, reserved uint8, entries []AppEntry) ([]byte, error) {
	if len(entries) > MaxAppEntries {
		return b, errs.Length("AppPriority.Table", len(entries)*appEntryLen, "holds more entries than a TLV can (168)", errs.ErrBadLength)
	}
	for i := range entries {
		e := &entries[i]
		for _, f := range [...]struct {
			name string
			v    uint8
			bits uint
		}{{"AppEntry.Priority", e.Priority, 3}, {"AppEntry.Reserved", e.Reserved, 2}, {"AppEntry.Sel", uint8(e.Sel), 3}} {
			if err := fit(f.name, f.v, f.bits); err != nil {
				return b, err
			}
		}
	}
	b = appendHeader(b, SubtypeAppPriority, 1+len(entries)*appEntryLen)
	b = append(b, reserved)
	for _, e := range entries {
		b = append(b, e.Priority<<5|e.Reserved<<3|uint8(e.Sel))
		b = binary.BigEndian.AppendUint16(b, e.Protocol)
	}
	return b, nil
}
