package dump

import (
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/roce-go/roce"
	"github.com/roce-go/roce/capfile"
	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/wire"
	"github.com/roce-go/roce/pfc"
)

// FieldType says how a field's value is held, compared and written.
type FieldType uint8

// The field types. In JSON, Uint is a number, Bool true or false, Hex64
// and Dec64 strings (see the package documentation), addresses and
// Bytes strings.
const (
	FieldUint   FieldType = iota + 1 // unsigned integer of Field.Bits bits, in Value.U
	FieldBool                        // flag, Value.U 0 or 1
	FieldString                      // text, in Value.S, or in Value.B when the frame holds it
	FieldIPv4                        // IPv4 address, in Value.Addr[:4]
	FieldIPv6                        // IPv6 address (or GID), in Value.Addr
	FieldMAC                         // MAC address, in Value.Addr[:6]
	FieldHex64                       // 64-bit unsigned in Value.U, JSON "0x" and 16 hex digits
	FieldDec64                       // 64-bit unsigned in Value.U, JSON decimal digits in a string
	FieldBytes                       // bytes, Value.Bytes(), JSON lowercase hex digits
	FieldTime                        // seconds since 1970 in Value.Sec, nanoseconds in Value.U
)

var fieldTypeNames = [...]string{"", "unsigned", "bool", "string", "IPv4", "IPv6", "MAC", "64-bit hex", "64-bit", "bytes", "time"}

// String names the type: "unsigned", "bool", "string", "IPv4", ...
func (t FieldType) String() string {
	if int(t) < len(fieldTypeNames) {
		return fieldTypeNames[t]
	}
	return "FieldType(" + strconv.Itoa(int(t)) + ")"
}

// Value is one field's value in a frame, as Field.Get returns it: which
// member holds it depends on the field's type.
//
// A FieldString value is in S, or, for text the frame carries (an SMP
// NodeDescription's NodeString), in B: a view of the Record's own bytes,
// with no copy, valid until the Record decodes another frame (copy it to
// keep it). B is nil when S holds the value.
//
// A FieldBytes value is in Addr[:Len], or, for bytes the frame carries
// (an ARP packet's addresses, as long as 255 bytes), in B, a view of the
// frame's bytes as for FieldString; Bytes returns either.
type Value struct {
	U    uint64   // FieldUint, FieldBool, FieldHex64, FieldDec64; FieldTime: nanoseconds
	Sec  int64    // FieldTime: seconds since 1970
	Addr [16]byte // FieldIPv4, FieldIPv6, FieldMAC, FieldBytes
	Len  uint8    // FieldBytes: bytes of Addr in use
	S    string   // FieldString
	B    []byte   // FieldString: the text, when the frame holds it (S is then empty); FieldBytes: the bytes, when the frame holds them
}

// Bytes returns the bytes of a FieldBytes value: B when it is set, else
// Addr[:Len].
func (v *Value) Bytes() []byte {
	if v.B != nil {
		return v.B
	}
	return v.Addr[:v.Len]
}

