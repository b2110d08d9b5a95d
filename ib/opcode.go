package ib

import (
	"strconv"
)

// Opcode is the BTH OpCode: bits 7..5 select the transport, bits 4..0 the
// operation (IBTA Vol 1, 9.2 and Table 38).
type Opcode uint8

// Transport is the transport service an opcode belongs to.
type Transport uint8

// The transports, by the value of OpCode bits 7..5.
const (
	RC      Transport = 0 // Reliable Connection, 0x00-0x1F
	UC      Transport = 1 // Unreliable Connection, 0x20-0x3F
	RD      Transport = 2 // Reliable Datagram, 0x40-0x5F
	UD      Transport = 3 // Unreliable Datagram, 0x60-0x7F
	CNP     Transport = 4 // Congestion notification, 0x80-0x9F (RoCEv2 CNP is 0x81)
	XRC     Transport = 5 // Extended Reliable Connection, 0xA0-0xBF
	Vendor6 Transport = 6 // manufacturer specific, 0xC0-0xDF
	Vendor7 Transport = 7 // manufacturer specific, 0xE0-0xFF
)

var transportNames = [8]string{"RC", "UC", "RD", "UD", "CNP", "XRC", "Vendor", "Vendor"}

// String returns the transport's IBTA abbreviation.
func (t Transport) String() string { return transportNames[t&7] }

// Header names one extended transport header (ETH).
type Header uint8

// The extended transport headers, in no particular order.
const (
	NoHeader           Header = iota
	HeaderRDETH               // Reliable Datagram ETH, 4 bytes
	HeaderDETH                // Datagram ETH, 8 bytes
	HeaderXRCETH              // XRC ETH, 4 bytes
	HeaderRETH                // RDMA ETH, 16 bytes
	HeaderAtomicETH           // Atomic ETH, 28 bytes
	HeaderAtomicAckETH        // Atomic Acknowledge ETH, 8 bytes
	HeaderAETH                // ACK ETH, 4 bytes
	HeaderImmDt               // Immediate Data header, 4 bytes
	HeaderIETH                // Invalidate ETH, 4 bytes
	HeaderFETH                // FLUSH ETH (IBTA 1.5), 4 bytes
	numHeaders
)

// headerInfo is the one table of the extended headers: each row gives
// the header's name and size and where its fields end. Packet.eths maps
// a Header to the field of a Packet that holds it.
var headerInfo = [numHeaders]struct {
	name string
	size int
	// ends are the byte offsets in the header at which its fields end,
	// in wire order (reserved fields included), then zeros: what
	// Packet.DecodeTruncated keeps of a header the capture cut.
	ends [4]uint8
}{
	HeaderRDETH:        {"RDETH", RDETHLen, [4]uint8{1, 4}},
	HeaderDETH:         {"DETH", DETHLen, [4]uint8{4, 5, 8}},
	HeaderXRCETH:       {"XRCETH", XRCETHLen, [4]uint8{1, 4}},
	HeaderRETH:         {"RETH", RETHLen, [4]uint8{8, 12, 16}},
	HeaderAtomicETH:    {"AtomicETH", AtomicETHLen, [4]uint8{8, 12, 20, 28}},
	HeaderAtomicAckETH: {"AtomicAckETH", AtomicAckETHLen, [4]uint8{8}},
	HeaderAETH:         {"AETH", AETHLen, [4]uint8{1, 4}},
	HeaderImmDt:        {"ImmDt", ImmDtLen, [4]uint8{4}},
	HeaderIETH:         {"IETH", IETHLen, [4]uint8{4}},
	HeaderFETH:         {"FETH", FETHLen, [4]uint8{4}},
}

// whole returns how many of the first n bytes of the header its whole
// fields take: n rounded down to the end of a field.
func (h Header) whole(n int) int {
	w := 0
	if h < numHeaders {
		for _, e := range headerInfo[h].ends {
			if e == 0 || int(e) > n {
				break
			}
			w = int(e)
		}
	}
	return w
}

// String returns the header's IBTA name.
func (h Header) String() string {
	if h < numHeaders {
		return headerInfo[h].name
	}
	return "Header(" + strconv.Itoa(int(h)) + ")"
}

