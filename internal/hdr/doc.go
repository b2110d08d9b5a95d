// Package hdr is the one definition of the Ethernet, VLAN, IPv4, IPv6 and
// UDP header layouts the module reads and writes around RoCE: typed views
// over byte slices with named offsets, in the manner of gVisor's
// pkg/tcpip/header, the Ethertypes and ports, and the Internet checksum.
//
// A view is a byte slice that starts at the header's first byte. Callers
// check the length once (against the *Len constants) before making the
// view; the accessors then read without further checks of their own
// beyond Go's bounds checks. Nothing here allocates.
package hdr
