package pfc

import (
	"encoding/binary"
	"math/bits"
	"strconv"

	"github.com/roce-go/roce/internal/errs"
	"github.com/roce-go/roce/internal/hdr"
)

// EthernetTypeMACControl is the Ethertype of MAC Control frames (IEEE
// 802.3 clause 31).
const EthernetTypeMACControl uint16 = hdr.EtherTypeMACControl

// Sizes of MAC Control frames and of their parts, in bytes. The
// MAC Control lengths count from the first byte after the Ethertype.
const (
	EthernetHeaderLen = hdr.EthernetLen // destination, source, Ethertype
	MinFrameLen       = 60              // shortest Ethernet frame without its FCS
	FCSLen            = 4               // Ethernet frame check sequence

	OpcodeLen = 2  // MAC Control opcode
	PauseLen  = 4  // PAUSE: opcode and pause_time
	PFCLen    = 20 // PFC: opcode, priority_enable_vector and time[0..7]

	PauseFrameLen = EthernetHeaderLen + PauseLen // 18, before padding
	PFCFrameLen   = EthernetHeaderLen + PFCLen   // 34, before padding
)

// Offsets in a MAC Control body, counted from the opcode.
const (
	offOpcode    = 0 // opcode, every frame
	offPauseTime = 2 // PAUSE: pause_time
	offEnable    = 2 // PFC: priority_enable_vector
	offTime      = 4 // PFC: time[0], then time[1..7] every 2 bytes
)

// NumPriorities is the number of priorities (traffic classes) a PFC
// frame controls.
const NumPriorities = 8

// MulticastAddr is the destination of PAUSE and PFC frames,
// 01-80-C2-00-00-01, which bridges do not forward (IEEE 802.3 Annex 31B).
var MulticastAddr = [6]byte{0x01, 0x80, 0xc2, 0x00, 0x00, 0x01}

// Opcode is the MAC Control opcode, the first two bytes after the
// Ethertype (IEEE 802.3 Annex 31A).
type Opcode uint16

// MAC Control opcodes.
const (
	OpcodePause       Opcode = 0x0001 // 802.3x PAUSE (Annex 31B)
	OpcodeGate        Opcode = 0x0002 // EPON MPCP GATE
	OpcodeReport      Opcode = 0x0003 // EPON MPCP REPORT
	OpcodeRegisterReq Opcode = 0x0004 // EPON MPCP REGISTER_REQ
	OpcodeRegister    Opcode = 0x0005 // EPON MPCP REGISTER
	OpcodeRegisterAck Opcode = 0x0006 // EPON MPCP REGISTER_ACK
	OpcodePFC         Opcode = 0x0101 // 802.1Qbb priority flow control (Annex 31D)
)

// String returns the opcode's name, or its value in hex for opcodes
// without one.
func (o Opcode) String() string {
	switch o {
	case OpcodePause:
		return "PAUSE"
	case OpcodeGate:
		return "GATE"
	case OpcodeReport:
		return "REPORT"
	case OpcodeRegisterReq:
		return "REGISTER_REQ"
	case OpcodeRegister:
		return "REGISTER"
	case OpcodeRegisterAck:
		return "REGISTER_ACK"
	case OpcodePFC:
		return "PFC"
	}
	return "0x" + hex4(uint16(o))
}

