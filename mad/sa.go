package mad

import "github.com/roce-go/roce/internal/errs"

// Sizes of the SA header and of the SA data a MAD carries (IBTA Vol 1,
// 15.2.1.1): the SA header follows the RMPP header, at byte 36 of the
// MAD, and every RMPP segment repeats it.
const (
	SAHeaderLen = 20
	SADataLen   = 200
)

// The SA attribute IDs (IBTA Vol 1, 15.2.5, Table 187).
const (
	AttrNotice               = 0x0002
	AttrInformInfo           = 0x0003
	AttrNodeRecord           = 0x0011
	AttrPortInfoRecord       = 0x0012
	AttrSLtoVLMappingRecord  = 0x0013
	AttrSwitchInfoRecord     = 0x0014
	AttrLinearFwdTableRecord = 0x0015
	AttrRandomFwdTableRecord = 0x0016
	AttrMcastFwdTableRecord  = 0x0017
	AttrSMInfoRecord         = 0x0018
	AttrLinkRecord           = 0x0020
	AttrGuidInfoRecord       = 0x0030
	AttrServiceRecord        = 0x0031
	AttrPKeyTableRecord      = 0x0033
	AttrPathRecord           = 0x0035
	AttrVLArbitrationRecord  = 0x0036
	AttrMCMemberRecord       = 0x0038
	AttrTraceRecord          = 0x0039
	AttrMultiPathRecord      = 0x003A
	AttrServiceAssocRecord   = 0x003B
	AttrInformInfoRecord     = 0x00F3
)

// saAttrs names the SA attributes.
var saAttrs = map[uint16]string{
	AttrClassPortInfo:        "ClassPortInfo",
	AttrNotice:               "Notice",
	AttrInformInfo:           "InformInfo",
	AttrNodeRecord:           "NodeRecord",
	AttrPortInfoRecord:       "PortInfoRecord",
	AttrSLtoVLMappingRecord:  "SLtoVLMappingTableRecord",
	AttrSwitchInfoRecord:     "SwitchInfoRecord",
	AttrLinearFwdTableRecord: "LinearForwardingTableRecord",
	AttrRandomFwdTableRecord: "RandomForwardingTableRecord",
	AttrMcastFwdTableRecord:  "MulticastForwardingTableRecord",
	AttrSMInfoRecord:         "SMInfoRecord",
	AttrLinkRecord:           "LinkRecord",
	AttrGuidInfoRecord:       "GuidInfoRecord",
	AttrServiceRecord:        "ServiceRecord",
	AttrPKeyTableRecord:      "P_KeyTableRecord",
	AttrPathRecord:           "PathRecord",
	AttrVLArbitrationRecord:  "VLArbitrationTableRecord",
	AttrMCMemberRecord:       "MCMemberRecord",
	AttrTraceRecord:          "TraceRecord",
	AttrMultiPathRecord:      "MultiPathRecord",
	AttrServiceAssocRecord:   "ServiceAssociationRecord",
	AttrInformInfoRecord:     "InformInfoRecord",
}

func saAttrName(id uint16) string { return saAttrs[id] }

// SA is a subnet administration MAD's body (class 0x03), after the RMPP
// header: the SA header (IBTA Vol 1, 15.2.1.1) and the SA data, 200
// bytes after it.
//
//	+---------------------------------------------------------------+
//	|                         SM_Key (64)                           |
//	+-------------------------------+-------------------------------+
//	|        AttributeOffset        |           Reserved            |
//	+-------------------------------+-------------------------------+
//	|                      ComponentMask (64)                       |
//	+---------------------------------------------------------------+
//
// The data holds one record (Get, Set, GetResp, a request's template) or
// a table of records AttributeOffset 8-byte words apart (GetTableResp);
// a table larger than one MAD spans RMPP segments, each with its own SA
// header and 200 bytes of data, and Record indexes what this one MAD
// holds from its first byte: the table's start in the first segment.
// Decode a record with its type (PathRecord.Decode(sa.Record(0)), ...).
type SA struct {
	SMKey           uint64
	AttributeOffset uint16 // record size in 8-byte words
	Resv            uint16
	ComponentMask   uint64
	Data            []byte // the SA data, aliasing the input
}

func (s *SA) walk(c codec) error {
	c.u64(&s.SMKey, "SMKey", 0)
	c.u16(&s.AttributeOffset, "AttributeOffset", 8, 0, 16)
	c.u16(&s.Resv, "Resv", 10, 0, 16)
	c.u64(&s.ComponentMask, "ComponentMask", 12)
	return c.err
}

// Decode decodes the SA header and data from data (the 220 bytes after
// the RMPP header), resetting s first. Fewer bytes give an *Error
// wrapping ErrTruncated; bytes after them are ignored. Data aliases
// data.
func (s *SA) Decode(data []byte) error {
	*s = SA{}
	if len(data) < SAHeaderLen+SADataLen {
		return truncated("SA", SAHeaderLen+SADataLen, len(data))
	}
	if err := decodeWalker(data, "SA", SAHeaderLen, s); err != nil {
		return err
	}
	s.Data = data[SAHeaderLen : SAHeaderLen+SADataLen : SAHeaderLen+SADataLen]
	return nil
}

// Len returns the bytes AppendTo writes: the SA header and the 200 bytes
// of SA data.
func (s *SA) Len() int { return SAHeaderLen + SADataLen }

// Validate refuses Data longer than the SA data's 200 bytes, with a
// *FieldError wrapping ErrBadValue.
func (s *SA) Validate() error {
	if len(s.Data) > SADataLen {
		return errs.Length("SA.Data", len(s.Data), "longer than the SA data's 200 bytes", errs.ErrBadValue)
	}
	return nil
}

// AppendTo appends the SA header and Data, padded with zeros to 200
// bytes. It refuses, appending nothing, what Validate refuses.
func (s *SA) AppendTo(b []byte) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return b, err
	}
	n := len(b)
	b = grow(b, s.Len())
	copy(b[n+SAHeaderLen:], s.Data)
	if err := s.walk(codec{b: b[n:], enc: true, name: "SA"}); err != nil {
		return b[:n], err
	}
	return b, nil
}

// RecordLen returns the size of one record of a table, AttributeOffset
// words of 8 bytes; 0 when AttributeOffset is 0 (a single record).
func (s *SA) RecordLen() int { return int(s.AttributeOffset) * 8 }

// NumRecords returns how many whole records Data holds: Data divided by
// RecordLen, or 1 when AttributeOffset is 0.
func (s *SA) NumRecords() int {
	if s.AttributeOffset == 0 {
		return min(1, len(s.Data))
	}
	return len(s.Data) / s.RecordLen()
}

// Record returns the bytes of record i of Data, or nil when Data does not
// hold it whole. With AttributeOffset 0, record 0 is the whole of Data.
func (s *SA) Record(i int) []byte {
	if i < 0 || i >= s.NumRecords() {
		return nil
	}
	if s.AttributeOffset == 0 {
		return s.Data
	}
	n := s.RecordLen()
	return s.Data[i*n : (i+1)*n : (i+1)*n]
}
