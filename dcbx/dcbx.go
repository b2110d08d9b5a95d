package dcbx

import (
	"encoding/binary"

	"github.com/roce-go/roce/internal/errs"
)

// OUI is the IEEE 802.1 organizationally unique identifier, 00-80-C2.
const OUI = 0x0080c2

// TLVTypeOrg is the LLDP TLV type of organizationally specific TLVs.
const TLVTypeOrg = 127

// Subtype is the subtype of an IEEE 802.1 organizationally specific TLV.
type Subtype uint8

// The DCBX subtypes (IEEE 802.1Qaz D.2).
const (
	SubtypeETSConfig         Subtype = 9
	SubtypeETSRecommendation Subtype = 10
	SubtypePFCConfig         Subtype = 11
	SubtypeAppPriority       Subtype = 12
)

// The sizes of the parts of a TLV.
const (
	tlvHeaderLen = 2 // type (7 bits) and length (9 bits)
	orgHeaderLen = 4 // OUI and subtype
	maxTLVLen    = 511
)

// TLVs holds the DCBX TLVs of one LLDPDU. A Has field says whether the
// TLV it names was met; a TLV met twice keeps the later one.
type TLVs struct {
	HasETSConfig         bool
	HasETSRecommendation bool
	HasPFCConfig         bool
	HasAppPriority       bool
	ETSConfig            ETSConfig
	ETSRecommendation    ETSRecommendation
	PFCConfig            PFCConfig
	AppPriority          AppPriority

	// err holds the error of the last TLV that did not decode, so that
	// decoding allocates nothing (an error is valid until the next one).
	err errs.Slot
}

// Any reports whether any DCBX TLV was met.
func (t *TLVs) Any() bool {
	return t.HasETSConfig || t.HasETSRecommendation || t.HasPFCConfig || t.HasAppPriority
}

// DecodeTLV decodes the value of one LLDP TLV of type typ (its bytes
// after the 2-byte TLV header) when it is a DCBX TLV, and reports whether
// it was; any other TLV is left alone (false, nil).
func (t *TLVs) DecodeTLV(typ uint8, value []byte) (bool, error) {
	if typ != TLVTypeOrg {
		return false, nil
	}
	if len(value) < orgHeaderLen {
		return false, t.err.Truncated("LLDP organizationally specific TLV", tlvHeaderLen, orgHeaderLen, len(value))
	}
	oui := uint32(value[0])<<16 | uint32(value[1])<<8 | uint32(value[2])
	return t.DecodeInfo(oui, value[3], value[orgHeaderLen:])
}

// DecodeInfo decodes info, the information string of an
// organizationally specific TLV of oui and subtype, when it is a DCBX TLV
// (OUI 00-80-C2, subtype 9 to 12), and reports whether it was; another
// organizationally specific TLV is left alone (false, nil).
func (t *TLVs) DecodeInfo(oui uint32, subtype uint8, info []byte) (bool, error) {
	if oui != OUI {
		return false, nil
	}
	var err error
	switch Subtype(subtype) {
	case SubtypeETSConfig:
		err = t.ETSConfig.decode(info, &t.err)
		t.HasETSConfig = err == nil
	case SubtypeETSRecommendation:
		err = t.ETSRecommendation.decode(info, &t.err)
		t.HasETSRecommendation = err == nil
	case SubtypePFCConfig:
		err = t.PFCConfig.decode(info, &t.err)
		t.HasPFCConfig = err == nil
	case SubtypeAppPriority:
		err = t.AppPriority.decode(info, &t.err)
		t.HasAppPriority = err == nil
	default:
		return false, nil
	}
	return true, err
}

// Decode decodes the DCBX TLVs of an LLDPDU, b being the bytes
// after the Ethertype 0x88CC: it walks the TLVs up to the End of LLDPDU
// TLV (type 0) or the end of b, resetting t first. Bytes after the End
// TLV (Ethernet padding) are ignored. It stops at the first TLV whose
// length runs past b (ErrTruncated) or DCBX TLV that does not decode.
//
// The TLVs methods allocate nothing: the error of a TLV that does not
// decode is held in t, valid until t meets the next one.
func (t *TLVs) Decode(b []byte) error {
	held := t.err
	*t = TLVs{}
	t.err = held
	for off := 0; off < len(b); {
		if len(b)-off < tlvHeaderLen {
			return t.err.Truncated("LLDP TLV", off, tlvHeaderLen, len(b)-off)
		}
		h := binary.BigEndian.Uint16(b[off:])
		typ, n := h>>9, int(h&0x1ff)
		if typ == 0 {
			return nil
		}
		v := b[off+tlvHeaderLen:]
		if len(v) < n {
			return t.err.Truncated("LLDP TLV", off, tlvHeaderLen+n, len(b)-off)
		}
		if _, err := t.DecodeTLV(uint8(typ), v[:n]); err != nil {
			return err
		}
		off += tlvHeaderLen + n
	}
	return nil
}

// tlv is what each DCBX TLV type is.
type tlv interface {
	AppendTo([]byte) ([]byte, error)
	Len() int
	Validate() error
}

// held returns the TLVs t holds (its Has field set), in the order of
// their subtypes.
func (t *TLVs) held() (out [4]tlv, n int) {
	for _, a := range [...]struct {
		has bool
		tlv tlv
	}{
		{t.HasETSConfig, &t.ETSConfig},
		{t.HasETSRecommendation, &t.ETSRecommendation},
		{t.HasPFCConfig, &t.PFCConfig},
		{t.HasAppPriority, &t.AppPriority},
	} {
		if a.has {
			out[n] = a.tlv
			n++
		}
	}
	return out, n
}

// Len returns the number of bytes AppendTo writes: the whole TLVs t
// holds.
func (t *TLVs) Len() int {
	ts, n := t.held()
	l := 0
	for _, x := range ts[:n] {
		l += x.Len()
	}
	return l
}

// Validate reports whether AppendTo can encode every TLV t holds: the
// first refusal of their Validate methods.
func (t *TLVs) Validate() error {
	ts, n := t.held()
	for _, x := range ts[:n] {
		if err := x.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// AppendTo appends to b each TLV that t holds (its Has field set), in the
// order of their subtypes: ETS Configuration, ETS Recommendation, PFC
// Configuration, Application Priority. It refuses, appending nothing,
// what Validate refuses.
func (t *TLVs) AppendTo(b []byte) ([]byte, error) {
	if err := t.Validate(); err != nil {
		return b, err
	}
	start := len(b)
	ts, n := t.held()
	for _, x := range ts[:n] {
		var err error
		if b, err = x.AppendTo(b); err != nil {
			return b[:start], err
		}
	}
	return b, nil
}

// appendHeader appends the LLDP TLV header, the OUI and the subtype of a
// DCBX TLV whose information string is n bytes long.
func appendHeader(b []byte, s Subtype, n int) []byte {
	l := orgHeaderLen + n
	return append(b, byte(TLVTypeOrg<<1|l>>8), byte(l), OUI>>16, OUI>>8&0xff, OUI&0xff, byte(s))
}

// fit is errs.Fit for a uint8 field.
func fit(field string, v uint8, bits uint) error { return errs.Fit(field, uint64(v), bits) }
