// Package googlelayers is this module's layers for
// github.com/google/gopacket: the gopacket-free codecs of packages pfc,
// ipoib, mad and dcbx of github.com/roce-go/roce as gopacket layers.
// Each layer embeds the codec's type, with its fields and methods, and a
// layers.BaseLayer (MACControl is a pfc.MACControl with Contents and
// Payload), and its DecodeFromBytes and SerializeTo call the codec's
// Decode and AppendTo: the logic exists once.
//
// Importing the package registers the layers with gopacket, under the
// numbers the codec packages registered before they left gopacket: MAC
// Control 1810 (for Ethertype 0x8808), IPoIB 1850 and IPoIBLinkHeader
// 1851 (for link type 242, LINKTYPE_IPOIB). The nested module
// github.com/roce-go/roce/rocelayers holds the same layers for
// github.com/gopacket/gopacket under the same numbers.
package googlelayers
