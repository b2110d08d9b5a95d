// Package ecmp models how equal-cost multi-path (ECMP) routing and link
// aggregation (LAG) spread RoCEv2 flows over parallel paths.
//
// A switch picks the path of a packet by hashing fields of its headers,
// most often the 5-tuple (source and destination IP address, protocol,
// source and destination port), and taking the hash modulo the number of
// paths; every packet of a 5-tuple takes the same path, so one flow never
// spreads. RoCEv2 sends every packet to UDP port 4791 (IBTA Vol 1, Annex
// A17), so the UDP source port is the only field that tells the queue
// pairs between two hosts apart: Linux derives it from the flow label
// (rocev2.FlowLabelToUDPSrcPort, rdma_get_udp_sport's
// 0xC000 | ((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14))), and the label from
// the two QP numbers (rocev2.CalcFlowLabel) when the application sets
// none. A fixed source port for every QP puts all of a host pair's
// traffic on one path.
//
// Hashes lists the hash functions of the what-if: CRC-16-CCITT, CRC-32
// and an XOR fold. Each hashes a Tuple as Key lays it out (addresses,
// protocol, ports, in header order and network byte order). Real
// switches differ from this model: they seed their CRCs, select and
// order fields as configured (some add the ingress port or the VLAN),
// take some bits of the hash rather than a modulo, and resolve the path
// through a table of members; the model shows how much entropy the
// 5-tuples give, not which link a given switch picks.
//
// Entropy gives the Shannon entropy of how the QPs of a host pair share
// source ports, and Imbalance the max/mean ratio of bytes per path.
package ecmp
