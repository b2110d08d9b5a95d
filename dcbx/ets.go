package dcbx

import (
	"github.com/roce-go/roce/internal/errs"
)

// etsInfoLen is the size of the information string of both ETS TLVs
// after the subtype: a byte of flags, then the three tables. The TLV's
// LLDP length is 25.
const etsInfoLen = 21

// TSA is a transmission selection algorithm (IEEE 802.1Q-2014 clause
// 8.6.8), as the ETS TLVs number them.
type TSA uint8

// The transmission selection algorithms; 3-254 are reserved.
const (
	TSAStrict TSA = 0   // strict priority
	TSACBS    TSA = 1   // credit-based shaper
	TSAETS    TSA = 2   // enhanced transmission selection
	TSAVendor TSA = 255 // vendor specific
)

// tsaNames names every TSA value, built once so that String does not
// allocate.
var tsaNames = func() (n [256]string) {
	for i := range n {
		n[i] = "tsa" + itoa(uint(i))
	}
	n[TSAStrict], n[TSACBS], n[TSAETS], n[TSAVendor] = "strict", "cbs", "ets", "vendor"
	return n
}()

// String returns "strict", "cbs", "ets", "vendor", or "tsaN" for a
// reserved value N.
func (t TSA) String() string { return tsaNames[t] }

// ETSTables are the three tables both ETS TLVs carry (IEEE 802.1Qaz
// D.2.9 and D.2.10):
//
//	+-------+-------+-------+-------+-------+-------+-------+-------+
//	| Prio0 | Prio1 | Prio2 | Prio3 | Prio4 | Prio5 | Prio6 | Prio7 |  4 bytes: the TC of each priority
//	+-------+-------+-------+-------+-------+-------+-------+-------+
//	|  TC0 bandwidth % | ... |  TC7 bandwidth %                     |  8 bytes
//	+---------------------------------------------------------------+
//	|  TC0 TSA | ... | TC7 TSA                                      |  8 bytes
//	+---------------------------------------------------------------+
type ETSTables struct {
	PriorityTC [8]uint8 // the traffic class of each priority, 4 bits: 0-7, 8-15 reserved
	Bandwidth  [8]uint8 // the percentage of the bandwidth of each traffic class
	TSA        [8]TSA   // the transmission selection algorithm of each traffic class
}

func (t *ETSTables) parse(b []byte) {
	for i := 0; i < 4; i++ {
		t.PriorityTC[2*i], t.PriorityTC[2*i+1] = b[i]>>4, b[i]&0xf
	}
	copy(t.Bandwidth[:], b[4:12])
	for i := range t.TSA {
		t.TSA[i] = TSA(b[12+i])
	}
}

func (t *ETSTables) check() error {
	for i, tc := range t.PriorityTC {
		if tc > 15 {
			return errs.Field("ETSTables.PriorityTC["+itoa(uint(i))+"]", uint64(tc), "does not fit 4 bits", errs.ErrBadValue)
		}
	}
	return nil
}

func (t *ETSTables) put(b []byte) []byte {
	for i := 0; i < 4; i++ {
		b = append(b, t.PriorityTC[2*i]<<4|t.PriorityTC[2*i+1])
	}
	b = append(b, t.Bandwidth[:]...)
	for _, a := range t.TSA {
		b = append(b, byte(a))
	}
	return b
}

// ETSConfig is the ETS Configuration TLV (subtype 9, IEEE 802.1Qaz
// D.2.9): a port's own ETS setup.
//
//	+-+-+-----+-----+
//	|W|C| Rsv | Max |  W willing, C credit-based shaper supported, Max TCs
//	+-+-+-----+-----+
//	|  ETSTables    |  20 bytes
//	+---------------+
type ETSConfig struct {
	Willing  bool  // accepts its partner's recommendation
	CBS      bool  // supports the credit-based shaper TSA
	Reserved uint8 // 3 bits
	MaxTCs   uint8 // 3 bits: traffic classes supported, 0 meaning 8
	ETSTables
}

// TrafficClasses returns the number of traffic classes MaxTCs says the
// port supports, 1 to 8.
func (e *ETSConfig) TrafficClasses() int {
	if e.MaxTCs == 0 {
		return 8
	}
	return int(e.MaxTCs)
}

