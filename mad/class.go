package mad

import "github.com/google/gopacket"

// classInfo is one row of the class table: what this package knows of a
// management class.
type classInfo struct {
	name string // short name, as rocedump prints it: "CM", "SA"
	// rmpp says that every MAD of the class carries the RMPP header
	// (IBTA Vol 1, 13.6.2) after the common header, active or not.
	rmpp bool
	// layer is the gopacket layer type of the class body (what follows
	// the common header, and the RMPP header if any); zero leaves the
	// body opaque (gopacket.Payload).
	layer gopacket.LayerType
	// attrs names the class's attributes; nil names none.
	attrs func(id uint16) string
	// anyAttr says that the body layer decodes every attribute (it has a
	// class header of its own, as SA has); otherwise only the attributes
	// attrs names reach it and the others stay opaque.
	anyAttr bool
	// check refuses, for the MAD layer's SerializeTo, a header value the
	// class body's decoder refuses (the directed route's hop count); nil
	// refuses none.
	check func(h *Header) error
	// body returns the member of a Layers set that decodes the class
	// body, and fresh a new one for gopacket.NewPacket; nil when layer is
	// zero.
	body  func(*Layers) classLayer
	fresh func() classLayer
}

// classLayer is the layer of a class body: a gopacket layer that reads
// the attribute ID (and whatever else it needs) from the MAD it follows.
type classLayer interface {
	gopacket.DecodingLayer
	gopacket.Layer
	link(m *MAD)
}

// classes is the class table, indexed by management class (IBTA Vol 1,
// Table 118). Decoding dispatches on it: the MAD layer's next layer is
// the RMPP header when the row says so, then the row's body layer.
//
// Adding a class is one row here plus its codec: a file with the body
// layer (a type implementing classLayer, with its own layer type from
// the range in the package doc), its attribute names, and a member of
// Layers that the row's body function returns. Nothing else dispatches
// on the class.
var classes = [256]classInfo{
	ClassSubnLID: {
		name: "SMP", layer: layerTypeSMP, attrs: smpAttrName, anyAttr: true,
		body:  func(l *Layers) classLayer { return &l.SMP },
		fresh: func() classLayer { return &SMP{} },
	},
	ClassSubnAdm: {
		name: "SA", rmpp: true, layer: layerTypeSA, attrs: saAttrName, anyAttr: true,
		body:  func(l *Layers) classLayer { return &l.SA },
		fresh: func() classLayer { return &SA{} },
	},
	ClassPerfMgt: {
		name: "PerfMgt", layer: layerTypePerfMgt, attrs: perfAttrName, anyAttr: true,
		body:  func(l *Layers) classLayer { return &l.PerfMgt },
		fresh: func() classLayer { return &PerfMgt{} },
	},
	ClassBM:     {name: "BM"},
	ClassDevMgt: {name: "DevMgt"},
	ClassCM: {
		name: "CM", layer: layerTypeCM, attrs: cmAttrName,
		body:  func(l *Layers) classLayer { return &l.CM },
		fresh: func() classLayer { return &CM{} },
	},
	ClassSNMP: {name: "SNMP"},
	ClassCC:   {name: "CC"},
	ClassSubnDR: {
		name: "SMP-DR", layer: layerTypeSMPDirected, attrs: smpAttrName, anyAttr: true,
		check: func(h *Header) error { return checkHopCount(uint8(h.ClassSpecific)) },
		body:  func(l *Layers) classLayer { return &l.SMPDirected },
		fresh: func() classLayer { return &SMPDirected{} },
	},
}

// The classes this package names without decoding their bodies.
const (
	ClassBM     Class = 0x05 // baseboard management
	ClassDevMgt Class = 0x06 // device management
	ClassSNMP   Class = 0x08 // SNMP tunneling
	ClassCC     Class = 0x21 // congestion control (IBTA Vol 1, Annex A10)

	// Vendor-specific classes: 0x09-0x0F without RMPP, 0x30-0x4F with
	// the RMPP header (IBTA Vol 1, 13.4.4).
	ClassVendor1First Class = 0x09
	ClassVendor1Last  Class = 0x0F
	ClassVendor2First Class = 0x30
	ClassVendor2Last  Class = 0x4F
)

func init() {
	for c := ClassVendor1First; c <= ClassVendor1Last; c++ {
		classes[c] = classInfo{name: "Vendor"}
	}
	for c := ClassVendor2First; c <= ClassVendor2Last; c++ {
		classes[c] = classInfo{name: "Vendor", rmpp: true}
	}
}

// String returns the class's short name ("CM", "SA", "SMP"), or
// "Class(0x..)" for a class this package does not know.
func (c Class) String() string { return string(c.appendName(nil)) }

func (c Class) appendName(b []byte) []byte {
	if s := classes[c].name; s != "" {
		return append(b, s...)
	}
	return appendHexName(b, "Class(0x", uint64(c), 2)
}

// HasRMPP reports whether MADs of the class carry the RMPP header.
func (c Class) HasRMPP() bool { return classes[c].rmpp }

// attrName returns the name of an attribute of the class, or "".
func (r *classInfo) attrName(id uint16) string {
	if r.attrs == nil {
		return ""
	}
	return r.attrs(id)
}

// bodyType returns the layer type of the body of a MAD of this class
// with attribute id: the class's layer, or gopacket.LayerTypePayload
// when the class or (for a class without a header of its own) the
// attribute is unknown.
func (r *classInfo) bodyType(id uint16) gopacket.LayerType {
	if r.layer == 0 || !r.anyAttr && r.attrName(id) == "" {
		return gopacket.LayerTypePayload
	}
	return r.layer
}
