package dump

import (
	"fmt"
	"strings"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
)

// ULP is an upper-layer protocol Record.Decode can read the payload of RC
// SEND messages as.
type ULP uint8

// The upper-layer protocols.
const (
	// ULPNone reads no payload: a SEND's payload is only its length.
	ULPNone ULP = iota
	// ULPNVMe reads the payload of every RC SEND Only and SEND Only
	// with Invalidate to a QP other than 0 and 1 as an NVMe/RDMA
	// capsule (NVMe-oF 1.1, the RDMA transport binding): 16 bytes as a
	// response capsule (a completion), 64 bytes or more as a command
	// capsule whose command is a Fabrics command or names SGLs (PSDT
	// 01b or 10b), its in-capsule data after it. The choice is the
	// frame's alone (see nvmeIO for the queue a command is taken to be
	// on).
	ULPNVMe
	// ULPISER reads the payload of every RC SEND Only and SEND Only with
	// Invalidate to a QP other than 0 and 1 as an iSER message (RFC
	// 7145): an iSER header of opcode 1 and the iSCSI PDU's 48-byte
	// basic header segment after it (76 bytes or more), or a Hello or
	// HelloReply (28 bytes or more). The choice is the frame's alone.
	ULPISER
	numULPs
)

// ulpSpec is what the package knows of one upper-layer protocol: adding
// a protocol is its record on Record (reset by reset), its decode
// function, its fields file and a row of ulps.
type ulpSpec struct {
	name string // the name ParseULP accepts (rocedump -ulp)
	doc  string // what rocedump's usage says it decodes
	// decode reads the frame's payload; it is called on every RoCE and
	// native InfiniBand frame of a Record whose ULP is the protocol.
	decode func(r *Record)
	reset  func(r *Record)      // forgets the frame before's message
	has    func(r *Record) bool // the frame holds one of its messages
	// fields are its JSON keys and -Y fields, in the order JSON writes
	// them (each with Field.ULP the protocol).
	fields func() []Field
	text   func(r *Record, b []byte) []byte // appends its part of the text line
	// protocols are its -Y protocol names (FieldProtocol), present when
	// has says.
	protocols []string
}

// ulps are the upper-layer protocols, by ULP.
var ulps = [numULPs]ulpSpec{
	ULPNone: {name: "none"},
	ULPNVMe: {name: "nvme", doc: "NVMe/RDMA capsules: commands and completions",
		decode: (*Record).decodeNVMe, reset: (*Record).resetNVMe, has: (*Record).hasNVMe,
		fields: nvmeFields, text: (*Record).appendNVMe, protocols: []string{"nvme-rdma", "nvme"}},
	ULPISER: {name: "iser", doc: "iSER messages: the iSER header and the iSCSI PDU's basic header segment",
		decode: (*Record).decodeISER, reset: (*Record).resetISER, has: (*Record).hasISER,
		fields: iserFields, text: (*Record).appendISER, protocols: []string{"iser", "iscsi"}},
}

// String returns the protocol's name, as ParseULP accepts it.
func (u ULP) String() string {
	if u < numULPs {
		return ulps[u].name
	}
	return fmt.Sprintf("ULP(%d)", u)
}

// Doc returns in a few words what the protocol's decoding shows, as
// rocedump's usage lists it ("" for ULPNone).
func (u ULP) Doc() string {
	if u < numULPs {
		return ulps[u].doc
	}
	return ""
}

// ULPs returns the upper-layer protocols Record.Decode can read, all but
// ULPNone, in their order.
func ULPs() []ULP {
	us := make([]ULP, 0, numULPs-1)
	for u := ULPNone + 1; u < numULPs; u++ {
		us = append(us, u)
	}
	return us
}

// ParseULP returns the upper-layer protocol named s (one of ULPs, by
// String). An unknown name's error wraps ErrBadArgument and lists the
// names.
func ParseULP(s string) (ULP, error) {
	names := make([]string, 0, numULPs-1)
	for _, u := range ULPs() {
		if s == ulps[u].name {
			return u, nil
		}
		names = append(names, ulps[u].name)
	}
	return 0, errs.Kind(ErrBadArgument, fmt.Sprintf("unknown upper-layer protocol %q (want %s)", s, strings.Join(names, ", ")))
}

// ulp returns the row of the record's protocol, nil for ULPNone or a
// value past the table.
func (r *Record) ulp() *ulpSpec {
	if r.ULP == ULPNone || r.ULP >= numULPs {
		return nil
	}
	return &ulps[r.ULP]
}

// decodeULP reads the frame's payload as r.ULP says.
func (r *Record) decodeULP() {
	if u := r.ulp(); u != nil {
		u.decode(r)
	}
}

// resetULP forgets what every protocol read of the frame before.
func (r *Record) resetULP() {
	for i := range ulps {
		if ulps[i].reset != nil {
			ulps[i].reset(r)
		}
	}
}

// hasULP reports whether the frame holds a message of r.ULP's protocol.
func (r *Record) hasULP() bool {
	u := r.ulp()
	return u != nil && u.has(r)
}

// appendULPJSON appends the JSON keys of the frame's message of r.ULP's
// protocol.
func (r *Record) appendULPJSON(b []byte) []byte {
	if u := r.ulp(); u != nil && u.has(r) {
		b = r.appendRowsJSON(b, u.fields())
	}
	return b
}

// appendULP appends the text of the frame's message of r.ULP's protocol.
func (r *Record) appendULP(b []byte) []byte {
	if u := r.ulp(); u != nil {
		b = u.text(r, b)
	}
	return b
}

// ulpSend reports whether the frame is an RC SEND Only (with Invalidate)
// to a QP other than 0 and 1: the messages a protocol's decode reads.
func (r *Record) ulpSend() bool {
	p := &r.RoCE.Packet
	op := p.BTH.OpCode
	if op.Transport() != ib.RC || p.BTH.DestQP <= ib.QPGSI {
		return false
	}
	o := op.Operation()
	return o == ib.SendOnly || o == ib.SendOnlyWithInvalidate
}

// ulpFields returns the fields of every protocol, in the order of ulps.
func ulpFields() []Field {
	var fs []Field
	for i := range ulps {
		if ulps[i].fields != nil {
			fs = append(fs, ulps[i].fields()...)
		}
	}
	return fs
}

// ulpProtocols returns the -Y protocol names of every protocol, each
// present when the frame holds one of its messages.
func ulpProtocols() []Protocol {
	var ps []Protocol
	for i := range ulps {
		u := ULP(i)
		for _, n := range ulps[i].protocols {
			ps = append(ps, Protocol{n, func(r *Record) bool { return r.ULP == u && ulps[u].has(r) }})
		}
	}
	return ps
}
