// Package ipoib decodes and builds IP over InfiniBand (IPoIB, RFC 4391
// and RFC 4392; connected mode RFC 4755): the 4-byte encapsulation header
// that IPoIB puts in front of every IPv4, IPv6 and ARP packet it sends,
// the 20-byte IPoIB hardware address, IPoIB's ARP (hardware type 32,
// 20-byte hardware addresses), and the 40-byte header that precedes the
// encapsulation header in a capture of link type 242 (LINKTYPE_IPOIB).
//
// Layers. Header (layer type 1850, LayerTypeIPoIB) is the encapsulation
// header: Type, an Ethertype, and 16 reserved bits; its NextLayerType is
// gopacket's layer for the Ethertype, so IPv4, IPv6 and ARP decode with
// gopacket's own layers. layers.ARP (v1.1.19) handles IPoIB's 20-byte
// addresses, but sums the address sizes in a byte and panics when the sum
// wraps, so the gopacket decoder of Header checks an ARP packet's lengths
// (ARP.Decode) before handing it on.
// LinkHeader (1851, LayerTypeLinkHeader) is the start of a link type 242
// record; the package registers it as gopacket's decoder of link type 242,
// so a pcapgo reader's packets decode as LinkHeader, Header, IPv4 and so
// on. Layer types 1850-1859 are this package's; gopacket panics on a
// number registered twice.
//
// Inside InfiniBand. Match is the rule by which this module takes the
// payload of a native InfiniBand transport packet to be IPoIB: an opcode
// that starts a SEND message (UD SEND Only to a queue pair other than the
// management QPs 0 and 1, or RC or UC SEND First or SEND Only, with or
// without immediate data: IPoIB-CM runs on RC or UC), at least four bytes,
// reserved bits zero and a Type of IPv4, IPv6 or ARP, the three
// RFC 4391 carries. Importing the package registers the rule with package
// ib, so gopacket.NewPacket decodes such a payload as Header, then IPv4,
// IPv6 or ARP. tshark 4.0 tries the same test (reserved zero, an Ethertype
// it has a dissector for) on the payload of every opcode, RoCE included,
// and on any Ethertype; this package is narrower on purpose: a RoCE
// payload or a message's middle packet that happens to start with
// 08 00 00 00 is data, not IPoIB.
//
// Aliasing: decoded byte slices (Contents, Payload, the ARP addresses)
// point into the input; they are valid until it is reused.
//
// Allocation contract: decoding (DecodeFromBytes, ARP.Decode, Match) and
// encoding into a buffer with room (AppendTo, SerializeTo with a prepared
// gopacket.SerializeBuffer) allocate nothing; only errors do.
//
// Errors wrap the sentinels of package ib: a header cut short gives an
// *ib.Error wrapping ib.ErrTruncated; builders refuse a value that does
// not fit its field with an *ib.FieldError wrapping ib.ErrBadValue.
package ipoib
