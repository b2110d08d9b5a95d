package dcbx

import "github.com/roce-go/roce/internal/errs"

// pfcInfoLen is the size of the PFC Configuration TLV's information
// string after the subtype; the TLV's LLDP length is 6.
const pfcInfoLen = 2

// PFCConfig is the PFC Configuration TLV (subtype 11, IEEE 802.1Qaz
// D.2.11): which priorities the port's priority-based flow control
// pauses.
//
//	+-+-+---+-------+
//	|W|M|Rsv|  Cap  |  W willing, M MACsec bypass capability, PFC cap
//	+-+-+---+-------+
//	|    Enable     |  bit n: PFC on priority n
//	+---------------+
type PFCConfig struct {
	Willing  bool  // accepts its partner's configuration
	MBC      bool  // MACsec bypass capability: cannot bypass MACsec when set
	Reserved uint8 // 2 bits
	Cap      uint8 // 4 bits: how many traffic classes may have PFC enabled at once
	Enable   uint8 // bit n set: PFC enabled on priority n
}

// Enabled reports whether PFC is enabled on priority prio (0-7).
func (p *PFCConfig) Enabled(prio int) bool {
	return prio >= 0 && prio < 8 && p.Enable>>uint(prio)&1 != 0
}

// Decode decodes the TLV's information string, info being the bytes
// after the subtype, resetting p first.
func (p *PFCConfig) Decode(info []byte) error { return p.decode(info, nil) }

// decode is Decode with its errors held in s.
func (p *PFCConfig) decode(info []byte, s *errs.Slot) error {
	*p = PFCConfig{}
	if err := checkLen("PFC Configuration TLV", info, pfcInfoLen, s); err != nil {
		return err
	}
	f := info[0]
	p.Willing, p.MBC, p.Reserved, p.Cap = f&0x80 != 0, f&0x40 != 0, f>>4&3, f&0xf
	p.Enable = info[1]
	return nil
}

// Len returns the number of bytes AppendTo writes: the whole TLV, 8.
func (p *PFCConfig) Len() int { return tlvHeaderLen + orgHeaderLen + pfcInfoLen }

// Validate reports whether AppendTo can encode p: a *FieldError wrapping
// ErrBadValue names a field wider than its field.
func (p *PFCConfig) Validate() error {
	if err := fit("PFCConfig.Reserved", p.Reserved, 2); err != nil {
		return err
	}
	return fit("PFCConfig.Cap", p.Cap, 4)
}

// AppendTo appends the whole TLV (8 bytes) to b. It refuses, appending
// nothing, what Validate refuses.
func (p *PFCConfig) AppendTo(b []byte) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return b, err
	}
	b = appendHeader(b, SubtypePFCConfig, pfcInfoLen)
	return append(b, flag(p.Willing, 0x80)|flag(p.MBC, 0x40)|p.Reserved<<4|p.Cap, p.Enable), nil
}
