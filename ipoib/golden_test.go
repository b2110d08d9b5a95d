package ipoib_test

import (
	"testing"

	"github.com/roce-go/roce/internal/testkit/corpus"
)

// Golden IPoIB packets: native InfiniBand packets of the ERF capture
// testdata/captures/ib_native_erf_dag_smp_ipoib_cm.pcap (frame numbers as
// tshark counts them), from the LRH to the VCRC, ERF header removed.
var (
	// Frame 5: UD SEND Only to the broadcast group, IPoIB ARP request
	// "who has 10.0.0.58, tell 10.0.1.34".
	goldenUDARP = corpus.Spec(`
		0003 c000 0021 0004                 LRH: VL 0 LVer 0, SL 0 LNH 3 (GRH), DLID 0xc000, PktLen 33 words, SLID 4
		60000000 0054 1b 00                 GRH: IPVer 6, TClass 0, FlowLabel 0, PayLen 84, NxtHdr 0x1b, HopLmt 0
		fe800000000000000002c9020024f636    GRH SGID
		ff12401bffff000000000000ffffffff    GRH DGID (IPoIB broadcast group)
		64 40 ffff 00ffffff 000020af        BTH: UD SEND Only, M, P_Key 0xffff, DestQP 0xffffff, PSN 8367
		00000b1b 00000405                   DETH: Q_Key 0xb1b, SrcQP 0x405
		0806 0000                           IPoIB: Type ARP, Reserved 0
		0020 0800 14 04 0001                ARP: HW type 32, proto IPv4, HW size 20, proto size 4, request
		80000405 fe800000000000000002c9020024f636   sender HW: flags 0x80 (connected mode), QPN 0x405, GID
		0a000122                            sender IP 10.0.1.34
		00000000 00000000000000000000000000000000   target HW: unknown
		0a00003a                            target IP 10.0.0.58
		bd6bd6a8 8883                       ICRC, VCRC`)
	// Frame 6: UD SEND Only to QP 0x405 (no GRH), IPoIB ARP reply
	// "10.0.0.58 is at QPN 0x404, GID fe80::2:c902:20:b4dd".
	goldenUDARPReply = corpus.Spec(`
		0002 0004 0017 0001                 LRH: LNH 2 (no GRH), DLID 4, PktLen 23 words, SLID 1
		64 40 ffff 00000405 000d43bc        BTH: UD SEND Only, M, DestQP 0x405, PSN 869308
		00000b1b 00000404                   DETH: Q_Key 0xb1b, SrcQP 0x404
		0806 0000                           IPoIB: ARP
		0020 0800 14 04 0002                ARP reply
		80000404 fe800000000000000002c9020020b4dd   sender HW
		0a00003a                            sender IP 10.0.0.58
		80000405 fe800000000000000002c9020024f636   target HW
		0a000122                            target IP 10.0.1.34
		06e87bdb 685c                       ICRC, VCRC`)
	// Frame 10: RC SEND Only (IPoIB connected mode), IPv4 ICMP echo
	// request 10.0.1.34 > 10.0.0.58.
	goldenRCIPv4 = corpus.Spec(`
		0002 0001 001c 0004                 LRH: LNH 2, DLID 1, PktLen 28 words, SLID 4
		04 40 ffff 00fc0407 80d40a55        BTH: RC SEND Only, M, DestQP 0xfc0407, A, PSN 13896277
		0800 0000                           IPoIB: Type IPv4, Reserved 0
		45000054 00004000 4001254e 0a000122 0a00003a   IPv4: ICMP, 10.0.1.34 > 10.0.0.58
		08008576 17020001                   ICMP echo request id 0x1702 seq 1
		f7412b48000000007229080000000000101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637
		0acca5df 24a8                       ICRC, VCRC`)
	// Frame 26: UD SEND Only to a multicast group, IPoIB IPv6 neighbor
	// solicitation.
	goldenUDIPv6 = corpus.Spec(`
		0003 c007 0029 0004                 LRH: LNH 3, DLID 0xc007, PktLen 41 words, SLID 4
		60000000 0074 1b 00                 GRH: PayLen 116, NxtHdr 0x1b
		fe800000000000000002c9020024f636    GRH SGID
		ff12601bffff000000000001ff001895    GRH DGID (solicited-node group)
		64 40 ffff 00ffffff 00002291        BTH: UD SEND Only, DestQP 0xffffff, PSN 8849
		00000b1b 00000405                   DETH: Q_Key 0xb1b, SrcQP 0x405
		86dd 0000                           IPoIB: Type IPv6
		60000000 0030 3a ff                 IPv6: PayLen 48, ICMPv6, HopLmt 255
		fe800000000000000202c9020024f636    IPv6 src
		ff0200000000000000000001ff001895    IPv6 dst
		87007d1500000000fe800000000000000202c903000018950103000080000405fe800000000000000002c9020024f636
		eeebefb1 a375                       ICRC, VCRC`)
)

// ibBody returns what follows the transport headers of a golden packet:
// LRH, GRH when LNH is 3, BTH, DETH for UD, up to the ICRC and VCRC.
func ibBody(t testing.TB, pkt []byte) []byte {
	off := 8
	if pkt[1]&3 == 3 {
		off += 40
	}
	op := pkt[off]
	off += 12
	if op >= 0x60 {
		off += 8
	}
	return pkt[off : len(pkt)-6]
}

// erfPackets returns the native InfiniBand packets of the ERF capture:
// each record without its 16-byte ERF header, up to the wire length.
func erfPackets(t testing.TB) [][]byte {
	var out [][]byte
	for _, rec := range corpus.Capture(t, "ib_native_erf_dag_smp_ipoib_cm.pcap") {
		wlen := int(rec[14])<<8 | int(rec[15])
		out = append(out, rec[16:16+wlen])
	}
	return out
}

// Golden link type 242 records, as tshark 4.0 reads them (see
// docs/wire-format.md, section 12), carrying the ARP request of frame 5
// and the IPv4 packet of frame 10.
var (
	// A received packet: the first word is not zero, the 40 bytes are a
	// GRH with the sender's QP.
	goldenLinkReceived = corpus.Spec(`
		60000000                            IPVer 6, TClass 0, FlowLabel 0
		00 000405                           reserved, source QPN 0x405
		fe800000000000000002c9020024f636    source GID
		ff12401bffff000000000000ffffffff    destination GID (IPoIB broadcast group)
		0806 0000                           IPoIB: Type ARP, Reserved 0
		0020 0800 14 04 0001                ARP request: HW type 32, IPv4, sizes 20 and 4
		80000405 fe800000000000000002c9020024f636   sender HW
		0a000122                            sender IP 10.0.1.34
		00000000 00000000000000000000000000000000   target HW
		0a00003a                            target IP 10.0.0.58`)
	// A sent packet: the first word is zero, the last 20 bytes are the
	// destination's hardware address.
	goldenLinkSent = corpus.Spec(`
		00000000                            first word zero: a sent packet
		00000000000000000000000000000000    bytes 4-19, not shown
		80 fc0407                           destination: flags 0x80 (connected mode), QPN 0xfc0407
		fe800000000000000002c9020020b4dd    destination GID
		0800 0000                           IPoIB: Type IPv4, Reserved 0
		45000054 00004000 4001254e 0a000122 0a00003a   IPv4: ICMP, 10.0.1.34 > 10.0.0.58
		08008576 17020001                   ICMP echo request id 0x1702 seq 1
		f7412b48000000007229080000000000101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637`)
)
