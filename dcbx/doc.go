// Package dcbx decodes and builds the IEEE 802.1Qaz DCBX TLVs that an
// Ethernet link's data center bridging configuration travels in: LLDP
// organizationally specific TLVs (type 127) of the IEEE 802.1 OUI
// 00-80-C2 with subtype 9 (ETS Configuration), 10 (ETS Recommendation),
// 11 (PFC Configuration) and 12 (Application Priority), laid out as
// IEEE 802.1Qaz-2011 clauses D.2.9 to D.2.12 (IEEE 802.1Q-2014 Annex D.2)
// define them. A lossless RoCE fabric is configured through them: which
// priorities PFC pauses, how ETS shares the link among traffic classes,
// and which priority RoCE (UDP port 4791, Ethertype 0x8915) is sent on.
//
// Why a package of its own, beside pfc: pfc is the MAC Control frame
// (Ethertype 0x8808) that pauses a link; DCBX is LLDP (Ethertype 0x88CC)
// that tells the link partner how pausing is set up. They share no byte
// layout, and a reader of pause frames needs no LLDP.
//
// TLVs.Decode walks the TLVs of an LLDPDU itself; TLVs.DecodeTLV takes
// one LLDP TLV and TLVs.DecodeInfo one organizationally specific TLV's
// information string, as an LLDP decoder hands them on. The package
// imports the standard library only: gopacket's LLDP layers hand their
// TLVs over through googlelayers.DCBX (package
// github.com/roce-go/roce/googlelayers, for github.com/google/gopacket)
// and rocelayers.DCBX (for github.com/gopacket/gopacket), whose
// DecodeValue and DecodeOrg take gopacket's types. DCBX is a part of the
// LLDP layer, not a layer: no gopacket layer type is registered for it.
//
// Each TLV has a type with Decode, which reads the information string
// after the subtype, AppendTo, which appends the whole TLV (LLDP TLV
// header, OUI, subtype, information) to a caller's buffer, Len, the
// bytes AppendTo writes, and Validate. AppendTo refuses what Validate
// refuses, with a *FieldError naming the field: a value wider than its
// field (ErrBadValue), an Application Priority table longer than an LLDP
// TLV can hold or not a whole number of entries (ErrBadLength). TLVs
// has the same methods over the TLVs it holds.
//
// Decoding checks lengths only: a TLV shorter than its layout (or whose
// LLDP length runs past the LLDPDU) gives an *Error wrapping
// ErrTruncated, one longer than its fixed layout (ETS 25 bytes, PFC 6)
// or an Application Priority table not a whole number of 3-byte entries
// one wrapping ErrBadLength. Values are kept as sent, reserved bits
// and reserved values (a TSA of 3, a Max TCs of 0, which means 8)
// included, so every TLV re-encodes byte for byte.
//
// Aliasing: AppPriority.Table points into the input; it is valid until
// the input is reused.
//
// Allocation contract: decoding (Decode, DecodeTLV, DecodeInfo) and
// building into a buffer with room (AppendTo,
// AppendAppPriority) allocate nothing; only errors do.
package dcbx
