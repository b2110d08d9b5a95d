package cnp

import (
	"errors"
	"strconv"

	"github.com/roce-go/roce/ib"
	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
	"github.com/roce-go/roce/internal/wire"
)

// Sizes of a CNP.
const (
	ReservedLen  = 16                                        // reserved bytes after the BTH
	PacketLen    = ib.BTHLen + ReservedLen + ib.ICRCLen      // BTH through ICRC: 32 bytes
	UDPLen       = hdr.UDPLen + PacketLen                    // UDP Length field: 40
	FrameLenIPv4 = hdr.EthernetLen + hdr.IPv4MinLen + UDPLen // untagged IPv4 frame: 74 bytes
	FrameLenIPv6 = hdr.EthernetLen + hdr.IPv6Len + UDPLen    // untagged IPv6 frame: 94 bytes
)

// DefaultPKey is the P_Key of a CNP in every public example (Scapy's
// default, NVIDIA's published CNP example): the default full-membership
// partition.
const DefaultPKey = 0xFFFF

// The sentinels of this package. Decode and Check wrap ErrNotCNP and
// ErrBadField in an *ib.FieldError naming the field; Reply returns the
// others as they are, without allocating.
var (
	// ErrNotCNP means a well-formed RoCE frame is not a RoCEv2 CNP: its
	// opcode is not 0x81, or it is RoCEv1.
	ErrNotCNP = errors.New("roce: not a RoCEv2 CNP")
	// ErrBadField means a CNP field breaks the rules of Annex A17.9.3
	// (BECN clear, PSN not zero, a reserved byte set, ...).
	ErrBadField = errors.New("roce: CNP field out of rule")
	// ErrNotCE means Reply was given a frame that is not CE-marked.
	ErrNotCE = errors.New("roce: frame is not CE-marked")
	// ErrIsCNP means Reply was given a CNP: CNPs are not answered.
	ErrIsCNP = errors.New("roce: frame is a CNP")
	// ErrRange means an argument or option is out of range: a QP number
	// above 24 bits, a DSCP above 63, a priority above 7.
	ErrRange = errors.New("roce: value out of range")
)

// IsCNP reports whether frame (Ethernet first, with up to roce.MaxVLANs VLAN tags)
// carries a whole RoCEv2 CNP: UDP destination port 4791, BTH opcode 0x81,
// and a transport packet of exactly 32 bytes, all captured. It checks no
// other field and not the ICRC, and allocates nothing. It agrees with
// Decode: an IPv4 Total Length beyond the captured bytes does not matter
// when the UDP datagram itself is whole.
func IsCNP(frame []byte) bool {
	var l wire.Layout
	if wire.LocateCut(frame, &l) != nil || l.Enc == ib.RoCEv1 || l.End > len(frame) {
		return false
	}
	return l.End-l.BTH == PacketLen && ib.Opcode(frame[l.BTH]) == ib.OpCNP
}

// Decode decodes the transport packet of frame (Ethernet first, with up
// to wire.MaxTags VLAN tags: roce.MaxVLANs) into p, as roce.Frame.Decode
// does, then checks that it is a RoCEv2 CNP of the right length. A RoCE
// frame of another opcode, or a RoCEv1 frame, gives an *ib.FieldError
// wrapping ErrNotCNP; a CNP the capture cut short an error wrapping
// ib.ErrTruncated; a CNP whose transport packet is not 32 bytes an error
// wrapping ib.ErrBadLength; a frame roce.Frame.Decode refuses the same
// error. It does not check the other CNP fields (see Check) nor the ICRC
// (see roce.VerifyFrame). A CNP decodes without allocating.
func Decode(p *ib.Packet, frame []byte) error {
	var l wire.Layout
	if err := wire.LocateCut(frame, &l); err != nil {
		*p = ib.Packet{}
		return err
	}
	if l.Enc == ib.RoCEv2IPv4 && l.UDP-l.Net != hdr.IPv4MinLen {
		*p = ib.Packet{}
		return errs.New("IPv4", l.Net, 0, 0, ib.ErrUnsupported) // options
	}
	end := min(l.End, len(frame))
	if err := p.DecodeTruncated(frame[min(l.BTH, end):end], l.End-l.BTH); err != nil {
		return err
	}
	if p.BTH.Truncated { // a CNP is whole or nothing: its reserved bytes and ICRC are the point
		return errs.Truncated("CNP", 0, l.End, len(frame))
	}
	if l.Enc == ib.RoCEv1 {
		return errs.Field("Encap", uint64(l.Enc), "is RoCEv1; a CNP is RoCEv2", ErrNotCNP)
	}
	if op := p.BTH.OpCode; op != ib.OpCNP {
		return errs.Field("BTH.OpCode", uint64(op), "("+op.String()+") is not the CNP opcode 0x81", ErrNotCNP)
	}
	if n := l.End - l.BTH; n != PacketLen {
		return errs.New("CNP", 0, PacketLen, n, ib.ErrBadLength)
	}
	return nil
}

