package capture

import "golang.org/x/sys/unix"

// adVLANTagPresent is the operand of a load that gives 1 when the
// kernel took the frame's outer VLAN tag off into its metadata, 0 when
// not: SKF_AD_OFF (-0x1000) plus SKF_AD_VLAN_TAG_PRESENT (48) of
// <linux/filter.h> (include/uapi/linux/filter.h), which
// golang.org/x/sys/unix does not define.
const adVLANTagPresent uint32 = 1<<32 - 0x1000 + 48

// The instruction classes, sizes, modes and operations RoCEFilter uses.
const (
	ldh     = unix.BPF_LD | unix.BPF_H | unix.BPF_ABS // A = halfword at [k]
	ldhX    = unix.BPF_LD | unix.BPF_H | unix.BPF_IND // A = halfword at [X+k]
	ldb     = unix.BPF_LD | unix.BPF_B | unix.BPF_ABS // A = byte at [k]
	ldbX    = unix.BPF_LD | unix.BPF_B | unix.BPF_IND // A = byte at [X+k]
	ldxImm  = unix.BPF_LDX | unix.BPF_IMM             // X = k
	jeq     = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jset    = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	andK    = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	lshK    = unix.BPF_ALU | unix.BPF_LSH | unix.BPF_K
	addX    = unix.BPF_ALU | unix.BPF_ADD | unix.BPF_X
	tax     = unix.BPF_MISC | unix.BPF_TAX
	retK    = unix.BPF_RET | unix.BPF_K
	keepAll = DefaultSnaplen // a kept frame's bytes, lowered to Snaplen by Open
)

// roceFilter is RoCEFilter's program. X holds the bytes of the VLAN
// tags found in the frame's data (0, 4, 8 or 12): the EtherType is then
// at 12+X, the network header at 14+X. The comments give each
// instruction's number, as jumps count from the next one, and tcpdump
// -d's spelling of it.
var roceFilter = []Instruction{
	// The tags in the data: up to three, or two when the kernel took
	// one off (every tag counts towards the three).
	{ldxImm, 0, 0, 0},             //  0: ldx #0            no tag in the data
	{ldh, 0, 0, 12},               //  1: ldh [12]          EtherType or TPID after the MACs
	{jeq, 2, 0, 0x8100},           //  2: jeq #0x8100 5 3   802.1Q
	{jeq, 1, 0, 0x88a8},           //  3: jeq #0x88a8 5 4   802.1ad
	{jeq, 0, 14, 0x9100},          //  4: jeq #0x9100 5 19  the older QinQ TPID; else: no tag
	{ldxImm, 0, 0, 4},             //  5: ldx #4            one tag
	{ldh, 0, 0, 16},               //  6: ldh [16]
	{jeq, 2, 0, 0x8100},           //  7: jeq #0x8100 10 8
	{jeq, 1, 0, 0x88a8},           //  8: jeq #0x88a8 10 9
	{jeq, 0, 9, 0x9100},           //  9: jeq #0x9100 10 19
	{ldxImm, 0, 0, 8},             // 10: ldx #8            two tags
	{ldh, 0, 0, 20},               // 11: ldh [20]
	{jeq, 2, 0, 0x8100},           // 12: jeq #0x8100 15 13
	{jeq, 1, 0, 0x88a8},           // 13: jeq #0x88a8 15 14
	{jeq, 0, 4, 0x9100},           // 14: jeq #0x9100 15 19
	{ldb, 0, 0, adVLANTagPresent}, // 15: ldb [vlanp]   a third tag in the data:
	{jeq, 0, 23, 0},               // 16: jeq #0 17 40      with the kernel's, four: refused
	{ldxImm, 0, 0, 12},            // 17: ldx #12           three tags
	{ldh, 0, 0, 24},               // 18: ldh [24]

	// A holds the EtherType at 12+X.
	{jeq, 19, 0, 0x8915},  // 19: jeq #0x8915 39 20 RoCEv1
	{jeq, 18, 0, 0x8808},  // 20: jeq #0x8808 39 21 MAC Control: PAUSE, PFC
	{jeq, 17, 0, 0x88cc},  // 21: jeq #0x88cc 39 22 LLDP
	{jeq, 1, 0, 0x0800},   // 22: jeq #0x800 24 23  IPv4
	{jeq, 11, 16, 0x86dd}, // 23: jeq #0x86dd 35 40 IPv6; else refused

	// IPv4 at 14+X.
	{ldbX, 0, 0, 23},      // 24: ldb [x + 23]      protocol
	{jeq, 0, 14, 17},      // 25: jeq #0x11 26 40   UDP
	{ldhX, 0, 0, 20},      // 26: ldh [x + 20]      flags and fragment offset
	{jset, 12, 0, 0x3fff}, // 27: jset #0x3fff 40 28 MF or an offset: a fragment
	{ldbX, 0, 0, 14},      // 28: ldb [x + 14]      version and IHL
	{andK, 0, 0, 0xf},     // 29: and #0xf
	{lshK, 0, 0, 2},       // 30: lsh #2            the header's length
	{addX, 0, 0, 0},       // 31: add x
	{tax, 0, 0, 0},        // 32: tax               X: the tags and the IPv4 header
	{ldhX, 0, 0, 16},      // 33: ldh [x + 16]      UDP destination port
	{jeq, 4, 5, 4791},     // 34: jeq #0x12b7 39 40

	// IPv6 at 14+X.
	{ldbX, 0, 0, 20},  // 35: ldb [x + 20]      next header
	{jeq, 0, 3, 17},   // 36: jeq #0x11 37 40   UDP
	{ldhX, 0, 0, 56},  // 37: ldh [x + 56]      UDP destination port
	{jeq, 0, 1, 4791}, // 38: jeq #0x12b7 39 40

	{retK, 0, 0, keepAll}, // 39: ret #262144       kept
	{retK, 0, 0, 0},       // 40: ret #0            refused
}
