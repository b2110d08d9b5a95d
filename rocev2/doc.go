// Package rocev2 is RoCEv2: InfiniBand transport packets carried in UDP
// datagrams to port 4791 over IPv4 or IPv6 (IBTA Vol 1 Annex A17).
//
// Importing it registers UDP destination port 4791 with gopacket, so that
// gopacket.NewPacket decodes Ethernet, [802.1Q,] IPv4 or IPv6, UDP, then
// the ib layers: BTH, the extended headers, the payload. A datagram whose
// source port is 4791 but whose destination port is not is not RoCEv2
// and stays a plain UDP payload; in a DecodingLayerParser use this
// package's UDP in place of layers.UDP to get the same rule.
//
// The package also maps a GRH onto the IP and UDP headers and back (the
// mapping RoCEv2 defines: traffic class to DSCP and ECN, hop limit to
// TTL, GIDs to addresses with IPv4-mapped GIDs ::ffff:a.b.c.d for IPv4),
// derives the UDP source port from the flow label, and converts whole
// RoCEv1 frames to RoCEv2 and back with a fresh ICRC.
//
// Nothing here allocates unless it says so; byte slices handed back alias
// the input.
package rocev2