// Check reports the first field of a decoded CNP that breaks the rules
// of a conforming CNP: BECN must be set; SE, M, PadCnt, TVer, FECN,
// Resv6a, AckReq, Resv7 and PSN zero; the 16 reserved bytes zero. The
// error is an *ib.FieldError naming the field and its value, wrapping
// ErrBadField (or ErrNotCNP for another opcode), or for a payload that is
// not 16 bytes an *ib.Error wrapping ib.ErrBadLength. Receivers should
// accept such CNPs anyway; Check is for senders and tests. The P_Key is
// not checked. It allocates only on failure; Checker.Check does not.
func Check(p *ib.Packet) error { return check(p, nil, nil) }

// Checker is Check without allocating, for a caller that checks CNP
// after CNP: the error of a nonconforming CNP is held in the Checker,
// valid until its Check reports the next one.
type Checker struct {
	field errs.FieldSlot
	err   errs.Slot
}

// Check is the package's Check, its error held in c.
func (c *Checker) Check(p *ib.Packet) error { return check(p, &c.field, &c.err) }

// The reasons and names check gives, made once.
var (
	mustBe       = [2]string{"must be 0 in a CNP", "must be 1 in a CNP"}
	reservedName = func() (n [ReservedLen]string) {
		for i := range n {
			n[i] = "reserved byte " + strconv.Itoa(i)
		}
		return n
	}()
	notCNPOpcode = func() (r [256]string) {
		for op := range r {
			r[op] = "(" + ib.Opcode(op).String() + ") is not the CNP opcode 0x81"
		}
		return r
	}()
)

// check is Check with its errors held in fs and s (allocated when nil).
func check(pk *ib.Packet, fs *errs.FieldSlot, s *errs.Slot) error {
	h := &pk.BTH
	if h.OpCode != ib.OpCNP {
		return fs.Field("BTH.OpCode", uint64(h.OpCode), notCNPOpcode[h.OpCode], ErrNotCNP)
	}
	for _, c := range [...]struct {
		field string
		v     uint64
		want  uint64
	}{
		{"BTH.SE", b2u(h.SE), 0}, {"BTH.MigReq", b2u(h.MigReq), 0}, {"BTH.PadCnt", uint64(h.PadCnt), 0},
		{"BTH.TVer", uint64(h.TVer), 0}, {"BTH.FECN", b2u(h.FECN), 0}, {"BTH.BECN", b2u(h.BECN), 1},
		{"BTH.Resv6a", uint64(h.Resv6a), 0}, {"BTH.AckReq", b2u(h.AckReq), 0}, {"BTH.Resv7", uint64(h.Resv7), 0},
		{"BTH.PSN", uint64(h.PSN), 0},
	} {
		if c.v != c.want {
			return fs.Field(c.field, c.v, mustBe[c.want], ErrBadField)
		}
	}
	p := pk.Payload
	if len(p)+len(h.Pad) != ReservedLen {
		return s.New("CNP", ib.BTHLen, ReservedLen, len(p)+len(h.Pad), ib.ErrBadLength)
	}
	for i, c := range p {
		if c != 0 {
			return fs.Field(reservedName[i], uint64(c), mustBe[0], ErrBadField)
		}
	}
	return nil
}

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// reserved is the payload FillPacket points at. Never written.
var reserved [ReservedLen]byte

// FillPacket sets p to the CNP for queue pair destQP (24 bits): opcode
// 0x81, P_Key 0xFFFF, BECN set, PSN 0, every other BTH field zero, and the
// 16 reserved bytes as payload. p.Payload then points at a shared array of
// zeros: read it, do not write to it. Set the addresses of the roce.Frame
// holding p and call its AppendTo to encode the CNP with its ICRC (Reply
// does it all); AppendTo refuses a destQP that does not fit 24 bits.
func FillPacket(p *ib.Packet, destQP uint32) {
	*p = ib.Packet{
		BTH: ib.BTH{
			OpCode: ib.OpCNP,
			PKey:   DefaultPKey,
			BECN:   true,
			DestQP: destQP,
		},
		Payload: reserved[:ReservedLen:ReservedLen],
	}
}