// hash returns an FNV-1a hash of every member of v.
func (v *Value) hash() uint64 {
	h := uint64(14695981039346656037)
	word := func(x uint64) {
		for range 8 {
			h = (h ^ x&0xff) * 1099511628211
			x >>= 8
		}
	}
	word(v.U)
	word(uint64(v.Sec))
	word(uint64(v.Len))
	for _, c := range v.Addr {
		h = (h ^ uint64(c)) * 1099511628211
	}
	word(uint64(len(v.S)))
	for i := 0; i < len(v.S); i++ {
		h = (h ^ uint64(v.S[i])) * 1099511628211
	}
	word(uint64(len(v.B)))
	for _, c := range v.B {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// Field is one row of the field table: a key of the JSON objects and a
// field display filters (package dfilter) name.
type Field struct {
	Name string    // the JSON key, a Wireshark field name where Wireshark has one
	Type FieldType // how the value is held and written
	Bits uint8     // FieldUint: width in bits
	// TypeBits is, for FieldUint, the width of the Wireshark type that
	// holds the field (FT_UINT8 ... FT_UINT64: 8, 16, 24, 32 or 64),
	// which can be wider than Bits. A display filter, like tshark's,
	// refuses a literal this width cannot hold and compares any other:
	// ip.dsfield.ecn (2 bits of an FT_UINT8) == 4 matches no frame, < 4
	// every frame that has the field, == 256 is refused.
	TypeBits uint8
	Hex      bool // print in hex in verbose text, as Wireshark's BASE_HEX
	// Also is a second display-filter name the value answers to: the
	// name Wireshark gives it when ours differs or when Wireshark names
	// several fields alike (vlan.inner.id is a second vlan.id, ip.src an
	// ip.addr). Empty for most fields.
	Also string
	// Meaning, if set, names what a value stands for in verbose text
	// (an opcode's name).
	Meaning func(v uint64) string
	// Get returns the field's value in r, and false when r lacks the
	// field (then the JSON object has no such key). It allocates nothing
	// except for the _error text of a malformed frame.
	Get func(r *Record) (Value, bool)
	// Uint, when set (most FieldUint and FieldBool fields), is a faster
	// Get for display filters: the same Value.U and presence.
	Uint func(r *Record) (uint64, bool)
	// Doc says in one line what the field holds (docs/keys.md lists it).
	Doc string
	// ULP is, for a field of a payload decoded as an upper-layer
	// protocol (Record.ULP), that protocol; ULPNone for every other
	// field. Parquet files have no column for such a field: their
	// schema stays that of the frames' own headers.
	ULP ULP

	handle   *key  // set by at: where the table puts the row's index and JSON key
	composed bool  // set by numbered: the key is made from a stem and an index, in a loop
	wide     uint8 // set by typeWidth: TypeBits, when Wireshark's type is wider than Bits rounded up
	digits   uint8 // set by indexTable: the hex digits tshark -T fields prints (tsharkHexDigits), 0 for decimal
}

// doc returns f with its description.
func (f Field) doc(s string) Field {
	f.Doc = s
	return f
}

// at returns f, which the table, once built, tells the row's index and
// JSON key through *k: the fast writers (AppendJSON, Cells.Fill) name a
// field by that variable, never by its key.
func (f Field) at(k *key) Field {
	f.handle = k
	return f
}

// key is a row as the fast writers name it (at).
type key struct {
	i    int    // the row's index in the table
	json string // its key as JSON writes it after another, jsonKeys[i]
}

// numbered returns f, a field of a family whose keys a loop makes from
// a stem and an index (vlan.inner2.id, macc.cbfc.pause_time.c3): its key
// is not written out whole anywhere (TestKeysNamedOnce).
func (f Field) numbered() Field {
	f.composed = true
	return f
}

// typeWidth returns f with TypeBits w: the width of the Wireshark type
// that holds the field, when it is wider than Bits rounded up to a whole
// byte (TestTypeBitsAreTshark checks the table against tshark -G fields).
func (f Field) typeWidth(w uint8) Field {
	f.wide = w
	return f
}

// numeric makes a field of an unsigned or bool value read by get.
func numeric(name string, typ FieldType, bits uint8, hex bool, get func(r *Record) (uint64, bool)) Field {
	return Field{Name: name, Type: typ, Bits: bits, Hex: hex, Uint: get, Get: func(r *Record) (Value, bool) {
		v, ok := get(r)
		return Value{U: v}, ok
	}}
}

// Protocol is a name a display filter tests for presence ("vlan",
// "infiniband.reth"), as Wireshark names its protocols and header
// subtrees.
type Protocol struct {
	Name    string
	Present func(r *Record) bool
}

// Fields returns the field table, in the order of the JSON keys (the
// extended headers, which JSON writes in wire order, in the order of
// RDETH, DETH, XRCETH, RETH, FETH, AtomicETH, AETH, AtomicAckETH). The
// slice is shared: do not modify it.
func Fields() []Field { return fieldTable() }

// Protocols returns the protocol names, in the order verbose text prints
// their lines. The slice is shared: do not modify it.
func Protocols() []Protocol { return protocolTable }

// LookupField returns the field of the table with that JSON key.
func LookupField(name string) (*Field, bool) {
	t := fieldTable()
	i, ok := fieldIndex[name]
	if !ok {
		return nil, false
	}
	return &t[i], true
}

// LookupProtocol returns the protocol of that name.
func LookupProtocol(name string) (*Protocol, bool) {
	for i := range protocolTable {
		if protocolTable[i].Name == name {
			return &protocolTable[i], true
		}
	}
	return nil, false
}

// FieldProtocol returns the protocol a field belongs to: the longest
// protocol name that, with a dot, begins the field's name ("vlan" for
// vlan.inner.id, "infiniband.bth" for infiniband.bth.psn); "frame" for
// the fields that start with "_".
func FieldProtocol(name string) string {
	best := ""
	for _, p := range protocolTable {
		if len(p.Name) > len(best) && strings.HasPrefix(name, p.Name) && len(name) > len(p.Name) && name[len(p.Name)] == '.' {
			best = p.Name
		}
	}
	if best == "" {
		return "frame"
	}
	return best
}

// fieldRequires returns the protocol a frame must have for it to have
// the field: FieldProtocol(name), or "infiniband.mad" for the fields of
// the management datagrams that belong to no protocol name narrower than
// "infiniband" (infiniband.sa.*, infiniband.pathrecord.*, the SMP and
// PerfMgt attributes). Cells.Fill asks each frame once per such protocol
// instead of once per field.
func fieldRequires(name string) string {
	if p := FieldProtocol(name); p != "infiniband" || !madField()[name] {
		return p
	}
	return "infiniband.mad"
}

// madField holds the names of the management datagrams' fields.
var madField = sync.OnceValue(func() map[string]bool {
	rows := madFields()
	m := make(map[string]bool, len(rows))
	for i := range rows {
		m[rows[i].Name] = true
	}
	return m
})

var fieldIndex = map[string]int{}

// jsonKeys holds, per row, its key as the JSON object writes it after
// another: `,"infiniband.bth.psn":`.
var jsonKeys []string

// indexTable finishes the field table t: it tells each row made with at
// its index, sets TypeBits, and makes fieldIndex and jsonKeys.
func indexTable(t []Field) []Field {
	wide := map[string]uint8{} // the Wireshark names whose type is wider than their bits say
	for i := range t {
		if t[i].wide != 0 {
			wide[t[i].Name] = t[i].wide
		}
	}
	jsonKeys = make([]string, len(t))
	for i := range t {
		f := &t[i]
		if _, dup := fieldIndex[f.Name]; dup {
			panic("dump: field " + f.Name + " twice in the table")
		}
		fieldIndex[f.Name] = i
		jsonKeys[i] = `,"` + f.Name + `":`
		if f.handle != nil {
			*f.handle = key{i, jsonKeys[i]}
		}
		if f.Type == FieldUint {
			f.TypeBits = typeBits(f, wide)
		}
		f.digits = tsharkHexDigits[f.Name]
		if f.Type == FieldHex64 && f.digits == 0 {
			f.digits = 16 // a field of ours: as JSON writes it
		}
	}
	return t
}

// ethRows returns, per extended header, its rows in table order.
var ethRows = sync.OnceValue(func() (rows [maxHeader][]Field) {
	t := fieldTable() // which names ethRowNames
	for h, names := range ethRowNames {
		for _, n := range names {
			rows[h] = append(rows[h], t[fieldIndex[n]])
		}
	}
	return rows
})

// typeBits returns the width of the Wireshark type of field f (or, for
// a field of ours, of the one Wireshark would give it): f.Bits rounded up
// to 8, 16, 24, 32 or 64, unless the row says otherwise (typeWidth). A
// field that answers to a Wireshark name (Also) has that field's type;
// wide holds the widths rows give.
func typeBits(f *Field, wide map[string]uint8) uint8 {
	if f.wide != 0 {
		return f.wide
	}
	if w, ok := wide[f.Also]; ok {
		return w
	}
	for _, w := range []uint8{8, 16, 24, 32} {
		if f.Bits <= w {
			return w
		}
	}
	return 64
}

// The getters' building blocks.

func u(v uint64) (Value, bool)      { return Value{U: v}, true }
func flag(v bool) (Value, bool)     { return Value{U: b2u(v)}, true }
func str(s string) (Value, bool)    { return Value{S: s}, true }
func none() (Value, bool)           { return Value{}, false }
func addr(a [16]byte) (Value, bool) { return Value{Addr: a}, true }

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

func mac(m [6]byte) (Value, bool) {
	var v Value
	copy(v.Addr[:], m[:])
	return v, true
}

func bytes4(x uint32) (Value, bool) {
	v := Value{Len: 4}
	v.Addr[0], v.Addr[1], v.Addr[2], v.Addr[3] = byte(x>>24), byte(x>>16), byte(x>>8), byte(x)
	return v, true
}

// Where each header is. Each returns nil when the frame lacks it.

func (r *Record) hasNet() bool {
	return r.Kind != KindUnsupported && len(r.eth) >= hdr.EthernetLen
}

// ethHdr returns the Ethernet header as captured (not one rebuilt from a
// cooked or raw IP link type).
func (r *Record) ethHdr() hdr.Ethernet {
	if !r.hasNet() || r.LinkType != capfile.LinkTypeEthernet && r.LinkType != capfile.LinkTypeERF {
		return nil
	}
	return hdr.Ethernet(r.eth)
}

// tag returns the VLAN tag JSON names with prefix pre ("vlan.",
// "vlan.inner.", "vlan.inner2." ..., "ieee8021ad.", ...).
func (r *Record) tag(pre string) *roce.VLAN {
	if !r.hasNet() {
		return nil
	}
	n := &r.net
	var seen [2]int // tags of each family so far
	for i := 0; i < n.tags; i++ {
		f := tagFamily(n.vlans[i].TPID)
		if tagPrefixes[f][seen[f]] == pre {
			return &n.vlans[i]
		}
		seen[f]++
	}
	return nil
}

// tagFamily is the index in tagPrefixes of a tag of TPID tpid:
// Wireshark's ieee8021ad for an S-tag (0x88a8), vlan for the others
// (0x8100, 0x9100).
func tagFamily(tpid uint16) int {
	if tpid == hdr.EtherTypeQinQ {
		return 1
	}
	return 0
}

// tagPrefixes name the keys of each family's tags, outermost first: the
// first as Wireshark names it, the second "inner.", the third "inner2."
// and so on, so that no key repeats.
var tagPrefixes = func() (p [2][wire.MaxTags]string) {
	for f, base := range []string{"vlan.", "ieee8021ad."} {
		for k := range wire.MaxTags {
			switch k {
			case 0:
				p[f][k] = base
			case 1:
				p[f][k] = base + "inner."
			default:
				p[f][k] = base + "inner" + strconv.Itoa(k) + "."
			}
		}
	}
	return p
}()

// hasL3 reports whether r.net may hold what follows the link layer: the
// headers read from an Ethernet frame (hasNet), or the packet IPoIB
// carries in a native InfiniBand packet.
func (r *Record) hasL3() bool { return r.hasNet() || r.HasIPoIB }

func (r *Record) ip(ver uint8) *netInfo {
	if r.hasL3() && r.net.ipVer == ver {
		return &r.net
	}
	return nil
}

func (r *Record) l4(proto uint8) *netInfo {
	if r.hasL3() && r.net.l4 == proto {
		return &r.net
	}
	return nil
}

func (r *Record) isIB() bool { return r.Kind == KindRoCE || r.Kind == KindInfiniBand }

func (r *Record) bth() *ib.BTH {
	if r.isIB() {
		return &r.RoCE.Packet.BTH
	}
	return nil
}

func (r *Record) grh() *ib.GRH {
	if r.Kind == KindRoCE && r.RoCE.Encap == ib.RoCEv1 || r.Kind == KindInfiniBand && r.HasGRH {
		return &r.RoCE.GRH
	}
	return nil
}

func (r *Record) lrh() *ib.LRH {
	if r.eth == nil && (r.Kind == KindInfiniBand || r.Kind == KindNotRoCE) {
		return &r.LRH
	}
	return nil
}

// packet returns the transport packet when it has header h: the opcode
// lists it and the capture kept at least its first field, so that the
// frame has one of its fields (a frame cut by the snap length inside h
// has those of its fields the capture kept whole, see ethField).
func (r *Record) packet(h ib.Header) *ib.Packet {
	if r.isIB() && r.RoCE.Packet.Captured(h) >= int(firstField(h)) {
		return &r.RoCE.Packet
	}
	return nil
}

// firstField is ethFirst[h], the table built first (fETH sets it).
func firstField(h ib.Header) uint8 {
	fieldTable()
	return ethFirst[h]
}

// ethField returns the transport packet when it has the field of header
// h that ends at byte end of the header, the capture having kept it
// whole.
func (r *Record) ethField(h ib.Header, end int) *ib.Packet {
	if r.isIB() && r.RoCE.Packet.Captured(h) >= end {
		return &r.RoCE.Packet
	}
	return nil
}

// maxHeader bounds the ib.Header values (4 bits in ib.Headers).
const maxHeader = 16

// ethFirst is, per extended header, the byte its first field with a row
// ends at (fETH sets it): the header is there (packet) from that byte on.
// ethRowNames are the names of its rows, in table order. fETH sets
// both as the table is built.
var (
	ethFirst    [maxHeader]uint8
	ethRowNames [maxHeader][]string
)

func (r *Record) sll() *SLL {
	if (r.LinkType == capfile.LinkTypeLinuxSLL || r.LinkType == capfile.LinkTypeLinuxSLL2) && r.SLL.Version != 0 {
		return &r.SLL
	}
	return nil
}

func (r *Record) macc(op pfc.Opcode) *pfc.MACControl {
	if r.Kind == KindMACControl && (op == 0 || r.MACControl.Opcode == op) {
		return &r.MACControl
	}
	return nil
}

// Field constructors, one per kind of header: each takes the name, the
// width or type and how to read the value from the header.

func fBTH(name string, bits uint8, hex bool, get func(h *ib.BTH) uint64) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if h := r.bth(); h != nil {
			return get(h), true
		}
		return 0, false
	})
}

