// Package ecn reads and rewrites the Explicit Congestion Notification
// codepoint (RFC 3168) and the DSCP (RFC 2474) of IPv4 and IPv6 headers,
// in place, on a bare IP header or on a whole Ethernet frame with up to
// eight VLAN tags (roce.MaxVLANs; TPID 0x8100, 0x88a8 or 0x9100).
//
// The ECN field is the two low bits of the IPv4 TOS byte or of the IPv6
// Traffic Class, and the DSCP the six bits above them:
//
//	TOS / Traffic Class = DSCP<<2 | ECN
//
// In an IPv4 header that byte is byte 1; in an IPv6 header the Traffic
// Class straddles bytes 0 and 1 (byte0[3..0] and byte1[7..4]), so the ECN
// field is bits 5..4 of byte 1. Rewriting an IPv4 header updates its header
// checksum incrementally with RFC 1624's equation 3,
// HC' = ~(~HC + ~m + m'), which never gives 0x0000 where a full
// recomputation gives 0xFFFF (the flaw of RFC 1141's form). A header whose
// checksum was wrong before stays wrong by the same amount: nothing here
// verifies or repairs a received checksum.
//
// Marking CE on a RoCEv2 frame leaves its ICRC valid: the ICRC replaces
// the TOS or Traffic Class byte and the IPv4 header checksum by ones before
// it is computed (IBTA Annex A17.4.2), so a switch may remark these fields
// without breaking it. MarkCE does what such a switch does: it marks CE
// only on ECN-capable packets, ECT(0) or ECT(1).
//
// Aliasing: every function works on the caller's bytes in place and keeps
// no reference to them.
//
// Allocation contract: nothing in this package allocates, neither on
// success nor for a frame that is not IP or a value out of range (ErrNotIP
// and ErrRange are returned as they are). Only the errors for malformed
// headers (truncated, bad version, bad length) allocate, like the other
// decoders of this module. No function panics on short or malformed input.
//
// Errors wrap the sentinels of package ib (ib.ErrTruncated, which also
// matches io.ErrUnexpectedEOF, ib.ErrBadVersion, ib.ErrBadLength) or this
// package's ErrNotIP and ErrRange, so errors.Is matches them.
package ecn