func hex4(v uint16) string {
	s := strconv.FormatUint(uint64(v), 16)
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

// MACControl is the body of a MAC Control frame, from the opcode to the
// end of the frame. A PAUSE frame (IEEE 802.3 Annex 31B) carries one
// pause time:
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-------------------------------+-------------------------------+
//	|        Opcode (0x0001)        |          pause_time           |
//	+-------------------------------+-------------------------------+
//	|                   zero padding (42 bytes)                 ... |
//	+---------------------------------------------------------------+
//
// A PFC frame (IEEE 802.1Qbb, IEEE 802.3 Annex 31D) carries a priority
// enable vector, whose bit n (counting from the least significant)
// says whether time[n] applies, and eight pause times, priority 0 first:
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-------------------------------+---------------+-+-+-+-+-+-+-+-+
//	|        Opcode (0x0101)        |   reserved    |7|6|5|4|3|2|1|0|
//	+-------------------------------+---------------+-+-+-+-+-+-+-+-+
//	|            time[0]            |            time[1]            |
//	+-------------------------------+-------------------------------+
//	|            time[2]            |            time[3]            |
//	+-------------------------------+-------------------------------+
//	|            time[4]            |            time[5]            |
//	+-------------------------------+-------------------------------+
//	|            time[6]            |            time[7]            |
//	+-------------------------------+-------------------------------+
//	|                   zero padding (26 bytes)                 ... |
//	+---------------------------------------------------------------+
//
// Times count pause quanta of 512 bit times (see Speed); a time of 0
// ends a pause (XON), any other value starts or extends one (XOFF).
//
// Nothing follows a MAC Control frame: the bytes after the opcode's
// fields are Pad (PAUSE, PFC) or Body (any other opcode).
type MACControl struct {
	Opcode Opcode

	// PauseTime is the pause_time of a PAUSE frame, in quanta.
	PauseTime uint16

	// PriorityEnableVector is the priority_enable_vector of a PFC frame.
	// Only the low 8 bits are defined; the upper 8 must be zero but are
	// kept, as received, for byte-exact re-encoding.
	PriorityEnableVector uint16
	// Time is time[0..7] of a PFC frame, in quanta, priority 0 first.
	Time [NumPriorities]uint16

	// Pad is what follows the PAUSE or PFC fields: the zero padding to
	// the minimum frame size and, when the capture kept it, the 4-byte
	// FCS, as received. It is empty for a frame captured without either.
	Pad []byte

	// Body is what follows the opcode for any other opcode, as received
	// (fields, padding and any FCS, which this codec cannot tell apart).
	Body []byte
}

// Preallocated truncation errors, indexed by the bytes present, so that
// decoding a short frame allocates nothing.
var (
	errOpcode = truncErrs("MACControl", 0, OpcodeLen)
	errPause  = truncErrs("PAUSE", OpcodeLen, PauseLen)
	errPFC    = truncErrs("PFC", OpcodeLen, PFCLen)
)

// truncErrs returns a table of want errors: element have, for have from
// from to want-1, is the error for a body of have bytes.
func truncErrs(layer string, from, want int) []error {
	t := make([]error, want)
	for have := from; have < want; have++ {
		t[have] = errs.New(layer, 0, want, have, errs.ErrTruncated)
	}
	return t
}

// Decode resets m and decodes data, the bytes after the Ethertype. A
// PAUSE body needs PauseLen bytes and a PFC body PFCLen; anything beyond
// them goes to Pad. Other opcodes need only the opcode. A shorter body
// gives an *Error wrapping ErrTruncated (which matches
// io.ErrUnexpectedEOF); nothing else fails.
func (m *MACControl) Decode(data []byte) error {
	*m = MACControl{}
	if len(data) < OpcodeLen {
		return errOpcode[len(data)]
	}
	m.Opcode = Opcode(binary.BigEndian.Uint16(data[offOpcode:]))
	switch m.Opcode {
	case OpcodePause:
		if len(data) < PauseLen {
			return errPause[len(data)]
		}
		m.PauseTime = binary.BigEndian.Uint16(data[offPauseTime:])
		m.Pad = data[PauseLen:]
	case OpcodePFC:
		if len(data) < PFCLen {
			return errPFC[len(data)]
		}
		b := data[:PFCLen]
		m.PriorityEnableVector = binary.BigEndian.Uint16(b[offEnable:])
		for i := range m.Time {
			m.Time[i] = binary.BigEndian.Uint16(b[offTime+2*i:])
		}
		m.Pad = data[PFCLen:]
	default:
		m.Body = data[OpcodeLen:]
	}
	return nil
}

// Len returns the number of bytes AppendTo writes: the opcode, the
// opcode's fields and Pad, or the opcode and Body.
func (m *MACControl) Len() int {
	switch m.Opcode {
	case OpcodePause:
		return PauseLen + len(m.Pad)
	case OpcodePFC:
		return PFCLen + len(m.Pad)
	}
	return OpcodeLen + len(m.Body)
}

// Validate reports whether m can be encoded as it is: a PAUSE or PFC
// frame carries no Body (what follows its fields is Pad) and any other
// opcode no Pad (what follows it is Body). The error is a *FieldError
// wrapping ErrBadValue that names the field.
func (m *MACControl) Validate() error {
	switch m.Opcode {
	case OpcodePause, OpcodePFC:
		if len(m.Body) != 0 {
			return errs.Length("MACControl.Body", len(m.Body), m.Opcode.String()+" carries its trailing bytes in Pad", errs.ErrBadValue)
		}
	default:
		if len(m.Pad) != 0 {
			return errs.Length("MACControl.Pad", len(m.Pad), "opcode "+m.Opcode.String()+" carries its trailing bytes in Body", errs.ErrBadValue)
		}
	}
	return nil
}

// AppendTo appends the encoded body (opcode, fields, then Pad or Body
// unchanged) to b and returns the extended slice, or b and the error of
// Validate. It adds no padding of its own: AppendPause and AppendPFC
// write whole padded frames. It allocates only when b lacks the room.
func (m *MACControl) AppendTo(b []byte) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return b, err
	}
	b, out := grow(b, m.Len())
	m.put(out)
	return b, nil
}