func fBTHFlag(name string, get func(h *ib.BTH) bool) Field {
	return numeric(name, FieldBool, 0, false, func(r *Record) (uint64, bool) {
		if h := r.bth(); h != nil {
			return b2u(get(h)), true
		}
		return 0, false
	})
}

func fGRH(name string, bits uint8, get func(g *ib.GRH) uint64) Field {
	return numeric(name, FieldUint, bits, false, func(r *Record) (uint64, bool) {
		if g := r.grh(); g != nil {
			return get(g), true
		}
		return 0, false
	})
}

func fLRH(name string, bits uint8, get func(l *ib.LRH) uint64) Field {
	return numeric(name, FieldUint, bits, false, func(r *Record) (uint64, bool) {
		if l := r.lrh(); l != nil {
			return get(l), true
		}
		return 0, false
	})
}

// fETH is a field of extended header h that ends at byte end of the
// header (IBTA Vol 1 9.3; TestCutFieldOffsets checks each against
// tshark's offsets); typ FieldUint, FieldHex64, FieldDec64 or FieldBytes
// (4 bytes). A frame has it when the capture kept it whole.
func fETH(name string, h ib.Header, end int, typ FieldType, bits uint8, hex bool, get func(p *ib.Packet) uint64) Field {
	if ethFirst[h] == 0 || end < int(ethFirst[h]) {
		ethFirst[h] = uint8(end)
	}
	ethRowNames[h] = append(ethRowNames[h], name)
	if typ == FieldUint {
		return numeric(name, typ, bits, hex, func(r *Record) (uint64, bool) {
			if p := r.ethField(h, end); p != nil {
				return get(p), true
			}
			return 0, false
		})
	}
	return Field{Name: name, Type: typ, Bits: bits, Hex: hex, Get: func(r *Record) (Value, bool) {
		p := r.ethField(h, end)
		switch {
		case p == nil:
			return none()
		case typ == FieldBytes:
			return bytes4(uint32(get(p)))
		}
		return u(get(p))
	}}
}