// Decode decodes the TLV's information string, info being the bytes
// after the subtype, resetting e first.
func (e *ETSConfig) Decode(info []byte) error { return e.decode(info, nil) }

// decode is Decode with its errors held in s.
func (e *ETSConfig) decode(info []byte, s *errs.Slot) error {
	*e = ETSConfig{}
	if err := checkLen("ETS Configuration TLV", info, etsInfoLen, s); err != nil {
		return err
	}
	f := info[0]
	e.Willing, e.CBS, e.Reserved, e.MaxTCs = f&0x80 != 0, f&0x40 != 0, f>>3&7, f&7
	e.parse(info[1:])
	return nil
}

// Len returns the number of bytes AppendTo writes: the whole TLV, 27
// (25 of LLDP length).
func (e *ETSConfig) Len() int { return etsTLVLen }

// Validate reports whether AppendTo can encode e: a *FieldError wrapping
// ErrBadValue names a field wider than its field.
func (e *ETSConfig) Validate() error {
	if err := fit("ETSConfig.Reserved", e.Reserved, 3); err != nil {
		return err
	}
	if err := fit("ETSConfig.MaxTCs", e.MaxTCs, 3); err != nil {
		return err
	}
	return e.check()
}

// AppendTo appends the whole TLV (25 bytes of LLDP length, 27 in all) to
// b. It refuses, appending nothing, what Validate refuses.
func (e *ETSConfig) AppendTo(b []byte) ([]byte, error) {
	if err := e.Validate(); err != nil {
		return b, err
	}
	b = appendHeader(b, SubtypeETSConfig, etsInfoLen)
	b = append(b, flag(e.Willing, 0x80)|flag(e.CBS, 0x40)|e.Reserved<<3|e.MaxTCs)
	return e.put(b), nil
}

// ETSRecommendation is the ETS Recommendation TLV (subtype 10, IEEE
// 802.1Qaz D.2.10): the setup a port recommends to its willing partner.
// It has a reserved byte where ETSConfig has its flags.
type ETSRecommendation struct {
	Reserved uint8
	ETSTables
}

// Decode decodes the TLV's information string, info being the bytes
// after the subtype, resetting e first.
func (e *ETSRecommendation) Decode(info []byte) error { return e.decode(info, nil) }

// decode is Decode with its errors held in s.
func (e *ETSRecommendation) decode(info []byte, s *errs.Slot) error {
	*e = ETSRecommendation{}
	if err := checkLen("ETS Recommendation TLV", info, etsInfoLen, s); err != nil {
		return err
	}
	e.Reserved = info[0]
	e.parse(info[1:])
	return nil
}

// Len returns the number of bytes AppendTo writes: the whole TLV, 27.
func (e *ETSRecommendation) Len() int { return etsTLVLen }

// Validate reports whether AppendTo can encode e: a *FieldError wrapping
// ErrBadValue names a priority's traffic class wider than 4 bits.
func (e *ETSRecommendation) Validate() error { return e.check() }

// AppendTo appends the whole TLV to b. It refuses, appending nothing,
// what Validate refuses.
func (e *ETSRecommendation) AppendTo(b []byte) ([]byte, error) {
	if err := e.Validate(); err != nil {
		return b, err
	}
	b = appendHeader(b, SubtypeETSRecommendation, etsInfoLen)
	return e.put(append(b, e.Reserved)), nil
}

// etsTLVLen is the size of a whole ETS TLV.
const etsTLVLen = tlvHeaderLen + orgHeaderLen + etsInfoLen

// checkLen checks the length of a fixed-size information string; its
// errors are held in s.
func checkLen(layer string, info []byte, n int, s *errs.Slot) error {
	switch {
	case len(info) < n:
		return s.Truncated(layer, orgHeaderLen, n, len(info))
	case len(info) > n:
		return s.New(layer, orgHeaderLen, n, len(info), errs.ErrBadLength)
	}
	return nil
}

func flag(on bool, bit uint8) uint8 {
	if on {
		return bit
	}
	return 0
}

// itoa formats a small number without strconv's allocation for error
// paths that already allocate.
func itoa(v uint) string {
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}
