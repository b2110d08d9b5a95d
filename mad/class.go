package mad

// classInfo is one row of the class table: what this package knows of a
// management class.
type classInfo struct {
	name string // short name, as rocedump prints it: "CM", "SA"
	// rmpp says that every MAD of the class carries the RMPP header
	// (IBTA Vol 1, 13.6.2) after the common header, active or not.
	rmpp bool
	// body is the codec of the class body (what follows the common
	// header, and the RMPP header if any); BodyOpaque leaves it opaque.
	body Body
	// attrs names the class's attributes; nil names none.
	attrs func(id uint16) string
	// anyAttr says that the body decodes every attribute (it has a
	// class header of its own, as SA has); otherwise only the attributes
	// attrs names reach it and the others stay opaque.
	anyAttr bool
	// check refuses, for Header.ValidateClass, a header value the class
	// body's decoder refuses (the directed route's hop count); nil
	// refuses none.
	check func(h *Header) error
}

// Body names the codec of a MAD's class body, what follows the common
// header (and the RMPP header, for a class that carries one): the type
// that decodes it.
type Body uint8

// The class bodies this package decodes.
const (
	BodyOpaque      Body = iota // a class or attribute this package leaves as bytes
	BodyCM                      // CM
	BodySA                      // SA
	BodySMP                     // SMP
	BodySMPDirected             // SMPDirected
	BodyPerfMgt                 // PerfMgt
)

// classes is the class table, indexed by management class (IBTA Vol 1,
// Table 118). Decoding dispatches on it: after the common header comes
// the RMPP header when the row says so, then the row's body
// (Header.Body).
//
// Adding a class is one row here plus its codec: a file with the body's
// type, its attribute names and a Body constant; the gopacket adapters
// (googlelayers, rocelayers) map the Body to their layer. Nothing else
// dispatches on the class.
var classes = withVendorClasses([256]classInfo{
	ClassSubnLID: {
		name: "SMP", body: BodySMP, attrs: smpAttrName, anyAttr: true,
	},
	ClassSubnAdm: {
		name: "SA", rmpp: true, body: BodySA, attrs: saAttrName, anyAttr: true,
	},
	ClassPerfMgt: {
		name: "PerfMgt", body: BodyPerfMgt, attrs: perfAttrName, anyAttr: true,
	},
	ClassBM:     {name: "BM"},
	ClassDevMgt: {name: "DevMgt"},
	ClassCM: {
		name: "CM", body: BodyCM, attrs: cmAttrName,
	},
	ClassSNMP: {name: "SNMP"},
	ClassCC:   {name: "CC"},
	ClassSubnDR: {
		name: "SMP-DR", body: BodySMPDirected, attrs: smpAttrName, anyAttr: true,
		check: func(h *Header) error { return checkHopCount(uint8(h.ClassSpecific)) },
	},
})

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

// withVendorClasses returns t with the rows of the vendor-specific
// classes, which share one row each range.
func withVendorClasses(t [256]classInfo) [256]classInfo {
	for c := ClassVendor1First; c <= ClassVendor1Last; c++ {
		t[c] = classInfo{name: "Vendor"}
	}
	for c := ClassVendor2First; c <= ClassVendor2Last; c++ {
		t[c] = classInfo{name: "Vendor", rmpp: true}
	}
	return t
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

// bodyOf returns the body of a MAD of this class with attribute id: the
// class's, or BodyOpaque when the class or (for a class without a header
// of its own) the attribute is unknown.
func (r *classInfo) bodyOf(id uint16) Body {
	if !r.anyAttr && r.attrName(id) == "" {
		return BodyOpaque
	}
	return r.body
}

// Body returns the codec of what follows the common header (and the
// RMPP header, when h.MgmtClass.HasRMPP) by the class table: BodyCM for
// a CM attribute CM defines, BodySA, BodySMP, BodySMPDirected,
// BodyPerfMgt, or BodyOpaque for a class or attribute this package does
// not decode.
func (h *Header) Body() Body { return classes[h.MgmtClass].bodyOf(h.AttributeID) }

// ValidateClass reports what Validate does and, for a class whose body's
// decoder refuses a header value, that value (the directed route's hop
// count above MaxHopCount): what a builder of the header alone, before
// the class body, must refuse.
func (h *Header) ValidateClass() error {
	if err := h.Validate(); err != nil {
		return err
	}
	if check := classes[h.MgmtClass].check; check != nil {
		return check(h)
	}
	return nil
}