func fIPv4(name string, bits uint8, get func(n *netInfo) uint64) Field {
	return numeric(name, FieldUint, bits, false, func(r *Record) (uint64, bool) {
		if n := r.ip(4); n != nil {
			return get(n), true
		}
		return 0, false
	})
}

func fIPv6(name string, bits uint8, hex bool, get func(n *netInfo) uint64) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if n := r.ip(6); n != nil {
			return get(n), true
		}
		return 0, false
	})
}

func fAddr(name, also string, ver uint8, typ FieldType, src bool) Field {
	return Field{Name: name, Type: typ, Also: also, Get: func(r *Record) (Value, bool) {
		n := r.ip(ver)
		switch {
		case n == nil:
			return none()
		case src:
			return addr(n.src)
		}
		return addr(n.dst)
	}}
}

func fPort(name, also string, proto uint8, src bool) Field {
	f := numeric(name, FieldUint, 16, false, func(r *Record) (uint64, bool) {
		n := r.l4(proto)
		switch {
		case n == nil:
			return 0, false
		case src:
			return uint64(n.sport), true
		}
		return uint64(n.dport), true
	})
	f.Also = also
	return f
}

// fTag is a field of the VLAN tag JSON names with prefix pre; key is
// "priority", "dei" or "id".
func fTag(pre, key, also string) Field {
	typ, bits := FieldUint, uint8(16)
	if key == "dei" {
		typ, bits = FieldBool, 0
	}
	f := numeric(pre+key, typ, bits, false, func(r *Record) (uint64, bool) {
		t := r.tag(pre)
		switch {
		case t == nil:
			return 0, false
		case key == "priority":
			return uint64(t.PCP), true
		case key == "dei":
			return b2u(t.DEI), true
		}
		return uint64(t.ID), true
	})
	f.Also = also
	return f
}

