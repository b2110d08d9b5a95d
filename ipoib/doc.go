// Package ipoib decodes and builds IP over InfiniBand (IPoIB, RFC 4391
// and RFC 4392; connected mode RFC 4755): the 4-byte encapsulation header
// that IPoIB puts in front of every IPv4, IPv6 and ARP packet it sends,
// the 20-byte IPoIB hardware address, IPoIB's ARP (hardware type 32,
// 20-byte hardware addresses), and the 40-byte header that precedes the
// encapsulation header in a capture of link type 242 (LINKTYPE_IPOIB).
//
// Codec. Header is the encapsulation header: Type, an Ethertype, and 16
// reserved bits; the packet it carries follows its HeaderLen bytes.
// LinkHeader is the start of a link type 242 record, LinkHeaderLen
// bytes before the Header. Both have Decode, AppendTo and Len (and
// LinkHeader Validate); ARP has Decode and AppendARP builds one. The
// package imports the standard library and package ib only; its gopacket
// layers are IPoIB and IPoIBLinkHeader of package
// github.com/roce-go/roce/googlelayers (for github.com/google/gopacket,
// layer types 1850 and 1851, link type 242 registered on import) and of
// github.com/roce-go/roce/rocelayers (for github.com/gopacket/gopacket).
//
// Inside InfiniBand. Match is the rule by which this module takes the
// payload of a native InfiniBand transport packet to be IPoIB: an opcode
// that starts a SEND message (UD SEND Only to a queue pair other than the
// management QPs 0 and 1, or RC or UC SEND First or SEND Only, with or
// without immediate data: IPoIB-CM runs on RC or UC), at least four bytes,
// reserved bits zero and a Type of IPv4, IPv6 or ARP, the three
// RFC 4391 carries. Importing googlelayers registers the rule with
// gopacket, so gopacket.NewPacket decodes such a payload as IPoIB, then
// IPv4, IPv6 or ARP. tshark 4.0 tries the same test (reserved zero, an Ethertype
// it has a dissector for) on the payload of every opcode, RoCE included,
// and on any Ethertype; this package is narrower on purpose: a RoCE
// payload or a message's middle packet that happens to start with
// 08 00 00 00 is data, not IPoIB.
//
// Aliasing: decoded byte slices (the ARP addresses) point into the
// input; they are valid until it is reused.
//
// Allocation contract: decoding (Header.Decode, LinkHeader.Decode,
// ARP.Decode, Match) and encoding into a buffer with room (AppendTo,
// AppendARP) allocate nothing; only errors do, and not those of a
// header cut short.
//
// Errors wrap the module's sentinels, exported here: a header cut short
// gives an *Error wrapping ErrTruncated; builders refuse a value that
// does not fit its field with a *FieldError wrapping ErrBadValue.
package ipoib
