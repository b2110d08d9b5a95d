// Package roce decodes and builds RDMA over Converged Ethernet frames,
// RoCEv1 (Ethertype 0x8915) and RoCEv2 (UDP port 4791 over IPv4 and IPv6),
// with or without VLAN tags.
//
// Frame decodes a whole frame in one pass into a reused struct, and
// builds one, ICRC included, into a caller's buffer: the fast path for
// capture tools and packet generators. The package builds on the
// standard library alone; the gopacket layers of RoCE are in package
// googlelayers (github.com/google/gopacket) and in the nested module
// rocelayers (github.com/gopacket/gopacket), whose VerifyPacket and
// FixICRC call this package's VerifyFrame and FixICRC.
//
// Building validates: Frame.AppendTo (through Frame.Validate) refuses a
// frame whose fields do not fit (a VLAN PCP above 7, a 25-bit QP), that
// Decode would refuse or read back differently (non-IPv4-mapped GIDs in a
// RoCEv2/IPv4 frame, an IPv4 fragment, a payload on an Acknowledge), with
// an *ib.FieldError naming the field and the value, and writes nothing.
//
// Allocation contract: Frame.Decode, Frame.VerifyICRC, Frame.AppendTo
// (given capacity), VerifyFrame and FixICRC allocate nothing.
// Errors allocate. Decoded byte slices alias the input frame; copy them
// to keep them past the next decode.
package roce