func fSLL(name string, bits uint8, hex bool, get func(s *SLL) (uint64, bool)) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if s := r.sll(); s != nil {
			return get(s)
		}
		return 0, false
	})
}

func fMACC(name string, op pfc.Opcode, bits uint8, hex bool, get func(m *pfc.MACControl) uint64) Field {
	return numeric(name, FieldUint, bits, hex, func(r *Record) (uint64, bool) {
		if m := r.macc(op); m != nil {
			return get(m), true
		}
		return 0, false
	})
}

func fMAC(name, also string, get func(e hdr.Ethernet) [6]byte) Field {
	return Field{Name: name, Type: FieldMAC, Also: also, Get: func(r *Record) (Value, bool) {
		if e := r.ethHdr(); e != nil {
			return mac(get(e))
		}
		return none()
	}}
}

// pfcFields are macc.cbfc.enbv.c0 ... c7 then macc.cbfc.pause_time.c0
// ... c7.
func pfcFields() []Field {
	var fs []Field
	for p := 0; p < pfc.NumPriorities; p++ {
		bit := uint16(1) << p
		fs = append(fs, Field{Name: "macc.cbfc.enbv.c" + strconv.Itoa(p), Type: FieldBool, Get: func(r *Record) (Value, bool) {
			if m := r.macc(pfc.OpcodePFC); m != nil {
				return flag(m.PriorityEnableVector&bit != 0)
			}
			return none()
		}}.numbered().at(&kMaccCbfcEnbvC[p]).doc("PFC: priority "+strconv.Itoa(p)+" enabled"))
	}
	for p := 0; p < pfc.NumPriorities; p++ {
		fs = append(fs, fMACC("macc.cbfc.pause_time.c"+strconv.Itoa(p), pfc.OpcodePFC, 16, false, func(m *pfc.MACControl) uint64 { return uint64(m.Time[p]) }).
			numbered().at(&kMaccCbfcPauseTimeC[p]).doc("PFC: time of priority "+strconv.Itoa(p)+" in quanta, enabled or not"))
	}
	return fs
}

