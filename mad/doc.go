// Package mad decodes and builds InfiniBand management datagrams (MADs,
// IBTA Vol 1, chapters 12 to 16): the common MAD header, the RMPP header,
// the communication manager (CM, class 0x07) with every message, the
// RDMA-CM addressing carried in it, subnet administration (SA, class
// 0x03) with its header and records, subnet management packets (SMP,
// classes 0x01 LID routed and 0x81 directed route) with their common
// attributes, and performance management (PerfMgt, class 0x04) with
// PortCounters and PortCountersExtended. A MAD is the 256-byte payload of a
// UD SEND Only to QP 0 (subnet management packets) or QP 1 (every other
// class, DETH Q_Key 0x80010000), on RoCE as on native InfiniBand.
//
// # Layers and dispatch
//
// MAD, RMPP, CM, SA, SMP, SMPDirected and PerfMgt are gopacket layers (DecodingLayer and
// SerializableLayer). Importing the package registers the MAD layer with
// package ib (ib.RegisterManagementLayer), so gopacket.NewPacket of a
// RoCE frame or a native InfiniBand packet decodes a UD SEND Only to
// QP 0 or 1 down to its attribute; roce.Layers' DecodingLayerParser does
// the same (it holds a Layers set and calls ib.Layers.EnableManagement).
//
// What follows the common header is chosen by the class table (class.go),
// indexed by management class: the class's name, whether its MADs carry
// the RMPP header, and the layer type of its body. The MAD layer's next
// layer is RMPP for a class that carries it, then the body layer (CM
// reads the message its attribute ID names; SA reads the SA header and
// keeps the records; SMP, SMPDirected and PerfMgt read their class
// layout and keep the attribute's data). Every body layer decodes the
// bytes after the common header, which the MAD layer alone decodes: a
// body layer reads the attribute ID from the MAD layer it follows, and
// the SMP and PerfMgt layers copy its whole Header (their Decode and
// AppendTo methods take the whole 256-byte MAD). A class the table does
// not decode (vendor classes, BM, DevMgt, SNMP, CC) or a CM attribute CM
// does not define is the MAD header plus opaque data, a
// gopacket.Payload: never an error.
//
// Adding a class is one row of the class table plus its codec: a file
// with the body layer (a type with the classLayer methods, a layer type
// from the package's range), its attribute names, and a member of Layers
// that the row's body function returns. Nothing else dispatches on the
// class.
//
// # One layout per attribute
//
// Every CM message, ClassPortInfo, the RMPP header, the IP-CM private
// data and every SA record describes its fields once, in a walk method
// (byte offset, bit offset, width), and that one description decodes,
// encodes and validates. Field names are IBTA's (P_Key and Q_Key as PKey
// and QKey); Resv fields keep the reserved bits, so a decoded value
// encodes back byte for byte.
//
// The SMP and PerfMgt attributes (NodeInfo, NodeDescription, PortInfo,
// SMInfo, GUIDInfo, P_KeyTable, SwitchInfo, PortCounters,
// PortCountersExtended) decode from the layer's Data with their Decode
// methods and are written out field by field instead: they are read far
// more often (every SMP of a fabric sweep) and the hand-written form is
// about nine times faster than the walker for PortInfo (27 ns against
// 240 ns a decode, same output). NodeRecord and PortInfoRecord embed
// them.
//
// # SMP
//
// SMP is the LID-routed layout (M_Key, 64 bytes of SMP data),
// SMPDirected the directed-route one: DrSLID, DrDLID, the initial and
// return paths, and the D bit, status, hop pointer and hop count packed
// into the common header (Direction, SMPStatus, HopPointer, HopCount).
// A hop count above 63 has no room in the 64-byte paths and is refused
// (ib.ErrBadLength).
//
// # RDMA-CM
//
// ServiceID.RDMACM splits an RDMA-CM service ID (IBTA Vol 1, Annex A11;
// 0x00000000_01PS_pppp) into its port space (TCP 0x0106, UDP 0x0111, IB
// 0x013F, and Linux's IPoIB 0x0002) and port; REQ.IPCM decodes the IP-CM
// private data (version, IP version, source port, source and destination
// IPv4 or IPv6 addresses as netip.Addr).
//
// # SA and RMPP
//
// The SA layer holds the SA header (SM_Key, AttributeOffset,
// ComponentMask) and the 200 bytes of SA data of one MAD; SA.Record
// returns the records of a table, AttributeOffset*8 bytes each, and
// PathRecord, NodeRecord, PortInfoRecord, ServiceRecord and
// MCMemberRecord decode them. A table larger than one MAD spans RMPP
// segments, each with its own SA header; a layer decodes what its MAD
// holds, reassembly is the caller's.
//
// # Contract
//
// Decoding fills a caller-owned struct and allocates nothing; decoded
// byte slices alias the input. Every DecodeFromBytes resets its receiver
// and accepts a nil gopacket.DecodeFeedback; a MAD shorter than 256 bytes
// (or an attribute shorter than its size) is an error matching
// ib.ErrTruncated. Building appends to a caller's buffer and refuses,
// with an *ib.FieldError naming the field ("roce: CM.REQ.LocalQPN
// 0x1000000 does not fit 24 bits"), a value the decoder would not read
// back; it appends nothing then. Errors wrap the module's sentinels.
//
// # One package
//
// One package holds every class: they share the common header, its
// dispatch by management class and attribute ID, ClassPortInfo, the RMPP
// header and the gopacket layer types, and a user decoding a capture
// meets them all at once, as Wireshark shows them under one protocol.
//
// Layer types: 1820 MAD, 1821 RMPP, 1822 CM, 1823 SA, 1835 SMP, 1836
// SMPDirected, 1837 PerfMgt; 1824-1834 and 1838-1849 are kept for further
// layers. Every layer type's decoder starts at the common MAD header:
// gopacket.NewPacket(mad, mad.LayerTypeSMPDirected, ...) gives the MAD
// layer, then the layer of the class the header names.
package mad
