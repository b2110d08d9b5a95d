package dump

import (
	"strconv"
	"sync"

	"github.com/roce-go/roce/mad"
)

// tableRec holds the SMP table attributes GUIDInfo and P_KeyTable of a
// frame's MAD, decoded by decodeTables.
type tableRec struct {
	gi    bool // an SMP GUIDInfo: guids holds it
	guids mad.GUIDInfo
	pk    bool // an SMP P_KeyTable: pkeys holds it
	pkeys mad.PKeyTable
}

// decodeTables decodes GUIDInfo or P_KeyTable from the data of the SMP
// decodeSMP decoded.
func (m *madRec) decodeTables() {
	t := &m.table
	t.gi, t.pk = false, false
	data := m.smp.data()
	if data == nil {
		return
	}
	id := m.hdr.AttributeID
	t.gi = id == uint16(mad.SMPAttrGUIDInfo) && t.guids.Decode(data) == nil
	t.pk = id == uint16(mad.SMPAttrPKeyTable) && t.pkeys.Decode(data) == nil
}

// tableFields are the keys of GUIDInfo and P_KeyTable. Their entries
// repeat within the attribute, and a JSON key never repeats: each entry
// gets a numbered key, as the DCBX priorities do. GUIDInfo's eight GUIDs
// are infiniband.guidinfo.guid0 ... guid7 (our names: tshark 4.0 shows
// them as eight values of infiniband.switchinfo.guid), "0x" and 16 hex
// digits; P_KeyTable's 32 entries are
// infiniband.p_keytable.membershiptype0 ... 31 and p_keybase0 ... 31,
// tshark's names of the two parts of each entry with the entry's index.
var tableFields = sync.OnceValue(func() []Field {
	var fs []Field
	for i := 0; i < len(mad.GUIDInfo{}.GUIDs); i++ {
		fs = append(fs, fMAD64("infiniband.guidinfo.guid"+strconv.Itoa(i), func(m *madRec) (uint64, bool) {
			return m.table.guids.GUIDs[i], m.table.gi
		}).numbered().doc("SMP GUIDInfo: GUID "+strconv.Itoa(i)+` of the block, "0x" and 16 hex digits (tshark 4.0 shows eight infiniband.switchinfo.guid)`))
	}
	for _, part := range []struct {
		name        string
		bits, shift uint8
		mask        uint16
		doc         string
	}{{"membershiptype", 1, 15, 1, "'s membership bit, 1 full"}, {"p_keybase", 15, 0, 0x7fff, "'s 15-bit P_Key base"}} {
		for i := 0; i < len(mad.PKeyTable{}.PKeys); i++ {
			fs = append(fs, fSA("infiniband.p_keytable."+part.name+strconv.Itoa(i), part.bits, func(m *madRec) (uint64, bool) {
				return uint64(m.table.pkeys.PKeys[i] >> part.shift & part.mask), m.table.pk
			}).numbered().doc("SMP P_KeyTable: entry "+strconv.Itoa(i)+part.doc))
		}
	}
	return fs
})