// The indexes of the PFC priorities' rows.
var kMaccCbfcEnbvC, kMaccCbfcPauseTimeC [pfc.NumPriorities]key

// tagFields are the rows of the VLAN tags: per family (ieee8021ad, then
// vlan), per tag, priority, dei and id.
func tagFields() []Field {
	var fs []Field
	for _, f := range []int{1, 0} { // ieee8021ad, then vlan
		outer := tagPrefixes[f][0]
		for k, pre := range tagPrefixes[f] {
			for j, key := range tagKeyNames {
				also, which := "", tagNames[f]
				switch k {
				case 0:
				case 1:
					which = "a second " + which + " (not a Wireshark name)"
				default:
					which = "the " + which + " after " + strconv.Itoa(k) + " others (not a Wireshark name)"
				}
				if outer != pre {
					also = outer + key // Wireshark shows every tag's fields under the same names
				}
				fs = append(fs, fTag(pre, key, also).numbered().at(&kTag[f][k][j]).doc(which+": "+tagKeyDocs[j]))
			}
		}
	}
	return fs
}

// The parts of a VLAN tag's keys, what they hold, and the families'
// names, by tagPrefixes' index.
var (
	tagKeyNames = [3]string{"priority", "dei", "id"}
	tagKeyDocs  = [3]string{"PCP, 0-7", "drop eligible", "VLAN ID"}
	tagNames    = [2]string{"802.1Q tag (TPID 0x8100, or 0x9100 as Wireshark reads it)", "802.1ad S-tag (TPID 0x88a8)"}
)

