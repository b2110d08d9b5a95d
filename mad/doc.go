// Package mad decodes and builds InfiniBand management datagrams (MADs,
// IBTA Vol 1, chapters 13 to 16): the common MAD header, the RMPP header,
// and the attributes of the communication manager (CM, class 0x07), subnet
// administration (SA, class 0x03), subnet management (SMP, classes 0x01
// and 0x81) and performance management (PerfMgt, class 0x04). A MAD is
// the 256-byte payload of a UD SEND Only to QP 0 (SMPs) or QP 1 (every
// other class, with DETH Q_Key 0x80010000), on RoCE as on native
// InfiniBand.
//
// One package holds every class: they share the common header, its
// dispatch by management class and attribute ID (a table, not a switch),
// and the gopacket layer types, and a user decoding a capture meets them
// all at once, as Wireshark shows them under one protocol. A class it does
// not know decodes as the common header plus opaque data, never an error.
//
// Decoding fills a caller-owned struct and allocates nothing; decoded byte
// slices alias the input. Building appends to a caller's buffer and
// refuses, with an *ib.FieldError naming the field, a value the decoder
// would not read back. Errors wrap the module's sentinels (ib.ErrTruncated,
// ib.ErrBadValue, ...).
//
// Layer types: 1820-1849 of gopacket's application range.
package mad
