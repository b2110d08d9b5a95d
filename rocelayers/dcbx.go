package rocelayers

import (
	"github.com/gopacket/gopacket/layers"

	"github.com/roce-go/roce/dcbx"
)

// DCBX is dcbx.TLVs, the DCBX TLVs of one LLDPDU, with its two gopacket
// entry points taking the fork's LLDP types: DCBX is no layer but a part
// of gopacket's LLDP layers (layers.LinkLayerDiscovery and
// layers.LinkLayerDiscoveryInfo). Decode (from the bytes after
// Ethertype 0x88CC), AppendTo and the TLVs' fields are dcbx.TLVs'.
type DCBX struct{ dcbx.TLVs }

// DecodeValue decodes v, one TLV of the fork's layers.LinkLayerDiscovery,
// when it is a DCBX TLV, and reports whether it was (dcbx.TLVs.DecodeTLV).
func (d *DCBX) DecodeValue(v layers.LinkLayerDiscoveryValue) (bool, error) {
	return d.DecodeTLV(uint8(v.Type), v.Value)
}

// DecodeOrg decodes o, an organizationally specific TLV of the fork's
// layers.LinkLayerDiscoveryInfo, when it is a DCBX TLV, and reports
// whether it was (dcbx.TLVs.DecodeInfo).
func (d *DCBX) DecodeOrg(o layers.LLDPOrgSpecificTLV) (bool, error) {
	return d.DecodeInfo(uint32(o.OUI), o.SubType, o.Info)
}