// kTag holds the indexes of the tags' rows: family (as tagPrefixes),
// tag, then priority, dei, id.
var kTag [2][wire.MaxTags][3]key

func cat(parts ...[]Field) []Field {
	var out []Field
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// AppendValue appends v, a value of field f, as the JSON object holds it
// but without quotes: decimal for FieldUint and FieldDec64, "0x" and 16
// hex digits for FieldHex64, true or false, text with each byte that is
// not valid UTF-8 replaced by U+FFFD (unescaped), addresses as text,
// bytes as lowercase hex digits, a time as seconds with nine decimals.
func (f *Field) AppendValue(b []byte, v Value) []byte {
	switch f.Type {
	case FieldUint, FieldDec64:
		return strconv.AppendUint(b, v.U, 10)
	case FieldBool:
		return strconv.AppendBool(b, v.U != 0)
	case FieldString:
		return appendValidUTF8(appendValidUTF8(b, v.S), v.B)
	case FieldIPv4:
		return netip.AddrFrom4([4]byte(v.Addr[:4])).AppendTo(b)
	case FieldIPv6:
		return netip.AddrFrom16(v.Addr).AppendTo(b)
	case FieldMAC:
		return appendMAC(b, v.Addr[:6])
	case FieldHex64:
		b = append(b, '0', 'x')
		b = appendHex32(b, uint32(v.U>>32))
		return appendHex32(b, uint32(v.U))
	case FieldBytes:
		for _, c := range v.Bytes() {
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
		}
		return b
	case FieldTime:
		return appendEpochOf(b, v.Sec, int(v.U))
	}
	return b
}
