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
// # Codecs and dispatch
//
// Header (the common MAD header), RMPP, CM, SA, SMP, SMPDirected and
// PerfMgt are plain structs with one method set: Decode (which resets
// the receiver), AppendTo, Len and Validate. Header, RMPP and the class
// bodies after them follow each other in the 256 bytes: Header.Decode
// reads the first 24, RMPP.Decode the 12 after them for a class that
// carries it (Class.HasRMPP), then the body: CM.Decode reads the message
// its AttributeID names from the 232 bytes after the header (set
// AttributeID first, from the header), SA.Decode the SA header and data
// after the RMPP header. SMP, SMPDirected and PerfMgt take the whole
// 256-byte MAD in Decode and AppendTo, and the 232 bytes after a header
// decoded before them in DecodeData.
//
// What follows the common header is chosen by the class table (class.go),
// indexed by management class: the class's name, whether its MADs carry
// the RMPP header, and its body's codec, which Header.Body returns
// (BodyCM, BodySA, BodySMP, BodySMPDirected, BodyPerfMgt). A class the
// table does not decode (vendor classes, BM, DevMgt, SNMP, CC) or a CM
// attribute CM does not define is BodyOpaque: the MAD header plus opaque
// data, never an error.
//
// Adding a class is one row of the class table plus its codec: a file
// with the body's type, its attribute names and a Body constant; the
// gopacket adapters map the Body to their layer. Nothing else dispatches
// on the class.
//
// The package imports the standard library only. Its gopacket layers are
// those of package github.com/roce-go/roce/googlelayers (MAD, RMPP, CM,
// SA, SMP, SMPDirected, PerfMgt and the set MADLayers, for
// github.com/google/gopacket; importing it registers the MAD layer for
// the payload of a UD SEND Only to QP 0 or 1) and of
// github.com/roce-go/roce/rocelayers (for github.com/gopacket/gopacket).
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
// PortCountersExtended) and the SMP, SMPDirected and PerfMgt layouts
// describe theirs the same way, beside their types; the attributes decode
// from a layout's Data with their Decode methods, and NodeRecord and
// PortInfoRecord walk NodeInfo and PortInfo over their bytes. Adding an
// attribute is its type with a walk method, its Decode and AppendTo
// (one line each), its name in the attribute table, and its rows in the
// consumers that show it. The walker costs more than hand-written field
// code did: a PortInfo decode takes about four times as long (some 300
// ns rather than 75 on a shared two-core machine), still without
// allocating.
//
// # SMP
//
// SMP is the LID-routed layout (M_Key, 64 bytes of SMP data),
// SMPDirected the directed-route one: DrSLID, DrDLID, the initial and
// return paths, and the D bit, status, hop pointer and hop count packed
// into the common header (Direction, SMPStatus, HopPointer, HopCount).
// A hop count above 63 has no room in the 64-byte paths and is refused
// (ErrBadLength).
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
// SA holds the SA header (SM_Key, AttributeOffset,
// ComponentMask) and the 200 bytes of SA data of one MAD; SA.Record
// returns the records of a table, AttributeOffset*8 bytes each, and
// PathRecord, NodeRecord, PortInfoRecord, ServiceRecord and
// MCMemberRecord decode them. A table larger than one MAD spans RMPP
// segments, each with its own SA header; SA decodes what its MAD holds,
// reassembly is the caller's.
//
// # Contract
//
// Decoding fills a caller-owned struct and allocates nothing; decoded
// byte slices alias the input. Every Decode resets its receiver (CM
// keeps its AttributeID); an input shorter than its layout is an error
// matching ErrTruncated (and io.ErrUnexpectedEOF). Building appends to a
// caller's buffer and refuses, with a *FieldError naming the field
// ("roce: CM.REQ.LocalQPN 0x1000000 does not fit 24 bits"), a value the
// decoder would not read back; it appends nothing then. Errors wrap the
// module's sentinels, exported here.
//
// # One package
//
// One package holds every class: they share the common header, its
// dispatch by management class and attribute ID, ClassPortInfo and the
// RMPP header, and a user decoding a capture meets them all at once, as
// Wireshark shows them under one protocol.
package mad