// Len returns the header's size in bytes.
func (h Header) Len() int {
	if h < numHeaders {
		return headerInfo[h].size
	}
	return 0
}

// Headers is the ordered list of extended transport headers that follow
// the BTH for one opcode. It is a small value, packed in one word: four
// 4-bit header codes, the count and the total size. It never allocates.
type Headers struct {
	v uint32 // bits 0-15: headers, 4 bits each, first lowest; 16-18: count; 24-31: size
}

func hdrs(h ...Header) Headers {
	var s Headers
	for i := len(h) - 1; i >= 0; i-- {
		s = s.prepend(h[i])
	}
	return s
}

// prepend returns the list with h in front.
func (s Headers) prepend(h Header) Headers {
	list := s.v&0xffff<<4 | uint32(h)&0xf
	return Headers{v: list&0xffff | uint32(s.Len()+1)<<16 | uint32(s.Size()+h.Len())<<24}
}

// Len returns how many headers there are.
func (s Headers) Len() int { return int(s.v >> 16 & 7) }

// At returns the i-th header; i must be below Len.
func (s Headers) At(i int) Header { return Header(s.v >> (4 * uint(i)) & 0xf) }

// Size returns the total size of the headers in bytes.
func (s Headers) Size() int { return int(s.v >> 24) }

// next returns the list without its first header (size not kept).
func (s Headers) next() Headers {
	return Headers{v: s.v&0xffff>>4 | uint32(s.Len()-1)<<16}
}

// Has reports whether h is one of the headers.
func (s Headers) Has(h Header) bool {
	for i := 0; i < s.Len(); i++ {
		if s.At(i) == h {
			return true
		}
	}
	return false
}

// After returns the header that follows h, or NoHeader if h is the last
// one (or absent).
func (s Headers) After(h Header) Header {
	for i := 0; i < s.Len(); i++ {
		if s.At(i) == h {
			if i+1 < s.Len() {
				return s.At(i + 1)
			}
			return NoHeader
		}
	}
	return NoHeader
}

// String lists the headers, "RETH ImmDt" for example.
func (s Headers) String() string {
	out := ""
	for i := 0; i < s.Len(); i++ {
		if i > 0 {
			out += " "
		}
		out += s.At(i).String()
	}
	return out
}

// PayloadRule says whether data may follow an opcode's headers.
type PayloadRule uint8

// The payload rules.
const (
	PayloadNone   PayloadRule = iota // no payload
	PayloadAny                       // zero or more bytes
	PayloadExact8                    // exactly 8 bytes (ATOMIC WRITE)
)

// Operation is OpCode bits 4..0: what a packet does, whatever its
// transport. MakeOpcode joins it with a transport.
type Operation uint8

// The operations of IBTA Vol 1 Table 38, with FLUSH and ATOMIC WRITE from
// IBTA 1.5. Not every transport defines every operation: see the Op
// constants for the opcodes that exist.
const (
	SendFirst                  Operation = 0x00
	SendMiddle                 Operation = 0x01
	SendLast                   Operation = 0x02
	SendLastWithImmediate      Operation = 0x03
	SendOnly                   Operation = 0x04
	SendOnlyWithImmediate      Operation = 0x05
	RDMAWriteFirst             Operation = 0x06
	RDMAWriteMiddle            Operation = 0x07
	RDMAWriteLast              Operation = 0x08
	RDMAWriteLastWithImmediate Operation = 0x09
	RDMAWriteOnly              Operation = 0x0A
	RDMAWriteOnlyWithImmediate Operation = 0x0B
	RDMAReadRequest            Operation = 0x0C
	RDMAReadResponseFirst      Operation = 0x0D
	RDMAReadResponseMiddle     Operation = 0x0E
	RDMAReadResponseLast       Operation = 0x0F
	RDMAReadResponseOnly       Operation = 0x10
	Acknowledge                Operation = 0x11
	AtomicAcknowledge          Operation = 0x12
	CmpSwap                    Operation = 0x13
	FetchAdd                   Operation = 0x14
	Resync                     Operation = 0x15
	SendLastWithInvalidate     Operation = 0x16
	SendOnlyWithInvalidate     Operation = 0x17
	Flush                      Operation = 0x1C
	AtomicWrite                Operation = 0x1D
)

