package mad

import "github.com/google/gopacket"

// smpPerfClasses are the rows of the class dispatch table for the classes
// of smp*.go and perf*.go: the gopacket layer of each class's MAD layout,
// and the names of its attributes. These layouts decode the whole 256-byte
// MAD, common header included (a directed-route SMP reads the header's
// Status and ClassSpecific its own way), so a dispatcher that has peeked
// at the MgmtClass byte hands them the MAD from its first byte.
var smpPerfClasses = [...]struct {
	class    Class
	layer    gopacket.LayerType
	attrName func(id uint16) string
}{
	{ClassSubnLID, LayerTypeSMP, smpAttrName},
	{ClassSubnDR, LayerTypeSMPDirected, smpAttrName},
	{ClassPerfMgt, LayerTypePerfMgt, perfAttrName},
}

func smpAttrName(id uint16) string  { return SMPAttribute(id).String() }
func perfAttrName(id uint16) string { return PerfAttribute(id).String() }

// smpPerfClass returns the row of class c, and false for a class of
// neither file.
func smpPerfClass(c Class) (layer gopacket.LayerType, attrName func(uint16) string, ok bool) {
	for _, r := range smpPerfClasses {
		if r.class == c {
			return r.layer, r.attrName, true
		}
	}
	return 0, nil, false
}
