// Package rocev2 is RoCEv2: InfiniBand transport packets carried in UDP
// datagrams to port 4791 over IPv4 or IPv6 (IBTA Vol 1 Annex A17).
//
// RoCEv2 is keyed on the destination port alone: a datagram whose source
// port is 4791 but whose destination port is not is not RoCEv2. The
// gopacket layers (package googlelayers, for github.com/google/gopacket)
// register the port and keep that rule.
//
// The package maps a GRH onto the IP and UDP headers and back (the
// mapping RoCEv2 defines: traffic class to DSCP and ECN, hop limit to
// TTL, GIDs to addresses with IPv4-mapped GIDs ::ffff:a.b.c.d for IPv4),
// derives the UDP source port from the flow label, and converts whole
// RoCEv1 frames to RoCEv2 and back with a fresh ICRC.
//
// Nothing here allocates unless it says so; byte slices handed back alias
// the input.
package rocev2
