// Package ecn will read and set the ECN codepoint (RFC 3168) and the DSCP
// of IPv4 and IPv6 headers in place, with the IPv4 header checksum updated
// incrementally (RFC 1624). Marking CE leaves a RoCE frame's ICRC valid,
// since the ICRC masks those bits.
//
// It is planned and not written yet: see the project's issue on the
// congestion and flow-control codecs.
package ecn
