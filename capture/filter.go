package capture

// Instruction is one instruction of a classic BPF program, laid out as
// Linux's struct sock_filter and as tcpdump -dd prints them:
// { 0x28, 0, 0, 0x0000000c } is Instruction{0x28, 0, 0, 0xc}, "ldh [12]".
type Instruction struct {
	Code   uint16 // class, size, mode and operation (BPF_LD|BPF_H|BPF_ABS, ...)
	Jt, Jf uint8  // a jump's offsets when true and when false, from the next instruction
	K      uint32 // the operand
}

// MaxVLANs is the most VLAN tags RoCEFilter looks behind, the tag the
// kernel took off (see RoCEFilter) counted: 8, the most the decoders of
// this module read (roce.MaxVLANs, which this package, below the root
// package, cannot import; a test checks that the two are equal). A
// frame with more tags than MaxVLANs is kept whatever they hide, as the
// decoders report it malformed (ErrUnsupported): someone looking into a
// stack of tags sees the frame and why it was not read, where dropping
// it would hide it.
const MaxVLANs = 8

// RoCEFilter returns a new copy of a classic BPF program for
// Options.Filter that lets through the frames a RoCE tool reads and no
// others:
//
//   - RoCEv1: EtherType 0x8915;
//   - RoCEv2: UDP to port 4791 over IPv4 (not a fragment) or IPv6 (UDP
//     right after the fixed header);
//   - 802.3 MAC Control (PAUSE and PFC): EtherType 0x8808;
//   - LLDP (where DCBX rides): EtherType 0x88cc;
//
// each untagged or behind up to MaxVLANs (8) VLAN tags of TPID 0x8100,
// 0x88a8 or 0x9100 in any order, counting the outer tag the kernel may
// have taken off the frame into its metadata (VLAN offload: the program
// reads it through the ancillary load SKF_AD_VLAN_TAG_PRESENT, as
// libpcap's "vlan" does); and any frame behind more than MaxVLANs tags,
// which the decoders report malformed. It keeps a frame whole (at most
// Snaplen bytes). Its verdicts are those of the tcpdump expression
//
//	R or (vlan and (R or (vlan and (R or (vlan and (R or (vlan and (R or (vlan and (R or (vlan and (R or (vlan and (R or (vlan and (R or vlan))))))))))))))))
//
// (R untagged and after each of up to MaxVLANs tags, libpcap's first
// "vlan" taking the kernel's tag, then a ninth "vlan": a tag too many)
// where R is
//
//	ether proto 0x8915 or ether proto 0x8808 or ether proto 0x88cc or
//	(ip and ip[6:2] & 0x3fff = 0 and udp dst port 4791) or (ip6 and udp dst port 4791)
//
// which the tests check frame by frame on a live link. The program is
// written with labels and assembled, its walk through the tags unrolled
// up to MaxVLANs. On systems other than Linux it returns nil.
func RoCEFilter() []Instruction {
	return append([]Instruction(nil), roceFilter...)
}
