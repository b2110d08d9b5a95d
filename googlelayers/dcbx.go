package googlelayers

import (
	"github.com/google/gopacket/layers"

	"github.com/roce-go/roce/dcbx"
)

// DCBX is dcbx.TLVs, the DCBX TLVs of one LLDPDU, with its two gopacket
// entry points taking gopacket's LLDP types: DCBX is no layer but a part
// of gopacket's LLDP layers (layers.LinkLayerDiscovery, whose Values are
// every TLV, and layers.LinkLayerDiscoveryInfo, whose OrgTLVs are the
// organizationally specific ones). Decode (from the bytes after
// Ethertype 0x88CC), AppendTo and the TLVs' fields are dcbx.TLVs'.
type DCBX struct{ dcbx.TLVs }

// DecodeValue decodes v, one TLV of gopacket's layers.LinkLayerDiscovery,
// when it is a DCBX TLV, and reports whether it was (dcbx.TLVs.DecodeTLV).
func (d *DCBX) DecodeValue(v layers.LinkLayerDiscoveryValue) (bool, error) {
	return d.DecodeTLV(uint8(v.Type), v.Value)
}

// DecodeOrg decodes o, an organizationally specific TLV of gopacket's
// layers.LinkLayerDiscoveryInfo, when it is a DCBX TLV (OUI 00-80-C2,
// subtype 9 to 12), and reports whether it was (dcbx.TLVs.DecodeInfo);
// another organizationally specific TLV is left alone (false, nil).
func (d *DCBX) DecodeOrg(o layers.LLDPOrgSpecificTLV) (bool, error) {
	return d.DecodeInfo(uint32(o.OUI), o.SubType, o.Info)
}