// String returns the IBTA name of the operation, "RDMA WRITE Only" for
// example, or "" for a code no transport defines.
func (op Operation) String() string { return operations[op&0x1f].name }

// Class is a set of properties of an opcode, read from the opcode table's
// classification column. Opcode.Is tests it.
type Class uint32

// The classes. An opcode is in exactly one of the kinds (ClassSend to
// ClassCNP); the rest describe its place in a message and what it
// carries.
const (
	ClassSend         Class = 1 << iota // SEND, every segment and variant
	ClassWrite                          // RDMA WRITE, every segment and variant
	ClassReadRequest                    // RDMA READ Request
	ClassReadResponse                   // RDMA READ Response First, Middle, Last, Only
	ClassAtomic                         // CmpSwap and FetchAdd
	ClassAtomicAck                      // ATOMIC Acknowledge
	ClassAck                            // Acknowledge (ACK, NAK, RNR NAK)
	ClassFlush                          // FLUSH (IBTA 1.5)
	ClassAtomicWrite                    // ATOMIC WRITE (IBTA 1.5)
	ClassResync                         // RESYNC (RD)
	ClassCNP                            // the RoCEv2 congestion notification packet
	ClassFirst                          // the first packet of a message of several
	ClassMiddle                         // a middle packet of a message of several
	ClassLast                           // the last packet of a message of several
	ClassOnly                           // the one packet of a SEND, WRITE or READ response message
	ClassImmediate                      // carries ImmDt
	ClassInvalidate                     // carries IETH (SEND with Invalidate)
	ClassRequest                        // sent by the requester (every request opcode)
	ClassResponse                       // sent by the responder: acknowledgements, READ responses

	// ClassEndsMessage is the packet that completes a SEND, RDMA WRITE
	// or RDMA READ response message: its Last or Only packet.
	ClassEndsMessage = ClassLast | ClassOnly
	// ClassFullMTU is a packet whose payload must be exactly the path
	// MTU: First and Middle packets (IBTA Vol 1, 9.7.1).
	ClassFullMTU = ClassFirst | ClassMiddle
)

// operation describes operation code bits 4..0 for every transport that
// defines it. This table is the single source of truth for opcodes.
type operation struct {
	name    string
	in      uint8   // bit per Transport that defines the operation
	base    Headers // RC, UC and XRC (after XRCETH, which XRC requests carry first)
	rd      Headers // RD
	ud      Headers // UD
	payload PayloadRule
	class   Class
}

const (
	inRC  = 1 << RC
	inUC  = 1 << UC
	inRD  = 1 << RD
	inUD  = 1 << UD
	inXRC = 1 << XRC
)

var (
	none    = hdrs()
	rdReq   = hdrs(HeaderRDETH, HeaderDETH)
	rdResp  = hdrs(HeaderRDETH, HeaderAETH)
	rdWrite = hdrs(HeaderRDETH, HeaderDETH, HeaderRETH)
	rdImm   = hdrs(HeaderRDETH, HeaderDETH, HeaderImmDt)
)

// Short names for the class column.
const (
	send, write, req, resp              = ClassSend | ClassRequest, ClassWrite | ClassRequest, ClassRequest, ClassResponse
	first, middle, last, only, imm, inv = ClassFirst, ClassMiddle, ClassLast, ClassOnly, ClassImmediate, ClassInvalidate
	rdResponse                          = ClassReadResponse | ClassResponse
)

