package capture

import (
	"strconv"

	"golang.org/x/sys/unix"
)

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

// roceFilter is RoCEFilter's program, assembled once.
var roceFilter = mustAssemble(roceProgram())

// tpids are the TPIDs of the VLAN tags the program walks, as the
// decoder's and libpcap's "vlan": 802.1Q, 802.1ad and the older QinQ
// TPID.
var tpids = [...]uint32{0x8100, 0x88a8, 0x9100}

// roceProgram writes RoCEFilter's program. It has three parts.
//
// The tag walk: X holds the bytes of the VLAN tags found in the frame's
// data so far, A what follows them. For i from 0 to MaxVLANs-1, step
// tagi is
//
//	tagi:  ldx #4i                      X: i tags in the data
//	       ldh [12+4i]                  the EtherType or TPID after them
//	       jeq #0x8100 tagi+1           802.1Q
//	       jeq #0x88a8 tagi+1           802.1ad
//	       jeq #0x9100 tagi+1 ethertype the older QinQ TPID; else no more tags
//
// and the last, with MaxVLANs (8) tags in the data, is
//
//	tag8:  ldb [vlanp]                  and one the kernel took off?
//	       jeq #0 next keep             then nine: too many, kept
//	       ldx #32
//	       ldh [44]
//	       jeq #0x8100 keep             a ninth tag in the data: kept
//	       jeq #0x88a8 keep
//	       jeq #0x9100 keep ethertype
//
// so that every tag, the kernel's included, counts towards MaxVLANs,
// and a frame with more is kept for a decoder to report it malformed.
// The walk is unrolled (classic BPF jumps forward only): 5 instructions
// a tag, its longest jump (from tag0 to ethertype) 5*MaxVLANs+2, which
// the assembler would refuse past 255.
//
// The network layer, at ethertype with A the EtherType at 12+X and the
// network header at 14+X: RoCEv1, MAC Control and LLDP are kept, IPv4
// and IPv6 go on to the UDP test, anything else is refused.
//
// UDP: for IPv4, protocol 17, neither MF nor a fragment offset (a
// fragment holds part of a datagram, only the first its UDP header),
// then the destination port after the header's IHL words; for IPv6, UDP
// as the next header after the fixed header, then its destination port.
// Port 4791 is kept, the rest refused.
func roceProgram() *asm {
	var a asm
	tag := func(i int) string { return "tag" + strconv.Itoa(i) }
	for i := 0; i <= MaxVLANs; i++ {
		a.label(tag(i))
		next := tag(i + 1)
		if i == MaxVLANs {
			a.op(ldb, adVLANTagPresent) // MaxVLANs tags in the data, and the kernel's?
			a.jump(jeq, 0, "", "keep")  // then more than MaxVLANs: kept, malformed
			next = "keep"               // a tag after MaxVLANs: kept, malformed
		}
		a.op(ldxImm, uint32(4*i))
		a.op(ldh, uint32(12+4*i))
		for k, tp := range tpids {
			jf := ""
			if k == len(tpids)-1 {
				jf = "ethertype"
			}
			a.jump(jeq, tp, next, jf)
		}
	}

	a.label("ethertype")
	a.jump(jeq, 0x8915, "keep", "") // RoCEv1
	a.jump(jeq, 0x8808, "keep", "") // MAC Control: PAUSE, PFC
	a.jump(jeq, 0x88cc, "keep", "") // LLDP
	a.jump(jeq, 0x0800, "ipv4", "")
	a.jump(jeq, 0x86dd, "ipv6", "refuse")

	a.label("ipv4") // at 14+X
	a.op(ldbX, 14+9)
	a.jump(jeq, 17, "", "refuse") // protocol: UDP
	a.op(ldhX, 14+6)
	a.jump(jset, 0x3fff, "refuse", "") // flags and fragment offset: MF or an offset is a fragment
	a.op(ldbX, 14)                     // version and IHL
	a.op(andK, 0xf)
	a.op(lshK, 2) // the header's length
	a.op(addX, 0)
	a.op(tax, 0)     // X: the tags and the IPv4 header
	a.op(ldhX, 14+2) // UDP destination port
	a.jump(jeq, 4791, "keep", "refuse")

	a.label("ipv6") // at 14+X
	a.op(ldbX, 14+6)
	a.jump(jeq, 17, "", "refuse") // next header: UDP
	a.op(ldhX, 14+40+2)           // UDP destination port
	a.jump(jeq, 4791, "keep", "refuse")

	a.label("keep")
	a.op(retK, keepAll)
	a.label("refuse")
	a.op(retK, 0)
	return &a
}