// put writes the body into b, which holds exactly m.Len() bytes.
func (m *MACControl) put(b []byte) {
	binary.BigEndian.PutUint16(b[offOpcode:], uint16(m.Opcode))
	switch m.Opcode {
	case OpcodePause:
		binary.BigEndian.PutUint16(b[offPauseTime:], m.PauseTime)
		copy(b[PauseLen:], m.Pad)
	case OpcodePFC:
		binary.BigEndian.PutUint16(b[offEnable:], m.PriorityEnableVector)
		for i, t := range m.Time {
			binary.BigEndian.PutUint16(b[offTime+2*i:], t)
		}
		copy(b[PFCLen:], m.Pad)
	default:
		copy(b[OpcodeLen:], m.Body)
	}
}

// grow extends b by n zero bytes and returns the extended slice and its
// last n bytes.
func grow(b []byte, n int) (whole, tail []byte) {
	l := len(b)
	b = append(b, make([]byte, n)...)
	return b, b[l:]
}

// Priorities is a set of priorities 0-7: bit n for priority n.
type Priorities uint8

// AllPriorities holds every priority.
const AllPriorities Priorities = 0xff

// Has reports whether the set holds priority prio; it is false for prio
// outside 0-7.
func (p Priorities) Has(prio int) bool {
	return prio >= 0 && prio < NumPriorities && p&(1<<prio) != 0
}

// Len returns the number of priorities in the set.
func (p Priorities) Len() int { return bits.OnesCount8(uint8(p)) }

// String lists the priorities, for example "[3 7]".
func (p Priorities) String() string {
	b := []byte{'['}
	for i := range NumPriorities {
		if p.Has(i) {
			if len(b) > 1 {
				b = append(b, ' ')
			}
			b = append(b, byte('0'+i))
		}
	}
	return string(append(b, ']'))
}

// Enabled returns the priorities the frame gives a time to: all of them
// for PAUSE, those whose bit is set in the low byte of
// PriorityEnableVector for PFC, none for other opcodes. The frame says
// nothing about the others, which keep whatever state they had.
func (m *MACControl) Enabled() Priorities {
	switch m.Opcode {
	case OpcodePause:
		return AllPriorities
	case OpcodePFC:
		return Priorities(m.PriorityEnableVector)
	}
	return 0
}

// Quanta returns the pause time the frame gives priority prio, in
// quanta, and whether it gives one at all (see Enabled). For PAUSE every
// priority gets PauseTime.
func (m *MACControl) Quanta(prio int) (q uint16, ok bool) {
	if !m.Enabled().Has(prio) {
		return 0, false
	}
	if m.Opcode == OpcodePause {
		return m.PauseTime, true
	}
	return m.Time[prio], true
}

// XOFF returns the priorities the frame pauses: enabled with a non-zero
// time.
func (m *MACControl) XOFF() Priorities {
	switch m.Opcode {
	case OpcodePause:
		if m.PauseTime != 0 {
			return AllPriorities
		}
	case OpcodePFC:
		var p Priorities
		for i, t := range m.Time {
			if t != 0 {
				p |= 1 << i
			}
		}
		return p & Priorities(m.PriorityEnableVector)
	}
	return 0
}

// XON returns the priorities the frame resumes: enabled with a time of
// zero.
func (m *MACControl) XON() Priorities { return m.Enabled() &^ m.XOFF() }

// Paused reports whether the frame pauses priority prio (it is in XOFF).
func (m *MACControl) Paused(prio int) bool { return m.XOFF().Has(prio) }