// operations is indexed by OpCode bits 4..0 (IBTA Vol 1 Table 38, with the
// FLUSH and ATOMIC WRITE codes of IBTA 1.5).
var operations = [32]operation{
	SendFirst:                  {"SEND First", inRC | inUC | inRD | inXRC, none, rdReq, none, PayloadAny, send | first},
	SendMiddle:                 {"SEND Middle", inRC | inUC | inRD | inXRC, none, rdReq, none, PayloadAny, send | middle},
	SendLast:                   {"SEND Last", inRC | inUC | inRD | inXRC, none, rdReq, none, PayloadAny, send | last},
	SendLastWithImmediate:      {"SEND Last with Immediate", inRC | inUC | inRD | inXRC, hdrs(HeaderImmDt), rdImm, none, PayloadAny, send | last | imm},
	SendOnly:                   {"SEND Only", inRC | inUC | inRD | inUD | inXRC, none, rdReq, hdrs(HeaderDETH), PayloadAny, send | only},
	SendOnlyWithImmediate:      {"SEND Only with Immediate", inRC | inUC | inRD | inUD | inXRC, hdrs(HeaderImmDt), rdImm, hdrs(HeaderDETH, HeaderImmDt), PayloadAny, send | only | imm},
	RDMAWriteFirst:             {"RDMA WRITE First", inRC | inUC | inRD | inXRC, hdrs(HeaderRETH), rdWrite, none, PayloadAny, write | first},
	RDMAWriteMiddle:            {"RDMA WRITE Middle", inRC | inUC | inRD | inXRC, none, rdReq, none, PayloadAny, write | middle},
	RDMAWriteLast:              {"RDMA WRITE Last", inRC | inUC | inRD | inXRC, none, rdReq, none, PayloadAny, write | last},
	RDMAWriteLastWithImmediate: {"RDMA WRITE Last with Immediate", inRC | inUC | inRD | inXRC, hdrs(HeaderImmDt), rdImm, none, PayloadAny, write | last | imm},
	RDMAWriteOnly:              {"RDMA WRITE Only", inRC | inUC | inRD | inXRC, hdrs(HeaderRETH), rdWrite, none, PayloadAny, write | only},
	RDMAWriteOnlyWithImmediate: {"RDMA WRITE Only with Immediate", inRC | inUC | inRD | inXRC, hdrs(HeaderRETH, HeaderImmDt), hdrs(HeaderRDETH, HeaderDETH, HeaderRETH, HeaderImmDt), none, PayloadAny, write | only | imm},
	RDMAReadRequest:            {"RDMA READ Request", inRC | inRD | inXRC, hdrs(HeaderRETH), rdWrite, none, PayloadNone, ClassReadRequest | req},
	RDMAReadResponseFirst:      {"RDMA READ Response First", inRC | inRD | inXRC, hdrs(HeaderAETH), rdResp, none, PayloadAny, rdResponse | first},
	RDMAReadResponseMiddle:     {"RDMA READ Response Middle", inRC | inRD | inXRC, none, hdrs(HeaderRDETH), none, PayloadAny, rdResponse | middle},
	RDMAReadResponseLast:       {"RDMA READ Response Last", inRC | inRD | inXRC, hdrs(HeaderAETH), rdResp, none, PayloadAny, rdResponse | last},
	RDMAReadResponseOnly:       {"RDMA READ Response Only", inRC | inRD | inXRC, hdrs(HeaderAETH), rdResp, none, PayloadAny, rdResponse | only},
	Acknowledge:                {"Acknowledge", inRC | inRD | inXRC, hdrs(HeaderAETH), rdResp, none, PayloadNone, ClassAck | resp},
	AtomicAcknowledge:          {"ATOMIC Acknowledge", inRC | inRD | inXRC, hdrs(HeaderAETH, HeaderAtomicAckETH), hdrs(HeaderRDETH, HeaderAETH, HeaderAtomicAckETH), none, PayloadNone, ClassAtomicAck | resp},
	CmpSwap:                    {"CmpSwap", inRC | inRD | inXRC, hdrs(HeaderAtomicETH), hdrs(HeaderRDETH, HeaderDETH, HeaderAtomicETH), none, PayloadNone, ClassAtomic | req},
	FetchAdd:                   {"FetchAdd", inRC | inRD | inXRC, hdrs(HeaderAtomicETH), hdrs(HeaderRDETH, HeaderDETH, HeaderAtomicETH), none, PayloadNone, ClassAtomic | req},
	Resync:                     {"RESYNC", inRD, none, rdReq, none, PayloadNone, ClassResync | req},
	SendLastWithInvalidate:     {"SEND Last with Invalidate", inRC | inXRC, hdrs(HeaderIETH), none, none, PayloadAny, send | last | inv},
	SendOnlyWithInvalidate:     {"SEND Only with Invalidate", inRC | inXRC, hdrs(HeaderIETH), none, none, PayloadAny, send | only | inv},
	Flush:                      {"FLUSH", inRC | inRD, hdrs(HeaderFETH, HeaderRETH), hdrs(HeaderRDETH, HeaderDETH, HeaderFETH, HeaderRETH), none, PayloadNone, ClassFlush | req},
	AtomicWrite:                {"ATOMIC WRITE", inRC | inRD, hdrs(HeaderRETH), rdWrite, none, PayloadExact8, ClassAtomicWrite | req},
}

// Transport returns the transport selected by bits 7..5.
func (o Opcode) Transport() Transport { return Transport(o >> 5) }

// Known reports whether the opcode is defined by IBTA (including the RoCEv2
// CNP). Unknown opcodes decode as BTH followed by opaque bytes.
func (o Opcode) Known() bool {
	_, _, known := o.lookup()
	return known
}

// Headers returns the extended transport headers that follow the BTH, in
// wire order. It is empty for unknown opcodes.
func (o Opcode) Headers() Headers {
	hs, _, _ := o.lookup()
	return hs
}

// Payload returns whether data may follow the headers. The 16 reserved
// bytes of a CNP count as payload; unknown opcodes carry opaque bytes.
func (o Opcode) Payload() PayloadRule {
	_, rule, _ := o.lookup()
	return rule
}

// lookup returns everything the decoders need about an opcode in one load.
func (o Opcode) lookup() (hs Headers, rule PayloadRule, known bool) {
	e := &opTable[o]
	return e.hs, e.rule, e.known
}

// opInfo is operations flattened per opcode for the decode path.
type opInfo struct {
	hs    Headers
	rule  PayloadRule
	known bool
}

// opTable is derived from operations when the package is initialised:
// 256 small entries filled in a few microseconds, so that decoding reads
// one entry instead of walking the operation table and String allocates
// nothing. opClass is the classification column, kept apart so that the
// decoders' entries stay eight bytes.
var opTable, opNames, opClass = func() (t [256]opInfo, names [256]string, class [256]Class) {
	for i := range t {
		t[i], names[i], class[i] = derive(Opcode(i))
	}
	return t, names, class
}()

// derive reads operations for one opcode.
func derive(o Opcode) (opInfo, string, Class) {
	t := o.Transport()
	op := &operations[o.Operation()]
	if t > XRC || op.in&(1<<t) == 0 {
		e := opInfo{rule: PayloadAny, known: o == OpCNP}
		switch {
		case o == OpCNP:
			return e, "CNP", ClassCNP
		case t >= Vendor6:
			return e, "Vendor (0x" + strconv.FormatUint(uint64(o), 16) + ")", 0
		}
		return e, "Reserved (0x" + strconv.FormatUint(uint64(o), 16) + ")", 0
	}
	e := opInfo{hs: op.base, rule: op.payload, known: true}
	switch t {
	case RD:
		e.hs = op.rd
	case UD:
		e.hs = op.ud
	case XRC:
		if op.class&ClassRequest != 0 {
			e.hs = op.base.prepend(HeaderXRCETH)
		}
	}
	return e, t.String() + " " + op.name, op.class
}

// String returns the IBTA name, "RC RDMA WRITE Only" for example, or
// "Reserved (0x15)" and "Vendor (0xc3)" for codes IBTA leaves undefined.
// It allocates nothing.
func (o Opcode) String() string { return opNames[o] }

// Operation returns bits 4..0, the operation whatever the transport.
func (o Opcode) Operation() Operation { return Operation(o & 0x1f) }

// MakeOpcode returns the opcode of an operation on a transport, for
// example MakeOpcode(UC, RDMAWriteOnly) == OpUCRDMAWriteOnly. The result
// is Known only where the transport defines the operation.
func MakeOpcode(t Transport, op Operation) Opcode { return Opcode(t)<<5 | Opcode(op&0x1f) }

// Class returns the opcode's classification: its kind (send, write, read
// request, ...), its place in a message and what it carries. It is 0 for
// opcodes IBTA leaves undefined.
func (o Opcode) Class() Class { return opClass[o] }

// Is reports whether the opcode is in any of the classes of c:
// o.Is(ClassReadResponse), o.Is(ClassSend|ClassWrite),
// o.Is(ClassEndsMessage).
func (o Opcode) Is(c Class) bool { return opClass[o]&c != 0 }

// IsRequest reports whether the opcode is sent by a requester (as opposed
// to a responder's acknowledgement or read response, or a CNP).
func (o Opcode) IsRequest() bool { return o.Is(ClassRequest) }
